// A database's data directory (partstore/persistence.h): opening it (the snapshot, then the
// write-ahead log's segments after it, replayed in order), and the control plane's log records.
#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "partstore/database.h"
#include "shard/database_state.h"
#include "shard/persist/block_file.h"
#include "shard/persist/byte_codec.h"
#include "shard/persist/table_settings.h"
#include "shard/persist/write_ahead_log.h"
#include "shard/tags.h"

namespace partstore::internal {

using persist::BlockFileReader;
using persist::ByteReader;
using persist::WalRecord;
using persist::WriteAheadLog;

void DatabaseState::LogControl(WalRecord kind, uint64_t table, std::string_view body) {
  if (!wal_) return;
  std::string payload;
  persist::ByteWriter(&payload).Varint(table);
  payload.append(body);
  wal_->Append(kind, payload);
}

namespace {

// Replays one segment's records into `db`. `tables`: the tables by log number (the snapshot's,
// then those the log creates).
class Replay {
 public:
  Replay(Database& db, DatabaseState& state, std::map<uint64_t, std::shared_ptr<Table>>* tables)
      : db_(db), state_(state), tables_(*tables) {}

  // `last`: the newest segment, whose torn last record (a crash mid-append, or damage to the end
  // of the file) is cut off, and recorded in the state's persistence stats: the file, the offset,
  // the bytes and why (the program says it: `partstore serve` on standard error and in /metrics).
  Status Segment(const std::string& path, bool last) {
    Result<std::unique_ptr<BlockFileReader>> opened =
        BlockFileReader::Open(path, persist::kWalMagic, persist::kWalVersion);
    if (!opened.ok()) {
      // A segment created but not yet given its header: nothing was logged to it.
      if (last && std::filesystem::file_size(path) < persist::kWalMagic.size() + 4) {
        std::filesystem::remove(path);
        return Status::Ok();
      }
      return opened.error();
    }
    BlockFileReader& file = **opened;
    while (!file.AtEnd()) {
      const uint64_t start = file.offset();
      Result<BlockFileReader::Block> block = file.Next();
      if (!block.ok()) {
        if (last && file.torn() && block.error().code() == Code::kValidation) {
          std::error_code error;
          const uintmax_t size = std::filesystem::file_size(path, error);
          const uint64_t dropped = error || size < start ? 0 : size - start;
          std::filesystem::resize_file(path, start);  // (the log goes on after it)
          PersistenceStats& stats = state_.persistence_stats_;
          ++stats.wal_records_dropped;
          stats.wal_bytes_dropped += dropped;
          stats.wal_drops.push_back(path + ": dropped the last record (" + std::to_string(dropped) +
                                    " bytes at offset " + std::to_string(start) +
                                    "): " + file.failure());
          return Status::Ok();
        }
        return block.error();
      }
      Status applied = Apply(static_cast<WalRecord>(block->kind), block->payload);
      if (!applied.ok()) {
        if (applied.code() == Code::kInternal) return applied;
        return file.Corrupt(block->offset,
                            "cannot replay the record: " + std::string(applied.message()));
      }
    }
    return Status::Ok();
  }

 private:
  Status Malformed() const { return Status::Validation("malformed record"); }

  Table* Find(uint64_t number) const {
    auto it = tables_.find(number);
    return it == tables_.end() ? nullptr : it->second.get();
  }

  Status Apply(WalRecord kind, std::string_view payload) {
    ByteReader reader(payload);
    if (kind == WalRecord::kWrite) return Writes(reader);
    uint64_t number = 0;
    if (!reader.Varint(&number)) return Malformed();
    const std::string_view body = payload.substr(reader.position());
    if (kind == WalRecord::kCreateTable) {
      persist::TableSettings settings;
      if (!persist::DecodeTableSettings(body, &settings)) return Malformed();
      PARTSTORE_RETURN_IF_ERROR(db_.CreateTable(settings.create).status());
      PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table,
                                 state_.GetTable(settings.create.table_name));
      table->set_log_number(number);
      tables_[number] = table;
      if (state_.next_table_number_.load() <= number) state_.next_table_number_ = number + 1;
      return Status::Ok();
    }
    Table* table = Find(number);
    // Changes of a table deleted before them (operations already running on it when it was
    // deleted) are not in the database either.
    if (table == nullptr) return Status::Ok();
    const std::string name = table->name();
    switch (kind) {
      case WalRecord::kDeleteTable:
        tables_.erase(number);
        // The DeleteTable was allowed when it ran: an UpdateTable that turned deletion protection
        // off may have logged its record after it (each logs after applying).
        if (table->deletion_protected()) {
          PARTSTORE_RETURN_IF_ERROR(
              db_.UpdateTable({.table_name = name, .deletion_protection_enabled = false}).status());
        }
        return db_.DeleteTable({name}).status();
      case WalRecord::kUpdateTable: {
        UpdateTableRequest request;
        if (!persist::DecodeUpdateTable(body, &request)) return Malformed();
        request.table_name = name;
        return db_.UpdateTable(request).status();
      }
      case WalRecord::kTimeToLive: {
        ByteReader r(body);
        TimeToLiveSpecification spec;
        if (!r.Bool(&spec.enabled) || !r.String(&spec.attribute_name) || !r.done()) {
          return Malformed();
        }
        // As it was applied, without the change-interval rule (the changes were minutes apart).
        PARTSTORE_RETURN_IF_ERROR(
            table->UpdateTimeToLive(spec, state_.options_.capacity.clock->NowMicros(), 0));
        if (spec.enabled) state_.StartSweeper();
        return Status::Ok();
      }
      case WalRecord::kPutShardingPolicy: {
        ByteReader r(body);
        PutShardingPolicyRequest request{.table_name = name, .policy = {}};
        if (!persist::DecodeShardingPolicy(r, &request.policy) || !r.done()) return Malformed();
        return db_.PutShardingPolicy(request).status();
      }
      case WalRecord::kDeleteShardingPolicy: {
        ByteReader r(body);
        DeleteShardingPolicyRequest request{.table_name = name};
        bool has_index = false;
        uint8_t match = 0;
        if (!r.Bool(&has_index) || (has_index && !r.String(&request.index_name.emplace())) ||
            !r.String(&request.key) || !r.Enum(1, &match) || !r.done()) {
          return Malformed();
        }
        request.match = static_cast<sharding::KeyMatch>(match);
        return db_.DeleteShardingPolicy(request).status();
      }
      case WalRecord::kTags: {
        std::vector<Tag> tags;
        // As TagResource checks them: a snapshot rebuilds the table through CreateTable's checks.
        if (!persist::DecodeTags(body, &tags) || tags.size() > kMaxTagsPerResource ||
            !CheckTags(tags).ok()) {
          return Malformed();
        }
        table->set_tags(std::move(tags));
        return Status::Ok();
      }
      default:
        return Status::Validation("unknown record kind " + std::to_string(static_cast<int>(kind)));
    }
  }

  Status Writes(ByteReader& reader) {
    uint64_t count = 0;
    if (!reader.Count(persist::kMaxBlockPayload, &count)) return Malformed();
    for (uint64_t i = 0; i < count; ++i) {
      uint64_t number = 0;
      uint8_t change = 0;  // 0 put, 1 delete, 2 a transaction's token
      std::string_view bytes;
      if (!reader.Varint(&number) || !reader.Enum(2, &change) || !reader.Bytes(&bytes)) {
        return Malformed();
      }
      if (change == 2) {
        persist::LoggedToken token;
        if (!persist::DecodeToken(bytes, &token)) return Malformed();
        state_.RestoreToken(token);
        continue;
      }
      const bool erase = change == 1;
      Result<StoredItem> item = StoredItem::Decode(bytes);
      if (!item.ok())
        return Status::Validation("malformed item: " + std::string(item.error().message()));
      Table* table = Find(number);
      if (table == nullptr) continue;
      PARTSTORE_RETURN_IF_ERROR(erase ? table->ReplayDelete(*item) : table->LoadItem(*item));
    }
    return reader.done() ? Status::Ok() : Malformed();
  }

  Database& db_;
  DatabaseState& state_;
  std::map<uint64_t, std::shared_ptr<Table>>& tables_;
};

}  // namespace

Status DatabaseState::OpenDataDirectory(Database& db) {
  const std::string& directory = options_.persistence.data_dir;
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error) {
    return Status(Code::kInternal,
                  directory + ": cannot create the data directory: " + error.message());
  }
  PARTSTORE_RETURN_IF_ERROR(LoadBackups());
  const std::string snapshot = SnapshotPath();
  LoadedSnapshot loaded;
  if (std::filesystem::exists(snapshot)) {
    PARTSTORE_RETURN_IF_ERROR(LoadSnapshot(db, snapshot, &loaded).status());
  }
  // The segments from the one the snapshot names (all of them without a snapshot), in order.
  std::vector<uint64_t> segments;
  for (uint64_t generation : WriteAheadLog::Segments(directory)) {
    if (generation >= loaded.log_generation) segments.push_back(generation);
  }
  Replay replay(db, *this, &loaded.tables);
  for (size_t i = 0; i < segments.size(); ++i) {
    PARTSTORE_RETURN_IF_ERROR(replay.Segment(WriteAheadLog::SegmentPath(directory, segments[i]),
                                             /*last=*/i + 1 == segments.size()));
  }
  uint64_t next_generation = std::max<uint64_t>(loaded.log_generation, 1);
  if (!segments.empty()) next_generation = segments.back() + 1;
  if (options_.persistence.wal) {
    PARTSTORE_ASSIGN_OR_RETURN(
        wal_, WriteAheadLog::Create(directory, next_generation, *options_.persistence.wal));
    std::shared_lock lock(mu_);
    for (const auto& [name, table] : tables_) table->AttachLog(wal_.get());
  }
  // A snapshot of what was loaded and replayed: the replayed segments are deleted once it is in
  // place (with a log, by the snapshot's own truncation).
  PARTSTORE_RETURN_IF_ERROR(SaveSnapshot(db, snapshot, /*truncate_log=*/true).status());
  if (!wal_) WriteAheadLog::RemoveBefore(directory, UINT64_MAX);
  return Status::Ok();
}

}  // namespace partstore::internal

namespace partstore {

PersistenceStats Database::DescribePersistence() const { return state_->persistence_stats_; }

}  // namespace partstore
