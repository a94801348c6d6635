#include "core/expr/update.h"

#include <algorithm>
#include <boost/container/small_vector.hpp>
#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace partstore::expr {
namespace {

// DynamoDB's runtime messages (texts from Scylla's tests against DynamoDB and DynamoDB Local's
// error table).
constexpr std::string_view kPathInvalid =
    "The document path provided in the update expression is invalid for update";
constexpr std::string_view kMissingAttribute =
    "The provided expression refers to an attribute that does not exist in the item";
constexpr std::string_view kWrongType =
    "An operand in the update expression has an incorrect data type";
// The legacy AttributeUpdates wording of kWrongType (dynalite's tests against DynamoDB).
constexpr std::string_view kLegacyTypeMismatch = "Type mismatch for attribute to update";

Status Invalid(std::string_view message) { return Status::Validation(std::string(message)); }

// Live text, e.g. "... operator: ADD, operand type: STRING, typeSet: ALLOWED_FOR_ADD_OPERAND"
// (the same as the Resolver's).
Status OperatorOperandError(std::string_view op, const Value& value) {
  std::string message =
      "Invalid UpdateExpression: Incorrect operand type for operator or function; operator: ";
  message.append(op).append(", operand type: ").append(LongTypeName(value.type()));
  message.append(", typeSet: ALLOWED_FOR_").append(op).append("_OPERAND");
  return Status::Validation(std::move(message));
}

Status FunctionOperandError(std::string_view function, const Value& value) {
  std::string message =
      "Invalid UpdateExpression: Incorrect operand type for operator or function; operator or "
      "function: ";
  message.append(function).append(", operand type: ").append(TypeName(value.type()));
  return Status::Validation(std::move(message));
}

bool IsEmptySet(const Value& value) {
  switch (value.type()) {
    case Type::kSS:
      return value.as_string_set().empty();
    case Type::kNS:
      return value.as_number_set().empty();
    case Type::kBS:
      return value.as_binary_set().empty();
    default:
      return false;
  }
}

// ---- Paths ----------------------------------------------------------------------------------

// The container that holds a path's last element: a map (name step) or a list (index step).
// Both null: a step before the last is missing or of the wrong type.
struct ConstParent {
  const AttributeMap* map = nullptr;
  const ValueList* list = nullptr;
  bool valid() const { return map != nullptr || list != nullptr; }
};

const Value* Child(const AttributeMap* map, const ValueList* list, const PathElement& e) {
  if (e.is_index()) {
    if (list == nullptr || static_cast<uint64_t>(e.index) >= list->size()) return nullptr;
    return &(*list)[static_cast<size_t>(e.index)];
  }
  if (map == nullptr) return nullptr;
  auto it = map->find(e.name);
  return it == map->end() ? nullptr : &it->second;
}

ConstParent FindParent(const Item& item, const Path& path) {
  ConstParent parent{&item, nullptr};
  const auto& elements = path.elements;
  for (size_t i = 0; i + 1 < elements.size(); ++i) {
    const Value* v = Child(parent.map, parent.list, elements[i]);
    if (v == nullptr) return {};
    if (elements[i + 1].is_index()) {
      parent = {nullptr, v->if_list()};
    } else {
      parent = {v->if_map(), nullptr};
    }
    if (!parent.valid()) return {};
  }
  if (elements.empty()) return {};
  const bool wants_list = elements.back().is_index();
  if (wants_list ? parent.list == nullptr : parent.map == nullptr) return {};
  return parent;
}

const Value* Find(const Item& item, const Path& path) {
  if (path.elements.empty()) return nullptr;
  ConstParent parent = FindParent(item, path);
  if (!parent.valid()) return nullptr;
  return Child(parent.map, parent.list, path.elements.back());
}

// The mutable counterpart. `item` is not const, so casting the constness back is well defined.
struct Parent {
  AttributeMap* map = nullptr;
  ValueList* list = nullptr;
};

Parent FindMutableParent(Item& item, const Path& path) {
  ConstParent p = FindParent(item, path);
  return {const_cast<AttributeMap*>(p.map), const_cast<ValueList*>(p.list)};
}

// Lexicographic order of paths, a list index comparing numerically and a prefix sorting first.
// Names sort before indexes at the same depth (a conflict the Resolver rejects anyway).
int ComparePaths(const Path& a, const Path& b) {
  const size_t n = std::min(a.elements.size(), b.elements.size());
  for (size_t i = 0; i < n; ++i) {
    const PathElement& x = a.elements[i];
    const PathElement& y = b.elements[i];
    if (x.is_index() != y.is_index()) return x.is_index() ? 1 : -1;
    if (x.is_index()) {
      if (x.index != y.index) return x.index < y.index ? -1 : 1;
    } else if (int c = x.name.compare(y.name); c != 0) {
      return c < 0 ? -1 : 1;
    }
  }
  if (a.elements.size() == b.elements.size()) return 0;
  return a.elements.size() < b.elements.size() ? -1 : 1;
}

// ---- Projection (UPDATED_OLD / UPDATED_NEW) --------------------------------------------------

using PathSpan = std::span<const Path* const>;

bool ProjectValue(const Value& source, PathSpan paths, size_t depth, Value* out);

// What `paths` (sorted, all longer than `depth`) select below `source`'s members.
AttributeMap ProjectMembers(const AttributeMap& source, PathSpan paths, size_t depth) {
  AttributeMap::sequence_type members;  // built in name order: no searching on insertion
  size_t i = 0;
  while (i < paths.size()) {
    const PathElement& e = paths[i]->elements[depth];
    size_t j = i + 1;
    while (j < paths.size() && paths[j]->elements[depth] == e) ++j;
    if (!e.is_index()) {
      auto it = source.find(e.name);
      Value child;
      if (it != source.end() &&
          ProjectValue(it->second, paths.subspan(i, j - i), depth + 1, &child)) {
        if (members.empty()) members.reserve(paths.size() - i);  // at most one per path left
        members.emplace_back(e.name, std::move(child));
      }
    }
    i = j;
  }
  AttributeMap out;
  out.adopt_sequence(boost::container::ordered_unique_range, std::move(members));
  return out;
}

// The part of `source` (the value at depth `depth` of every path) that `paths` select; false
// when nothing is selected. List elements selected by index are gathered in index order.
bool ProjectValue(const Value& source, PathSpan paths, size_t depth, Value* out) {
  // Sorted: a path ending here (selecting all of `source`) comes first.
  if (paths.front()->elements.size() == depth) {
    *out = source;
    return true;
  }
  if (const AttributeMap* map = source.if_map()) {
    AttributeMap result = ProjectMembers(*map, paths, depth);
    if (result.empty()) return false;
    *out = Value(std::move(result));
    return true;
  }
  if (const ValueList* list = source.if_list()) {
    ValueList result;
    size_t i = 0;
    while (i < paths.size()) {
      const PathElement& e = paths[i]->elements[depth];
      size_t j = i + 1;
      while (j < paths.size() && paths[j]->elements[depth] == e) ++j;
      if (e.is_index() && static_cast<uint64_t>(e.index) < list->size()) {
        Value child;
        if (ProjectValue((*list)[static_cast<size_t>(e.index)], paths.subspan(i, j - i), depth + 1,
                         &child)) {
          result.push_back(std::move(child));
        }
      }
      i = j;
    }
    if (result.empty()) return false;
    *out = Value(std::move(result));
    return true;
  }
  return false;
}

Item Project(const Item& item, PathSpan sorted_paths) {
  if (sorted_paths.empty()) return Item();
  return ProjectMembers(item, sorted_paths, 0);
}

// ---- Evaluation of SET operands (always against the old item) --------------------------------

class Evaluator {
 public:
  explicit Evaluator(const Item* old_item) : old_(old_item) {}

  // The operand's value without copying when it is a path or a constant; compound operands are
  // evaluated into *scratch.
  Result<const Value*> Ref(const Operand& op, Value* scratch) const {
    switch (op.kind) {
      case OperandKind::kPath: {
        const Value* v = old_ != nullptr ? Find(*old_, op.path) : nullptr;
        if (v == nullptr) return Invalid(kMissingAttribute);
        return v;
      }
      case OperandKind::kValue:
        if (op.value == nullptr) {
          return Status::Internal("unresolved value operand " + op.placeholder);
        }
        return op.value;
      case OperandKind::kIfNotExists: {
        if (op.args.size() != 2) return Status::Internal("if_not_exists needs two operands");
        if (op.args[0].kind != OperandKind::kPath) {
          return Invalid(
              "Invalid UpdateExpression: Operator or function requires a document path; operator "
              "or function: if_not_exists");
        }
        const Value* v = old_ != nullptr ? Find(*old_, op.args[0].path) : nullptr;
        if (v != nullptr) return v;
        return Ref(op.args[1], scratch);
      }
      case OperandKind::kListAppend:
      case OperandKind::kPlus:
      case OperandKind::kMinus:
        PARTSTORE_RETURN_IF_ERROR(Compute(op, scratch));
        return static_cast<const Value*>(scratch);
      case OperandKind::kSize:
        return Invalid(
            "Invalid UpdateExpression: The function is not allowed to be used this way in an "
            "expression; function: size");
    }
    return Status::Internal("unknown operand kind");
  }

  // The operand's value, copied into *out when it is not computed there.
  Status Eval(const Operand& op, Value* out) const {
    PARTSTORE_ASSIGN_OR_RETURN(const Value* v, Ref(op, out));
    if (v != out) *out = *v;
    return Status::Ok();
  }

 private:
  Status Compute(const Operand& op, Value* out) const {
    if (op.args.size() != 2) return Status::Internal("operator needs two operands");
    Value scratch1, scratch2;
    if (op.kind == OperandKind::kListAppend) {
      PARTSTORE_ASSIGN_OR_RETURN(const Value* a, Ref(op.args[0], &scratch1));
      PARTSTORE_RETURN_IF_ERROR(CheckType(op.args[0], *a, Type::kL, "list_append"));
      PARTSTORE_ASSIGN_OR_RETURN(const Value* b, Ref(op.args[1], &scratch2));
      PARTSTORE_RETURN_IF_ERROR(CheckType(op.args[1], *b, Type::kL, "list_append"));
      ValueList result;
      result.reserve(a->as_list().size() + b->as_list().size());
      Append(a, &scratch1, &result);
      Append(b, &scratch2, &result);
      *out = Value(std::move(result));
      return Status::Ok();
    }
    const std::string_view name = op.kind == OperandKind::kPlus ? "+" : "-";
    PARTSTORE_ASSIGN_OR_RETURN(const Value* a, Ref(op.args[0], &scratch1));
    PARTSTORE_RETURN_IF_ERROR(CheckType(op.args[0], *a, Type::kN, name));
    PARTSTORE_ASSIGN_OR_RETURN(const Value* b, Ref(op.args[1], &scratch2));
    PARTSTORE_RETURN_IF_ERROR(CheckType(op.args[1], *b, Type::kN, name));
    Result<Number> n = op.kind == OperandKind::kPlus
                           ? Number::Add(a->as_number(), b->as_number())
                           : Number::Subtract(a->as_number(), b->as_number());
    if (!n.ok()) return n.error();
    *out = Value(std::move(n).value());
    return Status::Ok();
  }

  // A constant of the wrong type is a static error (the Resolver's text); anything read from the
  // item is a runtime one.
  static Status CheckType(const Operand& op, const Value& v, Type want, std::string_view fn) {
    if (v.type() == want) return Status::Ok();
    if (op.kind == OperandKind::kValue) return FunctionOperandError(fn, v);
    return Invalid(kWrongType);
  }

  // Moves the elements out of a scratch value, copies them out of anything else.
  static void Append(const Value* list, Value* scratch, ValueList* out) {
    if (list == scratch) {
      for (Value& v : scratch->as_list()) out->push_back(std::move(v));
    } else {
      out->insert(out->end(), list->as_list().begin(), list->as_list().end());
    }
  }

  const Item* old_;
};

// ---- Applying actions to the new item --------------------------------------------------------

// Union of two sets of the same type into *target.
void AddToSet(Value* target, const Value& elements) {
  switch (elements.type()) {
    case Type::kSS:
      for (const auto& e : elements.as_string_set()) target->as_string_set().insert(e);
      break;
    case Type::kNS:
      for (const auto& e : elements.as_number_set()) target->as_number_set().insert(e);
      break;
    case Type::kBS:
      for (const auto& e : elements.as_binary_set()) target->as_binary_set().insert(e);
      break;
    default:
      break;
  }
}

void DeleteFromSet(Value* target, const Value& elements) {
  switch (elements.type()) {
    case Type::kSS:
      for (const auto& e : elements.as_string_set()) target->as_string_set().erase(e);
      break;
    case Type::kNS:
      for (const auto& e : elements.as_number_set()) target->as_number_set().erase(e);
      break;
    case Type::kBS:
      for (const auto& e : elements.as_binary_set()) target->as_binary_set().erase(e);
      break;
    default:
      break;
  }
}

class Applier {
 public:
  Applier(Item* item, const Item* old_item, bool legacy)
      : item_(item), old_(old_item), legacy_(legacy) {}

  // SET: replace a member or element; an index at or beyond the end appends.
  Status Set(const Path& path, Value value) {
    Parent parent = FindMutableParent(*item_, path);
    const PathElement& last = path.elements.back();
    if (parent.map != nullptr) {
      parent.map->insert_or_assign(last.name, std::move(value));
    } else if (parent.list != nullptr) {
      if (static_cast<uint64_t>(last.index) < parent.list->size()) {
        (*parent.list)[static_cast<size_t>(last.index)] = std::move(value);
      } else {
        parent.list->push_back(std::move(value));
      }
    } else {
      return Invalid(kPathInvalid);
    }
    return Status::Ok();
  }

  // ADD: number addition (absent = 0), set union (absent = empty set), and for legacy
  // AttributeUpdates list concatenation.
  Status Add(const Path& path, const Value& operand) {
    Parent parent = FindMutableParent(*item_, path);
    const PathElement& last = path.elements.back();
    Value* existing = nullptr;
    if (parent.map != nullptr) {
      auto it = parent.map->find(last.name);
      if (it != parent.map->end()) existing = &it->second;
    } else if (parent.list != nullptr) {
      if (static_cast<uint64_t>(last.index) < parent.list->size()) {
        existing = &(*parent.list)[static_cast<size_t>(last.index)];
      }
    } else {
      return Invalid(kPathInvalid);
    }
    if (existing == nullptr) {
      if (IsEmptySet(operand)) return Invalid(messages::kEmptySet);
      if (parent.map != nullptr) {
        parent.map->emplace(last.name, operand);
      } else {
        parent.list->push_back(operand);
      }
      return Status::Ok();
    }
    if (existing->type() != operand.type()) return TypeMismatch();
    switch (operand.type()) {
      case Type::kN: {
        Result<Number> sum = Number::Add(existing->as_number(), operand.as_number());
        if (!sum.ok()) return sum.error();
        *existing = Value(std::move(sum).value());
        return Status::Ok();
      }
      case Type::kL: {
        ValueList& list = existing->as_list();
        list.insert(list.end(), operand.as_list().begin(), operand.as_list().end());
        return Status::Ok();
      }
      default:
        AddToSet(existing, operand);
        return Status::Ok();
    }
  }

  // REMOVE: every index refers to the old item; absent = no-op; on a missing item, always a
  // no-op.
  Status Remove(const Path& path) {
    if (old_ == nullptr) return Status::Ok();
    ConstParent old_parent = FindParent(*old_, path);
    if (!old_parent.valid()) return Invalid(kPathInvalid);
    if (Child(old_parent.map, old_parent.list, path.elements.back()) == nullptr) {
      return Status::Ok();
    }
    Erase(path);
    return Status::Ok();
  }

  // DELETE: set difference; the last element gone removes the attribute (or list element).
  Status Delete(const Path& path, const Value& operand) {
    if (old_ == nullptr) return Status::Ok();
    ConstParent old_parent = FindParent(*old_, path);
    if (!old_parent.valid()) return Invalid(kPathInvalid);
    if (Child(old_parent.map, old_parent.list, path.elements.back()) == nullptr) {
      return Status::Ok();
    }
    Parent parent = FindMutableParent(*item_, path);
    Value* existing = const_cast<Value*>(Child(parent.map, parent.list, path.elements.back()));
    if (existing == nullptr) return Status::Ok();  // removed by an overlapping action
    if (existing->type() != operand.type()) return TypeMismatch();
    DeleteFromSet(existing, operand);
    if (IsEmptySet(*existing)) Erase(path);
    return Status::Ok();
  }

 private:
  void Erase(const Path& path) {
    Parent parent = FindMutableParent(*item_, path);
    const PathElement& last = path.elements.back();
    if (parent.map != nullptr) {
      parent.map->erase(last.name);
    } else if (parent.list != nullptr && static_cast<uint64_t>(last.index) < parent.list->size()) {
      parent.list->erase(parent.list->begin() + static_cast<ptrdiff_t>(last.index));
    }
  }

  Status TypeMismatch() const { return Invalid(legacy_ ? kLegacyTypeMismatch : kWrongType); }

  Item* item_;
  const Item* old_;
  bool legacy_;
};

Status CheckKeyNotUpdated(const UpdateAction& action, const KeySchema& key_schema) {
  const std::string& top = action.path.top();
  if (top == key_schema.partition.name || (key_schema.sort && top == key_schema.sort->name)) {
    return Status::Validation(
        "One or more parameter values were invalid: Cannot update attribute " + top +
        ". This attribute is part of the key");
  }
  return Status::Ok();
}

// The operand of ADD / DELETE (a constant after resolution), with the Resolver's type rules.
Result<const Value*> ActionOperand(const UpdateAction& action, bool legacy) {
  if (action.operand.kind != OperandKind::kValue || action.operand.value == nullptr) {
    return Status::Internal("ADD / DELETE operand is not a resolved value");
  }
  const Value& v = *action.operand.value;
  if (action.kind == UpdateActionKind::kAdd) {
    if (v.type() == Type::kN || v.is_set() || (legacy && v.type() == Type::kL)) return &v;
    return OperatorOperandError("ADD", v);
  }
  if (v.is_set()) return &v;
  return OperatorOperandError("DELETE", v);
}

}  // namespace

Result<UpdateOutcome> ApplyUpdate(const UpdateExpression& update, const Item* old_item,
                                  const KeySchema& key_schema, UpdatedAttributes wanted) {
  const auto& actions = update.actions;
  const bool legacy = update.from_attribute_updates;
  for (const UpdateAction& action : actions) {
    if (action.path.elements.empty() || action.path.elements.front().is_index()) {
      return Status::Internal("update path must start with an attribute name");
    }
    PARTSTORE_RETURN_IF_ERROR(CheckKeyNotUpdated(action, key_schema));
  }

  // 1. Every SET value, and every ADD / DELETE operand check, against the old item.
  Evaluator evaluator(old_item);
  boost::container::small_vector<Value, 8> values(actions.size());
  boost::container::small_vector<const Value*, 8> operands(actions.size(), nullptr);
  bool creates = actions.empty();
  for (size_t i = 0; i < actions.size(); ++i) {
    const UpdateAction& action = actions[i];
    switch (action.kind) {
      case UpdateActionKind::kSet:
        PARTSTORE_RETURN_IF_ERROR(evaluator.Eval(action.operand, &values[i]));
        if (IsEmptySet(values[i])) return Invalid(messages::kEmptySet);
        creates = true;
        break;
      case UpdateActionKind::kAdd:
        creates = true;
        [[fallthrough]];
      case UpdateActionKind::kDelete: {
        PARTSTORE_ASSIGN_OR_RETURN(operands[i], ActionOperand(action, legacy));
        break;
      }
      case UpdateActionKind::kRemove:
        break;
    }
  }

  UpdateOutcome outcome;
  if (old_item == nullptr && !creates) {
    outcome.exists = false;
    return outcome;
  }

  // 2. Build the new item in one ordered pass: the old attributes, minus those a top-level REMOVE
  //    drops, merged by name with the values of the top-level SETs (which replace or add whole
  //    attributes, so the old value is never copied just to be overwritten).
  Item& item = outcome.item;
  {
    auto name_less = [&](size_t a, size_t b) {
      return actions[a].path.top() < actions[b].path.top();
    };
    boost::container::small_vector<size_t, 8> sets, removes;
    for (size_t i = 0; i < actions.size(); ++i) {
      if (actions[i].path.nested()) continue;
      if (actions[i].kind == UpdateActionKind::kSet) sets.push_back(i);
      if (actions[i].kind == UpdateActionKind::kRemove) removes.push_back(i);
    }
    std::stable_sort(sets.begin(), sets.end(), name_less);
    std::sort(removes.begin(), removes.end(), name_less);
    Item::sequence_type merged;
    merged.reserve((old_item != nullptr ? old_item->size() : 0) + sets.size());
    auto old_it = old_item != nullptr ? old_item->begin() : Item::const_iterator();
    const auto old_end = old_item != nullptr ? old_item->end() : Item::const_iterator();
    size_t s = 0, r = 0;
    while (old_it != old_end || s < sets.size()) {
      if (s < sets.size() && (old_it == old_end || actions[sets[s]].path.top() <= old_it->first)) {
        const std::string& name = actions[sets[s]].path.top();
        // A name SET twice (the Resolver rejects that) keeps the last value written.
        while (s + 1 < sets.size() && actions[sets[s + 1]].path.top() == name) ++s;
        merged.emplace_back(name, std::move(values[sets[s]]));
        if (old_it != old_end && old_it->first == name) ++old_it;
        ++s;
        continue;
      }
      while (r < removes.size() && actions[removes[r]].path.top() < old_it->first) ++r;
      if (r == removes.size() || actions[removes[r]].path.top() != old_it->first) {
        merged.emplace_back(old_it->first, old_it->second);
      }
      ++old_it;
    }
    item.adopt_sequence(boost::container::ordered_unique_range, std::move(merged));
  }

  // 3. Apply. Index positions refer to the old item, so SET and ADD (which never shift elements,
  //    only append) go first in ascending path order, which also appends in index order; then
  //    REMOVE and DELETE (which may shift) in descending path order, so that removing an element
  //    never moves one that a later action still addresses.
  boost::container::small_vector<size_t, 8> grows, shrinks;
  bool nested = false;
  for (size_t i = 0; i < actions.size(); ++i) {
    nested |= actions[i].path.nested();
    const UpdateActionKind kind = actions[i].kind;
    (kind == UpdateActionKind::kSet || kind == UpdateActionKind::kAdd ? grows : shrinks)
        .push_back(i);
  }
  if (nested) {
    auto less = [&](size_t a, size_t b) {
      return ComparePaths(actions[a].path, actions[b].path) < 0;
    };
    std::stable_sort(grows.begin(), grows.end(), less);
    std::stable_sort(shrinks.begin(), shrinks.end(),
                     [&](size_t a, size_t b) { return less(b, a); });
  }
  Applier applier(&item, old_item, legacy);
  for (size_t i : grows) {
    const UpdateAction& action = actions[i];
    if (action.kind == UpdateActionKind::kSet && !action.path.nested()) continue;  // merged in
    if (action.kind == UpdateActionKind::kSet) {
      PARTSTORE_RETURN_IF_ERROR(applier.Set(action.path, std::move(values[i])));
    } else {
      PARTSTORE_RETURN_IF_ERROR(applier.Add(action.path, *operands[i]));
    }
  }
  for (size_t i : shrinks) {
    const UpdateAction& action = actions[i];
    if (action.kind == UpdateActionKind::kRemove && !action.path.nested()) continue;  // left out
    if (action.kind == UpdateActionKind::kRemove) {
      PARTSTORE_RETURN_IF_ERROR(applier.Remove(action.path));
    } else {
      PARTSTORE_RETURN_IF_ERROR(applier.Delete(action.path, *operands[i]));
    }
  }

  // 4. ReturnValues: the old or new item projected onto the actions' paths.
  if (wanted != UpdatedAttributes::kNone) {
    const Item* source = wanted == UpdatedAttributes::kUpdatedOld ? old_item : &item;
    if (source != nullptr && !actions.empty()) {
      boost::container::small_vector<const Path*, 8> paths;
      for (const UpdateAction& action : actions) paths.push_back(&action.path);
      std::sort(paths.begin(), paths.end(),
                [](const Path* a, const Path* b) { return ComparePaths(*a, *b) < 0; });
      outcome.attributes = Project(*source, PathSpan(paths.data(), paths.size()));
    }
  }
  return outcome;
}

}  // namespace partstore::expr
