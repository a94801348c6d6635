// The workload file's sharding policies, preload, phases and operations (workload_toml_parser.h).
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tools/simulator/workload_toml_parser.h"

namespace partstore::sim::workload_toml {
Result<std::vector<ShardingSpec>> Parser::ParseShardingList(
    const Obj& obj, const std::vector<TableSpec>& tables) const {
  PARTSTORE_ASSIGN_OR_RETURN(auto entries, TableArray(obj, "sharding", 0, 100));
  std::vector<ShardingSpec> out;
  for (const Obj& entry : entries) {
    PARTSTORE_ASSIGN_OR_RETURN(ShardingSpec spec, ParseSharding(entry, tables));
    out.push_back(std::move(spec));
  }
  return out;
}

Result<ShardingSpec> Parser::ParseSharding(const Obj& obj,
                                           const std::vector<TableSpec>& tables) const {
  PARTSTORE_RETURN_IF_ERROR(CheckKeys(obj, {"table", "index", "key", "prefix", "shards", "strategy",
                                            "calculated_from", "suffix", "logical_key_attribute"}));
  ShardingSpec spec;
  ShardingPolicy& policy = spec.policy;
  PARTSTORE_ASSIGN_OR_RETURN(spec.table, ReqString(obj, "table"));
  PARTSTORE_ASSIGN_OR_RETURN(const TableSpec* table, FindTable(obj, tables, spec.table));
  PARTSTORE_ASSIGN_OR_RETURN(policy.index_name, OptString(obj, "index"));
  const IndexSpec* index = nullptr;
  if (policy.index_name) {
    PARTSTORE_ASSIGN_OR_RETURN(index, FindIndex(obj, *table, *policy.index_name));
  }

  PARTSTORE_ASSIGN_OR_RETURN(auto key, OptString(obj, "key", 1));
  PARTSTORE_ASSIGN_OR_RETURN(auto prefix, OptString(obj, "prefix", 1));
  if (key && prefix) {
    return ErrorAt(obj, "prefix", "give either key (one partition key) or prefix, not both");
  }
  if (!key && !prefix) {
    return Error(obj,
                 "missing \"key\" (one partition key) or \"prefix\" (every key starting "
                 "with it)");
  }
  policy.key = key ? *key : *prefix;
  policy.match = key ? KeyMatch::kExact : KeyMatch::kPrefix;

  PARTSTORE_ASSIGN_OR_RETURN(const int64_t shards,
                             ReqInt(obj, "shards", 1, sharding::kMaxShardCount));
  policy.shard_count = static_cast<int32_t>(shards);
  PARTSTORE_ASSIGN_OR_RETURN(auto strategy,
                             OptChoice(obj, "strategy", "strategy", {"random", "calculated"}));
  policy.strategy = strategy.value_or(0) == 0 ? ShardStrategy::kRandom : ShardStrategy::kCalculated;
  PARTSTORE_ASSIGN_OR_RETURN(policy.calculated_from, OptAttributeName(obj, "calculated_from"));
  PARTSTORE_ASSIGN_OR_RETURN(auto suffix, OptString(obj, "suffix"));
  if (suffix) {
    const size_t at = suffix->find(sharding::kShardPlaceholder);
    if (at == std::string::npos ||
        suffix->find(sharding::kShardPlaceholder, at + 1) != std::string::npos) {
      return ErrorAt(obj, "suffix", "must contain \"<n>\" (the shard number) exactly once");
    }
    policy.suffix_format = *suffix;
  }
  PARTSTORE_ASSIGN_OR_RETURN(auto logical, OptAttributeName(obj, "logical_key_attribute"));
  policy.logical_key_attribute = logical.value_or("");

  // The key schema the policy shards, and the attributes its logical key must not take.
  KeySchema schema;
  schema.partition.name = index ? index->partition_key : table->partition_key;
  const std::optional<std::string>& sort = index ? index->sort_key : table->sort_key;
  if (sort) schema.sort = KeyAttribute{*sort, KeyType::kString};
  std::vector<std::string> reserved = {table->partition_key};
  if (table->sort_key) reserved.push_back(*table->sort_key);
  for (const IndexSpec& gsi : table->indexes) {
    reserved.push_back(gsi.partition_key);
    if (gsi.sort_key) reserved.push_back(*gsi.sort_key);
  }

  if (policy.strategy == ShardStrategy::kRandom && policy.calculated_from) {
    return ErrorAt(obj, "calculated_from", "applies to strategy = \"calculated\" only");
  }
  if (policy.strategy == ShardStrategy::kCalculated) {
    if (policy.calculated_from && *policy.calculated_from == schema.partition.name) {
      return ErrorAt(
          obj, "calculated_from",
          fmt::format("cannot be the partition key it shards ({})", schema.partition.name));
    }
    if (!policy.calculated_from && !schema.sort) {
      return ErrorAt(
          obj, "strategy",
          fmt::format("strategy = \"calculated\" needs calculated_from: {} has no sort "
                      "key to compute the shard from",
                      index ? "index \"" + index->name + "\"" : "table \"" + table->name + "\""));
    }
  }
  if (logical && std::find(reserved.begin(), reserved.end(), *logical) != reserved.end()) {
    return ErrorAt(obj, "logical_key_attribute",
                   fmt::format("\"{}\" is a key attribute of table \"{}\" or its indexes", *logical,
                               table->name));
  }
  // Anything else the engine would refuse.
  auto made = sharding::Policy::Make(policy, schema, reserved);
  if (!made.ok()) return Error(obj, made.error().message());
  return spec;
}

Result<std::vector<std::pair<std::string, Template>>> Parser::ParseAttributes(
    const Obj& obj, std::string_view key, const TableSpec& table) const {
  std::vector<std::pair<std::string, Template>> out;
  const toml::node* node = obj.table->get(key);
  if (node == nullptr) return out;
  const std::string path = Join(obj.path, key);
  const toml::table* attributes = node->as_table();
  if (attributes == nullptr) {
    return WrongType(*node, path,
                     "a table of attribute names to templates, e.g. { GSI1PK = \"A#{key}\" }");
  }
  for (auto it = attributes->begin(); it != attributes->end(); ++it) {
    const std::string name(it->first.str());
    const std::string attribute_path = Join(path, name);
    if (name.empty() || name.size() > kMaxAttributeNameBytes) {
      return Error(it->first.source(), attribute_path,
                   "an attribute name must be 1 to 255 bytes long");
    }
    if (name == kPaddingAttribute) {
      return Error(it->first.source(), attribute_path, std::string(kPaddingReserved));
    }
    if (name == table.partition_key || (table.sort_key && name == *table.sort_key)) {
      return Error(it->first.source(), attribute_path,
                   fmt::format("\"{}\" is a key attribute of table \"{}\" (spell it with key or "
                               "sort)",
                               name, table.name));
    }
    PARTSTORE_ASSIGN_OR_RETURN(Template value,
                               AsTemplate(it->second, attribute_path, /*allow_empty=*/true));
    out.emplace_back(name, std::move(value));
  }
  return out;
}

Result<Preload> Parser::ParsePreload(const Obj& obj, const std::vector<TableSpec>& tables) const {
  Preload preload;
  if (obj.table->contains("from")) {
    PARTSTORE_RETURN_IF_ERROR(CheckKeys(obj, {"table", "from"}));
    PARTSTORE_ASSIGN_OR_RETURN(preload.table, ReqString(obj, "table"));
    PARTSTORE_RETURN_IF_ERROR(FindTable(obj, tables, preload.table).status());
    PARTSTORE_ASSIGN_OR_RETURN(preload.from, ReqString(obj, "from", 1));
    // Relative to the workload file (a built-in scenario's name is no directory).
    const std::filesystem::path from(preload.from);
    std::error_code error;
    if (from.is_relative() && std::filesystem::is_regular_file(source_, error)) {
      preload.from = (std::filesystem::path(source_).parent_path() / from).string();
    }
    if (!std::filesystem::exists(preload.from, error)) {
      return ErrorAt(obj, "from", fmt::format("{}: no such file or directory", preload.from));
    }
    return preload;
  }
  PARTSTORE_RETURN_IF_ERROR(
      CheckKeys(obj, {"table", "key", "sort", "keys", "items_per_key", "size", "attributes"}));
  PARTSTORE_ASSIGN_OR_RETURN(preload.table, ReqString(obj, "table"));
  PARTSTORE_ASSIGN_OR_RETURN(const TableSpec* table, FindTable(obj, tables, preload.table));
  PARTSTORE_ASSIGN_OR_RETURN(preload.key, ReqTemplate(obj, "key"));
  PARTSTORE_ASSIGN_OR_RETURN(preload.sort, OptTemplate(obj, "sort"));
  if (table->sort_key && !preload.sort) {
    return Error(obj, fmt::format("missing required key \"sort\": table \"{}\" has a sort key ({})",
                                  table->name, *table->sort_key));
  }
  if (!table->sort_key && preload.sort) {
    return ErrorAt(obj, "sort", fmt::format("table \"{}\" has no sort key", table->name));
  }
  PARTSTORE_ASSIGN_OR_RETURN(preload.keys, ReqInt(obj, "keys", 1, 100'000'000));
  PARTSTORE_ASSIGN_OR_RETURN(auto items_per_key, OptInt(obj, "items_per_key", 1, 1'000'000));
  preload.items_per_key = items_per_key.value_or(1);
  if (preload.keys * preload.items_per_key > kMaxPreloadItems) {
    return Error(obj, fmt::format("keys x items_per_key = {} items, more than the {} allowed",
                                  preload.keys * preload.items_per_key, kMaxPreloadItems));
  }
  PARTSTORE_ASSIGN_OR_RETURN(auto size, OptSize(obj, "size"));
  if (size) preload.size = *size;
  PARTSTORE_ASSIGN_OR_RETURN(preload.attributes, ParseAttributes(obj, "attributes", *table));
  return preload;
}

Result<Phase> Parser::ParsePhase(const Obj& obj, const std::vector<TableSpec>& tables) const {
  PARTSTORE_RETURN_IF_ERROR(CheckKeys(
      obj, {"name", "duration", "rate", "rate_end", "keys", "sharding", "throughput", "mix"}));
  Phase phase;
  PARTSTORE_ASSIGN_OR_RETURN(phase.name, ReqString(obj, "name", 1, 100));
  PARTSTORE_ASSIGN_OR_RETURN(phase.duration_micros, ReqDuration(obj, "duration"));
  if (phase.duration_micros <= 0) return ErrorAt(obj, "duration", "must be longer than 0");
  PARTSTORE_ASSIGN_OR_RETURN(phase.rate, ReqNumber(obj, "rate", 0, kMaxRate));
  PARTSTORE_ASSIGN_OR_RETURN(phase.rate_end, OptNumber(obj, "rate_end", 0, kMaxRate));
  PARTSTORE_ASSIGN_OR_RETURN(auto keys, OptKeys(obj, "keys"));
  if (keys) phase.keys = *keys;
  PARTSTORE_ASSIGN_OR_RETURN(phase.sharding, ParseShardingList(obj, tables));
  PARTSTORE_ASSIGN_OR_RETURN(phase.throughput, ParseThroughputChanges(obj, tables));
  PARTSTORE_ASSIGN_OR_RETURN(auto mix, TableArray(obj, "mix", 1, 100));
  for (const Obj& entry : mix) {
    PARTSTORE_ASSIGN_OR_RETURN(Operation op, ParseOperation(entry, tables));
    phase.mix.push_back(std::move(op));
  }
  return phase;
}

Result<Operation> Parser::ParseOperation(const Obj& obj,
                                         const std::vector<TableSpec>& tables) const {
  PARTSTORE_RETURN_IF_ERROR(CheckKeys(
      obj, {"op", "weight", "table", "index", "key", "sort", "sort_prefix", "keys", "items", "size",
            "attributes", "batch", "limit", "consistent_read", "scan_forward", "counter"}));
  Operation op;
  PARTSTORE_ASSIGN_OR_RETURN(const int kind, ReqChoice(obj, "op", "operation", kOpNames));
  op.kind = static_cast<OpKind>(kind);
  const std::string_view name = OpKindName(op.kind);
  const bool query = op.kind == OpKind::kQuery;
  const bool scan = op.kind == OpKind::kScan;
  // The error for a key that does not apply to this operation.
  const auto not_for = [&](std::string_view key, std::string_view applies_to) {
    return ErrorAt(obj, key,
                   fmt::format("\"{}\" does not apply to {} (only to {})", key, name, applies_to));
  };

  PARTSTORE_ASSIGN_OR_RETURN(auto weight, OptNumber(obj, "weight", 0, kMaxWeight));
  if (weight) {
    if (*weight <= 0) return ErrorAt(obj, "weight", "must be greater than 0");
    op.weight = *weight;
  }
  PARTSTORE_ASSIGN_OR_RETURN(op.table, ReqString(obj, "table"));
  PARTSTORE_ASSIGN_OR_RETURN(const TableSpec* table, FindTable(obj, tables, op.table));
  PARTSTORE_ASSIGN_OR_RETURN(op.index, OptString(obj, "index"));
  const IndexSpec* index = nullptr;
  if (op.index) {
    if (!query && !scan) return not_for("index", "query and scan");
    PARTSTORE_ASSIGN_OR_RETURN(index, FindIndex(obj, *table, *op.index));
  }
  // The sort key of what the operation reads: the index's for a query of an index.
  const std::optional<std::string>& sort_key = index ? index->sort_key : table->sort_key;

  PARTSTORE_ASSIGN_OR_RETURN(auto key, OptTemplate(obj, "key"));
  if (scan) {
    if (key) return ErrorAt(obj, "key", "a scan takes no key");
  } else {
    if (!key) return Missing(obj, "key");
    op.key = std::move(*key);
  }

  PARTSTORE_ASSIGN_OR_RETURN(op.sort, OptTemplate(obj, "sort"));
  if (query || scan) {
    if (op.sort) {
      return ErrorAt(
          obj, "sort",
          query ? "a query takes no sort (use sort_prefix to narrow it)" : "a scan takes no sort");
    }
  } else if (table->sort_key && !op.sort) {
    return Error(obj, fmt::format("missing required key \"sort\": table \"{}\" has a sort key ({})",
                                  table->name, *table->sort_key));
  } else if (!table->sort_key && op.sort) {
    return ErrorAt(obj, "sort", fmt::format("table \"{}\" has no sort key", table->name));
  }

  PARTSTORE_ASSIGN_OR_RETURN(op.sort_prefix, OptTemplate(obj, "sort_prefix"));
  if (op.sort_prefix) {
    if (!query) return not_for("sort_prefix", "query");
    if (!sort_key) {
      return ErrorAt(obj, "sort_prefix",
                     fmt::format("{} has no sort key", index ? "index \"" + index->name + "\""
                                                             : "table \"" + table->name + "\""));
    }
  }

  PARTSTORE_ASSIGN_OR_RETURN(op.keys, OptKeys(obj, "keys"));
  PARTSTORE_ASSIGN_OR_RETURN(auto items, OptInt(obj, "items", 1, 1'000'000));
  op.items = items.value_or(1);

  constexpr std::string_view kWrites = "put, update, batch_write and transact_write";
  PARTSTORE_ASSIGN_OR_RETURN(op.size, OptSize(obj, "size"));
  if (op.size && !IsWrite(op.kind)) return not_for("size", kWrites);
  if (obj.table->contains("attributes") && !IsWrite(op.kind)) {
    return not_for("attributes", kWrites);
  }
  PARTSTORE_ASSIGN_OR_RETURN(op.attributes, ParseAttributes(obj, "attributes", *table));

  PARTSTORE_ASSIGN_OR_RETURN(auto batch, OptInt(obj, "batch", 1, kInt64Max));
  if (batch) {
    const int32_t max = MaxBatch(op.kind);
    if (max == 1 && *batch != 1) {
      return not_for("batch", "batch_get, batch_write, transact_write and transact_get");
    }
    if (*batch > max) {
      return ErrorAt(obj, "batch",
                     fmt::format("must be between 1 and {} for {}, got {}", max, name, *batch));
    }
    op.batch = static_cast<int32_t>(*batch);
  }

  PARTSTORE_ASSIGN_OR_RETURN(auto limit, OptInt(obj, "limit", 0, 10'000));
  if (limit) {
    if (!query && !scan) return not_for("limit", "query and scan");
    op.limit = static_cast<int32_t>(*limit);
  }

  PARTSTORE_ASSIGN_OR_RETURN(auto consistent, OptBool(obj, "consistent_read"));
  if (consistent) {
    if (op.kind != OpKind::kGet && !query && !scan && op.kind != OpKind::kBatchGet) {
      return not_for("consistent_read", "get, query, scan and batch_get");
    }
    if (*consistent && index) {
      return ErrorAt(obj, "consistent_read",
                     "global secondary indexes have no strongly consistent reads");
    }
    op.consistent_read = *consistent;
  }

  PARTSTORE_ASSIGN_OR_RETURN(auto forward, OptBool(obj, "scan_forward"));
  if (forward) {
    if (!query) return not_for("scan_forward", "query");
    op.scan_forward = *forward;
  }

  PARTSTORE_ASSIGN_OR_RETURN(auto counter, OptAttributeName(obj, "counter"));
  if (counter) {
    if (op.kind != OpKind::kUpdate) return not_for("counter", "update");
    op.counter = *counter;
  }
  if (op.kind == OpKind::kUpdate) {
    const std::string& c = op.counter;  // given, or the default
    bool key = c == table->partition_key || (table->sort_key && c == *table->sort_key);
    for (const IndexSpec& index : table->indexes) {
      key = key || c == index.partition_key || (index.sort_key && c == *index.sort_key);
    }
    if (key) {
      return ErrorAt(obj, "counter",
                     fmt::format("\"{}\" is a key attribute of table \"{}\" or one of its GSIs "
                                 "(key attributes are strings; the counter is a number)",
                                 c, table->name));
    }
  }
  if (op.kind == OpKind::kUpdate) {
    for (const auto& attribute : op.attributes) {
      if (attribute.first == op.counter) {
        return ErrorAt(
            obj, "counter",
            fmt::format("the counter \"{}\" is also one of the attributes SET", op.counter));
      }
    }
  }
  return op;
}

}  // namespace partstore::sim::workload_toml
