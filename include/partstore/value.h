// Value: one DynamoDB AttributeValue, typed end to end.
//
// A Value is exactly one of the ten DynamoDB types:
//   S (UTF-8 string), N (exact decimal, see number.h), B (bytes), BOOL, NULL,
//   M (map: name -> Value), L (list of Values), SS / NS / BS (sets).
// Sets are kept sorted (S and B by unsigned bytes, N by numeric value) and hold no duplicates, so
// equality of sets ignores the order they were written in and a set's iteration order is
// deterministic. An AttributeMap (used for M and for whole items) is a sorted flat map with a
// transparent comparator: lookups by std::string_view allocate nothing.
//
// Validation of DynamoDB's rules that span a whole value (no empty sets, nesting depth <= 32,
// item size) is done by ValidateItem() in item.h, not on construction, so building values is
// cheap; the Database checks every item before it stores it (a put's item, an update's result).
//
// Thread safety: a value type; const methods are thread-safe.
#pragma once

#include <algorithm>
#include <boost/container/flat_map.hpp>
#include <compare>
#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "partstore/number.h"
#include "partstore/status.h"

namespace partstore {

// The ten DynamoDB types, in the order of their wire names' usual listing.
enum class Type : uint8_t { kS, kN, kB, kBool, kNull, kM, kL, kSS, kNS, kBS };

// "S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS".
std::string_view TypeName(Type type);
// The type of a wire name, or nullopt.
std::optional<Type> TypeFromName(std::string_view name);

class Value;

// Name -> Value, sorted by name (byte order). Used for M values and for items.
using AttributeMap = boost::container::flat_map<std::string, Value, std::less<>>;
using ValueList = std::vector<Value>;

// Raw bytes of a B value (the wire carries them as base64; this holds the decoded bytes).
struct Bytes {
  std::string data;
  friend bool operator==(const Bytes&, const Bytes&) = default;
  friend auto operator<=>(const Bytes& a, const Bytes& b) {
    return std::string_view(a.data) <=> std::string_view(b.data);
  }
};

// A set of T: sorted ascending, no duplicates. T is std::string (SS), Number (NS) or Bytes (BS).
template <typename T>
class SortedSet {
 public:
  using value_type = T;
  using const_iterator = typename std::vector<T>::const_iterator;

  SortedSet() = default;
  SortedSet(std::initializer_list<T> elements) : SortedSet(std::vector<T>(elements)) {}
  // Sorts and drops duplicates. Use FromUnique() to detect duplicates instead.
  explicit SortedSet(std::vector<T> elements);
  // Sorts; returns nullopt when `elements` holds a duplicate (DynamoDB rejects those).
  static std::optional<SortedSet> FromUnique(std::vector<T> elements);

  bool contains(const T& element) const;
  // Inserts; returns false if already present.
  bool insert(T element);
  // Erases; returns false if absent.
  bool erase(const T& element);

  size_t size() const { return elements_.size(); }
  bool empty() const { return elements_.empty(); }
  const_iterator begin() const { return elements_.begin(); }
  const_iterator end() const { return elements_.end(); }
  const std::vector<T>& elements() const { return elements_; }

  friend bool operator==(const SortedSet&, const SortedSet&) = default;

 private:
  std::vector<T> elements_;
};

using StringSet = SortedSet<std::string>;
using NumberSet = SortedSet<Number>;
using BinarySet = SortedSet<Bytes>;

struct Null {
  friend bool operator==(Null, Null) = default;
};

class Value {
 public:
  // NULL.
  Value() : v_(Null{}) {}

  // Implicit conversions for the C++ API, e.g. `Item{{"PK", "USER#1"}, {"age", 42}}`.
  Value(std::string s) : v_(std::move(s)) {}         // S  NOLINT
  Value(std::string_view s) : v_(std::string(s)) {}  // S  NOLINT
  Value(const char* s) : v_(std::string(s)) {}       // S  NOLINT
  Value(Number n) : v_(std::move(n)) {}              // N  NOLINT
  template <std::integral I>
  requires(!std::same_as<I, bool>) Value(I n)
      : v_(Number::FromInt64(static_cast<int64_t>(n))) {}  // N  NOLINT
  Value(Bytes b) : v_(std::move(b)) {}                     // B  NOLINT
  Value(bool b) : v_(b) {}                                 // BOOL  NOLINT
  Value(Null) : v_(Null{}) {}                              // NULL  NOLINT
  Value(AttributeMap m) : v_(std::move(m)) {}              // M  NOLINT
  Value(ValueList l) : v_(std::move(l)) {}                 // L  NOLINT
  Value(StringSet s) : v_(std::move(s)) {}                 // SS  NOLINT
  Value(NumberSet s) : v_(std::move(s)) {}                 // NS  NOLINT
  Value(BinarySet s) : v_(std::move(s)) {}                 // BS  NOLINT

  // Named constructors where a conversion would be ambiguous or unclear.
  static Value String(std::string s) { return Value(std::move(s)); }
  static Value Binary(std::string bytes) { return Value(Bytes{std::move(bytes)}); }
  static Value Bool(bool b) { return Value(b); }
  static Value Nil() { return Value(Null{}); }
  static Value Map(AttributeMap m) { return Value(std::move(m)); }
  static Value List(ValueList l) { return Value(std::move(l)); }

  Type type() const { return static_cast<Type>(v_.index()); }
  bool is(Type t) const { return type() == t; }
  // S, N or B: the types that can be keys and that have an order.
  bool is_scalar_key_type() const {
    return type() == Type::kS || type() == Type::kN || type() == Type::kB;
  }
  bool is_set() const { return type() == Type::kSS || type() == Type::kNS || type() == Type::kBS; }

  // Accessors. REQUIRES: the value holds that type; otherwise std::get throws
  // std::bad_variant_access, in every build. The if_* accessors below return null instead.
  const std::string& as_string() const { return std::get<std::string>(v_); }
  const Number& as_number() const { return std::get<Number>(v_); }
  const std::string& as_binary() const { return std::get<Bytes>(v_).data; }
  bool as_bool() const { return std::get<bool>(v_); }
  const AttributeMap& as_map() const { return std::get<AttributeMap>(v_); }
  AttributeMap& as_map() { return std::get<AttributeMap>(v_); }
  const ValueList& as_list() const { return std::get<ValueList>(v_); }
  ValueList& as_list() { return std::get<ValueList>(v_); }
  const StringSet& as_string_set() const { return std::get<StringSet>(v_); }
  StringSet& as_string_set() { return std::get<StringSet>(v_); }
  const NumberSet& as_number_set() const { return std::get<NumberSet>(v_); }
  NumberSet& as_number_set() { return std::get<NumberSet>(v_); }
  const BinarySet& as_binary_set() const { return std::get<BinarySet>(v_); }
  BinarySet& as_binary_set() { return std::get<BinarySet>(v_); }

  // Null-returning accessors, for code that branches on type.
  const std::string* if_string() const { return std::get_if<std::string>(&v_); }
  std::string* if_string() { return std::get_if<std::string>(&v_); }
  const Number* if_number() const { return std::get_if<Number>(&v_); }
  const AttributeMap* if_map() const { return std::get_if<AttributeMap>(&v_); }
  AttributeMap* if_map() { return std::get_if<AttributeMap>(&v_); }
  const ValueList* if_list() const { return std::get_if<ValueList>(&v_); }
  ValueList* if_list() { return std::get_if<ValueList>(&v_); }

  // The variant itself, for std::visit.
  const auto& variant() const { return v_; }

  // Deep equality: same type and same contents. Numbers compare by value (1000 == 1E3); sets
  // ignore order; maps compare name by name.
  friend bool operator==(const Value& a, const Value& b) { return a.v_ == b.v_; }

 private:
  // The alternative order matches Type's enumerators.
  std::variant<std::string, Number, Bytes, bool, Null, AttributeMap, ValueList, StringSet,
               NumberSet, BinarySet>
      v_;
};

// The one ordering of values: defined between two values of the same type S, N or B (bytes in
// unsigned order for S and B, numeric for N); unordered otherwise. This is the order of sort
// keys, and of the comparators <, <=, >, >= and BETWEEN in expressions (which are false for
// unordered operands).
std::partial_ordering Compare(const Value& a, const Value& b);

// Short human-readable rendering for messages and test failures, e.g. {"S":"x"} style.
std::string DebugString(const Value& value);

// ---- SortedSet implementation --------------------------------------------------------------

template <typename T>
SortedSet<T>::SortedSet(std::vector<T> elements) : elements_(std::move(elements)) {
  std::sort(elements_.begin(), elements_.end());
  elements_.erase(std::unique(elements_.begin(), elements_.end()), elements_.end());
}

template <typename T>
std::optional<SortedSet<T>> SortedSet<T>::FromUnique(std::vector<T> elements) {
  std::sort(elements.begin(), elements.end());
  if (std::adjacent_find(elements.begin(), elements.end()) != elements.end()) return std::nullopt;
  SortedSet set;
  set.elements_ = std::move(elements);
  return set;
}

template <typename T>
bool SortedSet<T>::contains(const T& element) const {
  return std::binary_search(elements_.begin(), elements_.end(), element);
}

template <typename T>
bool SortedSet<T>::insert(T element) {
  auto it = std::lower_bound(elements_.begin(), elements_.end(), element);
  if (it != elements_.end() && *it == element) return false;
  elements_.insert(it, std::move(element));
  return true;
}

template <typename T>
bool SortedSet<T>::erase(const T& element) {
  auto it = std::lower_bound(elements_.begin(), elements_.end(), element);
  if (it == elements_.end() || !(*it == element)) return false;
  elements_.erase(it);
  return true;
}

}  // namespace partstore
