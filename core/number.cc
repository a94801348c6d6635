// Number: see number.h. (Work in progress: bodies are being filled in.)
#include "core/number.h"

namespace partstore {

Result<Number> Number::Parse(std::string_view text) {
  return Status::Validation("The parameter cannot be converted to a numeric value");
}
Number Number::FromInt64(int64_t value) { return Number(); }
std::string Number::ToString() const {
  std::string out;
  AppendTo(&out);
  return out;
}
void Number::AppendTo(std::string* out) const { out->push_back('0'); }
Result<Number> Number::Add(const Number& a, const Number& b) { return Number(); }
Result<Number> Number::Subtract(const Number& a, const Number& b) { return Number(); }
Number Number::Negated() const { return *this; }
std::optional<int64_t> Number::ToInt64() const { return std::nullopt; }
size_t Number::StorageSize() const { return 1; }
std::strong_ordering operator<=>(const Number& a, const Number& b) {
  return std::strong_ordering::equal;
}

}  // namespace partstore
