// Database::SaveSnapshot / LoadSnapshot (partstore/snapshot.h; the file: shard/persist/).
#include <chrono>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <utility>
#include <vector>

#include "partstore/database.h"
#include "shard/database_state.h"
#include "shard/persist/block_file.h"
#include "shard/persist/byte_codec.h"
#include "shard/persist/snapshot_format.h"
#include "shard/persist/table_settings.h"
#include "shard/persist/write_ahead_log.h"
#include "shard/stripe_locks.h"

namespace partstore {

using persist::BlockFileReader;
using persist::BlockFileWriter;
using persist::ByteReader;
using persist::ByteWriter;
using persist::SnapshotBlock;
using persist::TableSettings;

namespace {

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// A table at the snapshot's point in time.
struct TableCopy {
  std::shared_ptr<Table> table;
  TableSettings settings;
  std::vector<StoredItem> items;
  std::vector<std::shared_ptr<Stream>> streams;
};

// A stream at the snapshot's point in time: its table's index in the file + 1 (0: none), image
// and records.
struct StreamCopy {
  uint64_t table = 0;
  persist::StreamImage image;
  std::vector<std::pair<uint64_t, std::vector<persist::StreamRecordImage>>> records;
};

std::string Payload(const std::initializer_list<uint64_t> varints) {
  std::string out;
  ByteWriter writer(&out);
  for (uint64_t v : varints) writer.Varint(v);
  return out;
}

// Every stream the database keeps (under the snapshot's locks): the tables' and those of deleted
// tables, still read until their records are trimmed.
void CopyStreams(const std::vector<TableCopy>& tables, StreamRegistry& registry,
                 std::vector<StreamCopy>* out) {
  std::vector<const Stream*> owned;
  for (size_t t = 0; t < tables.size(); ++t) {
    for (const std::shared_ptr<Stream>& stream : tables[t].streams) {
      if (stream->Finished()) continue;
      owned.push_back(stream.get());
      out->push_back({.table = t + 1, .image = stream->Image(), .records = stream->Records()});
    }
  }
  for (const std::shared_ptr<Stream>& stream : registry.List()) {
    if (std::find(owned.begin(), owned.end(), stream.get()) != owned.end()) continue;
    out->push_back({.table = 0, .image = stream->Image(), .records = stream->Records()});
  }
}

}  // namespace

Result<SnapshotInfo> Database::SaveSnapshot(const std::string& path) {
  return state_->SaveSnapshot(path, /*truncate_log=*/false);
}

Result<SnapshotInfo> internal::DatabaseState::SaveSnapshot(const std::string& path,
                                                           bool truncate_log) {
  std::lock_guard one_at_a_time(snapshot_mu_);
  const auto start = std::chrono::steady_clock::now();
  SnapshotInfo info{.path = path};
  std::vector<TableCopy> copies;
  std::vector<StreamCopy> streams;
  uint64_t log_generation = 0;
  uint64_t tokens_logged = 0;  // the log position after the tokens carried into the new segment
  {
    // Control-plane changes wait (each is in the settings read here or after the point in time
    // in the log), then the catalogue, then every base stripe (the order eviction takes them in;
    // shard/table.h).
    std::unique_lock control(control_mu_);
    std::shared_lock catalogue(mu_);
    for (const auto& [name, table] : tables_) {
      TableCopy& copy = copies.emplace_back();
      copy.table = table;
      copy.settings.log_number = table->log_number();
      copy.settings.create = persist::CreateRequestOf(table->Describe());
      copy.settings.tags = table->tags();
      const TimeToLiveDescription ttl = table->DescribeTimeToLive();
      if (ttl.time_to_live_status == TimeToLiveStatus::kEnabled ||
          ttl.time_to_live_status == TimeToLiveStatus::kEnabling) {
        copy.settings.time_to_live_attribute = ttl.attribute_name;
      }
      // From the table in hand: a lookup by name would take the catalogue's lock again.
      for (const auto& policy : table->sharding_policies()->policies()) {
        copy.settings.sharding_policies.push_back(policy->definition());
      }
      copy.streams = table->Streams();  // (none starts: control-plane changes wait)
    }
    StripeLocks locks;
    for (const TableCopy& copy : copies) {
      for (size_t i = 0; i < copy.table->stripes().size(); ++i) {
        locks.Add(&copy.table->stripes().at(i));
      }
    }
    const auto paused = std::chrono::steady_clock::now();
    locks.LockShared();
    for (TableCopy& copy : copies) {
      copy.table->CopyItems(&copy.items);
      info.items += static_cast<int64_t>(copy.items.size());
    }
    // The log's cut: every change before it is in the copy (writers log under their stripe
    // locks, all held here), every change after it goes to the new segment.
    Status rotated;
    if (truncate_log && wal_) {
      Result<uint64_t> generation = wal_->Rotate();
      if (generation.ok()) {
        log_generation = *generation;
        // The transactions' tokens go on in the new segment: the old ones are deleted below.
        tokens_logged = persist::AppendTokens(*wal_, LiveTokens());
      } else {
        rotated = generation.error();
      }
    }
    // The streams after the cut: no record is appended while the stripes are held (a writer
    // logs its record as it appends it), and a split logged meanwhile is in the new segment too
    // (its replay leaves shards already there as they are).
    if (rotated.ok()) CopyStreams(copies, *streams_, &streams);
    locks.Unlock();
    PARTSTORE_RETURN_IF_ERROR(rotated);
    info.pause_seconds = SecondsSince(paused);
  }
  info.tables = static_cast<int64_t>(copies.size());

  PARTSTORE_ASSIGN_OR_RETURN(
      std::unique_ptr<BlockFileWriter> file,
      BlockFileWriter::Create(path, persist::kSnapshotMagic, persist::kSnapshotVersion));
  std::string payload;
  ByteWriter(&payload).Fixed64(static_cast<uint64_t>(EpochSeconds() * 1e6));
  payload += Payload(
      {static_cast<uint64_t>(info.tables), static_cast<uint64_t>(info.items), log_generation});
  PARTSTORE_RETURN_IF_ERROR(file->Append(static_cast<uint8_t>(SnapshotBlock::kDatabase), payload));
  for (const TableCopy& copy : copies) {
    payload.clear();
    persist::EncodeTableSettings(copy.settings, &payload);
    PARTSTORE_RETURN_IF_ERROR(file->Append(static_cast<uint8_t>(SnapshotBlock::kTable), payload));
  }
  std::string items;
  for (size_t t = 0; t < copies.size(); ++t) {
    const std::vector<StoredItem>& all = copies[t].items;
    for (size_t i = 0; i < all.size();) {
      items.clear();
      size_t count = 0;
      ByteWriter writer(&items);
      for (; i < all.size() && items.size() < persist::kItemBlockBytes; ++i, ++count) {
        writer.String(all[i].PortableEncoding());
      }
      payload = Payload({t, count});
      payload += items;
      PARTSTORE_RETURN_IF_ERROR(file->Append(static_cast<uint8_t>(SnapshotBlock::kItems), payload));
    }
  }
  uint64_t records = 0;
  for (size_t n = 0; n < streams.size(); ++n) {
    payload.clear();
    ByteWriter writer(&payload);
    writer.Varint(streams[n].table);
    persist::EncodeStreamImage(streams[n].image, writer);
    PARTSTORE_RETURN_IF_ERROR(file->Append(static_cast<uint8_t>(SnapshotBlock::kStream), payload));
    for (const auto& [shard, all] : streams[n].records) {
      for (size_t i = 0; i < all.size();) {
        items.clear();
        size_t count = 0;
        ByteWriter block(&items);
        for (; i < all.size() && items.size() < persist::kItemBlockBytes; ++i, ++count) {
          persist::EncodeRecordImage(all[i], block);
        }
        payload = Payload({n, shard, count});
        payload += items;
        records += count;
        PARTSTORE_RETURN_IF_ERROR(
            file->Append(static_cast<uint8_t>(SnapshotBlock::kRecords), payload));
      }
    }
  }
  PARTSTORE_RETURN_IF_ERROR(
      file->Append(static_cast<uint8_t>(SnapshotBlock::kEnd),
                   Payload({static_cast<uint64_t>(info.tables), static_cast<uint64_t>(info.items),
                            static_cast<uint64_t>(streams.size()), records})));
  // The copies' handles are dropped only now: until here they kept the buffers writers replaced.
  // The carried tokens are in the new segment before the snapshot that names it is in place.
  if (tokens_logged != 0) PARTSTORE_RETURN_IF_ERROR(wal_->Sync(tokens_logged));
  PARTSTORE_RETURN_IF_ERROR(file->Commit());
  if (log_generation != 0) {
    persist::WriteAheadLog::RemoveBefore(options_.persistence.data_dir, log_generation);
  }
  info.bytes = static_cast<int64_t>(file->bytes_written());
  info.seconds = SecondsSince(start);
  return info;
}

Result<SnapshotInfo> Database::CreateSnapshot(const CreateSnapshotRequest&) {
  if (state_->options_.persistence.data_dir.empty()) {
    return Status::Validation(
        "No data directory is configured (DatabaseOptions::persistence; partstore serve "
        "--data-dir)");
  }
  return state_->SaveSnapshot(state_->SnapshotPath(), /*truncate_log=*/true);
}

namespace {

// A load in progress: the tables it created, removed again unless it finishes.
class SnapshotLoad {
 public:
  // `restore_numbers`: the tables keep their log numbers (opening a data directory, whose log
  // names them); otherwise they get new ones, as any new table.
  SnapshotLoad(Database& db, internal::DatabaseState& state, bool restore_numbers)
      : db_(db), state_(state), restore_numbers_(restore_numbers) {}
  ~SnapshotLoad() {
    if (done_) return;
    {
      std::unique_lock lock(state_.mu_);
      for (const std::shared_ptr<Table>& table : tables_) {
        auto it = state_.tables_.find(table->name());
        if (it != state_.tables_.end() && it->second == table) {
          state_.tables_.erase(it);
          // (A database with a log logged the table's creation: its removal too.)
          state_.LogControl(persist::WalRecord::kDeleteTable, table->log_number(), {});
        }
        table->DiscardStreams();
      }
    }
    for (const std::shared_ptr<Table>& table : tables_) state_.ForgetTable(table->name());
    for (const std::shared_ptr<Stream>& stream : orphans_) state_.streams_->Remove(stream.get());
  }

  Status Run(BlockFileReader& file, SnapshotInfo* info);
  // The streams restored (null: one the database had already).
  const std::vector<std::shared_ptr<Stream>>& streams() const { return streams_; }
  // The log segment to replay after this snapshot (0: none), and its tables by log number.
  uint64_t log_generation = 0;
  std::map<uint64_t, std::shared_ptr<Table>> numbered;

 private:
  Status CreateTable(const BlockFileReader& file, const BlockFileReader::Block& block);
  Status LoadItems(const BlockFileReader& file, const BlockFileReader::Block& block,
                   int64_t* items);
  Status LoadStream(const BlockFileReader& file, const BlockFileReader::Block& block);
  Status LoadRecords(const BlockFileReader& file, const BlockFileReader::Block& block);

  Database& db_;
  internal::DatabaseState& state_;
  std::vector<std::shared_ptr<Table>> tables_;
  std::vector<bool> wants_stream_;                // by table: its settings had an enabled stream
  std::vector<std::shared_ptr<Stream>> streams_;  // by stream block
  std::vector<std::shared_ptr<Stream>> orphans_;  // deleted tables' streams, registered here
  uint64_t records_ = 0;
  bool restore_numbers_;
  bool done_ = false;
};

Status SnapshotLoad::CreateTable(const BlockFileReader& file, const BlockFileReader::Block& block) {
  TableSettings settings;
  if (!persist::DecodeTableSettings(block.payload, &settings)) {
    return file.Corrupt(block.offset, "malformed table block");
  }
  auto replayed = [&](const Status& status) {
    return file.Corrupt(block.offset, "table " + settings.create.table_name +
                                          " cannot be restored: " + std::string(status.message()));
  };
  // From version 2 the table's stream comes back from its stream block, as it was.
  const bool stream =
      settings.create.stream_specification && settings.create.stream_specification->stream_enabled;
  if (file.version() >= 2) settings.create.stream_specification.reset();
  wants_stream_.push_back(stream && file.version() >= 2);
  Result<CreateTableResult> created = db_.CreateTable(settings.create);
  if (!created.ok()) {
    if (created.error().code() == Code::kResourceInUse) return created.error();
    return replayed(created.error());
  }
  Result<std::shared_ptr<Table>> table = state_.GetTable(settings.create.table_name);
  if (!table.ok()) return table.error();
  tables_.push_back(*table);
  if (restore_numbers_ && settings.log_number != 0) {
    (*table)->set_log_number(settings.log_number);
    numbered[settings.log_number] = *table;
    uint64_t next = state_.next_table_number_.load();
    while (next <= settings.log_number &&
           !state_.next_table_number_.compare_exchange_weak(next, settings.log_number + 1)) {
    }
  }
  if (settings.time_to_live_attribute) {
    Result<UpdateTimeToLiveResult> ttl = db_.UpdateTimeToLive(
        {.table_name = settings.create.table_name,
         .time_to_live_specification = {.attribute_name = *settings.time_to_live_attribute,
                                        .enabled = true}});
    if (!ttl.ok()) return replayed(ttl.error());
  }
  for (sharding::ShardingPolicy& policy : settings.sharding_policies) {
    Result<PutShardingPolicyResult> put = db_.PutShardingPolicy(
        {.table_name = settings.create.table_name, .policy = std::move(policy)});
    if (!put.ok()) return replayed(put.error());
  }
  return Status::Ok();
}

Status SnapshotLoad::LoadItems(const BlockFileReader& file, const BlockFileReader::Block& block,
                               int64_t* items) {
  ByteReader reader(block.payload);
  uint64_t table = 0;
  uint64_t count = 0;
  if (!reader.Count(tables_.size() - 1, &table) || tables_.empty() ||
      !reader.Count(block.payload.size(), &count)) {
    return file.Corrupt(block.offset, "malformed item block header");
  }
  Table& into = *tables_[table];
  // Where the payload starts in the file: after the block's kind and length.
  const uint64_t base = block.offset + 5;
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t at = base + reader.position();
    std::string_view bytes;
    if (!reader.Bytes(&bytes)) return file.Corrupt(at, "item cut short");
    Result<StoredItem> item = StoredItem::Decode(bytes);
    if (!item.ok())
      return file.Corrupt(at, "malformed item: " + std::string(item.error().message()));
    if (Status loaded = into.LoadItem(*item); !loaded.ok()) {
      if (loaded.code() != Code::kValidation) return loaded;
      return file.Corrupt(
          at, "item refused by table " + into.name() + ": " + std::string(loaded.message()));
    }
  }
  if (!reader.done()) return file.Corrupt(base + reader.position(), "bytes after the last item");
  *items += static_cast<int64_t>(count);
  return Status::Ok();
}

Status SnapshotLoad::LoadStream(const BlockFileReader& file, const BlockFileReader::Block& block) {
  ByteReader reader(block.payload);
  uint64_t table = 0;
  persist::StreamImage image;
  if (!reader.Count(tables_.size(), &table) || !persist::DecodeStreamImage(reader, &image) ||
      !reader.done()) {
    return file.Corrupt(block.offset, "malformed stream block");
  }
  auto refused = [&](const Status& status) {
    return file.Corrupt(block.offset, "stream " + image.label + " of table " + image.table_name +
                                          " cannot be restored: " + std::string(status.message()));
  };
  std::shared_ptr<Stream> stream;
  if (table == 0 && state_.streams_->Find(image.table_arn + "/stream/" + image.label)) {
    streams_.push_back(nullptr);  // (its record blocks are skipped)
    return Status::Ok();
  }
  if (table != 0) {
    Table& owner = *tables_[table - 1];
    if (Status adopted = owner.AdoptStream(image); !adopted.ok()) return refused(adopted);
    stream = owner.FindStream(image.number);
  } else {
    // A deleted table's: on the database's clock, in the registry only (one it has already,
    // from this snapshot loaded before, is skipped above).
    StreamIdentity identity;
    identity.clock = state_.options_.capacity.clock;
    identity.epoch_at_clock_zero = state_.epoch_at_clock_zero_;
    Result<std::shared_ptr<Stream>> restored =
        Stream::Restore(std::move(identity), state_.options_.streams, image, 0);
    if (!restored.ok()) return refused(restored.error());
    if (image.enabled) return refused(Status::Validation("a deleted table's stream is enabled"));
    stream = *restored;
    state_.streams_->Add(stream);
    orphans_.push_back(stream);
  }
  if (!stream) return refused(Status::Validation("it is not the table's"));
  streams_.push_back(std::move(stream));
  return Status::Ok();
}

Status SnapshotLoad::LoadRecords(const BlockFileReader& file, const BlockFileReader::Block& block) {
  ByteReader reader(block.payload);
  uint64_t stream = 0, shard = 0, count = 0;
  if (streams_.empty() || !reader.Count(streams_.size() - 1, &stream) || !reader.Varint(&shard) ||
      !reader.Count(block.payload.size(), &count)) {
    return file.Corrupt(block.offset, "malformed stream record block header");
  }
  const uint64_t base = block.offset + 5;
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t at = base + reader.position();
    persist::StreamRecordImage record;
    if (!persist::DecodeRecordImage(reader, &record)) {
      return file.Corrupt(at, "malformed stream record");
    }
    if (!streams_[stream]) continue;
    if (Status restored = streams_[stream]->RestoreRecord(shard, std::move(record));
        !restored.ok()) {
      return file.Corrupt(at, std::string(restored.message()));
    }
  }
  if (!reader.done()) return file.Corrupt(base + reader.position(), "bytes after the last record");
  records_ += count;
  return Status::Ok();
}

Status SnapshotLoad::Run(BlockFileReader& file, SnapshotInfo* info) {
  PARTSTORE_ASSIGN_OR_RETURN(BlockFileReader::Block block, file.Next());
  uint64_t tables = 0;
  uint64_t items = 0;
  {
    ByteReader header(block.payload);
    uint64_t written_at = 0;
    if (block.kind != static_cast<uint8_t>(SnapshotBlock::kDatabase) ||
        !header.Fixed64(&written_at) || !header.Varint(&tables) || !header.Varint(&items) ||
        !header.Varint(&log_generation) || !header.done()) {
      return file.Corrupt(block.offset, "malformed database block");
    }
  }
  bool seen_items = false, seen_streams = false;
  const bool streams = file.version() >= 2;
  while (true) {
    PARTSTORE_ASSIGN_OR_RETURN(block, file.Next());
    const auto kind = static_cast<SnapshotBlock>(block.kind);
    if (kind == SnapshotBlock::kTable) {
      if (seen_items || seen_streams) {
        return file.Corrupt(block.offset, "table block after item or stream blocks");
      }
      PARTSTORE_RETURN_IF_ERROR(CreateTable(file, block));
      ++info->tables;
    } else if (kind == SnapshotBlock::kItems) {
      if (seen_streams) return file.Corrupt(block.offset, "item block after stream blocks");
      seen_items = true;
      PARTSTORE_RETURN_IF_ERROR(LoadItems(file, block, &info->items));
    } else if (streams && kind == SnapshotBlock::kStream) {
      seen_streams = true;
      PARTSTORE_RETURN_IF_ERROR(LoadStream(file, block));
    } else if (streams && kind == SnapshotBlock::kRecords) {
      PARTSTORE_RETURN_IF_ERROR(LoadRecords(file, block));
    } else if (kind == SnapshotBlock::kEnd) {
      ByteReader end(block.payload);
      uint64_t end_tables = 0;
      uint64_t end_items = 0;
      uint64_t end_streams = 0;
      uint64_t end_records = 0;
      if (!end.Varint(&end_tables) || !end.Varint(&end_items) ||
          (streams && (!end.Varint(&end_streams) || !end.Varint(&end_records))) || !end.done() ||
          end_tables != tables || end_items != items ||
          static_cast<uint64_t>(info->tables) != tables ||
          static_cast<uint64_t>(info->items) != items || end_streams != streams_.size() ||
          end_records != records_) {
        return file.Corrupt(
            block.offset, "the end block's counts (" + std::to_string(end_tables) + " tables, " +
                              std::to_string(end_items) + " items, " + std::to_string(end_streams) +
                              " streams, " + std::to_string(end_records) +
                              " stream records) do not match what the file holds (" +
                              std::to_string(info->tables) + " tables, " +
                              std::to_string(info->items) + " items, " +
                              std::to_string(streams_.size()) + " streams, " +
                              std::to_string(records_) + " stream records)");
      }
      if (!file.AtEnd()) {
        return file.Corrupt(block.offset + persist::kBlockOverhead + block.payload.size(),
                            "bytes after the end block");
      }
      for (size_t t = 0; t < tables_.size(); ++t) {
        if (wants_stream_[t] && !tables_[t]->stream()) {
          return file.Corrupt(block.offset, "table " + tables_[t]->name() +
                                                " has an enabled stream and no stream block");
        }
      }
      done_ = true;
      return Status::Ok();
    } else {
      return file.Corrupt(block.offset, "unknown block kind " + std::to_string(block.kind));
    }
  }
}

}  // namespace

Result<SnapshotInfo> Database::LoadSnapshot(const std::string& path) {
  return state_->LoadSnapshot(*this, path, nullptr);
}

Result<SnapshotInfo> internal::DatabaseState::LoadSnapshot(Database& db, const std::string& path,
                                                           LoadedSnapshot* loaded) {
  const auto start = std::chrono::steady_clock::now();
  PARTSTORE_ASSIGN_OR_RETURN(
      std::unique_ptr<BlockFileReader> file,
      BlockFileReader::Open(path, persist::kSnapshotMagic, persist::kSnapshotVersion));
  SnapshotInfo info{.path = path};
  {
    SnapshotLoad load(db, *this, /*restore_numbers=*/loaded != nullptr);
    PARTSTORE_RETURN_IF_ERROR(load.Run(*file, &info));
    // (Opening a data directory does it once the log is replayed too.)
    if (loaded == nullptr) {
      for (const std::shared_ptr<Stream>& stream : load.streams()) {
        if (stream) stream->AfterRestart();
      }
    }
    if (loaded != nullptr) {
      loaded->log_generation = load.log_generation;
      loaded->tables = std::move(load.numbered);
    }
  }
  info.bytes = static_cast<int64_t>(file->offset());
  // With a log, the loaded items are made durable the way they came: in a snapshot (loads are
  // not logged item by item), which also truncates the log.
  if (loaded == nullptr && wal_) {
    PARTSTORE_RETURN_IF_ERROR(SaveSnapshot(SnapshotPath(), /*truncate_log=*/true).status());
  }
  info.seconds = SecondsSince(start);
  return info;
}

Result<std::unique_ptr<Database>> Database::Open(DatabaseOptions options,
                                                 const std::string& snapshot_path) {
  PARTSTORE_ASSIGN_OR_RETURN(std::unique_ptr<Database> db, Open(std::move(options)));
  PARTSTORE_RETURN_IF_ERROR(db->LoadSnapshot(snapshot_path).status());
  return db;
}

}  // namespace partstore
