// libFuzzer target for Number::Parse. Any input must parse or fail with a ValidationException,
// never crash or hang; a parsed value must satisfy Number's invariants and survive a round trip
// through its canonical text. An input "a|b" whose halves both parse also checks comparison,
// Add and Subtract against exact big-integer arithmetic. Violations abort.
#include <algorithm>
#include <boost/multiprecision/cpp_int.hpp>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "partstore/number.h"

namespace {

using partstore::Code;
using partstore::Number;
using partstore::Result;

void Check(bool condition) {
  if (!condition) std::abort();
}

unsigned __int128 Pow10(int n) {
  unsigned __int128 p = 1;
  for (int i = 0; i < n; ++i) p *= 10;
  return p;
}

void CheckInvariants(const Number& n) {
  if (n.is_zero()) {
    Check(!n.is_negative() && n.exponent() == 0 && n.digits() == 0);
    Check(n == Number());
    return;
  }
  Check(n.digits() >= 1 && n.digits() <= Number::kMaxDigits);
  Check(n.coefficient() < Pow10(n.digits()) && n.coefficient() >= Pow10(n.digits() - 1));
  Check(n.coefficient() % 10 != 0);
  Check(n.adjusted_exponent() <= Number::kMaxAdjustedExponent);
  Check(n.adjusted_exponent() >= Number::kMinAdjustedExponent);
  Check(n.StorageSize() >= 2 && n.StorageSize() <= 22);
}

using boost::multiprecision::cpp_int;

// The exact signed value of n * 10^-exponent. REQUIRES: exponent <= n.exponent().
cpp_int Scaled(const Number& n, int exponent) {
  cpp_int v =
      cpp_int(n.coefficient()) *
      boost::multiprecision::pow(cpp_int(10), static_cast<unsigned>(n.exponent() - exponent));
  return n.is_negative() ? cpp_int(-v) : v;
}

// Checks a <=> b and a + b against exact arithmetic.
void CheckPair(const Number& a, const Number& b) {
  const int e = std::min(a.exponent(), b.exponent());
  const cpp_int x = Scaled(a, e);
  const cpp_int y = Scaled(b, e);
  Check((a <=> b) == (x < y   ? std::strong_ordering::less
                      : x > y ? std::strong_ordering::greater
                              : std::strong_ordering::equal));
  Check((a == b) == (x == y));
  for (bool subtract : {false, true}) {
    const cpp_int exact = subtract ? cpp_int(x - y) : cpp_int(x + y);
    Result<Number> r = subtract ? Number::Subtract(a, b) : Number::Add(a, b);
    if (r.ok()) {
      CheckInvariants(*r);
      if (r->is_zero()) {
        Check(exact == 0);
      } else {
        Check(r->exponent() >= e);  // No result has a digit below both operands' last digits.
        Check(Scaled(*r, e) == exact);
      }
    } else {
      // Only an exact result outside DynamoDB's limits may fail.
      Check(r.error().code() == Code::kValidation);
      Check(exact != 0);
      std::string digits = cpp_int(boost::multiprecision::abs(exact)).str();
      int exponent = e;
      while (digits.back() == '0') {
        digits.pop_back();
        ++exponent;
      }
      const int adjusted = exponent + static_cast<int>(digits.size()) - 1;
      const bool underflow = adjusted < Number::kMinAdjustedExponent;
      const bool overflow = adjusted > Number::kMaxAdjustedExponent ||
                            (!underflow && digits.size() > static_cast<size_t>(Number::kMaxDigits));
      Check(overflow || underflow);
      Check(r.error().message().starts_with(overflow ? "Number overflow." : "Number underflow."));
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (const size_t bar = text.find('|'); bar != std::string_view::npos) {
    Result<Number> a = Number::Parse(text.substr(0, bar));
    Result<Number> b = Number::Parse(text.substr(bar + 1));
    if (a.ok() && b.ok()) CheckPair(*a, *b);
  }
  Result<Number> parsed = Number::Parse(text);
  if (!parsed.ok()) {
    Check(parsed.error().code() == Code::kValidation);
    Check(!parsed.error().message().empty());
    return 0;
  }
  const Number& n = *parsed;
  CheckInvariants(n);

  // Canonical text: plain digits, re-parses to the identical representation, and is stable.
  const std::string canonical = n.ToString();
  Check(canonical.find_first_not_of("-.0123456789") == std::string::npos);
  Result<Number> again = Number::Parse(canonical);
  Check(again.ok());
  Check(*again == n);
  Check((*again <=> n) == 0);
  Check(again->ToString() == canonical);

  // Arithmetic identities that can never leave the range.
  Result<Number> zero = Number::Subtract(n, n);
  Check(zero.ok() && zero->is_zero());
  Result<Number> same = Number::Add(n, Number());
  Check(same.ok() && *same == n);
  Check(n.Negated().Negated() == n);
  Check(n.is_zero() || (n.Negated() <=> n) == (n.is_negative() ? std::strong_ordering::greater
                                                               : std::strong_ordering::less));

  // Doubling either succeeds with an exact, ordered result or fails as a ValidationException.
  Result<Number> twice = Number::Add(n, n);
  if (twice.ok()) {
    CheckInvariants(*twice);
    Check(n.is_zero() || (n.is_negative() ? *twice < n : *twice > n));
    Result<Number> back = Number::Subtract(*twice, n);
    Check(back.ok() && *back == n);
  } else {
    Check(twice.error().code() == Code::kValidation);
  }

  if (std::optional<int64_t> i = n.ToInt64()) Check(Number::FromInt64(*i) == n);
  return 0;
}
