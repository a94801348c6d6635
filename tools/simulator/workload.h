// Workload: what `partstore simulate` runs, as read from a workload file (workload_toml.h).
//
// A workload names its tables (keys, GSIs, billing mode, throughput), the data preloaded into them,
// write-sharding policies, the client's retry policy, a seed, and phases of traffic. Each phase
// offers requests at a rate for a stretch of simulated time; each request is one operation drawn
// from the phase's mix by weight, its key drawn from a key distribution and spelled by templates
// (template.h) such as "PRODUCT#{key}".
//
// Everything here is plain data, checked by ParseWorkload; Simulate (simulation.h) runs it.
// Times are microseconds of simulated time.
//
// Thread safety: value types.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "partstore/table_settings.h"
#include "shard/sharding/sharding_policy.h"
#include "tools/simulator/template.h"

namespace partstore::sim {

// The attribute the simulator pads generated items with to reach their drawn size. Reserved: a
// workload may not use it as a key, an attribute or a counter.
inline constexpr std::string_view kPaddingAttribute = "data";

// How large generated items are, in bytes (ItemSize: names + values). The generator pads a
// "data" attribute to reach the drawn size; an item never gets smaller than its keys and
// attributes.
struct SizeDistribution {
  enum class Kind : uint8_t { kFixed, kUniform, kNormal };
  Kind kind = Kind::kFixed;
  int64_t bytes = 100;  // kFixed
  int64_t min = 0;      // kUniform: [min, max]; kNormal: clamps
  int64_t max = 0;
  double mean = 0;  // kNormal
  double stddev = 0;
};

// Which key (an index in [0, count)) a request uses; the templates spell it.
struct KeyDistribution {
  enum class Kind : uint8_t {
    kUniform,      // every key equally likely
    kZipfian,      // key 0 hottest: P(rank r) proportional to 1 / (r + 1)^theta (YCSB's)
    kHotspot,      // hot_traffic of the requests on the first hot_keys fraction of keys
    kTimeOrdered,  // the key is the number of `bucket_micros` since the run began: every
                   // request of a bucket hits the same ("today's") key, then the next one
    kHotKey,       // every request on key `hot_key`
  };
  Kind kind = Kind::kUniform;
  int64_t count = 1;                  // keys 0 .. count-1 (kUniform, kZipfian, kHotspot)
  double theta = 0.99;                // kZipfian, in (0, 1) U (1, 10]
  double hot_keys = 0.2;              // kHotspot: fraction of the keys that are hot, (0, 1]
  double hot_traffic = 0.8;           // kHotspot: fraction of the requests on them, [0, 1]
  int64_t bucket_micros = 1'000'000;  // kTimeOrdered
  int64_t hot_key = 0;                // kHotKey
};

enum class OpKind : uint8_t {
  kGet,
  kPut,
  kUpdate,  // ADD <counter> 1, and SET data to the drawn size when `size` is given
  kDelete,
  kQuery,
  kScan,           // continues one cursor through the table (or index), wrapping at its end
  kBatchGet,       // `batch` distinct keys
  kBatchWrite,     // `batch` puts
  kTransactWrite,  // `batch` puts of distinct keys in one TransactWriteItems
  kTransactGet,    // `batch` gets of distinct keys in one TransactGetItems
};
inline constexpr int kOpKindCount = 10;
// "get", "put", "update", "delete", "query", "scan", "batch_get", "batch_write",
// "transact_write", "transact_get": the spelling in workload files and reports.
std::string_view OpKindName(OpKind kind);

// One entry of a phase's operation mix.
struct Operation {
  OpKind kind = OpKind::kGet;
  double weight = 1;                 // relative to the other entries of the phase, > 0
  std::string table;                 // a table of the workload
  std::optional<std::string> index;  // a GSI of it (query and scan only)
  // The partition key (of the table, or of `index` for a query) and the sort key. `sort` is
  // required for item operations on a table with a sort key; a query ignores it.
  Template key;
  std::optional<Template> sort;
  // For a query: KeyConditionExpression adds begins_with(<sort key>, sort_prefix).
  std::optional<Template> sort_prefix;
  std::optional<KeyDistribution> keys;   // absent: the phase's
  int64_t items = 1;                     // {item} is drawn uniformly from [0, items)
  std::optional<SizeDistribution> size;  // writes: the item's size (default: 100 bytes)
  // Further attributes of written items (e.g. GSI keys), name -> template.
  std::vector<std::pair<std::string, Template>> attributes;
  int32_t batch = 1;  // items per batch request or transaction (1..25 / 1..100)
  int32_t limit = 0;  // query / scan Limit (0: none)
  bool consistent_read = false;
  bool scan_forward = true;   // query ScanIndexForward
  std::string counter = "n";  // update: the attribute ADDed to
};

// A write-sharding policy (shard/sharding/sharding_policy.h) on a table of the workload.
struct ShardingSpec {
  std::string table;
  sharding::ShardingPolicy policy;
};

// A table's or GSI's OnDemandThroughput (on-demand only) and WarmThroughput (partstore/
// table_settings.h), as CreateTable takes them: 0 is absent.
struct ThroughputSettings {
  int64_t max_read_request_units = 0;
  int64_t max_write_request_units = 0;
  int64_t warm_read_units = 0;
  int64_t warm_write_units = 0;
};

// A throughput change a phase makes when it starts (an UpdateTable, in effect at once): the
// provisioned units of a table or GSI (0: unchanged).
struct ThroughputChange {
  std::string table;
  std::optional<std::string> index;
  int64_t read_capacity = 0;
  int64_t write_capacity = 0;
};

struct Phase {
  std::string name;
  int64_t duration_micros = 0;         // > 0
  double rate = 0;                     // new requests per simulated second at the start, >= 0
  std::optional<double> rate_end;      // linear ramp to this rate at the end (absent: constant)
  KeyDistribution keys;                // the default for the phase's operations
  std::vector<Operation> mix;          // at least one
  std::vector<ShardingSpec> sharding;  // policies set when the phase starts (they stay)
  std::vector<ThroughputChange> throughput;  // provisioned units set when it starts
};

// Target-tracking auto scaling of one capacity dimension (auto_scaling.h).
struct ScalingSpec {
  int64_t min_capacity = 1;
  int64_t max_capacity = 40000;
  double target_utilization = 70;  // percent, 20..90
  bool disable_scale_in = false;
  int64_t scale_out_cooldown_seconds = 0;
  int64_t scale_in_cooldown_seconds = 0;
};

struct IndexSpec {
  std::string name;
  std::string partition_key;
  std::optional<std::string> sort_key;
  std::string projection = "ALL";  // ALL or KEYS_ONLY
  int64_t read_capacity = 0;       // provisioned tables: the GSI's own throughput
  int64_t write_capacity = 0;
  std::optional<ScalingSpec> read_scaling;  // provisioned tables: auto scaling
  std::optional<ScalingSpec> write_scaling;
  ThroughputSettings throughput;
};

// A cache in front of the table (DAX's semantics: partstore/cached_store.h): every request of the
// workload to the table goes through it; hits never reach the table's partitions.
struct CacheSpec {
  int64_t item_ttl_micros = 300'000'000;  // items and "no such item"
  int64_t query_ttl_micros = 300'000'000;  // Query and Scan pages
  int64_t memory_mb = 256;
};

struct TableSpec {
  std::string name;
  std::string partition_key;  // key attributes are strings (S)
  std::optional<std::string> sort_key;
  bool on_demand = false;
  int64_t read_capacity = 0;  // provisioned
  int64_t write_capacity = 0;
  TableClass table_class = TableClass::kStandard;  // priced by the bill (pricing.h)
  std::optional<ScalingSpec> read_scaling;         // provisioned: auto scaling
  std::optional<ScalingSpec> write_scaling;
  ThroughputSettings throughput;
  std::vector<IndexSpec> indexes;                  // GSIs
  std::optional<CacheSpec> cache;                  // `cache = { ... }`
};

// Items written before the first phase (and before time starts): `keys` partition keys x
// `items_per_key` items, {key} in [0, keys) and {item} in [0, items_per_key). Not throttled and
// not counted in the report's requests (it is the table's starting data).
//
// Or, with `from`, the items of files instead (tools/transfer/import_reader.h, FindLocalSource):
// a DynamoDB export's directory, a directory of DynamoDB JSON or CSV files, or one file, loaded as
// ImportTable loads them; the templates are then unused.
struct Preload {
  std::string table;
  std::string from;  // a path (a relative one is relative to the workload file), or empty
  Template key;
  std::optional<Template> sort;  // required when the table has a sort key
  int64_t keys = 0;
  int64_t items_per_key = 1;
  SizeDistribution size;
  std::vector<std::pair<std::string, Template>> attributes;
};

// The client's retries of throttled requests (and of a batch's unprocessed items), as the AWS
// SDKs do: attempt n (n >= 1 retries so far) waits a backoff of min(max, base x 2^(n-1)), with
// jitter. Other errors are not retried.
struct RetryPolicy {
  enum class Mode : uint8_t { kNone, kExponential };
  enum class Jitter : uint8_t {
    kFull,   // uniform in [0, backoff]
    kEqual,  // backoff / 2 + uniform in [0, backoff / 2]
    kNone,   // backoff
  };
  Mode mode = Mode::kExponential;
  int32_t max_attempts = 9;                 // the first attempt and 8 retries (1..100)
  int64_t base_micros = 25'000;             // 25 ms
  int64_t max_backoff_micros = 20'000'000;  // 20 s
  Jitter jitter = Jitter::kFull;
};

struct Workload {
  std::string name;         // shown in reports
  std::string description;  // optional prose
  uint64_t seed = 1;
  std::vector<TableSpec> tables;
  std::vector<Preload> preload;
  std::vector<ShardingSpec> sharding;  // set before the preload
  RetryPolicy retries;
  std::vector<Phase> phases;  // at least one
  int32_t top_n = 10;         // keys per Contributor Insights rule in reports (1..100)
  // Capacity model overrides (CapacityOptions), for experiments; absent: DynamoDB's values.
  std::optional<int64_t> heat_split_seconds;
  // Contributor Insights' top keys (reports and --advise's hot keys); off: a faster run (they
  // cost about a fifth of a point request) without them.
  bool contributor_insights = true;
  // Auto scaling's UpdateTable: from the alarm to the new capacity in effect (auto_scaling.h).
  int64_t scaling_update_delay_seconds = 120;
};

// The total simulated time of the phases.
int64_t TotalMicros(const Workload& workload);

}  // namespace partstore::sim
