#include "shard/updated_item.h"

#include <boost/container/small_vector.hpp>
#include <optional>
#include <string_view>
#include <utility>

#include "core/expr/update_stored.h"
#include "shard/secondary_index.h"

namespace partstore {
namespace {

// UpdateItem's message for an item over 400 KB.
Status UpdateError(Status status) {
  if (status.message() == messages::kItemTooLarge) {
    return Status::Validation("Item size to update has exceeded the maximum allowed size");
  }
  return status;
}

}  // namespace

Result<UpdatedItem> UpdateItemVersion(const expr::UpdateExpression& update,
                                      const StoredItem* existing, const Item& key,
                                      const KeySchema& key_schema, const Table::IndexList& indexes,
                                      expr::UpdatedAttributes wanted, const ItemRewriter* rewrite) {
  UpdatedItem out;
  if (existing != nullptr && rewrite == nullptr) {
    // The indexes' key attributes are decoded too: their check reads them even when the update
    // leaves them alone (an item held since before its index may carry one of the wrong type).
    boost::container::small_vector<std::string_view, 4> index_keys;
    for (const auto& index : indexes) {
      const KeySchema& index_key = index->definition().key;
      index_keys.push_back(index_key.partition.name);
      if (index_key.sort) index_keys.push_back(index_key.sort->name);
    }
    Result<expr::StoredUpdateOutcome> outcome = expr::ApplyUpdateToStored(
        update, *existing, key_schema, wanted, {index_keys.data(), index_keys.size()});
    if (!outcome.ok()) return UpdateError(outcome.status());
    PARTSTORE_RETURN_IF_ERROR(Table::CheckIndexKeys(indexes, outcome->touched));
    out.item = std::move(outcome->item);
    out.attributes = std::move(outcome->attributes);
    return out;
  }
  std::optional<Item> old_tree;
  if (existing != nullptr) old_tree = existing->ToItem();
  PARTSTORE_ASSIGN_OR_RETURN(
      expr::UpdateOutcome outcome,
      expr::ApplyUpdate(update, old_tree ? &*old_tree : nullptr, key_schema, wanted));
  out.attributes = std::move(outcome.attributes);
  if (!outcome.exists) return out;
  if (existing == nullptr) {
    for (const auto& [name, value] : key) outcome.item.insert_or_assign(name, value);
  }
  if (rewrite != nullptr) PARTSTORE_RETURN_IF_ERROR(rewrite->Rewrite(&outcome.item));
  if (Status valid = ValidateItem(outcome.item); !valid.ok()) return UpdateError(valid);
  PARTSTORE_RETURN_IF_ERROR(Table::CheckIndexKeys(indexes, outcome.item));
  out.item = StoredItem::Encode(outcome.item);
  return out;
}

}  // namespace partstore
