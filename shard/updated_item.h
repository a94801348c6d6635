// What an update makes of the item it changes: UpdateItem's and a transaction's Update action's
// new version, validated, with its index keys checked (shard/table_items.cc,
// shard/table_transaction.cc).
//
// An existing item is changed in its encoding: the attributes the update names are decoded,
// changed and written beside the other attributes' bytes (expr::ApplyUpdateToStored). A new item,
// and one write sharding rewrites (its rewriter takes a tree), is built as a tree and encoded.
//
// Thread safety: a pure function of its arguments that takes no lock. Its callers run it with
// the item's base stripe held exclusively (Table::UpdateItem, Table::StageWrite; the lock order
// is in shard/table.h), and so does the rewriter it calls.
#pragma once

#include "core/expr/ast.h"
#include "core/expr/update.h"
#include "partstore/item.h"
#include "partstore/key.h"
#include "partstore/status.h"
#include "partstore/stored_item.h"
#include "shard/table.h"

namespace partstore {

struct UpdatedItem {
  StoredItem item;  // empty: the update made nothing (REMOVE on a missing item)
  Item attributes;  // UPDATED_OLD / UPDATED_NEW, when asked for
};

// The version `update` makes of `existing` (null: no item; `key` then gives the new item its key
// attributes). Errors: the update's, ValidateItem's (over 400 KB: "Item size to update has
// exceeded the maximum allowed size"), an index key's type (Table::CheckIndexKeys), the
// rewriter's.
Result<UpdatedItem> UpdateItemVersion(const expr::UpdateExpression& update,
                                      const StoredItem* existing, const Item& key,
                                      const KeySchema& key_schema, const Table::IndexList& indexes,
                                      expr::UpdatedAttributes wanted, const ItemRewriter* rewrite);

}  // namespace partstore
