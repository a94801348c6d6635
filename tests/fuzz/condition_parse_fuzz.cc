// libFuzzer target for ParseCondition (and CheckKeyConditionShape). Any input must parse or be
// rejected with a ValidationException naming the parameter, never crash, hang or grow without
// bound; a parsed tree printed back as text must parse again to the same tree.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/expr/parser.h"
#include "tests/fuzz/expr_fuzz_util.h"

using namespace partstore::expr;  // NOLINT

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto parsed = ParseCondition(text, ExpressionKind::kFilter);
  if (!parsed.ok()) {
    fuzz::CheckRejection(parsed.error(), ExpressionKind::kFilter);
    return 0;
  }
  (void)CheckKeyConditionShape(*parsed);
  const std::string printed = fuzz::Print(*parsed);
  if (printed.size() <= kMaxExpressionSize) {
    auto again = ParseCondition(printed, ExpressionKind::kFilter);
    fuzz::Check(again.ok());
    fuzz::Check(fuzz::Print(*again) == printed);
  }
  return 0;
}
