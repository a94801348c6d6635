// Stage 3 for projections: the part of an item a ProjectionExpression (or AttributesToGet)
// selects. The result keeps the hierarchy: `a.b[2].c` yields {a: {b: [ {c: ...} ]}}; list
// elements selected by index are gathered in index order; absent paths are omitted; an item with
// none of the paths projects to an empty item.
//
// Thread safety: pure functions; thread-safe for const arguments.
#pragma once

#include "core/expr/ast.h"
#include "partstore/item.h"
#include "partstore/stored_item.h"

namespace partstore::expr {

// REQUIRES: `projection` is resolved.
Item Project(const ProjectionExpression& projection, const Item& item);
// The same read from a stored item's encoding: only the selected values are built.
Item Project(const ProjectionExpression& projection, const StoredItem& item);
// The same as a stored item: when every path is a top-level attribute, their bytes copied as
// they are (StoredItem::Project: the source itself when all are chosen); else the projected
// tree, encoded. REQUIRES: !item.empty().
StoredItem ProjectStored(const ProjectionExpression& projection, const StoredItem& item);

}  // namespace partstore::expr
