// Attribute: a top-level attribute of a tree item (a pointer, null when missing) or of a stored
// item (a view, nullopt when missing), so that one template serves both forms (key encoding,
// index key checks, projections).
#pragma once

#include <optional>
#include <string_view>

#include "partstore/item.h"
#include "partstore/stored_item.h"

namespace partstore {

inline const Value* Attribute(const Item& item, std::string_view name) {
  auto it = item.find(name);
  return it == item.end() ? nullptr : &it->second;
}
inline std::optional<ValueView> Attribute(const StoredItem& item, std::string_view name) {
  return item.Find(name);
}

}  // namespace partstore
