// libFuzzer target for ParseUpdate. Any input must parse or be rejected with a
// ValidationException naming the parameter, never crash, hang or grow without bound; a parsed
// update printed back as text (one section per kind) must parse again to the same update.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/expr/parser.h"
#include "tests/fuzz/expr_fuzz_util.h"

using namespace partstore::expr;  // NOLINT

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto parsed = ParseUpdate(text);
  if (!parsed.ok()) {
    fuzz::CheckRejection(parsed.error(), ExpressionKind::kUpdate);
    return 0;
  }
  fuzz::Check(!parsed->actions.empty());
  const std::string printed = fuzz::Print(*parsed);
  if (printed.size() <= kMaxExpressionSize) {
    auto again = ParseUpdate(printed);
    fuzz::Check(again.ok());
    fuzz::Check(fuzz::Print(*again) == printed);
  }
  return 0;
}
