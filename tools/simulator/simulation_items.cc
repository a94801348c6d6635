// Item building (simulation_internal.h): a request's key and item, expanded from the operation's
// templates with the request's values, and padded with the "data" attribute (kPaddingAttribute)
// to the size drawn from the operation's SizeDistribution.
#include <algorithm>
#include <cmath>
#include <string>

#include "tools/simulator/simulation_internal.h"

namespace partstore::sim::internal {

void PadTo(Item& item, int64_t bytes, Padding padding) {
  item.erase(std::string(kPaddingAttribute));
  const int64_t have =
      static_cast<int64_t>(ItemSize(item)) + static_cast<int64_t>(kPaddingAttribute.size());
  if (bytes > have) {
    std::string data;
    FillPadding(padding, static_cast<size_t>(bytes - have), data);
    item.insert_or_assign(std::string(kPaddingAttribute), Value(std::move(data)));
  }
}

int64_t DrawSize(const SizeDistribution& size, Random& random) {
  switch (size.kind) {
    case SizeDistribution::Kind::kFixed:
      return size.bytes;
    case SizeDistribution::Kind::kUniform:
      return size.min +
             static_cast<int64_t>(random.Below(static_cast<uint64_t>(size.max - size.min + 1)));
    case SizeDistribution::Kind::kNormal: {
      const double drawn = size.mean + size.stddev * random.Normal();
      return std::clamp<int64_t>(static_cast<int64_t>(std::llround(drawn)), size.min, size.max);
    }
  }
  return size.bytes;
}

Item Driver::KeyOf(const Entry& entry, const RequestSpec& spec) {
  Item key;
  Expand(entry.op->key, spec, scratch_);
  key.insert_or_assign(entry.table_keys.partition, Value(scratch_));
  if (entry.table_keys.sort && entry.op->sort) {
    Expand(*entry.op->sort, spec, scratch_);
    key.insert_or_assign(*entry.table_keys.sort, Value(scratch_));
  }
  return key;
}

Item Driver::ItemOf(const Entry& entry, const RequestSpec& spec) {
  Item item = KeyOf(entry, spec);
  for (const auto& [name, value] : entry.op->attributes) {
    Expand(value, spec, scratch_);
    item.insert_or_assign(name, Value(scratch_));
  }
  const SizeDistribution size = entry.op->size.value_or(SizeDistribution{});
  PadTo(item, spec.size > 0 ? spec.size : DrawSize(size, random_), entry.padding);
  return item;
}

// Sets `item`'s string attribute `name` to the expansion of `t`, reusing its buffer.
void Driver::SetString(Item& item, const std::string& name, const Template& t,
                       const RequestSpec& spec) {
  auto it = item.find(name);
  if (it == item.end()) it = item.insert_or_assign(name, Value(std::string())).first;
  std::string* value = it->second.if_string();
  value->clear();
  t.Expand({spec.key, spec.item, spec.seq, spec.time_millis}, *value);
}

}  // namespace partstore::sim::internal
