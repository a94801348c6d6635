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
  bool read = false;   // its old value matters (an operand, a nested target, ADD, DELETE, ...)
  bool named = false;  // an action or operand names it (not only `also`)
};
using InvolvedList = boost::container::small_vector<Involved, 8>;

void AddOperandPaths(const Operand& operand, InvolvedList* out) {
  if (operand.kind == OperandKind::kPath && !operand.path.elements.empty()) {
    out->push_back({operand.path.top(), true, true});
  }
  for (const Operand& arg : operand.args) AddOperandPaths(arg, out);
}

// Every top-level attribute the update and `also` involve, sorted by name, each once.
InvolvedList InvolvedAttributes(const UpdateExpression& update, UpdatedAttributes wanted,
                                std::span<const std::string_view> also) {
  InvolvedList out;
  for (const UpdateAction& action : update.actions) {
    // A whole attribute SET or REMOVE does not read it; UPDATED_OLD shows the old values.
    const bool whole = !action.path.nested() && (action.kind == UpdateActionKind::kSet ||
                                                 action.kind == UpdateActionKind::kRemove);
    out.push_back({action.path.top(), !whole || wanted == UpdatedAttributes::kUpdatedOld, true});
    AddOperandPaths(action.operand, &out);
  }
  for (std::string_view name : also) out.push_back({name, true, false});
  std::sort(out.begin(), out.end(),
            [](const Involved& a, const Involved& b) { return a.name < b.name; });
  InvolvedList merged;
  for (const Involved& each : out) {
    if (!merged.empty() && merged.back().name == each.name) {
      merged.back().read |= each.read;
      merged.back().named |= each.named;
    } else {
      merged.push_back(each);
    }
  }
  return merged;
}

}  // namespace

Result<StoredUpdateOutcome> ApplyUpdateToStored(const UpdateExpression& update,
                                                const StoredItem& old, const KeySchema& key_schema,
                                                UpdatedAttributes wanted,
                                                std::span<const std::string_view> also) {
  const InvolvedList involved = InvolvedAttributes(update, wanted, also);
  // The old values that matter, as a tree (in name order, so each insert is at the end).
  Item before;
  for (const Involved& attribute : involved) {
    if (!attribute.read) continue;
    if (std::optional<ValueView> value = old.Find(attribute.name)) {
      before.emplace_hint(before.end(), std::string(attribute.name), value->ToValue());
    }
  }
  PARTSTORE_ASSIGN_OR_RETURN(UpdateOutcome outcome,
                             ApplyUpdate(update, &before, key_schema, wanted));
  // Names and values of what changed, and a first size check (these attributes alone).
  PARTSTORE_RETURN_IF_ERROR(ValidateItem(outcome.item));

  boost::container::small_vector<AttributeChange, 8> changes;
  for (const Involved& attribute : involved) {
    if (!attribute.named) continue;
    auto it = outcome.item.find(attribute.name);
    changes.push_back({attribute.name, it != outcome.item.end() ? &it->second : nullptr});
  }
  StoredUpdateOutcome out;
  out.item = PatchStoredItem(old, {changes.data(), changes.size()});
  if (out.item.item_size() > kMaxItemSize) {
    return Status::Validation(std::string(messages::kItemTooLarge));
  }
  out.touched = std::move(outcome.item);
  out.attributes = std::move(outcome.attributes);
  return out;
}

}  // namespace partstore::expr
