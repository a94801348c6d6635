#include "core/expr/update_stored.h"

#include <algorithm>
#include <boost/container/small_vector.hpp>
#include <optional>
#include <string>
#include <utility>

#include "core/stored_item_patch.h"

namespace partstore::expr {
namespace {

// A top-level attribute the update involves.
struct Involved {
  std::string_view name;
  bool read = false;  // its old value matters (an operand, a nested target, ADD, DELETE, ...)
};
using InvolvedList = boost::container::small_vector<Involved, 8>;

void AddOperandPaths(const Operand& operand, InvolvedList* out) {
  if (operand.kind == OperandKind::kPath && !operand.path.elements.empty()) {
    out->push_back({operand.path.top(), true});
  }
  for (const Operand& arg : operand.args) AddOperandPaths(arg, out);
}

// Every top-level attribute the update involves, sorted by name, each once.
InvolvedList InvolvedAttributes(const UpdateExpression& update, UpdatedAttributes wanted) {
  InvolvedList out;
  for (const UpdateAction& action : update.actions) {
    // A whole attribute SET or REMOVE does not read it; UPDATED_OLD shows the old values.
    const bool whole = !action.path.nested() && (action.kind == UpdateActionKind::kSet ||
                                                 action.kind == UpdateActionKind::kRemove);
    out.push_back({action.path.top(), !whole || wanted == UpdatedAttributes::kUpdatedOld});
    AddOperandPaths(action.operand, &out);
  }
  std::sort(out.begin(), out.end(),
            [](const Involved& a, const Involved& b) { return a.name < b.name; });
  InvolvedList merged;
  for (const Involved& each : out) {
    if (!merged.empty() && merged.back().name == each.name) {
      merged.back().read |= each.read;
    } else {
      merged.push_back(each);
    }
  }
  return merged;
}

using ChangeList = boost::container::small_vector<AttributeChange, 8>;

// The common update, taken without ApplyUpdate: every action SETs a whole attribute (not a key
// attribute) to a constant or REMOVEs one, and neither UPDATED_OLD nor UPDATED_NEW is asked for.
// Its changes are then the constants themselves, in name order (the Resolver refuses two actions
// on one path). False: the update is not of that kind.
bool WholeAttributeChanges(const UpdateExpression& update, const KeySchema& key_schema,
                           UpdatedAttributes wanted, ChangeList* changes) {
  if (wanted != UpdatedAttributes::kNone) return false;
  for (const UpdateAction& action : update.actions) {
    if (action.path.elements.size() != 1 || action.path.elements.front().is_index()) return false;
    const std::string& name = action.path.top();
    if (name == key_schema.partition.name || (key_schema.sort && name == key_schema.sort->name)) {
      return false;  // ApplyUpdate's error
    }
    if (action.kind == UpdateActionKind::kRemove) {
      changes->push_back({name, nullptr});
      continue;
    }
    const Operand& operand = action.operand;
    if (action.kind != UpdateActionKind::kSet || operand.kind != OperandKind::kValue ||
        operand.value == nullptr || operand.value->is_set()) {
      return false;  // computed values, ADD, DELETE; sets (ApplyUpdate refuses an empty one)
    }
    changes->push_back({name, operand.value});
  }
  std::sort(changes->begin(), changes->end(),
            [](const AttributeChange& a, const AttributeChange& b) { return a.name < b.name; });
  for (size_t i = 1; i < changes->size(); ++i) {
    if ((*changes)[i - 1].name == (*changes)[i].name) return false;  // a hand-built tree
  }
  return true;
}

// ValidateItem's checks of WholeAttributeChanges' new values, in its order (by name), and a first
// size check (these attributes alone), before any of them is encoded.
Status CheckWholeAttributeChanges(const ChangeList& changes) {
  size_t changed_size = 0;
  for (const AttributeChange& change : changes) {
    if (change.value == nullptr) continue;
    PARTSTORE_RETURN_IF_ERROR(CheckAttributeName(change.name));
    PARTSTORE_RETURN_IF_ERROR(ValidateValue(*change.value));
    changed_size += AttributeSize(change.name, *change.value);
  }
  if (changed_size > kMaxItemSize) return Status::Validation(std::string(messages::kItemTooLarge));
  return Status::Ok();
}

}  // namespace

std::optional<InPlaceUpdate> PlanUpdateInPlace(const UpdateExpression& update,
                                               const StoredItem& item, const KeySchema& key_schema,
                                               UpdatedAttributes wanted) {
  // Built where it is returned: no move of the plan's small vectors (g++ 12 warns falsely,
  // -Wstringop-overread, on the move of their inline storage).
  std::optional<InPlaceUpdate> out(std::in_place);
  if (!WholeAttributeChanges(update, key_schema, wanted, &out->changes) ||
      !CheckWholeAttributeChanges(out->changes).ok()) {
    return std::nullopt;
  }
  // The item keeps its size, so the whole item's 400 KB check holds as it did.
  std::optional<InPlacePatch> plan =
      PlanInPlacePatch(item, {out->changes.data(), out->changes.size()});
  if (!plan) return std::nullopt;
  out->plan = std::move(*plan);
  return out;
}

void ApplyUpdateInPlace(StoredItem& item, const InPlaceUpdate& update) {
  PatchStoredItemInPlace(item, {update.changes.data(), update.changes.size()}, update.plan);
}

Result<StoredUpdateOutcome> ApplyUpdateToStored(const UpdateExpression& update,
                                                const StoredItem& old, const KeySchema& key_schema,
                                                UpdatedAttributes wanted,
                                                std::span<const std::string_view> also) {
  StoredUpdateOutcome out;
  ChangeList changes;
  UpdateOutcome outcome;  // the general path's: the new values of what the update involves
  if (WholeAttributeChanges(update, key_schema, wanted, &changes)) {
    PARTSTORE_RETURN_IF_ERROR(CheckWholeAttributeChanges(changes));
  } else {
    changes.clear();
    const InvolvedList involved = InvolvedAttributes(update, wanted);
    // The old values that matter, as a tree (in name order, so each insert is at the end).
    Item before;
    for (const Involved& attribute : involved) {
      if (!attribute.read) continue;
      if (std::optional<ValueView> value = old.Find(attribute.name)) {
        before.emplace_hint(before.end(), std::string(attribute.name), value->ToValue());
      }
    }
    PARTSTORE_ASSIGN_OR_RETURN(outcome, ApplyUpdate(update, &before, key_schema, wanted));
    // Names and values of what changed, and a first size check (these attributes alone).
    PARTSTORE_RETURN_IF_ERROR(ValidateItem(outcome.item));
    for (const Involved& attribute : involved) {
      auto it = outcome.item.find(attribute.name);
      changes.push_back({attribute.name, it != outcome.item.end() ? &it->second : nullptr});
    }
  }
  out.item = PatchStoredItem(old, {changes.data(), changes.size()});
  if (out.item.item_size() > kMaxItemSize) {
    return Status::Validation(std::string(messages::kItemTooLarge));
  }
  for (std::string_view name : also) {
    if (std::optional<ValueView> value = out.item.Find(name)) {
      out.touched.insert_or_assign(std::string(name), value->ToValue());
    }
  }
  out.attributes = std::move(outcome.attributes);
  return out;
}

}  // namespace partstore::expr
