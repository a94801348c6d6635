// libFuzzer target for ParseProjection. Any input must parse or be rejected with a
// ValidationException naming the parameter, never crash, hang or grow without bound; a parsed
// projection printed back as text must parse again to the same paths.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/expr/parser.h"
#include "tests/fuzz/expr_fuzz_util.h"

using namespace partstore::expr;  // NOLINT

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto parsed = ParseProjection(text);
  if (!parsed.ok()) {
    fuzz::CheckRejection(parsed.error(), ExpressionKind::kProjection);
    return 0;
  }
  fuzz::Check(!parsed->paths.empty());
  for (const Path& path : parsed->paths) {
    fuzz::Check(!path.elements.empty() && !path.elements[0].is_index());
    fuzz::Check(path.elements.size() <= static_cast<size_t>(kMaxPathDepth));
  }
  const std::string printed = fuzz::Print(*parsed);
  if (printed.size() <= kMaxExpressionSize) {
    auto again = ParseProjection(printed);
    fuzz::Check(again.ok());
    fuzz::Check(fuzz::Print(*again) == printed);
  }
  return 0;
}
