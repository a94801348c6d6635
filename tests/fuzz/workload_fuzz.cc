// libFuzzer target for ParseWorkload (TOML workload files). Any input must parse or fail with a
// ValidationException that names the source, never crash or hang; a parsed workload must satisfy
// the invariants workload.h promises the simulation (at least one phase and operation, weights
// > 0, references that resolve, sort keys where the table has one, ranges). Violations abort.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "tools/simulator/workload_toml.h"

namespace {

using partstore::Code;
using partstore::Result;
using namespace partstore::sim;

void Check(bool condition) {
  if (!condition) std::abort();
}

constexpr int64_t kWeek = int64_t{7} * 24 * 3600 * 1'000'000;

const TableSpec* FindTable(const Workload& w, const std::string& name) {
  const TableSpec* found = nullptr;
  for (const TableSpec& table : w.tables) {
    if (table.name == name) {
      Check(found == nullptr);  // names are distinct
      found = &table;
    }
  }
  return found;
}

const IndexSpec* FindIndex(const TableSpec& table, const std::string& name) {
  for (const IndexSpec& index : table.indexes) {
    if (index.name == name) return &index;
  }
  return nullptr;
}

void CheckTemplate(const Template& t) {
  // Expanding never fails, and only placeholders depend on the values.
  const std::string a = t.Expand({.key = 0, .item = 0, .seq = 0, .time_millis = 0});
  const std::string b = t.Expand({.key = 123456789, .item = 42, .seq = 7, .time_millis = 1});
  const bool placeholders = t.uses(Template::Field::kKey) || t.uses(Template::Field::kItem) ||
                            t.uses(Template::Field::kSeq) || t.uses(Template::Field::kTime);
  Check(placeholders ? a.size() <= b.size() : a == b);
}

void CheckSize(const SizeDistribution& size) {
  switch (size.kind) {
    case SizeDistribution::Kind::kFixed:
      Check(size.bytes >= 1 && size.bytes <= 409'600);
      break;
    case SizeDistribution::Kind::kUniform:
    case SizeDistribution::Kind::kNormal:
      Check(size.min >= 1 && size.min <= size.max && size.max <= 409'600);
      if (size.kind == SizeDistribution::Kind::kNormal) {
        Check(std::isfinite(size.mean) && size.mean >= 1 && size.stddev >= 0);
      }
      break;
  }
}

void CheckKeys(const KeyDistribution& keys) {
  Check(keys.count >= 1 && keys.count <= 1'000'000'000);
  switch (keys.kind) {
    case KeyDistribution::Kind::kUniform:
      break;
    case KeyDistribution::Kind::kZipfian:
      Check(keys.theta > 0 && keys.theta != 1 && keys.theta <= 10);
      break;
    case KeyDistribution::Kind::kHotspot:
      Check(keys.hot_keys > 0 && keys.hot_keys <= 1);
      Check(keys.hot_traffic >= 0 && keys.hot_traffic <= 1);
      break;
    case KeyDistribution::Kind::kTimeOrdered:
      Check(keys.bucket_micros > 0);
      break;
    case KeyDistribution::Kind::kHotKey:
      Check(keys.hot_key >= 0);
      break;
  }
}

void CheckSharding(const Workload& w, const ShardingSpec& spec) {
  const TableSpec* table = FindTable(w, spec.table);
  Check(table != nullptr);
  Check(!spec.policy.key.empty());
  Check(spec.policy.shard_count >= 1 && spec.policy.shard_count <= 1000);
  if (spec.policy.index_name) Check(FindIndex(*table, *spec.policy.index_name) != nullptr);
}

void CheckOperation(const Workload& w, const Operation& op) {
  Check(std::isfinite(op.weight) && op.weight > 0);
  const TableSpec* table = FindTable(w, op.table);
  Check(table != nullptr);
  const bool query = op.kind == OpKind::kQuery;
  const bool scan = op.kind == OpKind::kScan;
  const IndexSpec* index = nullptr;
  if (op.index) {
    Check(query || scan);
    index = FindIndex(*table, *op.index);
    Check(index != nullptr);
    Check(!op.consistent_read);
  }
  Check(scan == op.key.empty());
  if (query || scan) {
    Check(!op.sort);
  } else {
    Check(op.sort.has_value() == table->sort_key.has_value());
  }
  if (op.sort_prefix) {
    Check(query);
    Check((index ? index->sort_key : table->sort_key).has_value());
  }
  CheckTemplate(op.key);
  if (op.sort) CheckTemplate(*op.sort);
  if (op.sort_prefix) CheckTemplate(*op.sort_prefix);
  if (op.keys) CheckKeys(*op.keys);
  Check(op.items >= 1 && op.items <= 1'000'000);
  const bool write = op.kind == OpKind::kPut || op.kind == OpKind::kUpdate ||
                     op.kind == OpKind::kBatchWrite || op.kind == OpKind::kTransactWrite;
  if (op.size) {
    Check(write);
    CheckSize(*op.size);
  }
  if (!op.attributes.empty()) Check(write);
  for (const auto& attribute : op.attributes) {
    Check(!attribute.first.empty());
    Check(attribute.first != table->partition_key && attribute.first != table->sort_key);
    CheckTemplate(attribute.second);
  }
  int32_t max_batch = 1;
  if (op.kind == OpKind::kBatchGet || op.kind == OpKind::kTransactWrite ||
      op.kind == OpKind::kTransactGet) {
    max_batch = 100;
  } else if (op.kind == OpKind::kBatchWrite) {
    max_batch = 25;
  }
  Check(op.batch >= 1 && op.batch <= max_batch);
  Check(op.limit >= 0 && op.limit <= 10'000);
  if (op.limit != 0) Check(query || scan);
  if (!op.scan_forward) Check(query);
  if (op.consistent_read) {
    Check(op.kind == OpKind::kGet || query || scan || op.kind == OpKind::kBatchGet);
  }
  Check(!op.counter.empty());
  Check(!OpKindName(op.kind).empty());
}

void CheckWorkload(const Workload& w) {
  Check(!w.name.empty());
  Check(w.top_n >= 1 && w.top_n <= 100);
  Check(w.retries.max_attempts >= 1 && w.retries.max_attempts <= 100);
  Check(w.retries.base_micros >= 0 && w.retries.base_micros <= w.retries.max_backoff_micros);
  if (w.heat_split_seconds) Check(*w.heat_split_seconds >= 1 && *w.heat_split_seconds <= 86'400);

  Check(!w.tables.empty());
  for (const TableSpec& table : w.tables) {
    Check(FindTable(w, table.name) == &table);
    Check(!table.partition_key.empty());
    Check(table.sort_key != table.partition_key);
    Check(table.on_demand ? table.read_capacity == 0 && table.write_capacity == 0
                          : table.read_capacity >= 1 && table.write_capacity >= 1);
    Check(table.indexes.size() <= 20);
    for (const IndexSpec& index : table.indexes) {
      Check(FindIndex(table, index.name) == &index);
      Check(index.projection == "ALL" || index.projection == "KEYS_ONLY");
      Check(table.on_demand == (index.read_capacity == 0));
    }
  }
  for (const ShardingSpec& spec : w.sharding) CheckSharding(w, spec);
  for (const Preload& preload : w.preload) {
    const TableSpec* table = FindTable(w, preload.table);
    Check(table != nullptr);
    Check(preload.sort.has_value() == table->sort_key.has_value());
    Check(preload.keys >= 1 && preload.items_per_key >= 1);
    Check(preload.keys * preload.items_per_key <= 20'000'000);
    CheckSize(preload.size);
    CheckTemplate(preload.key);
  }

  Check(!w.phases.empty() && w.phases.size() <= 1000);
  Check(TotalMicros(w) > 0 && TotalMicros(w) <= kWeek);
  for (const Phase& phase : w.phases) {
    Check(!phase.name.empty());
    Check(phase.duration_micros > 0);
    Check(phase.rate >= 0 && phase.rate <= 10'000'000);
    if (phase.rate_end) Check(*phase.rate_end >= 0 && *phase.rate_end <= 10'000'000);
    CheckKeys(phase.keys);
    for (const ShardingSpec& spec : phase.sharding) CheckSharding(w, spec);
    Check(!phase.mix.empty() && phase.mix.size() <= 100);
    for (const Operation& op : phase.mix) CheckOperation(w, op);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Result<Workload> parsed = ParseWorkload(text, "fuzz.toml");
  if (!parsed.ok()) {
    Check(parsed.error().code() == Code::kValidation);
    Check(parsed.error().message().starts_with("fuzz.toml"));
    return 0;
  }
  CheckWorkload(*parsed);
  return 0;
}
