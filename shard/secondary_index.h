// SecondaryIndex: one GSI or LSI of a table — its definition and its entries.
//
// Entries live in the same structure as the table's items: a StripeSet keyed by the hash of the
// encoded index partition key, each partition an ItemCollection sorted by an *entry key* that
// makes entries unique and orders equal index sort keys by table key:
//   GSI with a sort key   E(index sk) . E(table pk) . table sk
//   GSI without one       E(table pk) . table sk
//   LSI                   E(index sk) . table sk       (the partition key is the table's)
// where E(x) is x's order-preserving encoding (core/key_encoding.h) with each 0x00 byte written
// as 0x00 0xFF and followed by the terminator 0x00 0x01. The escaping keeps byte order and makes
// a component never a prefix of another's continuation, so the concatenation sorts by index sort
// key first, then table key; a prefix of an escaped value is the escape of a prefix, so
// begins_with works on entry keys too (SortKeyBounds).
//
// An entry holds the item's projection: INCLUDE = table keys + index keys + the listed
// attributes, ALL = the whole item (the base item's buffer, shared). A KEYS_ONLY entry's
// attributes are the four keys, and its partition and entry key hold them already: it keeps only
// its projected size (StoredItem::OfSize, no heap at all), and a reader rebuilds its item
// from the keys (EntryItem). An item that lacks an index key attribute has no entry (sparse
// index).
//
// Thread safety: the definition is immutable. Entries are guarded by the index's stripes, taken
// by the table's writers after their base stripe and by readers of the index alone (the lock
// order is written once, at the top of shard/table.h: a base stripe before index stripes, one at
// a time outside transactions; index stripes are never held while acquiring a base stripe).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "partstore/key.h"
#include "partstore/status.h"
#include "partstore/table_requests.h"
#include "shard/stripe.h"

namespace partstore {

enum class IndexKind : uint8_t { kGlobal, kLocal };

struct IndexDefinition {
  std::string name;
  IndexKind kind = IndexKind::kGlobal;
  KeySchema key;  // the index's partition (GSI) and sort key; an LSI's partition is the table's
  ProjectionType projection = ProjectionType::kAll;
  std::vector<std::string> non_key_attributes;  // INCLUDE, in request order
  Projection projection_as_requested;
  std::optional<ProvisionedThroughput> provisioned_throughput;  // GSIs of provisioned tables
  std::optional<OnDemandThroughput> on_demand_throughput;       // GSIs of on-demand tables
  std::optional<WarmThroughput> warm_throughput;                // GSIs
};

// Appends `encoded` escaped and terminated (see the header comment).
void AppendEscapedComponent(std::string_view encoded, std::string* out);

class SecondaryIndex {
 public:
  // Entries' memory is reported to `memory` (may be null).
  SecondaryIndex(IndexDefinition definition, KeySchema table_key, size_t stripes,
                 std::shared_ptr<MemoryAccount> memory = nullptr);

  // The definition. Its throughput settings may change (UpdateTable) under the table's index
  // lock held exclusively; readers of it hold that lock shared.
  const IndexDefinition& definition() const { return definition_; }
  // UpdateTable's throughput settings (nothing else in a definition changes).
  void set_throughputs(std::optional<ProvisionedThroughput> provisioned,
                       std::optional<OnDemandThroughput> on_demand,
                       std::optional<WarmThroughput> warm) {
    definition_.provisioned_throughput = provisioned;
    definition_.on_demand_throughput = on_demand;
    definition_.warm_throughput = warm;
  }
  const std::string& name() const { return definition_.name; }
  bool global() const { return definition_.kind == IndexKind::kGlobal; }
  const KeySchema& table_key() const { return table_key_; }

  // The index key attributes of an item being written: present ones must have the key type and
  // be non-empty (DynamoDB rejects the whole write otherwise):
  //   "One or more parameter values were invalid: Type mismatch for Index Key gsk Expected: S
  //    Actual: N IndexName: gsi1"
  //   "One or more parameter values are not valid. A value specified for a secondary index key is
  //    not supported. The AttributeValue for a key attribute cannot contain an empty string
  //    value. IndexName: gsi1, IndexKey: gsk"
  Status CheckItem(const Item& item) const;
  Status CheckItem(const StoredItem& item) const;

  // Where an item's entry lives, or nullopt when the item is not in the index (an index key
  // attribute missing, of the wrong type or empty: an item CheckItem would refuse, held since
  // before the index, is left out). REQUIRES: `item` has the table key attributes;
  // `table_partition` / `table_sort` are its encoded table key (empty sort for hash-only tables).
  struct EntryKey {
    uint64_t hash = 0;
    std::string partition;  // encoded index partition key
    std::string entry;      // the entry key within the partition
    friend bool operator==(const EntryKey&, const EntryKey&) = default;
  };
  std::optional<EntryKey> KeyOf(const Item& item, std::string_view table_partition,
                                std::string_view table_sort) const;
  std::optional<EntryKey> KeyOf(const StoredItem& item, std::string_view table_partition,
                                std::string_view table_sort) const;

  // The entry stored for `item`: with an ALL projection the base item itself (its buffer
  // shared, one more reference); KEYS_ONLY, an item with no attributes and the projection's size;
  // INCLUDE, a buffer of the projected attributes' bytes.
  StoredItem Project(const StoredItem& item) const;
  // Whether entries are kept by their size, their attributes rebuilt from their keys (KEYS_ONLY).
  bool entries_are_keys() const { return definition_.projection == ProjectionType::kKeysOnly; }
  // The item of the entry `entry` stored under `entry_key` in the index partition `partition`
  // (its encoded partition key): `entry` itself, or, when entries_are_keys(), the projection
  // rebuilt from the keys (its bytes and item_size() those of Project's input projected).
  StoredItem EntryItem(std::string_view partition, std::string_view entry_key,
                       const StoredItem& entry) const;
  // The heap an entry's own buffer takes for a projection of `projected_size` bytes, when it does
  // not share the base item's (the memory budget's estimate of a write's growth).
  size_t EntryBufferBytes(size_t projected_size) const;
  // The same as a tree (tests, models).
  Item Project(const Item& item) const;
  // Whether Project(item) shares the item's buffer (ALL, or INCLUDE with every attribute
  // projected): memory counts a shared buffer once, in the table.
  bool SharesBuffer(const StoredItem& item) const;
  // The DynamoDB size of Project(item), without building the entry.
  size_t ProjectedSize(const StoredItem& item) const;
  // Whether `a` and `b` project to equal entries (compared in place, without building them).
  bool SameProjection(const StoredItem& a, const StoredItem& b) const;
  // Whether `path_top` is an attribute this index's entries carry.
  bool Projects(std::string_view attribute) const;

  StripeSet& stripes() { return stripes_; }
  const StripeSet& stripes() const { return stripes_; }
  int64_t item_count() const;
  int64_t size_bytes() const;

 private:
  template <typename ItemT>
  Status CheckItemImpl(const ItemT& item) const;
  template <typename ItemT>
  std::optional<EntryKey> KeyOfImpl(const ItemT& item, std::string_view table_partition,
                                    std::string_view table_sort) const;

  IndexDefinition definition_;
  KeySchema table_key_;
  std::vector<std::string> projected_;  // sorted: keys + non-key attributes (not for ALL)
  std::vector<std::string_view> projected_views_;  // the same, for ProjectStoredItem
  // KEYS_ONLY: the keys in the order the entry key holds them (index sort key, then for a GSI the
  // index partition key and the table's, for an LSI the table's; then the table sort key), each
  // with where its encoding is, and its place in the rebuilt item's name order (-1 for a name an
  // earlier key has).
  struct EntryKeyPart {
    enum class Source : uint8_t {
      kPartition,  // the index partition's encoded key
      kComponent,  // the entry key's next escaped component
      kRest,       // what follows the components (the table sort key)
    };
    const KeyAttribute* attribute;
    Source source;
    int place;
  };
  std::vector<EntryKeyPart> entry_key_parts_;
  size_t entry_key_attributes_ = 0;  // distinct names among them
  StripeSet stripes_;
};

}  // namespace partstore
