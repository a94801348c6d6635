// The workload file parser's machinery (internal to tools/simulator/workload_toml*.cc): where a
// TOML value sits (Obj), the value converters with their ranges and error texts, and the Parser
// class. workload_toml_parser.cc holds the converters and lookups; workload_toml.cc parses the
// document, retries, tables and indexes; workload_toml_phases.cc parses sharding, preload, phases
// and their operations.
//
// Every error is a ValidationException whose message is "<source>[:<line>:<column>]: [<path>: ]
// <what is wrong>", the path spelled as in the file ("phases[0].mix[1].size").
//
// Thread safety: a Parser is used by one call of ParseWorkload.
#pragma once

#include <toml++/toml.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "partstore/status.h"
#include "tools/simulator/workload.h"

namespace partstore::sim::workload_toml {

using sharding::KeyMatch;
using sharding::ShardingPolicy;
using sharding::ShardStrategy;

// The error for a workload that names the padding attribute (kPaddingAttribute).
constexpr std::string_view kPaddingReserved =
    "\"data\" is reserved: the simulator pads generated items to their size with it";

// The simulator's own limits (DynamoDB's are taken from the engine's headers).
constexpr int64_t kMicrosPerSecond = 1'000'000;
constexpr int64_t kMaxTotalMicros = int64_t{7} * 24 * 3600 * kMicrosPerSecond;  // 7 days
constexpr int64_t kMaxPreloadItems = 20'000'000;
constexpr double kMaxRate = 10'000'000;
constexpr double kMaxWeight = 1e9;
// Attribute names a workload spells (keys, attributes, counters): 1..255 bytes.
constexpr size_t kMaxAttributeNameBytes = 255;
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

// The spellings of `op`, in OpKind's order.
inline const std::initializer_list<std::string_view> kOpNames = {
    "get",  "put",       "update",      "delete",         "query",
    "scan", "batch_get", "batch_write", "transact_write", "transact_get"};

// A table of the document and where it is: "phases[0].mix[1]" (empty for the root table).
struct Obj {
  const toml::table* table = nullptr;
  std::string path;
};

// The path of `key` under `path`: "phases[0]" + "mix" -> "phases[0].mix".
std::string Join(std::string_view path, std::string_view key);
// Whether `kind` writes items (and so takes `size` and `attributes`).
bool IsWrite(OpKind kind);
// The largest `batch` of an operation (1: it takes no batch).
int32_t MaxBatch(OpKind kind);
// "a, b, c": the names of `tables`, for "unknown table" errors.
std::string TableNames(const std::vector<TableSpec>& tables);

class Parser {
 public:
  // `source`: the file name errors start with.
  explicit Parser(std::string source, bool phases_required = true)
      : source_(std::move(source)), phases_required_(phases_required) {}

  // The whole document (workload_toml.cc).
  Result<Workload> Parse(const toml::table& root_table);

 private:
  // --- Errors (a Status::Validation with the source, line, column and path) ----------------------

  Status Error(const toml::source_region& where, std::string_view path,
               std::string_view message) const;
  Status Error(const toml::node& node, std::string_view path, std::string_view message) const;
  Status Error(const Obj& obj, std::string_view message) const;
  // At the value of `key` when it is there, else at the table.
  Status ErrorAt(const Obj& obj, std::string_view key, std::string_view message) const;
  // "missing required key \"<key>\"", at the table.
  Status Missing(const Obj& obj, std::string_view key) const;
  // "expected <expected>, got <what node is>".
  Status WrongType(const toml::node& node, std::string_view path, std::string_view expected) const;

  // Every key of `obj` is one of `known`.
  Status CheckKeys(const Obj& obj, std::initializer_list<std::string_view> known) const;

  // --- Values: one TOML value converted and range-checked ----------------------------------------

  // A string of min_chars..max_chars characters (UTF-8 code points).
  Result<std::string> AsString(const toml::node& node, const std::string& path,
                               size_t min_chars = 0,
                               size_t max_chars = std::numeric_limits<size_t>::max()) const;
  // 1..kMaxAttributeNameBytes bytes, not kPaddingAttribute.
  Result<std::string> AsAttributeName(const toml::node& node, const std::string& path) const;
  // A table or index name: DynamoDB's rule (IsValidName, shard/constraints.h).
  Result<std::string> AsTableName(const toml::node& node, const std::string& path) const;
  // An integer in [min, max].
  Result<int64_t> AsInt(const toml::node& node, const std::string& path, int64_t min,
                        int64_t max) const;
  // An integer or a float, finite, in [min, max].
  Result<double> AsNumber(const toml::node& node, const std::string& path, double min,
                          double max) const;
  Result<bool> AsBool(const toml::node& node, const std::string& path) const;
  // One of `choices`: its index. `what` names the choice in errors ("retry mode").
  Result<int> AsChoice(const toml::node& node, const std::string& path, std::string_view what,
                       std::initializer_list<std::string_view> choices) const;
  // Seconds (an integer or a float) or "<number><unit>", unit ms, s, m or h: microseconds,
  // rounded to the nearest, in [0, 7 days].
  Result<int64_t> AsDuration(const toml::node& node, const std::string& path) const;
  // A template (template.h); empty only when `allow_empty`.
  Result<Template> AsTemplate(const toml::node& node, const std::string& path,
                              bool allow_empty) const;
  // An integer (bytes), { min, max } or { mean, stddev [, min, max] }, within DynamoDB's item
  // size limit (kMaxItemSize, partstore/item.h).
  Result<SizeDistribution> AsSize(const toml::node& node, const std::string& path) const;
  // { distribution = "...", ... }, with only the keys that distribution takes.
  Result<KeyDistribution> AsKeys(const toml::node& node, const std::string& path) const;

  // --- Lookups: the value under `key` of a table, converted as above ----------------------------
  // Opt*: nullopt when the key is absent. Req*: absent is an error (Missing).

  template <typename T, typename Convert>
  Result<std::optional<T>> Opt(const Obj& obj, std::string_view key, Convert&& convert) const;
  template <typename T, typename Convert>
  Result<T> Req(const Obj& obj, std::string_view key, Convert&& convert) const;

  Result<std::optional<std::string>> OptString(const Obj& obj, std::string_view key,
                                               size_t min_chars = 0,
                                               size_t max_chars = SIZE_MAX) const;
  Result<std::string> ReqString(const Obj& obj, std::string_view key, size_t min_chars = 0,
                                size_t max_chars = SIZE_MAX) const;
  Result<std::optional<std::string>> OptAttributeName(const Obj& obj, std::string_view key) const;
  Result<std::string> ReqAttributeName(const Obj& obj, std::string_view key) const;
  Result<std::string> ReqTableName(const Obj& obj, std::string_view key) const;
  Result<std::optional<int64_t>> OptInt(const Obj& obj, std::string_view key, int64_t min,
                                        int64_t max) const;
  Result<int64_t> ReqInt(const Obj& obj, std::string_view key, int64_t min, int64_t max) const;
  Result<std::optional<double>> OptNumber(const Obj& obj, std::string_view key, double min,
                                          double max) const;
  Result<double> ReqNumber(const Obj& obj, std::string_view key, double min, double max) const;
  Result<std::optional<bool>> OptBool(const Obj& obj, std::string_view key) const;
  Result<std::optional<int>> OptChoice(const Obj& obj, std::string_view key, std::string_view what,
                                       std::initializer_list<std::string_view> choices) const;
  Result<int> ReqChoice(const Obj& obj, std::string_view key, std::string_view what,
                        std::initializer_list<std::string_view> choices) const;
  Result<std::optional<int64_t>> OptDuration(const Obj& obj, std::string_view key) const;
  Result<int64_t> ReqDuration(const Obj& obj, std::string_view key) const;
  Result<std::optional<Template>> OptTemplate(const Obj& obj, std::string_view key,
                                              bool allow_empty = false) const;
  Result<Template> ReqTemplate(const Obj& obj, std::string_view key) const;
  Result<std::optional<SizeDistribution>> OptSize(const Obj& obj, std::string_view key) const;
  Result<std::optional<KeyDistribution>> OptKeys(const Obj& obj, std::string_view key) const;

  // The table under `key` ([key]), if any.
  Result<std::optional<Obj>> OptTable(const Obj& obj, std::string_view key) const;
  // The tables of the array of tables under `key` ([[key]]), between min and max of them.
  Result<std::vector<Obj>> TableArray(const Obj& obj, std::string_view key, size_t min,
                                      size_t max) const;

  // --- The workload's parts (workload_toml.cc, workload_toml_phases.cc) -------------------------

  Result<RetryPolicy> ParseRetries(const Obj& obj) const;
  Result<TableSpec> ParseTable(const Obj& obj) const;
  Result<IndexSpec> ParseIndex(const Obj& obj, const TableSpec& table) const;
  Status ParseCapacity(const Obj& obj, bool on_demand, int64_t& read, int64_t& write) const;
  // max_read_request_units, max_write_request_units (on-demand), warm_read_units,
  // warm_write_units of a table or index.
  Status ParseThroughputSettings(const Obj& obj, bool on_demand, ThroughputSettings& out) const;
  // A phase's [[phases.throughput]] entries.
  Result<std::vector<ThroughputChange>> ParseThroughputChanges(
      const Obj& obj, const std::vector<TableSpec>& tables) const;
  // [...auto_scaling] of a table or index: { read = {...}, write = {...} }, provisioned only.
  Status ParseScaling(const Obj& obj, bool on_demand, std::optional<ScalingSpec>& read,
                      std::optional<ScalingSpec>& write) const;
  Result<const TableSpec*> FindTable(const Obj& obj, const std::vector<TableSpec>& tables,
                                     const std::string& name) const;
  Result<const IndexSpec*> FindIndex(const Obj& obj, const TableSpec& table,
                                     const std::string& name) const;
  Result<std::vector<ShardingSpec>> ParseShardingList(const Obj& obj,
                                                      const std::vector<TableSpec>& tables) const;
  Result<ShardingSpec> ParseSharding(const Obj& obj, const std::vector<TableSpec>& tables) const;
  Result<Preload> ParsePreload(const Obj& obj, const std::vector<TableSpec>& tables) const;
  Result<std::vector<std::pair<std::string, Template>>> ParseAttributes(
      const Obj& obj, std::string_view key, const TableSpec& table) const;
  Result<Phase> ParsePhase(const Obj& obj, const std::vector<TableSpec>& tables) const;
  Result<Operation> ParseOperation(const Obj& obj, const std::vector<TableSpec>& tables) const;

  std::string source_;
  bool phases_required_;
};

}  // namespace partstore::sim::workload_toml
