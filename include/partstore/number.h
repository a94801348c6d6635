// Number: DynamoDB's N type, an exact decimal.
//
// A value is sign * coefficient * 10^exponent with a 128-bit coefficient of at most 38 decimal
// digits and no trailing zeros (so every value has exactly one representation, and zero is
// coefficient 0, exponent 0, not negative). DynamoDB's range: zero, or 1E-130 <= |x| < 1E126.
// No floating point is used anywhere.
//
// Thread safety: a value type; const methods are thread-safe.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "partstore/status.h"

namespace partstore {

class Number {
 public:
  static constexpr int kMaxDigits = 38;
  // |x| < 10^kMaxAdjustedExponent+1, i.e. the leading digit's exponent is at most 125.
  static constexpr int kMaxAdjustedExponent = 125;
  // |x| >= 10^kMinAdjustedExponent.
  static constexpr int kMinAdjustedExponent = -130;

  // Zero.
  Number() = default;

  // Parses DynamoDB's text form: an optional '+' or '-', digits with an optional '.', an optional
  // exponent ('e' or 'E', optional sign, digits). Errors are ValidationExceptions with DynamoDB's
  // messages: not a number, more than 38 significant digits, overflow, underflow.
  static Result<Number> Parse(std::string_view text);

  // Exact conversion from an integer.
  static Number FromInt64(int64_t value);

  // The canonical text DynamoDB returns: no exponent, no leading or trailing zeros, "0" for zero,
  // e.g. "00042" -> "42", "1.0" -> "1", "1.5E2" -> "150", "-0" -> "0", "1E-5" -> "0.00001".
  std::string ToString() const;
  void AppendTo(std::string* out) const;

  // Exact arithmetic. Errors (ValidationException) when the exact result has more than 38
  // significant digits or falls outside the range, with DynamoDB's messages.
  static Result<Number> Add(const Number& a, const Number& b);
  static Result<Number> Subtract(const Number& a, const Number& b);
  Number Negated() const;

  // The value as an int64 when it is an integer that fits, else nullopt.
  std::optional<int64_t> ToInt64() const;

  bool is_zero() const { return coefficient_ == 0; }
  bool is_negative() const { return negative_; }
  // Significant digits of the coefficient (0 for zero).
  int digits() const { return digits_; }
  // value = (negative ? -1 : 1) * coefficient() * 10^exponent().
  int exponent() const { return exponent_; }
  unsigned __int128 coefficient() const { return coefficient_; }
  // Exponent of the leading digit: digits() - 1 + exponent(). 0 for zero.
  int adjusted_exponent() const { return is_zero() ? 0 : digits_ - 1 + exponent_; }

  // Bytes this number counts toward an item's size (DynamoDB's rule): 1 for zero; otherwise 1 +
  // the base-100 digit pairs of the significant digits (pairs aligned to even powers of ten) + 1
  // if negative. 12 -> 2, 1.2 -> 3, 123 -> 3, -12 -> 3.
  size_t StorageSize() const;

  friend bool operator==(const Number& a, const Number& b) = default;
  friend std::strong_ordering operator<=>(const Number& a, const Number& b);

 private:
  unsigned __int128 coefficient_ = 0;  // < 10^38; no trailing decimal zeros.
  int16_t exponent_ = 0;
  uint8_t digits_ = 0;
  bool negative_ = false;
};

}  // namespace partstore
