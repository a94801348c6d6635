// The simulation's set-up (simulation_internal.h): the workload's tables created in the Database,
// its operations checked against its sharding policies, the policies set, the preload imported
// (no capacity consumed, before time starts), and each phase's mix entries prepared (their table
// looked up once, their key chooser and expressions built).
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "shard/database_state.h"
#include "tools/simulator/simulation_internal.h"
#include "tools/transfer/import_reader.h"

namespace partstore::sim::internal {

KeyNames Driver::NamesOf(const std::string& table, const std::optional<std::string>& index) const {
  for (const TableSpec& t : w_.tables) {
    if (t.name != table) continue;
    if (!index) return {t.partition_key, t.sort_key};
    for (const IndexSpec& i : t.indexes) {
      if (i.name == *index) return {i.partition_key, i.sort_key};
    }
  }
  return {};
}

Status Driver::SetPolicies(const std::vector<ShardingSpec>& specs) {
  for (const ShardingSpec& spec : specs) {
    auto put = db_.PutShardingPolicy({.table_name = spec.table, .policy = spec.policy});
    if (!put.ok()) {
      return Status(put.status().code(), "sharding policy on " + spec.table + " (" +
                                             spec.policy.key +
                                             "): " + std::string(put.status().message()));
    }
  }
  return Status::Ok();
}

Status Driver::CheckShardedOperations() const {
  std::vector<const ShardingSpec*> specs;
  for (const ShardingSpec& s : w_.sharding) specs.push_back(&s);
  for (const Phase& phase : w_.phases) {
    for (const ShardingSpec& s : phase.sharding) specs.push_back(&s);
  }
  for (const Phase& phase : w_.phases) {
    for (size_t e = 0; e < phase.mix.size(); ++e) {
      const Operation& op = phase.mix[e];
      const std::string where = "phase " + phase.name + ", " + std::string(OpKindName(op.kind)) +
                                " on " + op.table + " (mix entry " + std::to_string(e + 1) + ")";
      for (const ShardingSpec* s : specs) {
        if (s->table != op.table) continue;
        if (op.kind == OpKind::kBatchGet || op.kind == OpKind::kTransactGet) {
          return Status::Validation(where +
                                    ": the table has write sharding, and BatchGetItem and "
                                    "TransactGetItems have no sharded form (they would read the "
                                    "logical keys, where no item is)");
        }
        // A suffix calculated from a non-key attribute needs that attribute in every request.
        const KeyNames keys = NamesOf(op.table, s->policy.index_name);
        const std::optional<std::string>& from = s->policy.calculated_from;
        if (s->policy.strategy != sharding::ShardStrategy::kCalculated || !from ||
            *from == keys.partition || (keys.sort && *from == *keys.sort)) {
          continue;
        }
        const bool has = std::any_of(op.attributes.begin(), op.attributes.end(),
                                     [&](const auto& a) { return a.first == *from; });
        const bool point =
            op.kind == OpKind::kGet || op.kind == OpKind::kUpdate || op.kind == OpKind::kDelete;
        if (point || (!has && (op.kind == OpKind::kPut || op.kind == OpKind::kBatchWrite ||
                               op.kind == OpKind::kTransactWrite))) {
          return Status::Validation(where + ": the sharding policy on " + s->policy.key +
                                    " is calculated from \"" + *from + "\", which " +
                                    (point ? "the simulator does not send with a key"
                                           : "the operation's attributes lack"));
        }
      }
    }
  }
  return Status::Ok();
}

namespace {

// A workload's ThroughputSettings as CreateTable's members (0: absent).
void ApplyThroughputSettings(const ThroughputSettings& t, std::optional<OnDemandThroughput>* max,
                             std::optional<WarmThroughput>* warm) {
  auto units = [](int64_t v) { return v > 0 ? std::optional<int64_t>(v) : std::nullopt; };
  if (t.max_read_request_units > 0 || t.max_write_request_units > 0) {
    *max = OnDemandThroughput{units(t.max_read_request_units), units(t.max_write_request_units)};
  }
  if (t.warm_read_units > 0 || t.warm_write_units > 0) {
    *warm = WarmThroughput{units(t.warm_read_units), units(t.warm_write_units)};
  }
}

}  // namespace

Status Driver::SetUp(SimulationCost* cost) {
  for (const TableSpec& t : w_.tables) {
    CreateTableRequest create;
    create.table_name = t.name;
    auto define = [&](const std::string& name) {
      for (const AttributeDefinition& d : create.attribute_definitions) {
        if (d.attribute_name == name) return;
      }
      create.attribute_definitions.push_back({name, KeyType::kString});
    };
    define(t.partition_key);
    create.key_schema.push_back({t.partition_key, KeyRoleName::kHash});
    if (t.sort_key) {
      define(*t.sort_key);
      create.key_schema.push_back({*t.sort_key, KeyRoleName::kRange});
    }
    create.billing_mode = t.on_demand ? BillingMode::kPayPerRequest : BillingMode::kProvisioned;
    if (!t.on_demand)
      create.provisioned_throughput = ProvisionedThroughput{t.read_capacity, t.write_capacity};
    create.table_class = t.table_class;
    ApplyThroughputSettings(t.throughput, &create.on_demand_throughput, &create.warm_throughput);
    for (const IndexSpec& i : t.indexes) {
      GlobalSecondaryIndex gsi;
      gsi.index_name = i.name;
      define(i.partition_key);
      gsi.key_schema.push_back({i.partition_key, KeyRoleName::kHash});
      if (i.sort_key) {
        define(*i.sort_key);
        gsi.key_schema.push_back({*i.sort_key, KeyRoleName::kRange});
      }
      gsi.projection.projection_type =
          i.projection == "KEYS_ONLY" ? ProjectionType::kKeysOnly : ProjectionType::kAll;
      if (!t.on_demand)
        gsi.provisioned_throughput = ProvisionedThroughput{i.read_capacity, i.write_capacity};
      ApplyThroughputSettings(i.throughput, &gsi.on_demand_throughput, &gsi.warm_throughput);
      create.global_secondary_indexes.push_back(std::move(gsi));
    }
    auto created = db_.CreateTable(create);
    if (!created.ok()) {
      return Status(created.status().code(),
                    "table " + t.name + ": " + std::string(created.status().message()));
    }
  }
  PARTSTORE_RETURN_IF_ERROR(CheckShardedOperations());
  // Auto scaling: one target per scaled dimension of a table or GSI.
  std::vector<ScalingTarget> targets;
  auto add = [&](const std::string& table, const std::optional<std::string>& index,
                 const std::optional<ScalingSpec>& spec, bool read) {
    if (!spec) return;
    targets.push_back(ScalingTarget{.table = table,
                                    .index = index,
                                    .read = read,
                                    .min_capacity = spec->min_capacity,
                                    .max_capacity = spec->max_capacity,
                                    .target_utilization = spec->target_utilization,
                                    .disable_scale_in = spec->disable_scale_in,
                                    .scale_out_cooldown_seconds = spec->scale_out_cooldown_seconds,
                                    .scale_in_cooldown_seconds = spec->scale_in_cooldown_seconds});
  };
  for (const TableSpec& t : w_.tables) {
    add(t.name, std::nullopt, t.read_scaling, true);
    add(t.name, std::nullopt, t.write_scaling, false);
    for (const IndexSpec& i : t.indexes) {
      add(t.name, i.name, i.read_scaling, true);
      add(t.name, i.name, i.write_scaling, false);
    }
  }
  if (!targets.empty()) {
    PARTSTORE_ASSIGN_OR_RETURN(
        AutoScaler scaler,
        AutoScaler::Create(db_, std::move(targets),
                           {.update_delay_seconds = w_.scaling_update_delay_seconds}));
    scaler_.emplace(std::move(scaler));
  }
  PARTSTORE_RETURN_IF_ERROR(SetPolicies(w_.sharding));

  // The preload, imported before time starts.
  const auto started = Clock::now();
  int64_t items = 0;
  int64_t errors = 0;
  for (const Preload& p : w_.preload) {
    if (!p.from.empty()) {
      PARTSTORE_ASSIGN_OR_RETURN(transfer::LocalSource source, transfer::FindLocalSource(p.from));
      Status loaded = transfer::LoadObjects(db_, p.table, source.paths,
                                            transfer::RecordFormat{.csv = source.csv}, source.gzip,
                                            [&](const transfer::ImportCounts& more) {
                                              items += more.imported;
                                              errors += more.errors;
                                            });
      if (!loaded.ok()) {
        return Status(loaded.code(), "preload of " + p.table + " from " + p.from + ": " +
                                         std::string(loaded.message()));
      }
      continue;
    }
    Entry entry;
    entry.table_keys = NamesOf(p.table, std::nullopt);
    entry.padding = PaddingOf(p.table);
    Operation op;  // the templates ItemOf reads
    op.key = p.key;
    op.sort = p.sort;
    op.attributes = p.attributes;
    op.size = p.size;
    entry.op = &op;
    int64_t ordinal = 0;
    for (int64_t k = 0; k < p.keys; ++k) {
      for (int64_t i = 0; i < p.items_per_key; ++i) {
        Item item = ItemOf(entry, {k, i, ordinal++, 0});
        Status imported = db_.ImportItem(p.table, std::move(item));
        if (!imported.ok()) {
          return Status(imported.code(),
                        "preload of " + p.table + ": " + std::string(imported.message()));
        }
        ++items;
      }
    }
  }
  if (replay_ != nullptr) {  // what the recorded reads found that no recorded write made
    for (const auto& [table, item] : replay_->preload) {
      Item padded = item;  // ReadTrace padded it with a repeated byte
      if (PaddingOf(table) == Padding::kFull) {
        if (auto data = padded.find(kPaddingAttribute); data != padded.end()) {
          if (std::string* text = data->second.if_string()) {
            FillPadding(Padding::kFull, text->size(), *text);
          }
        }
      }
      Status imported = db_.ImportItem(table, std::move(padded));
      if (!imported.ok()) {
        return Status(imported.code(),
                      "the replay's preload of " + table + ": " + std::string(imported.message()));
      }
      ++items;
    }
  }
  if (errors > 0) {
    return Status::Validation(fmt::format(
        "preload: {} records of the `from` files could not be read or were refused by their "
        "table (a missing or mistyped key, an item over 400 KB)",
        errors));
  }
  if (cost != nullptr) {
    cost->preload_items = items;
    cost->preload_wall_seconds = SecondsSince(started);
  }

  // The caches, in front of their tables (after the preload: they start empty, as a new DAX
  // cluster does).
  for (const TableSpec& t : w_.tables) {
    if (!t.cache) continue;
    if (sharded_) {
      return Status::Validation("table " + t.name +
                                ": a cache and write-sharding policies cannot be combined in one "
                                "workload (the cache sends plain requests)");
    }
    CacheOptions options;
    options.item_ttl_seconds = static_cast<double>(t.cache->item_ttl_micros) / 1e6;
    options.negative_ttl_seconds = options.item_ttl_seconds;
    options.query_ttl_seconds = static_cast<double>(t.cache->query_ttl_micros) / 1e6;
    options.memory_limit_bytes = static_cast<uint64_t>(t.cache->memory_mb) << 20;
    options.follow_streams = false;  // every write of the workload goes through the cache
    options.clock = clock_;
    PARTSTORE_ASSIGN_OR_RETURN(std::unique_ptr<CachedStore> cache,
                               CachedStore::Open(db_, std::move(options)));
    caches_.emplace(t.name, std::move(cache));
  }

  entries_.resize(w_.phases.size());
  for (size_t p = 0; p < w_.phases.size(); ++p) {
    const Phase& phase = w_.phases[p];
    tally_.operations[p].resize(phase.mix.size());
    for (const Operation& op : phase.mix) {
      Entry entry{.op = &op, .keys = KeyChooser(op.keys.value_or(phase.keys))};
      entry.table_keys = NamesOf(op.table, std::nullopt);
      entry.padding = PaddingOf(op.table);
      entry.read_keys = NamesOf(op.table, op.index);
      PARTSTORE_ASSIGN_OR_RETURN(entry.table, partstore::internal::GetTable(db_, op.table));
      if (auto cache = caches_.find(op.table); cache != caches_.end()) {
        entry.cache = cache->second.get();
      }
      if (op.kind == OpKind::kQuery) {
        entry.query_expression = "#pk = :pk";
        if (op.sort_prefix) entry.query_expression += " AND begins_with(#sk, :sp)";
      }
      if (op.kind == OpKind::kUpdate) {
        std::string set;
        for (size_t a = 0; a < op.attributes.size(); ++a) {
          set += (set.empty() ? "SET " : ", ") + ("#a" + std::to_string(a)) + " = :a" +
                 std::to_string(a);
        }
        if (op.size) set += std::string(set.empty() ? "SET " : ", ") + "#d = :d";
        entry.update_expression = set + (set.empty() ? "" : " ") + "ADD #c :one";
      }
      entries_[p].push_back(std::move(entry));
    }
  }
  return Status::Ok();
}

Padding Driver::PaddingOf(std::string_view table) const {
  if (full_items_) return Padding::kFull;
  for (const TableSpec& t : w_.tables) {
    if (t.name == table && t.cache) return Padding::kFull;
  }
  return Padding::kRepeated;
}

std::vector<CacheReport> Driver::CacheReports() const {
  std::vector<CacheReport> out;
  for (const TableSpec& t : w_.tables) {
    auto it = caches_.find(t.name);
    if (it == caches_.end()) continue;
    const CacheStats s = it->second->stats();
    CacheReport r;
    r.table = t.name;
    r.item_hits = static_cast<int64_t>(s.item_hits);
    r.negative_hits = static_cast<int64_t>(s.negative_hits);
    r.item_misses = static_cast<int64_t>(s.item_misses);
    r.query_hits = static_cast<int64_t>(s.query_hits);
    r.query_misses = static_cast<int64_t>(s.query_misses);
    const double hits = static_cast<double>(r.item_hits + r.negative_hits + r.query_hits);
    const double all = hits + static_cast<double>(r.item_misses + r.query_misses);
    r.hit_ratio = all > 0 ? hits / all : 0;
    r.memory_bytes = s.memory_bytes;
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace partstore::sim::internal
