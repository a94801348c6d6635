#include "tools/simulator/workload_toml.h"

#include <fmt/format.h>

#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "tools/simulator/workload_toml_parser.h"

namespace partstore::sim {
namespace workload_toml {

Result<Workload> Parser::Parse(const toml::table& root_table) {
  const Obj root{&root_table, ""};
  PARTSTORE_RETURN_IF_ERROR(
      CheckKeys(root, {"name", "description", "seed", "top_n", "retries", "capacity",
                       "auto_scaling", "tables", "sharding", "preload", "phases"}));
  Workload workload;
  PARTSTORE_ASSIGN_OR_RETURN(workload.name, ReqString(root, "name", 1, 100));
  PARTSTORE_ASSIGN_OR_RETURN(auto description, OptString(root, "description"));
  workload.description = description.value_or("");
  PARTSTORE_ASSIGN_OR_RETURN(auto seed, OptInt(root, "seed", 0, kInt64Max));
  if (seed) workload.seed = static_cast<uint64_t>(*seed);
  PARTSTORE_ASSIGN_OR_RETURN(auto top_n, OptInt(root, "top_n", 1, 100));
  if (top_n) workload.top_n = static_cast<int32_t>(*top_n);

  PARTSTORE_ASSIGN_OR_RETURN(auto retries, OptTable(root, "retries"));
  if (retries) {
    PARTSTORE_ASSIGN_OR_RETURN(workload.retries, ParseRetries(*retries));
  }
  PARTSTORE_ASSIGN_OR_RETURN(auto capacity, OptTable(root, "capacity"));
  if (capacity) {
    PARTSTORE_RETURN_IF_ERROR(CheckKeys(*capacity, {"heat_split_seconds", "contributor_insights"}));
    PARTSTORE_ASSIGN_OR_RETURN(workload.heat_split_seconds,
                               OptInt(*capacity, "heat_split_seconds", 1, 86'400));
    PARTSTORE_ASSIGN_OR_RETURN(auto insights, OptBool(*capacity, "contributor_insights"));
    workload.contributor_insights = insights.value_or(true);
  }

  PARTSTORE_ASSIGN_OR_RETURN(auto scaling, OptTable(root, "auto_scaling"));
  if (scaling) {
    PARTSTORE_RETURN_IF_ERROR(CheckKeys(*scaling, {"update_delay"}));
    PARTSTORE_ASSIGN_OR_RETURN(auto delay, OptDuration(*scaling, "update_delay"));
    if (delay && *delay > 3600 * kMicrosPerSecond) {
      return ErrorAt(*scaling, "update_delay", "must be at most 1h");
    }
    if (delay) workload.scaling_update_delay_seconds = *delay / kMicrosPerSecond;
  }

  PARTSTORE_ASSIGN_OR_RETURN(auto tables, TableArray(root, "tables", 1, 100));
  for (size_t i = 0; i < tables.size(); ++i) {
    PARTSTORE_ASSIGN_OR_RETURN(TableSpec table, ParseTable(tables[i]));
    for (size_t j = 0; j < i; ++j) {
      if (workload.tables[j].name == table.name) {
        return ErrorAt(tables[i], "name",
                       fmt::format("duplicate table name \"{}\" (also tables[{}])", table.name, j));
      }
    }
    workload.tables.push_back(std::move(table));
  }

  PARTSTORE_ASSIGN_OR_RETURN(workload.sharding, ParseShardingList(root, workload.tables));

  PARTSTORE_ASSIGN_OR_RETURN(auto preload, TableArray(root, "preload", 0, 100));
  for (const Obj& obj : preload) {
    PARTSTORE_ASSIGN_OR_RETURN(Preload entry, ParsePreload(obj, workload.tables));
    workload.preload.push_back(std::move(entry));
  }

  PARTSTORE_ASSIGN_OR_RETURN(auto phases,
                             TableArray(root, "phases", phases_required_ ? 1 : 0, 1000));
  int64_t total = 0;
  for (size_t i = 0; i < phases.size(); ++i) {
    PARTSTORE_ASSIGN_OR_RETURN(Phase phase, ParsePhase(phases[i], workload.tables));
    for (size_t j = 0; j < i; ++j) {
      if (workload.phases[j].name == phase.name) {
        return ErrorAt(phases[i], "name",
                       fmt::format("duplicate phase name \"{}\" (also phases[{}])", phase.name, j));
      }
    }
    total += phase.duration_micros;  // each at most 7 days: no overflow
    if (total > kMaxTotalMicros) {
      return ErrorAt(phases[i], "duration", "the phases last longer than 7 days in total");
    }
    workload.phases.push_back(std::move(phase));
  }
  return workload;
}

Result<RetryPolicy> Parser::ParseRetries(const Obj& obj) const {
  PARTSTORE_RETURN_IF_ERROR(
      CheckKeys(obj, {"mode", "max_attempts", "base_delay", "max_delay", "jitter"}));
  RetryPolicy retries;
  PARTSTORE_ASSIGN_OR_RETURN(auto mode,
                             OptChoice(obj, "mode", "retry mode", {"exponential", "none"}));
  if (mode) retries.mode = *mode == 0 ? RetryPolicy::Mode::kExponential : RetryPolicy::Mode::kNone;
  PARTSTORE_ASSIGN_OR_RETURN(auto attempts, OptInt(obj, "max_attempts", 1, 100));
  if (attempts) retries.max_attempts = static_cast<int32_t>(*attempts);
  PARTSTORE_ASSIGN_OR_RETURN(auto base, OptDuration(obj, "base_delay"));
  if (base) retries.base_micros = *base;
  PARTSTORE_ASSIGN_OR_RETURN(auto max, OptDuration(obj, "max_delay"));
  if (max) retries.max_backoff_micros = *max;
  if (retries.max_backoff_micros < retries.base_micros) {
    return ErrorAt(obj, max ? "max_delay" : "base_delay",
                   fmt::format("max_delay ({} us) is shorter than base_delay ({} us)",
                               retries.max_backoff_micros, retries.base_micros));
  }
  PARTSTORE_ASSIGN_OR_RETURN(auto jitter,
                             OptChoice(obj, "jitter", "jitter", {"full", "equal", "none"}));
  if (jitter) retries.jitter = static_cast<RetryPolicy::Jitter>(*jitter);
  return retries;
}

Status Parser::ParseCapacity(const Obj& obj, bool on_demand, int64_t& read, int64_t& write) const {
  for (std::string_view key : {"read_capacity", "write_capacity"}) {
    if (on_demand) {
      if (obj.table->contains(key)) {
        return ErrorAt(obj, key, "an on-demand table takes no read_capacity or write_capacity");
      }
      continue;
    }
    PARTSTORE_ASSIGN_OR_RETURN(const int64_t units, ReqInt(obj, key, 1, 1'000'000));
    (key == "read_capacity" ? read : write) = units;
  }
  return Status::Ok();
}

Result<TableSpec> Parser::ParseTable(const Obj& obj) const {
  PARTSTORE_RETURN_IF_ERROR(CheckKeys(
      obj, {"name", "partition_key", "sort_key", "billing", "read_capacity", "write_capacity",
            "table_class", "auto_scaling", "max_read_request_units", "max_write_request_units",
            "warm_read_units", "warm_write_units", "indexes", "cache"}));
  TableSpec table;
  PARTSTORE_ASSIGN_OR_RETURN(table.name, ReqTableName(obj, "name"));
  PARTSTORE_ASSIGN_OR_RETURN(table.partition_key, ReqAttributeName(obj, "partition_key"));
  PARTSTORE_ASSIGN_OR_RETURN(table.sort_key, OptAttributeName(obj, "sort_key"));
  if (table.sort_key == table.partition_key) {
    return ErrorAt(obj, "sort_key", "the sort key must differ from the partition key");
  }
  PARTSTORE_ASSIGN_OR_RETURN(
      auto billing, OptChoice(obj, "billing", "billing mode", {"provisioned", "on-demand"}));
  table.on_demand = billing.value_or(0) == 1;
  PARTSTORE_RETURN_IF_ERROR(
      ParseCapacity(obj, table.on_demand, table.read_capacity, table.write_capacity));
  PARTSTORE_ASSIGN_OR_RETURN(
      auto table_class,
      OptChoice(obj, "table_class", "table class", {"standard", "standard-infrequent-access"}));
  if (table_class == 1) table.table_class = TableClass::kStandardInfrequentAccess;
  PARTSTORE_RETURN_IF_ERROR(
      ParseScaling(obj, table.on_demand, table.read_scaling, table.write_scaling));
  PARTSTORE_RETURN_IF_ERROR(ParseThroughputSettings(obj, table.on_demand, table.throughput));
  PARTSTORE_ASSIGN_OR_RETURN(auto indexes, TableArray(obj, "indexes", 0, 20));
  for (size_t i = 0; i < indexes.size(); ++i) {
    PARTSTORE_ASSIGN_OR_RETURN(IndexSpec index, ParseIndex(indexes[i], table));
    for (size_t j = 0; j < i; ++j) {
      if (table.indexes[j].name == index.name) {
        return ErrorAt(indexes[i], "name",
                       fmt::format("duplicate index name \"{}\" (also {}.indexes[{}])", index.name,
                                   obj.path, j));
      }
    }
    table.indexes.push_back(std::move(index));
  }
  PARTSTORE_ASSIGN_OR_RETURN(auto cache, OptTable(obj, "cache"));
  if (cache) {
    PARTSTORE_RETURN_IF_ERROR(CheckKeys(*cache, {"item_ttl", "query_ttl", "memory_mb"}));
    CacheSpec spec;
    for (auto [key, member] : {std::pair{"item_ttl", &CacheSpec::item_ttl_micros},
                               std::pair{"query_ttl", &CacheSpec::query_ttl_micros}}) {
      PARTSTORE_ASSIGN_OR_RETURN(auto ttl, OptDuration(*cache, key));
      if (!ttl) continue;
      if (*ttl <= 0) return ErrorAt(*cache, key, "a cache's TTL must be positive");
      spec.*member = *ttl;
    }
    PARTSTORE_ASSIGN_OR_RETURN(auto memory, OptInt(*cache, "memory_mb", 1, 1 << 20));
    if (memory) spec.memory_mb = *memory;
    table.cache = spec;
  }
  return table;
}

Result<IndexSpec> Parser::ParseIndex(const Obj& obj, const TableSpec& table) const {
  PARTSTORE_RETURN_IF_ERROR(
      CheckKeys(obj, {"name", "partition_key", "sort_key", "projection", "read_capacity",
                      "write_capacity", "auto_scaling", "max_read_request_units",
                      "max_write_request_units", "warm_read_units", "warm_write_units"}));
  IndexSpec index;
  PARTSTORE_ASSIGN_OR_RETURN(index.name, ReqTableName(obj, "name"));
  PARTSTORE_ASSIGN_OR_RETURN(index.partition_key, ReqAttributeName(obj, "partition_key"));
  PARTSTORE_ASSIGN_OR_RETURN(index.sort_key, OptAttributeName(obj, "sort_key"));
  if (index.sort_key == index.partition_key) {
    return ErrorAt(obj, "sort_key", "the sort key must differ from the partition key");
  }
  PARTSTORE_ASSIGN_OR_RETURN(auto projection,
                             OptChoice(obj, "projection", "projection", {"ALL", "KEYS_ONLY"}));
  index.projection = projection.value_or(0) == 0 ? "ALL" : "KEYS_ONLY";
  PARTSTORE_RETURN_IF_ERROR(
      ParseCapacity(obj, table.on_demand, index.read_capacity, index.write_capacity));
  PARTSTORE_RETURN_IF_ERROR(
      ParseScaling(obj, table.on_demand, index.read_scaling, index.write_scaling));
  PARTSTORE_RETURN_IF_ERROR(ParseThroughputSettings(obj, table.on_demand, index.throughput));
  return index;
}

Status Parser::ParseThroughputSettings(const Obj& obj, bool on_demand,
                                       ThroughputSettings& out) const {
  for (auto [key, member] :
       {std::pair{"max_read_request_units", &ThroughputSettings::max_read_request_units},
        std::pair{"max_write_request_units", &ThroughputSettings::max_write_request_units},
        std::pair{"warm_read_units", &ThroughputSettings::warm_read_units},
        std::pair{"warm_write_units", &ThroughputSettings::warm_write_units}}) {
    PARTSTORE_ASSIGN_OR_RETURN(auto units, OptInt(obj, key, 1, 1'000'000'000));
    if (!units) continue;
    if (!on_demand && std::string_view(key).starts_with("max_")) {
      return ErrorAt(obj, key, "an on-demand maximum is for on-demand tables");
    }
    out.*member = *units;
  }
  return Status::Ok();
}

Result<std::vector<ThroughputChange>> Parser::ParseThroughputChanges(
    const Obj& obj, const std::vector<TableSpec>& tables) const {
  std::vector<ThroughputChange> out;
  PARTSTORE_ASSIGN_OR_RETURN(auto entries, TableArray(obj, "throughput", 0, 100));
  for (const Obj& entry : entries) {
    PARTSTORE_RETURN_IF_ERROR(
        CheckKeys(entry, {"table", "index", "read_capacity", "write_capacity"}));
    ThroughputChange change;
    PARTSTORE_ASSIGN_OR_RETURN(change.table, ReqString(entry, "table"));
    PARTSTORE_ASSIGN_OR_RETURN(const TableSpec* table, FindTable(entry, tables, change.table));
    if (table->on_demand) {
      return ErrorAt(entry, "table", "an on-demand table has no provisioned units to change");
    }
    PARTSTORE_ASSIGN_OR_RETURN(change.index, OptString(entry, "index"));
    if (change.index) PARTSTORE_RETURN_IF_ERROR(FindIndex(entry, *table, *change.index).status());
    PARTSTORE_ASSIGN_OR_RETURN(auto read, OptInt(entry, "read_capacity", 1, 1'000'000));
    PARTSTORE_ASSIGN_OR_RETURN(auto write, OptInt(entry, "write_capacity", 1, 1'000'000));
    if (!read && !write) {
      return Error(entry, "a throughput change needs read_capacity or write_capacity");
    }
    change.read_capacity = read.value_or(0);
    change.write_capacity = write.value_or(0);
    out.push_back(std::move(change));
  }
  return out;
}

Status Parser::ParseScaling(const Obj& obj, bool on_demand, std::optional<ScalingSpec>& read,
                            std::optional<ScalingSpec>& write) const {
  PARTSTORE_ASSIGN_OR_RETURN(auto scaling, OptTable(obj, "auto_scaling"));
  if (!scaling) return Status::Ok();
  if (on_demand) {
    return ErrorAt(obj, "auto_scaling",
                   "an on-demand table has no capacity to scale (auto scaling is for "
                   "provisioned tables)");
  }
  PARTSTORE_RETURN_IF_ERROR(CheckKeys(*scaling, {"read", "write"}));
  for (std::string_view key : {"read", "write"}) {
    PARTSTORE_ASSIGN_OR_RETURN(auto dimension, OptTable(*scaling, key));
    if (!dimension) continue;
    PARTSTORE_RETURN_IF_ERROR(CheckKeys(*dimension, {"min", "max", "target", "disable_scale_in",
                                                     "scale_in_cooldown", "scale_out_cooldown"}));
    ScalingSpec spec;
    PARTSTORE_ASSIGN_OR_RETURN(spec.min_capacity, ReqInt(*dimension, "min", 1, 1'000'000));
    PARTSTORE_ASSIGN_OR_RETURN(spec.max_capacity, ReqInt(*dimension, "max", 1, 1'000'000));
    if (spec.max_capacity < spec.min_capacity) {
      return ErrorAt(*dimension, "max", "must be at least min");
    }
    PARTSTORE_ASSIGN_OR_RETURN(auto target, OptNumber(*dimension, "target", 20, 90));
    if (target) spec.target_utilization = *target;
    PARTSTORE_ASSIGN_OR_RETURN(auto disable, OptBool(*dimension, "disable_scale_in"));
    spec.disable_scale_in = disable.value_or(false);
    PARTSTORE_ASSIGN_OR_RETURN(auto in, OptDuration(*dimension, "scale_in_cooldown"));
    PARTSTORE_ASSIGN_OR_RETURN(auto out, OptDuration(*dimension, "scale_out_cooldown"));
    spec.scale_in_cooldown_seconds = in.value_or(0) / kMicrosPerSecond;
    spec.scale_out_cooldown_seconds = out.value_or(0) / kMicrosPerSecond;
    (key == "read" ? read : write) = spec;
  }
  return Status::Ok();
}

Result<const TableSpec*> Parser::FindTable(const Obj& obj, const std::vector<TableSpec>& tables,
                                           const std::string& name) const {
  for (const TableSpec& table : tables) {
    if (table.name == name) return &table;
  }
  return ErrorAt(obj, "table",
                 fmt::format("unknown table \"{}\" (tables: {})", name, TableNames(tables)));
}

Result<const IndexSpec*> Parser::FindIndex(const Obj& obj, const TableSpec& table,
                                           const std::string& name) const {
  std::string names;
  for (const IndexSpec& index : table.indexes) {
    if (index.name == name) return &index;
    if (!names.empty()) names += ", ";
    names += index.name;
  }
  return ErrorAt(obj, "index",
                 fmt::format("table \"{}\" has no index \"{}\" ({})", table.name, name,
                             names.empty() ? "it has no indexes" : "its indexes: " + names));
}

}  // namespace workload_toml

Result<Workload> ParseWorkload(std::string_view toml, std::string_view source_name,
                               WorkloadParts parts) {
  std::string source = source_name.empty() ? std::string("<workload>") : std::string(source_name);
  toml::table root;
  try {
    root = toml::parse(toml, std::string_view(source));
  } catch (const toml::parse_error& error) {
    const toml::source_position& at = error.source().begin;
    if (at.line > 0) {
      return Status::Validation(
          fmt::format("{}:{}:{}: {}", source, at.line, at.column, error.description()));
    }
    return Status::Validation(fmt::format("{}: {}", source, error.description()));
  } catch (const std::exception& error) {
    return Status::Validation(fmt::format("{}: {}", source, error.what()));
  }
  return workload_toml::Parser(std::move(source), parts == WorkloadParts::kEverything).Parse(root);
}

}  // namespace partstore::sim
