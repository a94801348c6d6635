// On-demand backups (partstore/backups.h): CreateBackup, DescribeBackup, ListBackups,
// DeleteBackup, RestoreTableFromBackup, and their files in a data directory
// (shard/persist/backup_format.h); and RestoreTableToPointInTime (partstore/continuous_backups.h),
// which restores the present the same way.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <mutex>

#include "partstore/database.h"
#include "shard/constraints.h"
#include "shard/database_state.h"
#include "shard/persist/backup_format.h"
#include "shard/persist/block_file.h"
#include "shard/persist/byte_codec.h"
#include "shard/persist/snapshot_format.h"
#include "shard/persist/table_settings.h"
#include "shard/resource_id.h"

namespace partstore {

using internal::DatabaseState;
using persist::BackupBlock;
using persist::BlockFileReader;
using persist::BlockFileWriter;
using persist::ByteReader;
using persist::ByteWriter;
using Backup = DatabaseState::Backup;

std::string_view BackupStatusName(BackupStatus status) {
  switch (status) {
    case BackupStatus::kCreating:
      return "CREATING";
    case BackupStatus::kDeleted:
      return "DELETED";
    case BackupStatus::kAvailable:
      return "AVAILABLE";
  }
  return "AVAILABLE";
}

namespace {

namespace fs = std::filesystem;

Status BackupNotFound(std::string_view arn) {
  return Status(Code::kBackupNotFound, fmt::format("Backup not found: {}", arn));
}

void EncodeBackup(const BackupDescription& d, std::string* out) {
  ByteWriter w(out);
  const BackupDetails& b = d.backup_details;
  const SourceTableDetails& t = d.source_table_details;
  w.String(b.backup_arn);
  w.String(b.backup_name);
  w.Double(b.backup_creation_date_time);
  w.Varint(static_cast<uint64_t>(b.backup_size_bytes));
  w.String(t.table_name);
  w.String(t.table_id);
  w.String(t.table_arn);
  w.Double(t.table_creation_date_time);
  w.Varint(static_cast<uint64_t>(t.item_count));
  w.Varint(static_cast<uint64_t>(t.table_size_bytes));
}

bool DecodeBackup(std::string_view bytes, BackupDescription* d) {
  ByteReader r(bytes);
  BackupDetails& b = d->backup_details;
  SourceTableDetails& t = d->source_table_details;
  uint64_t size = 0, items = 0, table_size = 0;
  if (!(r.String(&b.backup_arn) && r.String(&b.backup_name) &&
        r.Double(&b.backup_creation_date_time) && r.Varint(&size) && r.String(&t.table_name) &&
        r.String(&t.table_id) && r.String(&t.table_arn) && r.Double(&t.table_creation_date_time) &&
        r.Varint(&items) && r.Varint(&table_size) && r.done() &&
        std::isfinite(b.backup_creation_date_time) && std::isfinite(t.table_creation_date_time))) {
    return false;
  }
  b.backup_size_bytes = static_cast<int64_t>(size);
  t.item_count = static_cast<int64_t>(items);
  t.table_size_bytes = static_cast<int64_t>(table_size);
  return true;
}

// The parts of a backup's description that come from its table definition.
void DescribeSource(const CreateTableRequest& table, BackupDescription* d) {
  SourceTableDetails& t = d->source_table_details;
  t.key_schema = table.key_schema;
  t.billing_mode = table.billing_mode.value_or(BillingMode::kProvisioned);
  if (table.provisioned_throughput) {
    t.provisioned_throughput.read_capacity_units =
        table.provisioned_throughput->read_capacity_units;
    t.provisioned_throughput.write_capacity_units =
        table.provisioned_throughput->write_capacity_units;
  }
  d->local_secondary_indexes = table.local_secondary_indexes;
  d->global_secondary_indexes = table.global_secondary_indexes;
}

Status WriteBackupFile(const std::string& path, const Backup& backup) {
  fs::create_directories(fs::path(path).parent_path());
  PARTSTORE_ASSIGN_OR_RETURN(
      std::unique_ptr<BlockFileWriter> file,
      BlockFileWriter::Create(path, persist::kBackupMagic, persist::kBackupVersion));
  std::string payload;
  EncodeBackup(backup.description, &payload);
  PARTSTORE_RETURN_IF_ERROR(file->Append(static_cast<uint8_t>(BackupBlock::kBackup), payload));
  payload.clear();
  persist::TableSettings settings;
  settings.create = backup.table;
  persist::EncodeTableSettings(settings, &payload);
  PARTSTORE_RETURN_IF_ERROR(file->Append(static_cast<uint8_t>(BackupBlock::kTable), payload));
  const std::vector<StoredItem>& all = backup.items;
  for (size_t i = 0; i < all.size();) {
    std::string items;
    size_t count = 0;
    ByteWriter writer(&items);
    for (; i < all.size() && items.size() < persist::kItemBlockBytes; ++i, ++count) {
      writer.String(all[i].PortableEncoding());
    }
    payload.clear();
    ByteWriter(&payload).Varint(count);
    payload += items;
    PARTSTORE_RETURN_IF_ERROR(file->Append(static_cast<uint8_t>(BackupBlock::kItems), payload));
  }
  payload.clear();
  ByteWriter(&payload).Varint(all.size());
  PARTSTORE_RETURN_IF_ERROR(file->Append(static_cast<uint8_t>(BackupBlock::kEnd), payload));
  return file->Commit();
}

Result<std::shared_ptr<const Backup>> ReadBackupFile(const std::string& path) {
  PARTSTORE_ASSIGN_OR_RETURN(
      std::unique_ptr<BlockFileReader> file,
      BlockFileReader::Open(path, persist::kBackupMagic, persist::kBackupVersion));
  auto backup = std::make_shared<Backup>();
  BackupBlock expected = BackupBlock::kBackup;
  for (;;) {
    if (file->AtEnd()) return file->Corrupt(file->offset(), "the file ends before its end block");
    PARTSTORE_ASSIGN_OR_RETURN(BlockFileReader::Block block, file->Next());
    const auto kind = static_cast<BackupBlock>(block.kind);
    const bool in_order =
        kind == expected || (expected == BackupBlock::kItems && kind == BackupBlock::kEnd);
    if (!in_order) return file->Corrupt(block.offset, "a block out of order");
    if (kind == BackupBlock::kBackup) {
      if (!DecodeBackup(block.payload, &backup->description)) {
        return file->Corrupt(block.offset, "a malformed backup block");
      }
      expected = BackupBlock::kTable;
    } else if (kind == BackupBlock::kTable) {
      persist::TableSettings settings;
      if (!persist::DecodeTableSettings(block.payload, &settings)) {
        return file->Corrupt(block.offset, "a malformed table block");
      }
      backup->table = std::move(settings.create);
      expected = BackupBlock::kItems;
    } else if (kind == BackupBlock::kItems) {
      ByteReader reader(block.payload);
      uint64_t count = 0;
      if (!reader.Count(block.payload.size(), &count)) {
        return file->Corrupt(block.offset, "a malformed item block");
      }
      for (uint64_t i = 0; i < count; ++i) {
        std::string_view encoding;
        if (!reader.Bytes(&encoding)) return file->Corrupt(block.offset, "a malformed item block");
        Result<StoredItem> item = StoredItem::Decode(encoding);
        if (!item.ok()) return file->Corrupt(block.offset, "a malformed item");
        backup->items.push_back(std::move(*item));
      }
      if (!reader.done()) return file->Corrupt(block.offset, "a malformed item block");
    } else {
      ByteReader reader(block.payload);
      uint64_t items = 0;
      if (!reader.Varint(&items) || !reader.done() || items != backup->items.size()) {
        return file->Corrupt(block.offset, "the end block does not match the items read");
      }
      if (!file->AtEnd()) return file->Corrupt(file->offset(), "bytes after the end block");
      break;
    }
  }
  DescribeSource(backup->table, &backup->description);
  return std::shared_ptr<const Backup>(std::move(backup));
}

std::optional<size_t> FindBackup(const std::vector<std::shared_ptr<const Backup>>& backups,
                                 std::string_view arn) {
  for (size_t i = 0; i < backups.size(); ++i) {
    if (backups[i]->description.backup_details.backup_arn == arn) return i;
  }
  return std::nullopt;
}

}  // namespace

std::string DatabaseState::BackupPath(std::string_view backup_arn) const {
  const std::string_view id = backup_arn.substr(backup_arn.rfind('/') + 1);
  return fmt::format("{}/backups/{}.backup", options_.persistence.data_dir, id);
}

Status DatabaseState::LoadBackups() {
  const fs::path directory = fs::path(options_.persistence.data_dir) / "backups";
  std::error_code error;
  if (!fs::is_directory(directory, error)) return Status::Ok();
  std::vector<std::shared_ptr<const Backup>> loaded;
  for (const fs::directory_entry& entry : fs::directory_iterator(directory, error)) {
    if (entry.path().extension() != ".backup") continue;  // (a temporary file of a crash)
    PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<const Backup> backup,
                               ReadBackupFile(entry.path().string()));
    loaded.push_back(std::move(backup));
  }
  std::sort(loaded.begin(), loaded.end(), [](const auto& a, const auto& b) {
    return a->description.backup_details.backup_arn < b->description.backup_details.backup_arn;
  });
  std::stable_sort(loaded.begin(), loaded.end(), [](const auto& a, const auto& b) {
    return a->description.backup_details.backup_creation_date_time <
           b->description.backup_details.backup_creation_date_time;
  });
  std::lock_guard lock(backups_mu_);
  backups_ = std::move(loaded);
  return Status::Ok();
}

Result<CreateBackupResult> Database::CreateBackup(const CreateBackupRequest& request) {
  {
    ConstraintViolations violations;
    violations.TableName(request.table_name);
    violations.Name(request.backup_name, "backupName");
    PARTSTORE_RETURN_IF_ERROR(violations.ToStatus());
  }
  Result<TableImage> image = ReadTableImage(request.table_name);
  if (!image.ok()) {
    if (image.error().code() != Code::kResourceNotFound) return image.error();
    return Status(Code::kTableNotFound, fmt::format("Table not found: {}", request.table_name));
  }
  auto backup = std::make_shared<Backup>();
  backup->table = persist::CreateRequestOf(image->table);
  backup->table.stream_specification.reset();  // a restore does not get the stream
  backup->items = std::move(image->items);
  BackupDescription& d = backup->description;
  BackupDetails& details = d.backup_details;
  details.backup_arn = image->table.table_arn + "/backup/" + NewResourceId(image->time);
  details.backup_name = request.backup_name;
  details.backup_creation_date_time = image->time;
  for (const StoredItem& item : backup->items) {
    details.backup_size_bytes += static_cast<int64_t>(item.item_size());
  }
  SourceTableDetails& source = d.source_table_details;
  source.table_name = image->table.table_name;
  source.table_id = image->table.table_id;
  source.table_arn = image->table.table_arn;
  source.table_creation_date_time = image->table.creation_date_time;
  source.item_count = static_cast<int64_t>(backup->items.size());
  source.table_size_bytes = details.backup_size_bytes;
  DescribeSource(backup->table, &d);
  if (!state_->options_.persistence.data_dir.empty()) {
    PARTSTORE_RETURN_IF_ERROR(WriteBackupFile(state_->BackupPath(details.backup_arn), *backup));
  }
  CreateBackupResult result{details};
  std::lock_guard lock(state_->backups_mu_);
  state_->backups_.push_back(std::move(backup));
  return result;
}

Result<DescribeBackupResult> Database::DescribeBackup(const DescribeBackupRequest& request) {
  std::lock_guard lock(state_->backups_mu_);
  std::optional<size_t> at = FindBackup(state_->backups_, request.backup_arn);
  if (!at) return BackupNotFound(request.backup_arn);
  return DescribeBackupResult{state_->backups_[*at]->description};
}

Result<ListBackupsResult> Database::ListBackups(const ListBackupsRequest& request) {
  {
    ConstraintViolations violations;
    if (request.table_name) violations.TableName(*request.table_name);
    if (request.limit) violations.Range(*request.limit, 1, 100, "limit");
    if (request.backup_type && *request.backup_type != "USER" && *request.backup_type != "SYSTEM" &&
        *request.backup_type != "AWS_BACKUP" && *request.backup_type != "ALL") {
      violations.Enum(*request.backup_type, "[USER, SYSTEM, AWS_BACKUP, ALL]", "backupType");
    }
    PARTSTORE_RETURN_IF_ERROR(violations.ToStatus());
  }
  ListBackupsResult result;
  // Every backup here is a USER backup.
  const std::string type = request.backup_type.value_or("USER");
  if (type != "USER" && type != "ALL") return result;
  std::lock_guard lock(state_->backups_mu_);
  size_t start = 0;
  if (request.exclusive_start_backup_arn) {
    std::optional<size_t> at = FindBackup(state_->backups_, *request.exclusive_start_backup_arn);
    if (!at) return BackupNotFound(*request.exclusive_start_backup_arn);
    start = *at + 1;
  }
  const size_t limit = static_cast<size_t>(request.limit.value_or(100));
  for (size_t i = start; i < state_->backups_.size(); ++i) {
    const BackupDescription& d = state_->backups_[i]->description;
    const double created = d.backup_details.backup_creation_date_time;
    if (request.table_name && d.source_table_details.table_name != *request.table_name) continue;
    if (request.time_range_lower_bound && created < *request.time_range_lower_bound) continue;
    if (request.time_range_upper_bound && created >= *request.time_range_upper_bound) continue;
    if (result.backup_summaries.size() == limit) {
      result.last_evaluated_backup_arn = result.backup_summaries.back().details.backup_arn;
      break;
    }
    result.backup_summaries.push_back({d.source_table_details.table_name,
                                       d.source_table_details.table_id,
                                       d.source_table_details.table_arn, d.backup_details});
  }
  return result;
}

Result<DeleteBackupResult> Database::DeleteBackup(const DeleteBackupRequest& request) {
  std::shared_ptr<const Backup> backup;
  {
    std::lock_guard lock(state_->backups_mu_);
    std::optional<size_t> at = FindBackup(state_->backups_, request.backup_arn);
    if (!at) return BackupNotFound(request.backup_arn);
    backup = state_->backups_[*at];
    if (!state_->options_.persistence.data_dir.empty()) {
      std::error_code error;
      fs::remove(state_->BackupPath(request.backup_arn), error);
      if (error) {
        return Status::Internal(fmt::format(
            "cannot delete {}: {}", state_->BackupPath(request.backup_arn), error.message()));
      }
    }
    state_->backups_.erase(state_->backups_.begin() + static_cast<std::ptrdiff_t>(*at));
  }
  DeleteBackupResult result{backup->description};
  result.backup_description.backup_details.backup_status = BackupStatus::kDeleted;
  return result;
}

namespace {

// A restore (from a backup, or to a point in time): the table `create` describes, renamed and with
// the request's overrides, filled with `items` through ImportItem (logged and indexed as any
// write; no capacity consumed). Undone when an item is refused (an override's index, a memory
// limit).
template <typename Request>
Result<TableDescription> Restore(Database& db, CreateTableRequest create,
                                 const std::vector<StoredItem>& items, const Request& request) {
  if (request.sse_specification_override || request.on_demand_throughput_override) {
    return Status::Validation(
        "partstore does not model encryption at rest or on-demand throughput limits: "
        "SSESpecificationOverride and OnDemandThroughputOverride are not supported");
  }
  create.table_name = request.target_table_name;
  if (request.billing_mode_override) create.billing_mode = *request.billing_mode_override;
  if (request.provisioned_throughput_override) {
    create.provisioned_throughput = *request.provisioned_throughput_override;
  }
  if (create.billing_mode == BillingMode::kPayPerRequest) {
    create.provisioned_throughput.reset();
    for (GlobalSecondaryIndex& index : create.global_secondary_indexes) {
      index.provisioned_throughput.reset();
    }
  } else {
    create.on_demand_throughput.reset();
    for (GlobalSecondaryIndex& index : create.global_secondary_indexes) {
      index.on_demand_throughput.reset();
    }
  }
  // A restored table starts unprotected (so a failed restore can be undone) and without the
  // source's warm throughput (its GSIs' too), which may not suit the overridden capacity.
  create.deletion_protection_enabled.reset();
  create.warm_throughput.reset();
  for (GlobalSecondaryIndex& index : create.global_secondary_indexes) index.warm_throughput.reset();
  if (request.global_secondary_index_override) {
    create.global_secondary_indexes = *request.global_secondary_index_override;
  }
  if (request.local_secondary_index_override) {
    create.local_secondary_indexes = *request.local_secondary_index_override;
  }
  // Attribute definitions the overrides left unused are dropped (CreateTable refuses them).
  auto used = [&](const std::string& name) {
    auto in = [&](const std::vector<KeySchemaElement>& schema) {
      return std::any_of(schema.begin(), schema.end(),
                         [&](const KeySchemaElement& k) { return k.attribute_name == name; });
    };
    return in(create.key_schema) ||
           std::any_of(create.global_secondary_indexes.begin(),
                       create.global_secondary_indexes.end(),
                       [&](const GlobalSecondaryIndex& i) { return in(i.key_schema); }) ||
           std::any_of(create.local_secondary_indexes.begin(), create.local_secondary_indexes.end(),
                       [&](const LocalSecondaryIndex& i) { return in(i.key_schema); });
  };
  std::erase_if(create.attribute_definitions,
                [&](const AttributeDefinition& a) { return !used(a.attribute_name); });
  Result<CreateTableResult> created = db.CreateTable(create);
  if (!created.ok()) {
    if (created.error().code() != Code::kResourceInUse) return created.error();
    return Status(Code::kTableAlreadyExists,
                  fmt::format("Table already exists: {}", request.target_table_name));
  }
  for (const StoredItem& item : items) {
    Status imported = db.ImportItem(create.table_name, item.ToItem());
    if (!imported.ok()) {
      (void)db.DeleteTable({.table_name = create.table_name});
      return Status(imported.code(), fmt::format("The restore into {} was undone: {}",
                                                 create.table_name, imported.message()));
    }
  }
  PARTSTORE_ASSIGN_OR_RETURN(DescribeTableResult described,
                             db.DescribeTable({.table_name = create.table_name}));
  return std::move(described.table);
}

}  // namespace

Result<RestoreTableFromBackupResult> Database::RestoreTableFromBackup(
    const RestoreTableFromBackupRequest& request) {
  {
    ConstraintViolations violations;
    violations.Name(request.target_table_name, "targetTableName");
    violations.Length(request.backup_arn, 37, 1024, "backupArn");
    PARTSTORE_RETURN_IF_ERROR(violations.ToStatus());
  }
  std::shared_ptr<const Backup> backup;
  {
    std::lock_guard lock(state_->backups_mu_);
    std::optional<size_t> at = FindBackup(state_->backups_, request.backup_arn);
    if (!at) return BackupNotFound(request.backup_arn);
    backup = state_->backups_[*at];
  }
  PARTSTORE_ASSIGN_OR_RETURN(TableDescription table,
                             Restore(*this, backup->table, backup->items, request));
  return RestoreTableFromBackupResult{std::move(table)};
}

Result<RestoreTableToPointInTimeResult> Database::RestoreTableToPointInTime(
    const RestoreTableToPointInTimeRequest& request) {
  {
    ConstraintViolations violations;
    if (request.source_table_name) violations.Name(*request.source_table_name, "sourceTableName");
    violations.Name(request.target_table_name, "targetTableName");
    PARTSTORE_RETURN_IF_ERROR(violations.ToStatus());
  }
  if (request.source_table_name.has_value() == request.source_table_arn.has_value()) {
    return Status::Validation("Exactly one of SourceTableName and SourceTableArn must be given");
  }
  if (request.use_latest_restorable_time && request.restore_date_time) {
    return Status::Validation(
        "RestoreDateTime cannot be given with UseLatestRestorableTime set to true");
  }
  // The source, by name or by ARN (an ARN is checked against the table's own).
  std::string name = request.source_table_name.value_or("");
  if (request.source_table_arn) {
    const std::string& arn = *request.source_table_arn;
    if (const size_t at = arn.find(":table/"); at != std::string::npos) name = arn.substr(at + 7);
  }
  Result<TableImage> image = ReadTableImage(name);
  if (!image.ok() ||
      (request.source_table_arn && image->table.table_arn != *request.source_table_arn)) {
    return Status(Code::kTableNotFound,
                  fmt::format("Table not found: {}", request.source_table_arn.value_or(name)));
  }
  Result<ContinuousBackupsResult> backups = DescribeContinuousBackups({.table_name = name});
  if (!backups.ok()) return backups.error();
  if (backups->continuous_backups_description.point_in_time_recovery_description
          .point_in_time_recovery_status != PointInTimeRecoveryStatus::kEnabled) {
    return Status(Code::kPointInTimeRecoveryUnavailable,
                  "Point in time recovery is not enabled for the source table: " + name);
  }
  if (request.restore_date_time && std::abs(*request.restore_date_time - image->time) > 1.0) {
    return Status(Code::kInvalidRestoreTime,
                  fmt::format("RestoreDateTime {:.3f} is outside the restorable window: partstore "
                              "keeps no history, so only the present ({:.3f}) can be restored "
                              "(use UseLatestRestorableTime)",
                              *request.restore_date_time, image->time));
  }
  CreateTableRequest create = persist::CreateRequestOf(image->table);
  create.stream_specification.reset();
  PARTSTORE_ASSIGN_OR_RETURN(TableDescription table,
                             Restore(*this, std::move(create), image->items, request));
  return RestoreTableToPointInTimeResult{std::move(table)};
}

}  // namespace partstore
