// Target and Session: what `partstore bench` drives. A target is one system under test (the
// in-process engine, a bare concurrent hash map, Redis, a DynamoDB endpoint over HTTP); the
// workloads (workloads.h) are written once against the five operations a Session offers, and every
// target implements them with its own idiom:
//
//   operation  DynamoDB (engine, wire)          Redis                      bare map
//   Get        GetItem                          HGETALL                    find + copy
//   Put        PutItem                          HSET (+ ZADD to indexes)   insert / assign
//   Update     UpdateItem SET #a = :v           HSET one field             assign one field
//   Query      Query pk [AND begins_with(sk)]   ZRANGEBYLEX + HGETALLs     ordered map walk
//   Scan       Scan Limit, ExclusiveStartKey    ZRANGEBYLEX + HGETALLs     hash-order walk
//
// Items are flat: every attribute is a string (DynamoDB type S). A table has a partition key, an
// optional sort key and an optional GSI (ALL projection) with its own partition and sort key.
//
// Thread safety: a Target is shared by the runner's threads (NewSession may be called from any
// thread); a Session is used by one thread at a time, and each thread gets its own.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "partstore/status.h"

namespace partstore::bench {

struct Attribute {
  std::string name;
  std::string value;
};

// An item: its key attributes are among its attributes, by name.
struct BenchItem {
  std::vector<Attribute> attributes;
  // The value of `name`, or empty.
  std::string_view Get(std::string_view name) const {
    for (const Attribute& a : attributes) {
      if (a.name == name) return a.value;
    }
    return {};
  }
};

struct TableSpec {
  std::string name;
  std::string partition_key;
  std::string sort_key;  // empty: none
  // One global secondary index (ALL projection), or gsi_name empty: none. The GSI always has a
  // sort key.
  std::string gsi_name;
  std::string gsi_partition_key;
  std::string gsi_sort_key;
};

struct ItemKey {
  std::string_view partition;
  std::string_view sort;  // empty when the table has no sort key
};

// What a read returned: how many items and the bytes of their attribute names and values (so a
// target that returns less than the others shows).
//
// Optionally also what it returned, for a caller that follows the items (bench/graph_benchmark.cc
// walks adjacency lists through the wire target): with `values` set, each item's top-level string
// (S) value of the attribute named `collect` is appended to *values, in the order read. Unset (what
// `partstore bench` does), nothing is kept: a null check per attribute is all it adds.
struct ReadOutcome {
  int items = 0;
  size_t bytes = 0;
  std::string_view collect;
  std::vector<std::string>* values = nullptr;
  // Counts one top-level attribute: `value` is the text the target counts for it, `is_s` whether
  // it is an S (only an S is collected).
  void Add(std::string_view name, std::string_view value, bool is_s = true) {
    bytes += name.size() + value.size();
    if (values != nullptr && is_s && name == collect) values->emplace_back(value);
  }
};

class Session {
 public:
  virtual ~Session() = default;
  // The item with `key`; not found is OK with outcome->items == 0.
  virtual Status Get(const TableSpec& table, ItemKey key, ReadOutcome* outcome) = 0;
  // Creates or replaces the item.
  virtual Status Put(const TableSpec& table, const BenchItem& item) = 0;
  // Sets one non-key attribute of an existing item.
  virtual Status Update(const TableSpec& table, ItemKey key, std::string_view attribute,
                        std::string_view value) = 0;
  // Items whose partition key (on the table, or on its GSI when `on_gsi`) is `partition`, sort key
  // beginning with `sort_prefix` (empty: any), in ascending sort-key order, at most `limit`.
  virtual Status Query(const TableSpec& table, bool on_gsi, std::string_view partition,
                       std::string_view sort_prefix, int limit, ReadOutcome* outcome) = 0;
  // At most `limit` items of a table without sort key that come after the item with partition
  // key `start` in the target's own scan order (DynamoDB's: by hash), or from the beginning when
  // `start` is empty. The scan does not wrap around at the end.
  virtual Status Scan(const TableSpec& table, std::string_view start, int limit,
                      ReadOutcome* outcome) = 0;
  // Loads items (the table is new and empty). The default puts them one by one; targets with a
  // batch idiom (BatchWriteItem, pipelining) override it.
  virtual Status Load(const TableSpec& table, std::span<const BenchItem> items) {
    for (const BenchItem& item : items) {
      if (Status s = Put(table, item); !s.ok()) return s;
    }
    return Status::Ok();
  }
};

class Target {
 public:
  virtual ~Target() = default;
  // The name in reports ("engine", "redis", or the endpoint's name).
  virtual const std::string& name() const = 0;
  // Drops what a previous run left and creates the tables, empty.
  virtual Status Prepare(std::span<const TableSpec> tables) = 0;
  virtual Result<std::unique_ptr<Session>> NewSession() = 0;
};

}  // namespace partstore::bench
