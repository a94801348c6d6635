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
    version_ = file.version();
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
  // A table deleted earlier in the log (its stream is still read: a record logged after the
  // DeleteTable, by a writer that appended it before, goes there).
  Table* FindDeleted(uint64_t number) const {
    auto it = deleted_.find(number);
    return it == deleted_.end() ? nullptr : it->second.get();
  }

  Status CreateTable(uint64_t number, std::string_view body) {
    persist::TableSettings settings;
    std::optional<persist::StreamImage> stream;
    if (version_ >= 2) {
      // The settings, then the table's stream (its label and shards).
      ByteReader r(body);
      std::string_view bytes;
      bool has_stream = false;
      if (!r.Bytes(&bytes) || !persist::DecodeTableSettings(bytes, &settings) ||
          !r.Bool(&has_stream) || (has_stream && !DecodeStreamImage(r, &stream.emplace())) ||
          !r.done()) {
        return Malformed();
      }
      // The stream comes back as it was, not as a new one.
      if (stream) settings.create.stream_specification.reset();
    } else if (!persist::DecodeTableSettings(body, &settings)) {
      return Malformed();
    }
    PARTSTORE_RETURN_IF_ERROR(db_.CreateTable(settings.create).status());
    PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table,
                               state_.GetTable(settings.create.table_name));
    table->set_log_number(number);
    tables_[number] = table;
    if (state_.next_table_number_.load() <= number) state_.next_table_number_ = number + 1;
    if (stream) PARTSTORE_RETURN_IF_ERROR(table->AdoptStream(*stream));
    return Status::Ok();
  }

  Status Apply(WalRecord kind, std::string_view payload) {
    ByteReader reader(payload);
    if (kind == WalRecord::kWrite) return Writes(reader);
    uint64_t number = 0;
    if (!reader.Varint(&number)) return Malformed();
    const std::string_view body = payload.substr(reader.position());
    if (kind == WalRecord::kCreateTable) return CreateTable(number, body);
    if (kind == WalRecord::kStreamShards) {
      Table* owner = Find(number);
      if (owner == nullptr) owner = FindDeleted(number);
      ByteReader r(body);
      uint64_t stream_number = 0;
      std::vector<persist::StreamShardImage> shards;
      if (!r.Varint(&stream_number) || !persist::DecodeShardImages(r, &shards) || !r.done()) {
        return Malformed();
      }
      if (owner == nullptr) return Status::Ok();
      std::shared_ptr<Stream> stream = owner->FindStream(stream_number);
      if (!stream) return UnknownStream(*owner, stream_number);
      return stream->RestoreShards(shards);
    }
    Table* table = Find(number);
    // Changes of a table deleted before them (operations already running on it when it was
    // deleted) are not in the database either.
    if (table == nullptr) return Status::Ok();
    const std::string name = table->name();
    switch (kind) {
      case WalRecord::kDeleteTable:
        deleted_[number] = tables_[number];
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
        // The stream it enabled was logged before it (kStream) and is back already.
        if (request.stream_specification && request.stream_specification->stream_enabled &&
            table->stream()) {
          request.stream_specification.reset();
          if (!Table::ChangesAnything(request)) return Status::Ok();
        }
        return db_.UpdateTable(request).status();
      }
      case WalRecord::kStream: {
        ByteReader r(body);
        persist::StreamImage image;
        if (!persist::DecodeStreamImage(r, &image) || !r.done()) return Malformed();
        return table->AdoptStream(image);
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

  Status UnknownStream(const Table& table, uint64_t number) const {
    return Status::Validation("a record names stream " + std::to_string(number) + " of table " +
                              table.name() + ", which the log did not create");
  }

  Status Writes(ByteReader& reader) {
    uint64_t count = 0;
    if (!reader.Count(persist::kMaxBlockPayload, &count)) return Malformed();
    for (uint64_t i = 0; i < count; ++i) {
      uint64_t number = 0;
      // 0 put, 1 delete, 2 a transaction's token, 3 put and 4 delete with a stream record
      uint8_t change = 0;
      std::string_view bytes;
      if (!reader.Varint(&number) || !reader.Enum(version_ >= 2 ? 4 : 2, &change) ||
          !reader.Bytes(&bytes)) {
        return Malformed();
      }
      if (change == 2) {
        persist::LoggedToken token;
        if (!persist::DecodeToken(bytes, &token)) return Malformed();
        state_.RestoreToken(token);
        continue;
      }
      const bool erase = change == 1 || change == 4;
      std::optional<persist::StreamMark> mark;
      if (change >= 3 && !persist::DecodeStreamMark(reader, &mark.emplace())) return Malformed();
      Result<StoredItem> item = StoredItem::Decode(bytes);
      if (!item.ok())
        return Status::Validation("malformed item: " + std::string(item.error().message()));
      Table* table = Find(number);
      StoredItem previous;
      if (table != nullptr) {
        PARTSTORE_RETURN_IF_ERROR(erase ? table->ReplayDelete(*item, &previous)
                                        : table->LoadItem(*item, &previous));
      } else if (mark && (table = FindDeleted(number)) != nullptr) {
        // (Its items are not restored: only the record, with the item as the table had it.)
        PARTSTORE_ASSIGN_OR_RETURN(previous, table->ItemAt(*item));
      }
      if (table == nullptr || !mark) continue;
      std::shared_ptr<Stream> stream = table->FindStream(mark->stream);
      if (!stream) return UnknownStream(*table, mark->stream);
      PARTSTORE_RETURN_IF_ERROR(stream->Replay(*mark, previous, erase ? StoredItem() : *item));
    }
    return reader.done() ? Status::Ok() : Malformed();
  }

  Database& db_;
  DatabaseState& state_;
  std::map<uint64_t, std::shared_ptr<Table>>& tables_;
  std::map<uint64_t, std::shared_ptr<Table>> deleted_;
  uint32_t version_ = persist::kWalVersion;  // the segment's format
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
  // No sequence number handed out before the restart is handed out again.
  for (const std::shared_ptr<Stream>& stream : streams_->List()) stream->AfterRestart();
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
  PARTSTORE_RETURN_IF_ERROR(SaveSnapshot(snapshot, /*truncate_log=*/true).status());
  if (!wal_) WriteAheadLog::RemoveBefore(directory, UINT64_MAX);
  return Status::Ok();
}

}  // namespace partstore::internal

namespace partstore {

PersistenceStats Database::DescribePersistence() const { return state_->persistence_stats_; }

}  // namespace partstore
