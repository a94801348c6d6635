// Condition evaluation with DynamoDB's semantics (its expression executor: OperatorExecutor /
// ExpressionExecutor, cross-checked with live-verified tests):
//
//   - An operand that names an absent attribute is "missing". A function or comparator with an
//     operand of a type it does not take is false (size() of such an operand is missing).
//   - a = b: both present and deeply equal (numbers by value, sets ignoring order, lists in
//     order, maps by name). a <> b is NOT (a = b): true when either side is missing.
//   - <, <=, >, >=: both present, same type, S / N / B, ordered by Compare() (bytes for S and B,
//     exact numeric for N). BETWEEN x AND y: lower <= a and a <= upper under the same rules.
//   - a IN (b, c, ...): a = any of them.
//   - attribute_exists / attribute_not_exists: whether the path resolves (FindPath).
//   - attribute_type(a, :t): a present and its type name equals :t.
//   - begins_with(a, b): a and b both S or both B, b a byte prefix of a.
//   - contains(a, b): a S and b S: substring (bytes); a B and b B: byte substring; a a list: some
//     element equals b; a SS / NS / BS and b the matching S / N / B: membership; else false.
//   - size(a): S: its length in UTF-16 code units (DynamoDB measures Java strings: "é𝄞" is 3,
//     verified against DynamoDB by ExtendDB#67); B: bytes; SS / NS / BS / L / M: elements; N,
//     BOOL, NULL or missing: missing.
//
// Hot path: no allocation (checked with a counting operator new). Paths are looked up with
// string_view keys; a size() result is a Number-holding Value built in stack storage only when
// size() runs.
#include "core/expr/evaluate.h"

#include <algorithm>
#include <cstdint>
#include <new>
#include <optional>
#include <string_view>

#include "core/utf8.h"

namespace partstore::expr {
namespace {

// size() of a value, or nullopt where DynamoDB's size is missing.
std::optional<int64_t> SizeOf(const Value& value) {
  switch (value.type()) {
    case Type::kS:
      // UTF-16 code units, as DynamoDB (Java) counts a string's length.
      return static_cast<int64_t>(Utf16Length(value.as_string()));
    case Type::kB:
      return static_cast<int64_t>(value.as_binary().size());
    case Type::kSS:
      return static_cast<int64_t>(value.as_string_set().size());
    case Type::kNS:
      return static_cast<int64_t>(value.as_number_set().size());
    case Type::kBS:
      return static_cast<int64_t>(value.as_binary_set().size());
    case Type::kL:
      return static_cast<int64_t>(value.as_list().size());
    case Type::kM:
      return static_cast<int64_t>(value.as_map().size());
    default:
      return std::nullopt;
  }
}

// Room for one size() result, constructed only when size() is evaluated (most conditions never
// need it, and a Value's construction and destruction are not free).
class Scratch {
 public:
  Scratch() = default;
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  ~Scratch() {
    if (used_) get()->~Value();
  }
  const Value* Set(int64_t size) {
    if (used_) get()->~Value();
    new (storage_) Value(Number::FromInt64(size));
    used_ = true;
    return get();
  }

 private:
  Value* get() { return std::launder(reinterpret_cast<Value*>(storage_)); }
  alignas(Value) unsigned char storage_[sizeof(Value)];
  bool used_ = false;
};

// The operand's value, or null when missing. `scratch` holds a size() result.
const Value* EvalOperand(const Operand& operand, const Item* item, Scratch* scratch) {
  switch (operand.kind) {
    case OperandKind::kPath:
      return item != nullptr ? FindPath(*item, operand.path) : nullptr;
    case OperandKind::kValue:
      return operand.value;
    case OperandKind::kSize: {
      if (operand.args.empty()) return nullptr;
      const Value* arg = EvalOperand(operand.args[0], item, scratch);
      if (arg == nullptr) return nullptr;
      const std::optional<int64_t> size = SizeOf(*arg);
      if (!size) return nullptr;
      return scratch->Set(*size);
    }
    default:
      return nullptr;  // Update-only operands never reach a condition.
  }
}

bool Equal(const Value* a, const Value* b) { return a != nullptr && b != nullptr && *a == *b; }

// Compare() is unordered for different types and for anything but S, N and B, which is exactly
// DynamoDB's "wrong type or missing means false" for the ordering comparators.
bool Ordered(const Value* a, const Value* b, bool (*accept)(std::partial_ordering)) {
  return a != nullptr && b != nullptr && accept(Compare(*a, *b));
}

bool IsPrefix(std::string_view whole, std::string_view prefix) {
  return whole.size() >= prefix.size() && whole.compare(0, prefix.size(), prefix) == 0;
}

bool BeginsWith(const Value* a, const Value* b) {
  if (a == nullptr || b == nullptr || a->type() != b->type()) return false;
  if (a->is(Type::kS)) return IsPrefix(a->as_string(), b->as_string());
  if (a->is(Type::kB)) return IsPrefix(a->as_binary(), b->as_binary());
  return false;
}

bool Contains(const Value* a, const Value* b) {
  if (a == nullptr || b == nullptr) return false;
  switch (a->type()) {
    case Type::kS:
      return b->is(Type::kS) && a->as_string().find(b->as_string()) != std::string::npos;
    case Type::kB:
      return b->is(Type::kB) && a->as_binary().find(b->as_binary()) != std::string::npos;
    case Type::kL:
      for (const Value& element : a->as_list()) {
        if (element == *b) return true;
      }
      return false;
    case Type::kSS:
      return b->is(Type::kS) && a->as_string_set().contains(b->as_string());
    case Type::kNS:
      return b->is(Type::kN) && a->as_number_set().contains(b->as_number());
    case Type::kBS: {
      if (!b->is(Type::kB)) return false;
      // Heterogeneous lookup: no Bytes copy of the operand.
      const std::string_view key = b->as_binary();
      const auto& elements = a->as_binary_set().elements();
      auto it = std::lower_bound(elements.begin(), elements.end(), key,
                                 [](const Bytes& element, std::string_view k) {
                                   return std::string_view(element.data) < k;
                                 });
      return it != elements.end() && it->data == key;
    }
    default:
      return false;
  }
}

bool Less(std::partial_ordering o) { return o == std::partial_ordering::less; }
bool LessEq(std::partial_ordering o) {
  return o == std::partial_ordering::less || o == std::partial_ordering::equivalent;
}
bool Greater(std::partial_ordering o) { return o == std::partial_ordering::greater; }
bool GreaterEq(std::partial_ordering o) {
  return o == std::partial_ordering::greater || o == std::partial_ordering::equivalent;
}

}  // namespace

const Value* FindPath(const Item& item, const Path& path) {
  const auto& elements = path.elements;
  if (elements.empty() || elements[0].is_index()) return nullptr;
  auto top = item.find(std::string_view(elements[0].name));
  if (top == item.end()) return nullptr;
  const Value* value = &top->second;
  for (size_t i = 1; i < elements.size(); ++i) {
    const PathElement& element = elements[i];
    if (element.is_index()) {
      const ValueList* list = value->if_list();
      if (list == nullptr || static_cast<uint64_t>(element.index) >= list->size()) return nullptr;
      value = &(*list)[static_cast<size_t>(element.index)];
    } else {
      const AttributeMap* map = value->if_map();
      if (map == nullptr) return nullptr;
      auto it = map->find(std::string_view(element.name));
      if (it == map->end()) return nullptr;
      value = &it->second;
    }
  }
  return value;
}

bool Evaluate(const Condition& condition, const Item* item) {
  const auto& ops = condition.operands;
  switch (condition.kind) {
    case ConditionKind::kAnd:
      return Evaluate(condition.children[0], item) && Evaluate(condition.children[1], item);
    case ConditionKind::kOr:
      return Evaluate(condition.children[0], item) || Evaluate(condition.children[1], item);
    case ConditionKind::kNot:
      return !Evaluate(condition.children[0], item);
    case ConditionKind::kCompare: {
      Scratch s0, s1;
      const Value* a = EvalOperand(ops[0], item, &s0);
      const Value* b = EvalOperand(ops[1], item, &s1);
      switch (condition.comparator) {
        case Comparator::kEq:
          return Equal(a, b);
        case Comparator::kNe:
          return !Equal(a, b);
        case Comparator::kLt:
          return Ordered(a, b, Less);
        case Comparator::kLe:
          return Ordered(a, b, LessEq);
        case Comparator::kGt:
          return Ordered(a, b, Greater);
        case Comparator::kGe:
          return Ordered(a, b, GreaterEq);
      }
      return false;
    }
    case ConditionKind::kBetween: {
      Scratch s0, s1, s2;
      const Value* a = EvalOperand(ops[0], item, &s0);
      const Value* lower = EvalOperand(ops[1], item, &s1);
      const Value* upper = EvalOperand(ops[2], item, &s2);
      return Ordered(a, lower, GreaterEq) && Ordered(a, upper, LessEq);
    }
    case ConditionKind::kIn: {
      Scratch s0, s1;
      const Value* a = EvalOperand(ops[0], item, &s0);
      if (a == nullptr) return false;
      for (size_t i = 1; i < ops.size(); ++i) {
        if (Equal(a, EvalOperand(ops[i], item, &s1))) return true;
      }
      return false;
    }
    case ConditionKind::kAttributeExists:
      return item != nullptr && FindPath(*item, ops[0].path) != nullptr;
    case ConditionKind::kAttributeNotExists:
      return item == nullptr || FindPath(*item, ops[0].path) == nullptr;
    case ConditionKind::kAttributeType: {
      Scratch s0, s1;
      const Value* a = EvalOperand(ops[0], item, &s0);
      const Value* t = EvalOperand(ops[1], item, &s1);
      return a != nullptr && t != nullptr && t->is(Type::kS) &&
             TypeName(a->type()) == t->as_string();
    }
    case ConditionKind::kBeginsWith: {
      Scratch s0, s1;
      return BeginsWith(EvalOperand(ops[0], item, &s0), EvalOperand(ops[1], item, &s1));
    }
    case ConditionKind::kContains: {
      Scratch s0, s1;
      return Contains(EvalOperand(ops[0], item, &s0), EvalOperand(ops[1], item, &s1));
    }
  }
  return false;
}

}  // namespace partstore::expr
