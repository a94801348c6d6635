// Database: the table catalogue, the routing of each operation to its table, and the control
// plane. Batches are in batch.cc.
//
// Order of checks for a data-plane operation, as DynamoDB (reference §7; the research catalogue
// of live captures): the request's own rules (model constraints, ReturnValues, expressions) —
// Prepare* in shard/prepared.h — then the table ("Requested resource not found"), then what needs
// the table (the key against the key schema, key conditions).
#include "partstore/database.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "shard/constraints.h"
#include "shard/database_state.h"
#include "shard/database_trace.h"
#include "shard/persist/byte_codec.h"
#include "shard/persist/table_settings.h"
#include "shard/prepared.h"

namespace partstore {

// The control plane's text names the table; the data plane's does not.
Status TableNotFound(std::string_view name) {
  return Status::ResourceNotFound(
      fmt::format("Requested resource not found: Table: {} not found", name));
}

namespace {

Status CheckName(std::string_view name) {
  ConstraintViolations violations;
  violations.TableName(name);
  return violations.ToStatus();
}

}  // namespace

internal::DatabaseState::DatabaseState(DatabaseOptions options)
    : options_(std::move(options)),
      cache_(std::make_shared<expr::ExpressionCache>(options_.expression_cache_capacity)) {
  // The capacity simulation's clock, and the one ClientRequestTokens expire on.
  if (!options_.capacity.clock) options_.capacity.clock = std::make_shared<capacity::SystemClock>();
  memory_ = std::make_shared<MemoryBudget>(options_.memory);
  memory_->set_evictor([this] { Evict(); });
  // Epoch time for TTL: the clock's zero is now on the wall clock, unless the options fix it.
  epoch_at_clock_zero_ =
      options_.time_to_live.epoch_at_clock_zero != 0
          ? static_cast<double>(options_.time_to_live.epoch_at_clock_zero)
          : std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
                    .count() -
                options_.capacity.clock->NowMicros() / 1e6;
}

Result<std::shared_ptr<Table>> internal::DatabaseState::GetTable(std::string_view name) const {
  std::shared_ptr<Table> table = lookup_.Find(name);
  if (table == nullptr) return Status::ResourceNotFound();
  return table;
}

namespace {

// The first option out of range, as a ValidationException naming it.
Status CheckOptions(const DatabaseOptions& options) {
  auto bad = [](std::string_view name, auto value, std::string_view rule) {
    return Status::Validation(
        fmt::format("DatabaseOptions: {} = {} is out of range: {}", name, value, rule));
  };
  if (options.stripes_per_table < 1 || options.stripes_per_table > 65536) {
    return bad("stripes_per_table", options.stripes_per_table, "1..65536");
  }
  if (options.item_collection_size_limit == 0) {
    return bad("item_collection_size_limit", 0, "must be positive");
  }
  if (options.memory.limit_bytes != 0 && options.memory.limit_bytes < (uint64_t{1} << 20)) {
    return bad("memory.limit_bytes", options.memory.limit_bytes, "0 (no limit) or at least 1 MiB");
  }
  if (options.memory.eviction_samples < 1 || options.memory.eviction_samples > 64) {
    return bad("memory.eviction_samples", options.memory.eviction_samples, "1..64");
  }
  if (options.region.empty()) return Status::Validation("DatabaseOptions: region is empty");
  if (options.account_id.empty()) return Status::Validation("DatabaseOptions: account_id is empty");
  const capacity::CapacityOptions& c = options.capacity;
  const std::pair<std::string_view, int64_t> positive[] = {
      {"capacity.partition_read_units", c.partition_read_units},
      {"capacity.partition_write_units", c.partition_write_units},
      {"capacity.heat_split_seconds", c.heat_split_seconds},
      {"capacity.on_demand_initial_peak_read_units", c.on_demand_initial_peak_read_units},
      {"capacity.on_demand_initial_peak_write_units", c.on_demand_initial_peak_write_units},
      {"capacity.on_demand_table_read_quota", c.on_demand_table_read_quota},
      {"capacity.on_demand_table_write_quota", c.on_demand_table_write_quota},
      {"capacity.insights_sketch_capacity", static_cast<int64_t>(c.insights_sketch_capacity)},
      {"capacity.insights_minutes", static_cast<int64_t>(c.insights_minutes)},
  };
  for (const auto& [name, value] : positive) {
    if (value <= 0) return bad(name, value, "must be positive");
  }
  // Each sketch holds this many counters and a filter of 8 times as many buckets, four rules per
  // table and GSI, allocated up front: a bound keeps a typo from asking for gigabytes.
  if (c.insights_sketch_capacity > capacity::kMaxInsightsSketchCapacity) {
    return bad("capacity.insights_sketch_capacity", c.insights_sketch_capacity, "1..65536");
  }
  const std::pair<std::string_view, int64_t> non_negative[] = {
      {"capacity.burst_seconds", c.burst_seconds},
      {"capacity.on_demand_peak_delay_seconds", c.on_demand_peak_delay_seconds},
      {"capacity.metric_seconds", c.metric_seconds},
      {"capacity.metric_minutes", c.metric_minutes},
      {"capacity.partition_metric_seconds", c.partition_metric_seconds},
      {"capacity.partition_metric_minutes", c.partition_metric_minutes},
  };
  for (const auto& [name, value] : non_negative) {
    if (value < 0) return bad(name, value, "must not be negative");
  }
  if (c.partition_size_limit == 0)
    return bad("capacity.partition_size_limit", 0, "must be positive");
  if (c.heat_percent < 1 || c.heat_percent > 100) {
    return bad("capacity.heat_percent", c.heat_percent, "1..100");
  }
  const TimeToLiveOptions& t = options.time_to_live;
  // `!(x >= a && x <= b)` also refuses NaN.
  if (t.epoch_at_clock_zero < 0) {
    return bad("time_to_live.epoch_at_clock_zero", t.epoch_at_clock_zero, "must not be negative");
  }
  if (t.sweep_interval_seconds != 0 &&
      !(t.sweep_interval_seconds >= 0.01 && t.sweep_interval_seconds <= 86400)) {
    return bad("time_to_live.sweep_interval_seconds", t.sweep_interval_seconds, "0 or 0.01..86400");
  }
  if (!(t.expiry_delay_seconds >= 0 && t.expiry_delay_seconds <= 10 * 365.25 * 86400)) {
    return bad("time_to_live.expiry_delay_seconds", t.expiry_delay_seconds, "0..10 years");
  }
  if (!(t.change_interval_seconds >= 0 && t.change_interval_seconds <= 86400)) {
    return bad("time_to_live.change_interval_seconds", t.change_interval_seconds, "0..86400");
  }
  const StreamOptions& s = options.streams;
  if (!(s.retention_seconds >= 60 && s.retention_seconds <= 10 * 365.25 * 86400)) {
    return bad("streams.retention_seconds", s.retention_seconds, "60..10 years");
  }
  if (s.max_bytes < (uint64_t{1} << 20)) {
    return bad("streams.max_bytes", static_cast<double>(s.max_bytes), "at least 1 MiB");
  }
  if (!(s.iterator_lifetime_seconds >= 1 && s.iterator_lifetime_seconds <= 86400)) {
    return bad("streams.iterator_lifetime_seconds", s.iterator_lifetime_seconds, "1..86400");
  }
  return Status::Ok();
}

}  // namespace

Result<std::unique_ptr<Database>> Database::Open(DatabaseOptions options) {
  PARTSTORE_RETURN_IF_ERROR(CheckOptions(options));
  if (options.persistence.wal && options.persistence.data_dir.empty()) {
    return Status::Validation(
        "DatabaseOptions: persistence.wal needs persistence.data_dir (where the log is kept)");
  }
  auto db = std::make_unique<Database>(std::move(options));
  if (!db->state_->options_.persistence.data_dir.empty()) {
    PARTSTORE_RETURN_IF_ERROR(db->state_->OpenDataDirectory(*db));
  }
  return db;
}

Database::Database(DatabaseOptions options)
    : state_(std::make_unique<internal::DatabaseState>(std::move(options))) {}

Database::~Database() = default;

const DatabaseOptions& Database::options() const { return state_->options_; }

Result<CreateTableResult> Database::CreateTable(const CreateTableRequest& request) {
  std::shared_lock control(state_->control_mu_);
  TableOptions table_options;
  table_options.stripes = state_->options_.stripes_per_table;
  table_options.item_collection_size_limit = state_->options_.item_collection_size_limit;
  table_options.expression_cache = state_->cache_;
  table_options.capacity = state_->options_.capacity;
  table_options.cache_expiry = state_->options_.time_to_live.expiry_mode == ExpiryMode::kCache;
  table_options.epoch_at_clock_zero = state_->epoch_at_clock_zero_;
  table_options.memory = state_->memory_;
  table_options.streams = state_->options_.streams;
  table_options.stream_registry = state_->streams_;
  table_options.arn_prefix = fmt::format("arn:aws:dynamodb:{}:{}:table/", state_->options_.region,
                                         state_->options_.account_id);
  PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table,
                             Table::Create(request, std::move(table_options)));
  table->set_log_number(state_->next_table_number_.fetch_add(1));
  table->AttachLog(state_->wal_.get());
  bool inserted = false;
  {
    std::unique_lock lock(state_->mu_);
    inserted = state_->tables_.try_emplace(request.table_name, table).second;
    if (inserted && state_->wal_) {
      // The settings, then the table's stream (its label and shards), in one record.
      std::string settings, body;
      persist::EncodeTableSettings({.create = request}, &settings);
      persist::ByteWriter writer(&body);
      writer.String(settings);
      const std::optional<persist::StreamImage> stream = table->CurrentStreamImage();
      writer.Bool(stream.has_value());
      if (stream) persist::EncodeStreamImage(*stream, writer);
      state_->LogControl(persist::WalRecord::kCreateTable, table->log_number(), body);
    }
  }
  if (!inserted) {
    table->DiscardStreams();  // (its stream, registered by Create, must not outlive it)
    return Status(Code::kResourceInUse, "Table already exists: " + request.table_name);
  }
  CreateTableResult result;
  result.table_description = table->Describe();
  // As DynamoDB's response: the table and its GSIs are reported CREATING (they are usable here
  // at once).
  result.table_description.table_status = TableStatus::kCreating;
  for (auto& gsi : result.table_description.global_secondary_indexes) {
    gsi.index_status = IndexStatus::kCreating;
  }
  if (state_->trace()) internal::RecordTable(*state_, "CreateTable", table->Describe());
  PARTSTORE_RETURN_IF_ERROR(state_->Durable());
  return result;
}

Result<DeleteTableResult> Database::DeleteTable(const DeleteTableRequest& request) {
  PARTSTORE_RETURN_IF_ERROR(CheckName(request.table_name));
  std::shared_lock control(state_->control_mu_);
  std::shared_ptr<Table> table;
  // Deletion protection is checked before mu_ is taken (a table's locks are never taken under
  // it); if the name was given to another table meanwhile, again.
  for (bool deleted = false; !deleted;) {
    Result<std::shared_ptr<Table>> found = state_->GetTable(request.table_name);
    if (!found.ok()) return TableNotFound(request.table_name);
    if ((*found)->deletion_protected()) {
      return Status::Validation(
          "Resource cannot be deleted as it is currently protected against deletion. Disable "
          "deletion protection first.");
    }
    std::unique_lock lock(state_->mu_);
    auto it = state_->tables_.find(request.table_name);
    if (it == state_->tables_.end()) return TableNotFound(request.table_name);
    if (it->second != *found) continue;
    table = std::move(it->second);
    state_->tables_.erase(it);
    state_->LogControl(persist::WalRecord::kDeleteTable, table->log_number(), {});
    deleted = true;
  }
  state_->ForgetTable(request.table_name);
  table->set_status(TableStatus::kDeleting);
  DeleteTableResult result;
  result.table_description = table->Describe();
  // Its stream stays readable (DISABLED) until its records are trimmed, as DynamoDB's.
  table->DisableStream();
  if (state_->trace()) internal::RecordTable(*state_, "DeleteTable", result.table_description);
  PARTSTORE_RETURN_IF_ERROR(state_->Durable());
  return result;
}

Result<DescribeTableResult> Database::DescribeTable(const DescribeTableRequest& request) {
  PARTSTORE_RETURN_IF_ERROR(CheckName(request.table_name));
  Result<std::shared_ptr<Table>> table = state_->GetTable(request.table_name);
  if (!table.ok()) return TableNotFound(request.table_name);
  DescribeTableResult result;
  result.table = (*table)->Describe();
  return result;
}

Result<ListTablesResult> Database::ListTables(const ListTablesRequest& request) {
  ConstraintViolations violations;
  if (request.exclusive_start_table_name) {
    violations.Name(*request.exclusive_start_table_name, "exclusiveStartTableName");
  }
  if (request.limit) violations.Range(*request.limit, 1, 100, "limit");
  PARTSTORE_RETURN_IF_ERROR(violations.ToStatus());
  const size_t limit = request.limit ? static_cast<size_t>(*request.limit) : 100;

  ListTablesResult result;
  std::shared_lock lock(state_->mu_);
  auto it = request.exclusive_start_table_name
                ? state_->tables_.upper_bound(*request.exclusive_start_table_name)
                : state_->tables_.begin();
  for (; it != state_->tables_.end() && result.table_names.size() < limit; ++it) {
    result.table_names.push_back(it->first);
  }
  if (it != state_->tables_.end() && !result.table_names.empty()) {
    result.last_evaluated_table_name = result.table_names.back();
  }
  return result;
}

Result<UpdateTableResult> Database::UpdateTable(const UpdateTableRequest& request) {
  PARTSTORE_RETURN_IF_ERROR(CheckName(request.table_name));
  std::shared_lock control(state_->control_mu_);
  Result<std::shared_ptr<Table>> table = state_->GetTable(request.table_name);
  if (!table.ok()) return TableNotFound(request.table_name);
  const TableDescription before = (*table)->Describe();
  PARTSTORE_RETURN_IF_ERROR((*table)->Update(request, [&] {
    if (!state_->wal_) return;
    std::string body;
    persist::EncodeUpdateTable(request, &body);
    state_->LogControl(persist::WalRecord::kUpdateTable, (*table)->log_number(), body);
  }));
  // A new index's entries were counted as it was backfilled; the evict policy makes room now
  // (the reject policy does not refuse an UpdateTable: partstore/memory.h).
  (*table)->AfterWrite();
  UpdateTableResult result;
  result.table_description = (*table)->Describe();
  // As DynamoDB's response: a GSI being created is reported CREATING, one being deleted is still
  // listed, DELETING (both changes are already complete here).
  auto& gsis = result.table_description.global_secondary_indexes;
  for (auto& gsi : gsis) {
    const bool existed =
        std::any_of(before.global_secondary_indexes.begin(), before.global_secondary_indexes.end(),
                    [&](const auto& old) { return old.index_name == gsi.index_name; });
    if (!existed) gsi.index_status = IndexStatus::kCreating;
  }
  for (const auto& old : before.global_secondary_indexes) {
    const bool kept = std::any_of(gsis.begin(), gsis.end(), [&](const auto& gsi) {
      return gsi.index_name == old.index_name;
    });
    if (!kept) {
      state_->DropShardingPolicies(**table, old.index_name);
      gsis.push_back(old);
      gsis.back().index_status = IndexStatus::kDeleting;
    }
  }
  // As DynamoDB's: the change is reported in progress; it is already applied here.
  result.table_description.table_status = TableStatus::kUpdating;
  if (state_->trace()) internal::RecordTable(*state_, "UpdateTable", (*table)->Describe());
  PARTSTORE_RETURN_IF_ERROR(state_->Durable());
  return result;
}

Result<PutItemResult> Database::PutItem(const PutItemRequest& request) {
  auto run = [this](const PutItemRequest& request) -> Result<PutItemResult> {
    PARTSTORE_ASSIGN_OR_RETURN(PreparedCondition prepared,
                               PreparePut(request, request.table_name, state_->cache_.get()));
    PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table, state_->GetTable(request.table_name));
    return state_->ShownIfRefused(table->PutItem(request, prepared));
  };
  return internal::Tracing(*state_) ? internal::Traced(*state_, request, run) : run(request);
}

Result<PutItemResult> Database::PutStoredItem(const PutItemRequest& request, StoredItem item) {
  if (!request.item.empty()) return Status::Validation(std::string(kPutStoredItemWithTree));
  // A trace records the request with its item (a tree); an empty handle is an empty item.
  if (!item || internal::Tracing(*state_)) return Store::PutStoredItem(request, std::move(item));
  PARTSTORE_ASSIGN_OR_RETURN(PreparedCondition prepared,
                             PreparePut(request, request.table_name, state_->cache_.get()));
  PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table, state_->GetTable(request.table_name));
  return state_->ShownIfRefused(table->PutStoredItem(request, std::move(item), prepared));
}

Result<GetItemResult> Database::GetItem(const GetItemRequest& request) {
  auto run = [this](const GetItemRequest& request) -> Result<GetItemResult> {
    PARTSTORE_ASSIGN_OR_RETURN(PreparedProjection prepared,
                               PrepareGet(request, request.table_name, state_->cache_.get()));
    PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table, state_->GetTable(request.table_name));
    return state_->Shown(table->GetItem(request, prepared));
  };
  return internal::Tracing(*state_) ? internal::Traced(*state_, request, run) : run(request);
}

Result<GetItemViewResult> Database::GetItemView(const GetItemRequest& request) {
  auto run = [this](const GetItemRequest& request) -> Result<GetItemViewResult> {
    PARTSTORE_ASSIGN_OR_RETURN(PreparedProjection prepared,
                               PrepareGet(request, request.table_name, state_->cache_.get()));
    PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table, state_->GetTable(request.table_name));
    return state_->Shown(table->GetItemView(request, prepared));
  };
  return internal::Tracing(*state_) ? internal::Traced(*state_, request, run) : run(request);
}

Result<UpdateItemResult> Database::UpdateItem(const UpdateItemRequest& request) {
  auto run = [this](const UpdateItemRequest& request) -> Result<UpdateItemResult> {
    PARTSTORE_ASSIGN_OR_RETURN(PreparedUpdate prepared,
                               PrepareUpdate(request, request.table_name, state_->cache_.get()));
    PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table, state_->GetTable(request.table_name));
    return state_->ShownIfRefused(table->UpdateItem(request, prepared));
  };
  return internal::Tracing(*state_) ? internal::Traced(*state_, request, run) : run(request);
}

Result<DeleteItemResult> Database::DeleteItem(const DeleteItemRequest& request) {
  auto run = [this](const DeleteItemRequest& request) -> Result<DeleteItemResult> {
    PARTSTORE_ASSIGN_OR_RETURN(PreparedCondition prepared,
                               PrepareDelete(request, request.table_name, state_->cache_.get()));
    PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table, state_->GetTable(request.table_name));
    return state_->ShownIfRefused(table->DeleteItem(request, prepared));
  };
  return internal::Tracing(*state_) ? internal::Traced(*state_, request, run) : run(request);
}

Result<QueryResult> Database::Query(const QueryRequest& request) {
  // `key`: set to the partition key read, for the trace.
  auto run = [this](const QueryRequest& request, Item* key) -> Result<QueryResult> {
    PARTSTORE_ASSIGN_OR_RETURN(PreparedRead prepared,
                               PrepareQuery(request, request.table_name, state_->cache_.get()));
    PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table, state_->GetTable(request.table_name));
    if (key != nullptr) *key = table->QueryPartitionKey(request, prepared);
    return state_->Shown(table->Query(request, prepared));
  };
  return internal::Tracing(*state_) ? internal::TracedQuery(*state_, request, run)
                                    : run(request, nullptr);
}

Result<ScanResult> Database::Scan(const ScanRequest& request) {
  auto run = [this](const ScanRequest& request) -> Result<ScanResult> {
    PARTSTORE_ASSIGN_OR_RETURN(PreparedRead prepared,
                               PrepareScan(request, request.table_name, state_->cache_.get()));
    PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table, state_->GetTable(request.table_name));
    return state_->Shown(table->Scan(request, prepared));
  };
  return internal::Tracing(*state_) ? internal::Traced(*state_, request, run) : run(request);
}

Result<QueryViewResult> Database::QueryView(const QueryRequest& request) {
  // `key`: set to the partition key read, for the trace.
  auto run = [this](const QueryRequest& request, Item* key) -> Result<QueryViewResult> {
    PARTSTORE_ASSIGN_OR_RETURN(PreparedRead prepared,
                               PrepareQuery(request, request.table_name, state_->cache_.get()));
    PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table, state_->GetTable(request.table_name));
    if (key != nullptr) *key = table->QueryPartitionKey(request, prepared);
    return state_->Shown(table->QueryView(request, prepared));
  };
  return internal::Tracing(*state_) ? internal::TracedQuery(*state_, request, run)
                                    : run(request, nullptr);
}

Result<ScanViewResult> Database::ScanView(const ScanRequest& request) {
  auto run = [this](const ScanRequest& request) -> Result<ScanViewResult> {
    PARTSTORE_ASSIGN_OR_RETURN(PreparedRead prepared,
                               PrepareScan(request, request.table_name, state_->cache_.get()));
    PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table, state_->GetTable(request.table_name));
    return state_->Shown(table->ScanView(request, prepared));
  };
  return internal::Tracing(*state_) ? internal::Traced(*state_, request, run) : run(request);
}

double Database::EpochSeconds() const { return state_->EpochSeconds(); }

}  // namespace partstore
