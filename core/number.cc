// Number: DynamoDB's N type. See number.h for the representation.
//
// Accepted text (the grammar of Java's BigDecimal, restricted to ASCII; each case and its source
// is in tests/core/number_test.cc):
//
//   number   = [ "+" | "-" ] mantissa [ exponent ]
//   mantissa = digits [ "." [ digits ] ] | "." digits
//   exponent = ( "e" | "E" ) [ "+" | "-" ] digits
//
// Live DynamoDB accepts "+3", "+0", "1e+5", ".5" and rejects " 1", "1 ", "0x10", "1e", "NaN",
// "Infinity" (Scylla's test_number.py; dynoxide#109; a live conformance suite). The exponent may
// have any number of digits: it is read saturating, so 1e99999999999 is an overflow as in
// DynamoDB, never an integer overflow here.
//
// Errors are checked in dynalite's order (checkNum): overflow, underflow, then the digit limit.
//
// Known divergences from DynamoDB:
//  - Empty text. DynamoDB's current validation layer (PutItem, UpdateItem, DeleteItem, GetItem,
//    BatchGetItem, Query) says "The parameter cannot be converted to a numeric value: " (colon
//    and space); its older layer (BatchWriteItem, TransactWriteItems, TransactGetItems, Scan) and
//    dynalite say it with no suffix. We return the latter for every caller.
//  - The older layer reads the exponent as a 32-bit int, so 1e2147483647 wraps to an underflow
//    there; we report an overflow, as the current layer does.
//  - Non-ASCII decimal digits (which BigDecimal accepts) are rejected; DynamoDB is unverified.
//  - Zero with an out-of-range nominal exponent (0e126) follows a model of DynamoDB's quirk; the
//    model's predictions beyond the observed cases are unverified (see Parse).
//  - For text that is both out of range and over 38 digits, the order is dynalite's, unverified
//    live. An arithmetic result below 1E-130 reports the parse-time underflow message, inferred.
#include "partstore/number.h"

#include <algorithm>
#include <array>
#include <boost/multiprecision/cpp_int.hpp>
#include <limits>
#include <utility>

namespace partstore {
namespace {

using u128 = unsigned __int128;

constexpr std::string_view kNotNumeric = "The parameter cannot be converted to a numeric value";
constexpr std::string_view kTooManyDigits =
    "Attempting to store more than 38 significant digits in a Number";
constexpr std::string_view kOverflow =
    "Number overflow. Attempting to store a number with magnitude larger than supported range";
constexpr std::string_view kUnderflow =
    "Number underflow. Attempting to store a number with magnitude smaller than supported range";

// Saturation bound for the literal exponent. Any realizable text (whose length is far below
// 10^17) with an exponent beyond this is out of range either way, and adding a text position to
// it cannot overflow int64.
constexpr int64_t kExponentCap = 100'000'000'000'000'000;

constexpr std::array<u128, 40> MakePow10() {
  std::array<u128, 40> p{};
  p[0] = 1;
  for (size_t i = 1; i < p.size(); ++i) p[i] = p[i - 1] * 10;
  return p;
}
// kPow10[i] = 10^i for i in [0, 39]; 10^39 < 2^128.
constexpr std::array<u128, 40> kPow10 = MakePow10();

constexpr u128 kMaxU64 = std::numeric_limits<uint64_t>::max();

[[gnu::cold, gnu::noinline]] Status NotNumeric(std::string_view text) {
  if (text.empty()) return Status::Validation(std::string(kNotNumeric));
  std::string message;
  message.reserve(kNotNumeric.size() + 2 + text.size());
  message.append(kNotNumeric).append(": ").append(text);
  return Status::Validation(std::move(message));
}

[[gnu::cold, gnu::noinline]] Status Error(std::string_view message) {
  return Status::Validation(std::string(message));
}

// Number of decimal digits of v (1 for v == 0). REQUIRES: v < 10^39.
int CountDigits(u128 v) {
  if (v <= kMaxU64) {
    uint64_t x = static_cast<uint64_t>(v);
    int n = 1;
    while (x >= 10) {
      x /= 10;
      ++n;
    }
    return n;
  }
  // v >= 2^64 > 10^19, so at least 20 digits.
  int n = 20;
  while (n < 39 && v >= kPow10[n]) ++n;
  return n;
}

// Removes trailing decimal zeros from v (REQUIRES: v != 0), adding their count to *exponent.
void StripTrailingZeros(u128* v, int64_t* exponent) {
  while (*v > kMaxU64) {
    if (*v % 10 != 0) return;
    *v /= 10;
    ++*exponent;
  }
  uint64_t x = static_cast<uint64_t>(*v);
  while (x % 10 == 0) {
    x /= 10;
    ++*exponent;
  }
  *v = x;
}

// Writes the decimal digits of v (no leading zeros; "0" for 0) ending just before `end`, and
// returns the first digit's position. REQUIRES: v < 10^38, 38 bytes available before `end`.
char* WriteDigits(u128 v, char* end) {
  char* p = end;
  if (v > kMaxU64) {
    constexpr uint64_t k1e19 = 10'000'000'000'000'000'000ull;
    uint64_t low = static_cast<uint64_t>(v % k1e19);
    v /= k1e19;
    for (int i = 0; i < 19; ++i) {
      *--p = static_cast<char>('0' + low % 10);
      low /= 10;
    }
  }
  uint64_t x = static_cast<uint64_t>(v);
  do {
    *--p = static_cast<char>('0' + x % 10);
    x /= 10;
  } while (x != 0);
  return p;
}

// Fixed-width integer for the rare additions whose operands, aligned to a common exponent, do
// not fit in 38 digits. The widest aligned value spans 10^125 down to 10^-167 (293 digits, under
// 980 bits), so 1024 bits never wraps and never allocates.
using Wide = boost::multiprecision::number<boost::multiprecision::cpp_int_backend<
    1024, 1024, boost::multiprecision::unsigned_magnitude, boost::multiprecision::unchecked, void>>;

// A value being assembled: sign * coefficient * 10^exponent.
struct Parts {
  bool negative;
  u128 coefficient;  // != 0, < 10^39
  int64_t exponent;
  int digits;  // set by CheckArithmetic
};

// Normalizes an arithmetic result and checks it against DynamoDB's limits. DynamoDB reports a
// result that would need more than 38 digits (1e50 + 1) as an overflow, not with the parse-time
// "38 significant digits" message (observed against live DynamoDB by Scylla's
// test/alternator/test_number.py, test_update_expression_plus_imprecise).
Status CheckArithmetic(Parts* parts) {
  StripTrailingZeros(&parts->coefficient, &parts->exponent);
  parts->digits = CountDigits(parts->coefficient);
  const int64_t adjusted = parts->exponent + parts->digits - 1;
  if (adjusted > Number::kMaxAdjustedExponent) return Error(kOverflow);
  if (adjusted < Number::kMinAdjustedExponent) return Error(kUnderflow);
  if (parts->digits > Number::kMaxDigits) return Error(kOverflow);
  return Status();
}

// a + b exactly, for operands that do not both fit in 38 digits once aligned to a common exponent
// (e.g. 1e40 - 9.9e39, where only the result is short). Never wraps (see Wide). Their exponents
// differ (equal exponents always fit), so only one operand has a digit at the lower exponent and
// the sum is never zero; a zero is still handled, so that no input can make the loop below spin.
Status WideAdd(const Number& a, const Number& b, Parts* out) {
  const bool a_negative = a.is_negative();
  const bool b_negative = b.is_negative();
  const int e = std::min(a.exponent(), b.exponent());
  Wide x = Wide(a.coefficient()) * boost::multiprecision::pow(Wide(10), a.exponent() - e);
  Wide y = Wide(b.coefficient()) * boost::multiprecision::pow(Wide(10), b.exponent() - e);
  Wide r;
  bool negative;
  if (a_negative == b_negative) {
    r = x + y;
    negative = a_negative;
  } else if (x >= y) {
    r = x - y;
    negative = a_negative;
  } else {
    r = y - x;
    negative = b_negative;
  }
  if (r == 0) {
    *out = Parts{false, 0, 0, 0};
    return Status();
  }
  int64_t exponent = e;
  while (r % 10 == 0) {
    r /= 10;
    ++exponent;
  }
  int digits = 0;
  for (Wide t = r; t != 0; t /= 10) ++digits;
  const int64_t adjusted = exponent + digits - 1;
  if (adjusted > Number::kMaxAdjustedExponent) return Error(kOverflow);
  if (adjusted < Number::kMinAdjustedExponent) return Error(kUnderflow);
  if (digits > Number::kMaxDigits) return Error(kOverflow);
  const uint64_t low = static_cast<uint64_t>(r & Wide(kMaxU64));
  const uint64_t high = static_cast<uint64_t>(r >> 64);
  *out = Parts{negative, (static_cast<u128>(high) << 64) | low, exponent, digits};
  return Status();
}

}  // namespace

Result<Number> Number::Parse(std::string_view text) {
  const char* p = text.data();
  const char* const end = p + text.size();
  if (p == end) return NotNumeric(text);

  bool negative = false;
  if (*p == '-' || *p == '+') {
    negative = *p == '-';
    ++p;
  }

  // Mantissa. Digits are indexed by `pos` across the integer and fraction parts, ignoring the
  // point; the digit at index i has power int_len - 1 - i. This pass only locates the significant
  // digits; they are accumulated once the text is known to be valid and in range.
  int64_t pos = 0;
  int64_t int_len = -1;  // Digits before the point; -1 until the point (or the end) is seen.
  int64_t first = -1;    // Index of the first non-zero digit.
  int64_t last = -1;     // Index of the last non-zero digit.
  const char* first_char = nullptr;
  const char* last_char = nullptr;
  for (; p != end; ++p) {
    const unsigned d = static_cast<unsigned char>(*p) - '0';
    if (d <= 9) {
      if (d != 0) {
        if (first < 0) {
          first = pos;
          first_char = p;
        }
        last = pos;
        last_char = p;
      }
      ++pos;
    } else if (*p == '.' && int_len < 0) {
      int_len = pos;
    } else {
      break;
    }
  }
  if (pos == 0) return NotNumeric(text);  // No digits: "", "-", ".", ".e5", "e5", "x".
  const int64_t frac_len = int_len < 0 ? 0 : pos - int_len;
  if (int_len < 0) int_len = pos;

  // Exponent, saturating at kExponentCap.
  int64_t exponent = 0;
  if (p != end && (*p == 'e' || *p == 'E')) {
    ++p;
    bool exponent_negative = false;
    if (p != end && (*p == '-' || *p == '+')) {
      exponent_negative = *p == '-';
      ++p;
    }
    const char* const exponent_start = p;
    for (; p != end; ++p) {
      const unsigned d = static_cast<unsigned char>(*p) - '0';
      if (d > 9) break;
      exponent = std::min<int64_t>(exponent * 10 + d, kExponentCap);
    }
    if (p == exponent_start) return NotNumeric(text);
    if (exponent_negative) exponent = -exponent;
  }
  if (p != end) return NotNumeric(text);

  if (first < 0) {
    // Zero. Live DynamoDB rejects 0e126, 0e-131 and 0e1000 but accepts 0.0e126 and 0e125
    // (Scylla's test_number.py, test_number_magnitude_not_allowed_zero; scylladb#26079). All of
    // these fit one model: it range-checks the adjusted exponent of the text as Java's BigDecimal
    // reads it, and a BigDecimal zero has precision 1, so its adjusted exponent is the literal
    // exponent minus the number of digits after the point. We reproduce that model. Cases it
    // predicts that were never observed live (e.g. 0.0e-130 is an underflow) are inferences.
    const int64_t zero_adjusted = exponent - frac_len;
    if (zero_adjusted > kMaxAdjustedExponent) return Error(kOverflow);
    if (zero_adjusted < kMinAdjustedExponent) return Error(kUnderflow);
    return Number();
  }

  const int64_t adjusted = int_len - 1 - first + exponent;
  if (adjusted > kMaxAdjustedExponent) return Error(kOverflow);
  if (adjusted < kMinAdjustedExponent) return Error(kUnderflow);
  const int64_t digits = last - first + 1;
  if (digits > kMaxDigits) return Error(kTooManyDigits);

  // At most 38 digits (and possibly the point) from first_char to last_char: accumulate them in
  // 64-bit chunks of up to 19 digits, which is much cheaper than a 128-bit multiply per digit.
  u128 coefficient = 0;
  uint64_t chunk = 0;
  int chunk_len = 0;
  for (const char* q = first_char; q <= last_char; ++q) {
    if (*q == '.') continue;
    chunk = chunk * 10 + static_cast<unsigned>(*q - '0');
    if (++chunk_len == 19) {
      coefficient = coefficient * kPow10[19] + chunk;
      chunk = 0;
      chunk_len = 0;
    }
  }
  coefficient = coefficient * kPow10[chunk_len] + chunk;

  Number n;
  n.coefficient_ = coefficient;
  n.exponent_ = static_cast<int16_t>(adjusted - (digits - 1));
  n.digits_ = static_cast<uint8_t>(digits);
  n.negative_ = negative;
  return n;
}

Number Number::FromInt64(int64_t value) {
  Number n;
  if (value == 0) return n;
  const uint64_t magnitude = value < 0 ? 0 - static_cast<uint64_t>(value) : value;
  u128 coefficient = magnitude;
  int64_t exponent = 0;
  StripTrailingZeros(&coefficient, &exponent);
  n.coefficient_ = coefficient;
  n.exponent_ = static_cast<int16_t>(exponent);
  n.digits_ = static_cast<uint8_t>(CountDigits(coefficient));
  n.negative_ = value < 0;
  return n;
}

std::string Number::ToString() const {
  std::string out;
  AppendTo(&out);
  return out;
}

void Number::AppendTo(std::string* out) const {
  if (is_zero()) {
    out->push_back('0');
    return;
  }
  char digits[40];
  char* const digits_end = digits + sizeof(digits);
  const char* const digits_begin = WriteDigits(coefficient_, digits_end);
  const size_t n = digits_end - digits_begin;
  const int adjusted = adjusted_exponent();
  // Three plain forms: ddd000 (integer), dd.ddd (point inside the digits), 0.000ddd (fraction).
  const size_t length = (negative_ ? 1 : 0) + (exponent_ >= 0  ? n + exponent_
                                               : adjusted >= 0 ? n + 1
                                                               : 2 + (-adjusted - 1) + n);
  out->reserve(out->size() + length);
  if (negative_) out->push_back('-');
  if (exponent_ >= 0) {
    out->append(digits_begin, n);
    out->append(static_cast<size_t>(exponent_), '0');
  } else if (adjusted >= 0) {
    const size_t int_digits = static_cast<size_t>(adjusted) + 1;
    out->append(digits_begin, int_digits);
    out->push_back('.');
    out->append(digits_begin + int_digits, n - int_digits);
  } else {
    out->append("0.");
    out->append(static_cast<size_t>(-adjusted - 1), '0');
    out->append(digits_begin, n);
  }
}

Result<Number> Number::Add(const Number& a, const Number& b) {
  if (b.is_zero()) return a;
  if (a.is_zero()) return b;
  const int e = std::min(a.exponent_, b.exponent_);
  const int shift_a = a.exponent_ - e;
  const int shift_b = b.exponent_ - e;
  Parts parts;
  if (a.digits_ + shift_a <= kMaxDigits && b.digits_ + shift_b <= kMaxDigits) {
    // Fast path: both aligned magnitudes are below 10^38, so their sum is below 2^128.
    const u128 x = a.coefficient_ * kPow10[shift_a];
    const u128 y = b.coefficient_ * kPow10[shift_b];
    if (a.negative_ == b.negative_) {
      parts = Parts{a.negative_, x + y, e, 0};
    } else if (x > y) {
      parts = Parts{a.negative_, x - y, e, 0};
    } else if (y > x) {
      parts = Parts{b.negative_, y - x, e, 0};
    } else {
      return Number();
    }
    PARTSTORE_RETURN_IF_ERROR(CheckArithmetic(&parts));
  } else {
    PARTSTORE_RETURN_IF_ERROR(WideAdd(a, b, &parts));
    if (parts.coefficient == 0) return Number();
  }
  Number n;
  n.coefficient_ = parts.coefficient;
  n.exponent_ = static_cast<int16_t>(parts.exponent);
  n.digits_ = static_cast<uint8_t>(parts.digits);
  n.negative_ = parts.negative;
  return n;
}

Result<Number> Number::Subtract(const Number& a, const Number& b) { return Add(a, b.Negated()); }

Number Number::Negated() const {
  Number n = *this;
  n.negative_ = !is_zero() && !negative_;
  return n;
}

std::optional<int64_t> Number::ToInt64() const {
  if (is_zero()) return 0;
  if (exponent_ < 0 || digits_ + exponent_ > 19) return std::nullopt;
  const u128 magnitude = coefficient_ * kPow10[exponent_];
  constexpr u128 kLimit = static_cast<u128>(1) << 63;  // |INT64_MIN|
  if (negative_) {
    if (magnitude > kLimit) return std::nullopt;
    return static_cast<int64_t>(0 - static_cast<uint64_t>(magnitude));
  }
  if (magnitude >= kLimit) return std::nullopt;
  return static_cast<int64_t>(magnitude);
}

// DynamoDB's N size rule, as reproduced by dynalite (db/index.js valSize, whose tests ran against
// live DynamoDB): zero is 1 byte; otherwise
//
//   1 (exponent byte) + number of base-100 digit pairs + 1 if negative,
//
// where the significant digits are grouped in pairs aligned to even powers of ten (10^1 and 10^0
// share a byte, as do 10^-1 and 10^-2). That is ceil(n / 2) pairs for n significant digits, plus
// one more when n is even and the leading digit's exponent is even (the leading digit then sits
// alone in its pair, e.g. 1.2 -> [1][20]). 12 -> 2, 1.2 -> 3, 123 -> 3, -12 -> 3, 0 -> 1.
size_t Number::StorageSize() const {
  if (is_zero()) return 1;
  const int n = digits_;
  const bool extra_pair = n % 2 == 0 && adjusted_exponent() % 2 == 0;
  return 1 + (n + 1) / 2 + (extra_pair ? 1 : 0) + (negative_ ? 1 : 0);
}

namespace {

// Compares |a| and |b|.
std::strong_ordering CompareMagnitude(const Number& a, const Number& b) {
  if (a.is_zero() || b.is_zero()) return !a.is_zero() <=> !b.is_zero();
  if (a.adjusted_exponent() != b.adjusted_exponent()) {
    return a.adjusted_exponent() <=> b.adjusted_exponent();
  }
  // Same leading power: compare the coefficients scaled to 38 digits (both < 10^38).
  const u128 x = a.coefficient() * kPow10[Number::kMaxDigits - a.digits()];
  const u128 y = b.coefficient() * kPow10[Number::kMaxDigits - b.digits()];
  return x <=> y;
}

}  // namespace

std::strong_ordering operator<=>(const Number& a, const Number& b) {
  if (a.is_negative() != b.is_negative()) {
    return a.is_negative() ? std::strong_ordering::less : std::strong_ordering::greater;
  }
  const std::strong_ordering magnitude = CompareMagnitude(a, b);
  return a.is_negative() ? 0 <=> magnitude : magnitude;
}

}  // namespace partstore
