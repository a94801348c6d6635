// Projecting a StoredItem onto some of its top-level attributes, without building a tree: how
// the engine makes a KEYS_ONLY or INCLUDE index entry, a stream record's keys and a key for the
// write-ahead log. An engine helper, not part of the public API (partstore/stored_item.h).
//
// Thread safety: a pure function of immutable values; thread-safe.
#pragma once

#include <string_view>
#include <vector>

#include "partstore/stored_item.h"

namespace partstore {

// A StoredItem holding only the top-level attributes of `source` named in `names` (any order;
// names `source` lacks are skipped), in a new buffer: the chosen attributes' bytes are copied as
// they are. When every attribute of `source` is named, it returns `source` itself (one more
// reference to its buffer, no copy). REQUIRES: !source.empty().
StoredItem ProjectStoredItem(const StoredItem& source, std::vector<std::string_view> names);

}  // namespace partstore
