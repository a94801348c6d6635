// ModelIndex: a trivially correct model of one secondary index (GSI or LSI), computed from the
// base items of a ModelTable (model_table.h), for the model-based index tests
// (index_model_test.cc). Header-only.
//
// Nothing here shares code with the engine's index (no entry keys, no stripes): an index is
// recomputed from scratch whenever it is needed.
//
// Rules modelled (shared/reference/dynamodb-semantics.md §2.2, §2.4, §4.3-4.5):
//   - An item is in the index when it has every index key attribute (sparse index) -- with values
//     the index accepts, which matters for items an UpdateTable backfill found; its entry is
//     its projection: KEYS_ONLY = table keys + index keys, INCLUDE = those + the listed
//     attributes it has, ALL = the whole item.
//   - Entries of one index partition (a GSI's partition key value; an LSI's is the table's) are
//     ordered by the index sort key, then -- the tie order, which DynamoDB does not document and
//     which is the engine's entry-key order (shard/secondary_index.h) -- by the table partition
//     key compared as its order-preserving encoding's bytes (GSIs only: an LSI partition has one
//     table partition key), then by the table sort key.
//   - Query on an index: one index partition in that order (reversed when ScanIndexForward is
//     false), after ExclusiveStartKey (index keys + table keys, need not exist); Limit counts
//     entries read; the 1 MB budget is on entry sizes; LastEvaluatedKey is the last entry's index
//     keys and table keys. Capacity: entry sizes summed, rounded up to 4 KB once, x0.5 when
//     eventually consistent (GSI reads always are). An LSI read of ALL_ATTRIBUTES with a partial
//     projection also fetches each base item, each rounded up to 4 KB on its own.
//   - Write capacity, per index, in 1 KB units of the entry: an item entering the index 1 put;
//     leaving it 1 delete; changing its index key 1 delete + 1 put; staying with a changed entry
//     one update of max(old, new) entry size; an unchanged entry or no entry before or after 0.
//
// Thread safety: not thread-safe.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/capacity_units.h"
#include "core/key_encoding.h"
#include "partstore/item.h"
#include "partstore/key.h"
#include "partstore/table_requests.h"
#include "partstore/value.h"
#include "tests/shard/model_table.h"

namespace partstore::testing {

// The test's view of one index definition.
struct ModelIndexSpec {
  std::string name;
  bool global = true;
  KeyAttribute partition;  // an LSI's is the table's partition key
  std::optional<KeyAttribute> sort;
  ProjectionType projection = ProjectionType::kAll;
  std::vector<std::string> include;  // INCLUDE's NonKeyAttributes
};

class ModelIndex {
 public:
  using Partitions = std::map<Value, std::vector<Item>, ValueLess>;

  ModelIndex(ModelIndexSpec spec, KeySchema table)
      : spec_(std::move(spec)), table_(std::move(table)) {}

  const ModelIndexSpec& spec() const { return spec_; }
  const std::string& name() const { return spec_.name; }
  bool global() const { return spec_.global; }

  // The index key attributes, partition first.
  std::vector<const KeyAttribute*> KeyAttributes() const {
    std::vector<const KeyAttribute*> out{&spec_.partition};
    if (spec_.sort) out.push_back(&*spec_.sort);
    return out;
  }

  // Whether a written item is acceptable to this index: each index key attribute it has is of
  // the key's type and not empty (else DynamoDB rejects the whole write).
  bool Accepts(const Item& item) const {
    for (const KeyAttribute* a : KeyAttributes()) {
      auto it = item.find(a->name);
      if (it == item.end()) continue;
      const Value& v = it->second;
      switch (a->type) {
        case KeyType::kString:
          if (!v.is(Type::kS) || v.as_string().empty()) return false;
          break;
        case KeyType::kNumber:
          if (!v.is(Type::kN)) return false;
          break;
        case KeyType::kBinary:
          if (!v.is(Type::kB) || v.as_binary().empty()) return false;
          break;
      }
    }
    return true;
  }

  bool Contains(const Item& item) const {
    for (const KeyAttribute* a : KeyAttributes()) {
      if (!item.contains(a->name)) return false;
    }
    return true;
  }

  // Whether the item has an entry: every index key attribute, acceptable values. (A base item
  // that is not Accepted is one an index created by UpdateTable found there and left out.)
  bool In(const Item& item) const { return Contains(item) && Accepts(item); }

  // Table keys + index keys of an item or entry (an index LastEvaluatedKey).
  Item KeyOf(const Item& entry) const {
    Item out{{table_.partition.name, entry.at(table_.partition.name)}};
    if (table_.sort) out.insert_or_assign(table_.sort->name, entry.at(table_.sort->name));
    for (const KeyAttribute* a : KeyAttributes()) out.insert_or_assign(a->name, entry.at(a->name));
    return out;
  }

  Item Project(const Item& item) const {
    if (spec_.projection == ProjectionType::kAll) return item;
    Item out = KeyOf(item);
    if (spec_.projection == ProjectionType::kInclude) {
      for (const std::string& name : spec_.include) {
        if (auto it = item.find(name); it != item.end()) out.insert_or_assign(name, it->second);
      }
    }
    return out;
  }

  // Whether entries carry `attribute`.
  bool Projects(const std::string& attribute) const {
    if (spec_.projection == ProjectionType::kAll) return true;
    if (attribute == table_.partition.name || (table_.sort && attribute == table_.sort->name)) {
      return true;
    }
    for (const KeyAttribute* a : KeyAttributes()) {
      if (a->name == attribute) return true;
    }
    return spec_.projection == ProjectionType::kInclude &&
           std::find(spec_.include.begin(), spec_.include.end(), attribute) != spec_.include.end();
  }

  const Value& PartitionOf(const Item& entry) const { return entry.at(spec_.partition.name); }

  // The order of entries (or keys) within one index partition.
  bool Before(const Item& a, const Item& b) const {
    if (spec_.sort) {
      const auto c = Compare(a.at(spec_.sort->name), b.at(spec_.sort->name));
      if (c != 0) return c < 0;
    }
    if (spec_.global) {
      const std::string ea = EncodeKey(a.at(table_.partition.name));
      const std::string eb = EncodeKey(b.at(table_.partition.name));
      if (ea != eb) return ea < eb;  // std::string compares bytes as unsigned char
    }
    return table_.sort && Compare(a.at(table_.sort->name), b.at(table_.sort->name)) < 0;
  }

  // The index computed from the base items: partition value -> entries in order.
  Partitions Build(const std::vector<Item>& base) const {
    Partitions out;
    for (const Item& item : base) {
      // Accepts: an index created by UpdateTable leaves out the items it would refuse.
      if (In(item)) out[PartitionOf(item)].push_back(Project(item));
    }
    for (auto& [partition, entries] : out) {
      std::sort(entries.begin(), entries.end(),
                [this](const Item& a, const Item& b) { return Before(a, b); });
    }
    return out;
  }

  // The write charge of one item changing from `old_item` to `new_item` (either null), in half
  // units (2 per 1 KB write unit).
  int64_t WriteHalfUnits(const Item* old_item, const Item* new_item) const {
    const bool was = old_item != nullptr && In(*old_item);
    const bool is = new_item != nullptr && In(*new_item);
    auto units = [](const Item& entry) {
      return 2 * WriteUnits(ItemSize(entry), WriteKind::kStandard);
    };
    if (!was && !is) return 0;
    if (was && is && SameIndexKey(*old_item, *new_item)) {
      const Item old_entry = Project(*old_item), new_entry = Project(*new_item);
      if (old_entry == new_entry) return 0;
      return 2 *
             WriteUnits(std::max(ItemSize(old_entry), ItemSize(new_entry)), WriteKind::kStandard);
    }
    return (was ? units(Project(*old_item)) : 0) + (is ? units(Project(*new_item)) : 0);
  }

  // The kind of change, for coverage counts: 0 none, 1 enter, 2 leave, 3 move, 4 update.
  int ChangeKind(const Item* old_item, const Item* new_item) const {
    const bool was = old_item != nullptr && In(*old_item);
    const bool is = new_item != nullptr && In(*new_item);
    if (!was && !is) return 0;
    if (!was) return 1;
    if (!is) return 2;
    if (!SameIndexKey(*old_item, *new_item)) return 3;
    return Project(*old_item) == Project(*new_item) ? 0 : 4;
  }

  // One page of a Query of `partition`, as an index read returns it.
  //   filter: applied to what is returned (entry, or fetched base item); null for none.
  //   fetch:  non-null for an LSI read of ALL_ATTRIBUTES with a partial projection: the base
  //           item of an entry.
  struct QueryParams {
    ModelSortCondition sort;
    bool forward = true;
    std::optional<int32_t> limit;
    std::optional<Item> exclusive_start_key;
    bool count_only = false;
    bool consistent_read = false;
    std::function<bool(const Item&)> filter;
    std::function<const Item*(const Item&)> fetch;
  };
  ModelPage Query(const Partitions& index, const Value& partition, const QueryParams& q) const {
    std::vector<const Item*> range;
    if (auto p = index.find(partition); p != index.end()) {
      for (const Item& entry : p->second) {
        if (spec_.sort && !q.sort.Matches(entry.at(spec_.sort->name))) continue;
        if (q.exclusive_start_key && (q.forward ? !Before(*q.exclusive_start_key, entry)
                                                : !Before(entry, *q.exclusive_start_key))) {
          continue;
        }
        range.push_back(&entry);
      }
    }
    if (!q.forward) std::reverse(range.begin(), range.end());
    const ReadConsistency consistency =
        q.consistent_read ? ReadConsistency::kStrong : ReadConsistency::kEventual;
    ModelPage page;
    uint64_t bytes = 0;
    int64_t fetch_half_units = 0;
    for (const Item* entry : range) {
      ++page.scanned_count;
      bytes += ItemSize(*entry);
      const Item* returned = entry;
      if (q.fetch) {
        returned = q.fetch(*entry);
        fetch_half_units += ReadHalfUnits(returned ? ItemSize(*returned) : 0, consistency);
      }
      if (returned != nullptr && (!q.filter || q.filter(*returned))) {
        ++page.count;
        if (!q.count_only) page.items.push_back(*returned);
      }
      if ((q.limit && page.scanned_count >= *q.limit) || bytes >= kMaxPageBytes) {
        page.last_evaluated_key = KeyOf(*entry);
        break;
      }
    }
    page.half_units = ReadHalfUnits(bytes, consistency) + fetch_half_units;
    return page;
  }

 private:
  bool SameIndexKey(const Item& a, const Item& b) const {
    for (const KeyAttribute* k : KeyAttributes()) {
      if (Compare(a.at(k->name), b.at(k->name)) != 0) return false;
    }
    return true;
  }

  ModelIndexSpec spec_;
  KeySchema table_;
};

}  // namespace partstore::testing
