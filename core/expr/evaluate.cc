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

// An operand's value: in a tree (a Value), in an encoding (a ValueView of a StoredItem), or
// missing. The rules below are written once against it.
class Ref {
 public:
  Ref() = default;
  Ref(const Value* value) : tree_(value), present_(value != nullptr) {}  // NOLINT
  Ref(std::optional<ValueView> view)                                     // NOLINT
      : view_(view.value_or(ValueView())), encoded_(true), present_(view.has_value()) {}

  explicit operator bool() const { return present_; }
  // REQUIRES: present for all below.
  bool encoded() const { return encoded_; }
  const Value& tree() const { return *tree_; }
  const ValueView& view() const { return view_; }
  Type type() const { return encoded_ ? view_.type() : tree_->type(); }
  bool is(Type t) const { return type() == t; }
  // S or B: the bytes.
  std::string_view bytes() const {
    if (encoded_) return view_.as_string();
    return tree_->is(Type::kS) ? std::string_view(tree_->as_string())
                               : std::string_view(tree_->as_binary());
  }

 private:
  const Value* tree_ = nullptr;
  ValueView view_;
  bool encoded_ = false;
  bool present_ = false;
};

// size() of a value, or nullopt where DynamoDB's size is missing.
std::optional<int64_t> SizeOf(const Ref& value) {
  switch (value.type()) {
    case Type::kS:
      // UTF-16 code units, as DynamoDB (Java) counts a string's length.
      return static_cast<int64_t>(Utf16Length(value.bytes()));
    case Type::kB:
      return static_cast<int64_t>(value.bytes().size());
    default:
      break;
  }
  if (value.encoded()) {
    const ValueView& v = value.view();
    switch (v.type()) {
      case Type::kSS:
      case Type::kNS:
      case Type::kBS:
        return static_cast<int64_t>(v.as_set().size());
      case Type::kL:
        return static_cast<int64_t>(v.as_list().size());
      case Type::kM:
        return static_cast<int64_t>(v.as_map().size());
      default:
        return std::nullopt;
    }
  }
  const Value& v = value.tree();
  switch (v.type()) {
    case Type::kSS:
      return static_cast<int64_t>(v.as_string_set().size());
    case Type::kNS:
      return static_cast<int64_t>(v.as_number_set().size());
    case Type::kBS:
      return static_cast<int64_t>(v.as_binary_set().size());
    case Type::kL:
      return static_cast<int64_t>(v.as_list().size());
    case Type::kM:
      return static_cast<int64_t>(v.as_map().size());
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

// The operand's value, or missing. `scratch` holds a size() result.
template <typename ItemT>
Ref EvalOperand(const Operand& operand, const ItemT* item, Scratch* scratch) {
  switch (operand.kind) {
    case OperandKind::kPath:
      if (item == nullptr) return Ref();
      return Ref(FindPath(*item, operand.path));
    case OperandKind::kValue:
      return Ref(operand.value);
    case OperandKind::kSize: {
      if (operand.args.empty()) return Ref();
      const Ref arg = EvalOperand(operand.args[0], item, scratch);
      if (!arg) return Ref();
      const std::optional<int64_t> size = SizeOf(arg);
      if (!size) return Ref();
      return Ref(scratch->Set(*size));
    }
    default:
      return Ref();  // Update-only operands never reach a condition.
  }
}

bool Equal(const Ref& a, const Ref& b) {
  if (!a || !b) return false;
  if (a.encoded() && b.encoded()) return a.view() == b.view();
  if (a.encoded()) return a.view() == b.tree();
  if (b.encoded()) return b.view() == a.tree();
  return a.tree() == b.tree();
}

// Compare() is unordered for different types and for anything but S, N and B, which is exactly
// DynamoDB's "wrong type or missing means false" for the ordering comparators.
std::partial_ordering Compare(const Ref& a, const Ref& b) {
  if (!a.encoded() && !b.encoded()) return partstore::Compare(a.tree(), b.tree());
  if (a.type() != b.type()) return std::partial_ordering::unordered;
  switch (a.type()) {
    case Type::kS:
    case Type::kB:
      return a.bytes().compare(b.bytes()) <=> 0;
    case Type::kN: {
      auto number = [](const Ref& r) { return r.encoded() ? r.view().as_number() : r.tree().as_number(); };
      return number(a) <=> number(b);
    }
    default:
      return std::partial_ordering::unordered;
  }
}

bool Ordered(const Ref& a, const Ref& b, bool (*accept)(std::partial_ordering)) {
  return a && b && accept(Compare(a, b));
}

bool IsPrefix(std::string_view whole, std::string_view prefix) {
  return whole.size() >= prefix.size() && whole.compare(0, prefix.size(), prefix) == 0;
}

bool BeginsWith(const Ref& a, const Ref& b) {
  if (!a || !b || a.type() != b.type()) return false;
  return (a.is(Type::kS) || a.is(Type::kB)) && IsPrefix(a.bytes(), b.bytes());
}

// contains() on an encoded list or set.
bool ContainsEncoded(const ValueView& a, const Ref& b) {
  switch (a.type()) {
    case Type::kL:
      for (const ValueView& element : a.as_list()) {
        if (Equal(Ref(std::optional<ValueView>(element)), b)) return true;
      }
      return false;
    case Type::kSS:
    case Type::kBS:
      return b.is(a.is(Type::kSS) ? Type::kS : Type::kB) && a.as_set().contains(b.bytes());
    case Type::kNS: {
      if (!b.is(Type::kN)) return false;
      // Elements are canonical text, so equal numbers have equal text.
      std::string text;
      const std::string_view wanted =
          b.encoded() ? b.view().number_text() : std::string_view(text = b.tree().as_number().ToString());
      for (std::string_view element : a.as_set()) {
        if (element == wanted) return true;
      }
      return false;
    }
    default:
      return false;
  }
}

bool Contains(const Ref& a, const Ref& b) {
  if (!a || !b) return false;
  if (a.is(Type::kS) || a.is(Type::kB)) {
    return b.is(a.type()) && a.bytes().find(b.bytes()) != std::string_view::npos;
  }
  if (a.encoded()) return ContainsEncoded(a.view(), b);
  const Value& tree = a.tree();
  switch (tree.type()) {
    case Type::kL:
      for (const Value& element : tree.as_list()) {
        if (Equal(Ref(&element), b)) return true;
      }
      return false;
    case Type::kSS:
      if (!b.is(Type::kS)) return false;
      return b.encoded() ? tree.as_string_set().contains(std::string(b.bytes()))
                         : tree.as_string_set().contains(b.tree().as_string());
    case Type::kNS:
      if (!b.is(Type::kN)) return false;
      return b.encoded() ? tree.as_number_set().contains(b.view().as_number())
                         : tree.as_number_set().contains(b.tree().as_number());
    case Type::kBS: {
      if (!b.is(Type::kB)) return false;
      // Heterogeneous lookup: no Bytes copy of the operand.
      const std::string_view key = b.bytes();
      const auto& elements = tree.as_binary_set().elements();
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

std::optional<ValueView> FindPath(const StoredItem& item, const Path& path) {
  const auto& elements = path.elements;
  if (elements.empty() || elements[0].is_index()) return std::nullopt;
  std::optional<ValueView> value = item.Find(elements[0].name);
  for (size_t i = 1; value && i < elements.size(); ++i) {
    const PathElement& element = elements[i];
    if (element.is_index()) {
      if (!value->is(Type::kL)) return std::nullopt;
      value = value->as_list().at(static_cast<size_t>(element.index));
    } else {
      if (!value->is(Type::kM)) return std::nullopt;
      value = value->as_map().Find(element.name);
    }
  }
  return value;
}

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

namespace {

template <typename ItemT>
bool EvaluateOn(const Condition& condition, const ItemT* item) {
  const auto& ops = condition.operands;
  switch (condition.kind) {
    case ConditionKind::kAnd:
      return EvaluateOn(condition.children[0], item) && EvaluateOn(condition.children[1], item);
    case ConditionKind::kOr:
      return EvaluateOn(condition.children[0], item) || EvaluateOn(condition.children[1], item);
    case ConditionKind::kNot:
      return !EvaluateOn(condition.children[0], item);
    case ConditionKind::kCompare: {
      Scratch s0, s1;
      const Ref a = EvalOperand(ops[0], item, &s0);
      const Ref b = EvalOperand(ops[1], item, &s1);
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
      const Ref a = EvalOperand(ops[0], item, &s0);
      const Ref lower = EvalOperand(ops[1], item, &s1);
      const Ref upper = EvalOperand(ops[2], item, &s2);
      return Ordered(a, lower, GreaterEq) && Ordered(a, upper, LessEq);
    }
    case ConditionKind::kIn: {
      Scratch s0, s1;
      const Ref a = EvalOperand(ops[0], item, &s0);
      if (!a) return false;
      for (size_t i = 1; i < ops.size(); ++i) {
        if (Equal(a, EvalOperand(ops[i], item, &s1))) return true;
      }
      return false;
    }
    case ConditionKind::kAttributeExists:
      return item != nullptr && static_cast<bool>(Ref(FindPath(*item, ops[0].path)));
    case ConditionKind::kAttributeNotExists:
      return item == nullptr || !Ref(FindPath(*item, ops[0].path));
    case ConditionKind::kAttributeType: {
      Scratch s0, s1;
      const Ref a = EvalOperand(ops[0], item, &s0);
      const Ref t = EvalOperand(ops[1], item, &s1);
      return a && t && t.is(Type::kS) && TypeName(a.type()) == t.bytes();
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

}  // namespace

bool Evaluate(const Condition& condition, const Item* item) { return EvaluateOn(condition, item); }

bool Evaluate(const Condition& condition, const StoredItem* item) {
  return EvaluateOn(condition, item);
}

}  // namespace partstore::expr
