#include "tools/bench/items.h"

#include <string>

namespace partstore::bench {

Item ToItem(const BenchItem& item) {
  Item out;
  out.reserve(item.attributes.size());
  for (const Attribute& a : item.attributes) out.emplace(a.name, Value::String(a.value));
  return out;
}

Item KeyOf(const TableSpec& table, ItemKey key) {
  Item out;
  out.reserve(table.sort_key.empty() ? 1 : 2);
  out.emplace(table.partition_key, Value::String(std::string(key.partition)));
  if (!table.sort_key.empty()) out.emplace(table.sort_key, Value::String(std::string(key.sort)));
  return out;
}

}  // namespace partstore::bench
