// Streams across a restart with a data directory (shard/stream.h, "Persistence"): the same stream
// ARN, shards and records (sequence numbers, images, event ids, times) after a replay of the log
// alone, after a snapshot and the log after it, and after the snapshot taken when the directory
// was opened; an iterator taken before the restart goes on with the records its consumer had not
// read; a disabled stream and a deleted table's stream stay readable; a split's shards come
// back; a transaction's record is readable only once the log has its change.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "partstore/database.h"
#include "shard/persist/byte_codec.h"
#include "shard/persist/write_ahead_log.h"
#include "shard/stream.h"
#include "tests/shard/database_testutil.h"

namespace partstore::testing {
namespace {

constexpr int64_t kStreamEpoch = 1'800'000'000;

// A record as text: everything a consumer reads of it.
std::string RecordText(const StreamRecord& r) {
  std::string out = r.event_id + "|" + std::string(StreamEventNameText(r.event_name)) + "|" +
                    std::to_string(static_cast<int>(r.remover)) + "|" + r.sequence_number + "|" +
                    std::to_string(r.approximate_creation_date_time) + "|" +
                    std::to_string(r.size_bytes) + "|" + r.keys.at("PK").as_string();
  out += "|new:";
  out += r.new_image ? r.new_image->encoding() : std::string_view("-");
  out += "|old:";
  out += r.old_image ? r.old_image->encoding() : std::string_view("-");
  return out;
}

// The n-th field of Text's output.
std::string RecordField(const std::string& text, int n) {
  size_t begin = 0;
  for (int i = 0; i < n; ++i) begin = text.find('|', begin) + 1;
  return text.substr(begin, text.find('|', begin) - begin);
}

class StreamPersistenceTest : public ::testing::Test {
 protected:
  StreamPersistenceTest() : dir_(TestDirectory()) {}

  // `manual`: on a manual clock that goes on across restarts (otherwise the system's, which
  // starts again at zero in each process).
  void Open(bool manual = true, bool capacity = false) {
    db_.reset();
    DatabaseOptions options;
    options.stripes_per_table = 16;
    options.persistence = {.data_dir = dir_, .wal = WalSync::kOff};
    if (manual) {
      options.capacity.clock = clock_;
      options.time_to_live.epoch_at_clock_zero = kStreamEpoch;
    }
    options.capacity.enabled = capacity;
    auto opened = Database::Open(options);
    ASSERT_TRUE(opened.ok()) << opened.status().ToString();
    db_ = std::move(*opened);
  }

  std::string Create(const std::string& name, StreamViewType view,
                     std::optional<ProvisionedThroughput> throughput = std::nullopt) {
    CreateTableRequest request = SimpleTable(name, StringKeys());
    request.stream_specification = StreamSpecification{true, view};
    if (throughput) {
      request.billing_mode = BillingMode::kProvisioned;
      request.provisioned_throughput = *throughput;
    }
    auto created = db_->CreateTable(request);
    EXPECT_TRUE(created.ok()) << created.status().ToString();
    return created.ok() ? created->table_description.latest_stream_arn.value_or("") : "";
  }
  static Item Row(const std::string& pk, const std::string& sk, int v) {
    return {{"PK", Value(pk)}, {"SK", Value(sk)}, {"v", Value(N(std::to_string(v)))}};
  }
  void Advance(double seconds) { clock_->Advance(static_cast<int64_t>(seconds * 1e6)); }

  // Puts, an update, a delete, a batch and a transaction on `table`.
  void Write(const std::string& table, const std::string& tag) {
    for (int i = 0; i < 12; ++i) MustPut(*db_, table, Row("P" + std::to_string(i % 5), tag, i));
    Advance(1);
    ASSERT_TRUE(
        db_->UpdateItem({.table_name = table,
                         .key = Item{{"PK", Value("P1")}, {"SK", Value(tag)}},
                         .update_expression = "SET v = v + :one",
                         .expression_attribute_values = AttributeMap{{":one", Value(N("1"))}}})
            .ok());
    ASSERT_TRUE(
        db_->DeleteItem({.table_name = table, .key = Item{{"PK", Value("P2")}, {"SK", Value(tag)}}})
            .ok());
    BatchWriteItemRequest batch;
    batch.request_items.push_back(
        {table, {{.kind = WriteRequest::Kind::kPut, .item = Row("B", tag, 1)}}});
    ASSERT_TRUE(db_->BatchWriteItem(batch).ok());
    TransactWriteItemsRequest transaction;
    transaction.transact_items.push_back(
        {.put = PutItemRequest{.table_name = table, .item = Row("T", tag, 10)}});
    transaction.transact_items.push_back(
        {.del = DeleteItemRequest{.table_name = table,
                                  .key = Item{{"PK", Value("P3")}, {"SK", Value(tag)}}}});
    ASSERT_TRUE(db_->TransactWriteItems(transaction).ok());
  }

  std::vector<StreamShard> Shards(const std::string& arn) {
    auto described = db_->DescribeStream({.stream_arn = arn});
    EXPECT_TRUE(described.ok()) << described.status().ToString();
    return described.ok() ? described->stream_description.shards : std::vector<StreamShard>{};
  }
  std::string ShardsText(const std::string& arn) {
    std::string out;
    for (const StreamShard& s : Shards(arn)) {
      out += s.shard_id + "<" + s.parent_shard_id.value_or("") + ">" +
             s.sequence_number_range.starting_sequence_number + "-" +
             s.sequence_number_range.ending_sequence_number.value_or("") + ";";
    }
    return out;
  }
  // Reads from `iterator` to the shard's newest record (or `pages` pages of `limit`); returns the
  // iterator to go on with.
  std::optional<std::string> Drain(std::optional<std::string> iterator,
                                   std::vector<std::string>* out, int limit = 1000,
                                   int pages = 1 << 30) {
    for (; iterator && pages > 0; --pages) {
      auto page = db_->GetRecords({.shard_iterator = *iterator, .limit = limit});
      EXPECT_TRUE(page.ok()) << page.status().ToString();
      if (!page.ok()) return std::nullopt;
      for (const StreamRecord& r : page->records) out->push_back(RecordText(r));
      if (page->records.empty()) return iterator;
      iterator = page->next_shard_iterator;
    }
    return iterator;
  }
  // Every record, shard by shard.
  std::vector<std::string> ReadAll(const std::string& arn) {
    std::vector<std::string> out;
    for (const StreamShard& shard : Shards(arn)) {
      auto it = db_->GetShardIterator({arn, shard.shard_id, ShardIteratorType::kTrimHorizon, {}});
      EXPECT_TRUE(it.ok()) << it.status().ToString();
      if (it.ok()) Drain(it->shard_iterator, &out);
    }
    return out;
  }
  std::vector<std::string> Arns() {
    auto listed = db_->ListStreams({});
    EXPECT_TRUE(listed.ok());
    std::vector<std::string> out;
    if (listed.ok()) {
      for (const auto& s : listed->streams) out.push_back(s.stream_arn);
    }
    return out;
  }

  std::string dir_;
  std::shared_ptr<capacity::ManualClock> clock_ = std::make_shared<capacity::ManualClock>();
  std::unique_ptr<Database> db_;
};

TEST_F(StreamPersistenceTest, RecordsComeBackFromTheLogAsTheyWere) {
  Open();
  const std::string arn = Create("Orders", StreamViewType::kNewAndOldImages);
  Write("Orders", "a");
  const std::vector<std::string> before = ReadAll(arn);
  ASSERT_EQ(before.size(), 17u);  // 12 puts, an update, a delete, a batch put, 2 in a transaction
  const std::string shards = ShardsText(arn);
  // A consumer has read 5 records of the first shard with records, and keeps its iterator.
  std::string shard_id;
  for (const StreamShard& s : Shards(arn)) {
    std::vector<std::string> probe;
    auto it = db_->GetShardIterator({arn, s.shard_id, ShardIteratorType::kTrimHorizon, {}});
    ASSERT_TRUE(it.ok());
    Drain(it->shard_iterator, &probe);
    if (probe.size() > 6) {
      shard_id = s.shard_id;
      break;
    }
  }
  ASSERT_FALSE(shard_id.empty());
  auto first = db_->GetShardIterator({arn, shard_id, ShardIteratorType::kTrimHorizon, {}});
  ASSERT_TRUE(first.ok());
  auto page = db_->GetRecords({.shard_iterator = first->shard_iterator, .limit = 5});
  ASSERT_TRUE(page.ok());
  ASSERT_EQ(page->records.size(), 5u);
  const std::string held = *page->next_shard_iterator;
  std::vector<std::string> unread;
  Drain(held, &unread);
  // Another consumer waits at LATEST on every shard.
  std::vector<std::string> latest;
  for (const StreamShard& s : Shards(arn)) {
    auto it = db_->GetShardIterator({arn, s.shard_id, ShardIteratorType::kLatest, {}});
    ASSERT_TRUE(it.ok());
    latest.push_back(it->shard_iterator);
  }

  Open();  // the log alone (no snapshot was taken)
  EXPECT_EQ(Arns(), std::vector<std::string>{arn});
  auto table = db_->DescribeTable({"Orders"});
  ASSERT_TRUE(table.ok());
  EXPECT_EQ(table->table.latest_stream_arn, arn);
  EXPECT_EQ(ShardsText(arn), shards);
  EXPECT_EQ(ReadAll(arn), before);
  std::vector<std::string> after;
  Drain(held, &after);
  EXPECT_EQ(after, unread);
  // A new record follows the old ones.
  MustPut(*db_, "Orders", Row("P0", "a", 100));
  std::vector<std::string> all = ReadAll(arn);
  ASSERT_EQ(all.size(), before.size() + 1);
  std::string newest;
  for (const std::string& r : before) newest = std::max(newest, RecordField(r, 3));
  int newer = 0;
  for (const std::string& r : all) newer += RecordField(r, 3) > newest ? 1 : 0;
  EXPECT_EQ(newer, 1);
  // The LATEST iterators from before the restart give it, and nothing else.
  std::vector<std::string> from_latest;
  for (const std::string& it : latest) Drain(it, &from_latest);
  ASSERT_EQ(from_latest.size(), 1u);
  EXPECT_EQ(RecordField(from_latest[0], 3) > newest, true);
}

// A sequence number handed out before a crash whose record the log lost (here: the log's torn
// last record, dropped at the restart) is not handed out again: a LATEST iterator taken after it
// reads the first record written after the restart.
TEST_F(StreamPersistenceTest, ANumberTheLogLostIsNotHandedOutAgain) {
  Open();
  const std::string arn = Create("Orders", StreamViewType::kKeysOnly);
  MustPut(*db_, "Orders", Row("A", "a", 1));
  MustPut(*db_, "Orders", Row("B", "b", 2));
  std::vector<std::string> latest;
  for (const StreamShard& s : Shards(arn)) {
    auto it = db_->GetShardIterator({arn, s.shard_id, ShardIteratorType::kLatest, {}});
    ASSERT_TRUE(it.ok());
    latest.push_back(it->shard_iterator);
  }
  db_.reset();
  std::string segment;
  for (const auto& entry : std::filesystem::directory_iterator(dir_)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with("wal.") && entry.path().string() > segment) segment = entry.path();
  }
  ASSERT_FALSE(segment.empty());
  std::filesystem::resize_file(segment, std::filesystem::file_size(segment) - 3);
  Open();
  ASSERT_EQ(db_->DescribePersistence().wal_records_dropped, 1u);
  EXPECT_FALSE(MustGet(*db_, "Orders", Item{{"PK", Value("B")}, {"SK", Value("b")}}));
  MustPut(*db_, "Orders", Row("C", "c", 3));
  std::vector<std::string> read;
  for (const std::string& it : latest) Drain(it, &read);
  ASSERT_EQ(read.size(), 1u);
  EXPECT_NE(read[0].find("|C|"), std::string::npos) << read[0];
}

TEST_F(StreamPersistenceTest, ASnapshotLoadedIntoAnotherDatabaseBringsItsStreams) {
  Open();
  const std::string arn = Create("Orders", StreamViewType::kNewAndOldImages);
  Write("Orders", "a");
  const std::vector<std::string> before = ReadAll(arn);
  const std::string path = dir_ + "/copy.snapshot";
  ASSERT_TRUE(db_->SaveSnapshot(path).ok());
  db_.reset();
  DatabaseOptions options;
  options.capacity.clock = clock_;
  options.time_to_live.epoch_at_clock_zero = kStreamEpoch;
  auto copy = Database::Open(options, path);
  ASSERT_TRUE(copy.ok()) << copy.status().ToString();
  db_ = std::move(*copy);
  EXPECT_EQ(Arns(), std::vector<std::string>{arn});
  EXPECT_EQ(ReadAll(arn), before);
  MustPut(*db_, "Orders", Row("N", "b", 1));
  EXPECT_EQ(ReadAll(arn).size(), before.size() + 1);
  // Loaded again (under other names it cannot be: the table exists) it is refused whole.
  auto again = db_->LoadSnapshot(path);
  EXPECT_FALSE(again.ok());
  EXPECT_EQ(Arns(), std::vector<std::string>{arn});
}

TEST_F(StreamPersistenceTest, RecordsComeBackFromASnapshotAndTheLogAfterIt) {
  Open();
  const std::string arn = Create("Orders", StreamViewType::kNewAndOldImages);
  const std::string keys_arn = Create("Keys", StreamViewType::kKeysOnly);
  Write("Orders", "a");
  Write("Keys", "a");
  ASSERT_TRUE(db_->CreateSnapshot({}).ok());
  Write("Orders", "b");
  Advance(2);
  Write("Keys", "b");
  const std::vector<std::string> before = ReadAll(arn);
  const std::vector<std::string> keys_before = ReadAll(keys_arn);
  ASSERT_EQ(before.size(), 34u);
  const std::string shards = ShardsText(arn);
  Open();  // the snapshot, then the log after it
  EXPECT_EQ(ReadAll(arn), before);
  EXPECT_EQ(ReadAll(keys_arn), keys_before);
  EXPECT_EQ(ShardsText(arn), shards);
  Open();  // the snapshot taken when the directory was opened
  EXPECT_EQ(ReadAll(arn), before);
  EXPECT_EQ(ReadAll(keys_arn), keys_before);
  EXPECT_EQ(ShardsText(arn), shards);
  auto table = db_->DescribeTable({"Keys"});
  ASSERT_TRUE(table.ok());
  EXPECT_EQ(table->table.latest_stream_arn, keys_arn);
  ASSERT_TRUE(table->table.stream_specification.has_value());
  EXPECT_EQ(table->table.stream_specification->stream_view_type, StreamViewType::kKeysOnly);
}

TEST_F(StreamPersistenceTest, DisabledStreamsAndADeletedTablesStreamStayReadable) {
  Open();
  const std::string first = Create("Orders", StreamViewType::kNewImage);
  Write("Orders", "a");
  UpdateTableRequest off{.table_name = "Orders"};
  off.stream_specification = StreamSpecification{false, std::nullopt};
  ASSERT_TRUE(db_->UpdateTable(off).ok());
  Advance(1);
  UpdateTableRequest on{.table_name = "Orders"};
  on.stream_specification = StreamSpecification{true, StreamViewType::kOldImage};
  auto enabled = db_->UpdateTable(on);
  ASSERT_TRUE(enabled.ok()) << enabled.status().ToString();
  const std::string second = *enabled->table_description.latest_stream_arn;
  Write("Orders", "b");
  const std::string gone = Create("Gone", StreamViewType::kKeysOnly);
  Write("Gone", "a");
  ASSERT_TRUE(db_->DeleteTable({"Gone"}).ok());
  const std::vector<std::string> a = ReadAll(first), b = ReadAll(second), c = ReadAll(gone);
  ASSERT_EQ(a.size(), 17u);
  ASSERT_EQ(b.size(), 17u);
  ASSERT_EQ(c.size(), 17u);
  for (int round = 0; round < 2; ++round) {  // the log, then the snapshot taken at opening
    Open();
    EXPECT_EQ(Arns().size(), 3u);
    EXPECT_EQ(ReadAll(first), a);
    EXPECT_EQ(ReadAll(second), b);
    EXPECT_EQ(ReadAll(gone), c);
    auto described = db_->DescribeStream({.stream_arn = first});
    ASSERT_TRUE(described.ok());
    EXPECT_EQ(described->stream_description.stream_status, StreamStatus::kDisabled);
    described = db_->DescribeStream({.stream_arn = second});
    ASSERT_TRUE(described.ok());
    EXPECT_EQ(described->stream_description.stream_status, StreamStatus::kEnabled);
    EXPECT_EQ(described->stream_description.stream_view_type, StreamViewType::kOldImage);
    auto table = db_->DescribeTable({"Orders"});
    ASSERT_TRUE(table.ok());
    EXPECT_EQ(table->table.latest_stream_arn, second);
  }
  // The table goes on with its current stream; a new one gets a new label.
  MustPut(*db_, "Orders", Row("N", "c", 1));
  EXPECT_EQ(ReadAll(second).size(), 18u);
  ASSERT_TRUE(db_->UpdateTable(off).ok());
  enabled = db_->UpdateTable(on);
  ASSERT_TRUE(enabled.ok()) << enabled.status().ToString();
  EXPECT_GT(*enabled->table_description.latest_stream_arn, second);
  EXPECT_EQ(Arns().size(), 4u);
}

TEST_F(StreamPersistenceTest, ASplitsShardsComeBack) {
  Open(/*manual=*/true, /*capacity=*/true);
  const std::string arn = Create("Hot", StreamViewType::kKeysOnly, ProvisionedThroughput{100, 500});
  ASSERT_EQ(Shards(arn).size(), 1u);
  Write("Hot", "before");
  Advance(1);
  UpdateTableRequest raise{.table_name = "Hot"};
  raise.provisioned_throughput = ProvisionedThroughput{100, 1500};  // two partitions
  ASSERT_TRUE(db_->UpdateTable(raise).ok());
  ASSERT_EQ(Shards(arn).size(), 3u);  // (DescribeStream applies the split, and logs it)
  Write("Hot", "after");
  const std::string shards = ShardsText(arn);
  const std::vector<std::string> before = ReadAll(arn);
  for (int round = 0; round < 2; ++round) {  // the log, then the snapshot taken at opening
    Open(/*manual=*/true, /*capacity=*/true);
    EXPECT_EQ(ShardsText(arn), shards);
    EXPECT_EQ(ReadAll(arn), before);
  }
  // Records go on into the children.
  Write("Hot", "later");
  EXPECT_EQ(Shards(arn).size(), 3u);
  EXPECT_EQ(ReadAll(arn).size(), before.size() + 17);
}

TEST_F(StreamPersistenceTest, AnIteratorFromBeforeARestartGoesOnAfterItOnTheSystemClock) {
  Open(/*manual=*/false);
  const std::string arn = Create("Orders", StreamViewType::kNewImage);
  for (int i = 0; i < 6; ++i) MustPut(*db_, "Orders", Row("K", std::to_string(i), i));
  const std::string shard = [&] {
    for (const StreamShard& s : Shards(arn)) {
      std::vector<std::string> records;
      auto it = db_->GetShardIterator({arn, s.shard_id, ShardIteratorType::kTrimHorizon, {}});
      if (it.ok()) Drain(it->shard_iterator, &records);
      if (records.size() == 6) return s.shard_id;
    }
    return std::string();
  }();
  ASSERT_FALSE(shard.empty());
  auto it = db_->GetShardIterator({arn, shard, ShardIteratorType::kTrimHorizon, {}});
  ASSERT_TRUE(it.ok());
  auto page = db_->GetRecords({.shard_iterator = it->shard_iterator, .limit = 2});
  ASSERT_TRUE(page.ok());
  const std::string held = *page->next_shard_iterator;
  const std::string checkpoint = page->records.back().sequence_number;
  Open(/*manual=*/false);
  std::vector<std::string> rest;
  Drain(held, &rest);
  ASSERT_EQ(rest.size(), 4u);
  EXPECT_EQ(RecordField(rest.front(), 3) > checkpoint, true);
  // A checkpointed sequence number works as well (the Kinesis Client Library's way).
  auto after =
      db_->GetShardIterator({arn, shard, ShardIteratorType::kAfterSequenceNumber, checkpoint});
  ASSERT_TRUE(after.ok()) << after.status().ToString();
  std::vector<std::string> again;
  Drain(after->shard_iterator, &again);
  EXPECT_EQ(again, rest);
}

// Writers (puts and transactions), a reader of every shard and snapshots cutting the log, all at
// once: what the reader saw of each shard is the start of what the shard holds after a restart
// (no record read that the log did not have, none reordered). Under ThreadSanitizer, the lock
// order of stripes, the stream's mutex and the log's.
TEST_F(StreamPersistenceTest, ConcurrentWritersReadersAndSnapshotsAgreeWithTheRestart) {
  Open(/*manual=*/false);
  const std::string arn = Create("Orders", StreamViewType::kNewAndOldImages);
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  for (int w = 0; w < 2; ++w) {
    threads.emplace_back([&, w] {
      for (int i = 0; !stop; ++i) {
        const std::string pk = "W" + std::to_string(w) + "-" + std::to_string(i % 7);
        if (i % 3 == 0) {
          TransactWriteItemsRequest transaction;
          transaction.transact_items.push_back(
              {.put = PutItemRequest{.table_name = "Orders", .item = Row(pk, "t", i)}});
          transaction.transact_items.push_back(
              {.put = PutItemRequest{.table_name = "Orders", .item = Row(pk + "x", "t", i)}});
          ASSERT_TRUE(db_->TransactWriteItems(transaction).ok());
        } else {
          MustPut(*db_, "Orders", Row(pk, "p", i));
        }
      }
    });
  }
  threads.emplace_back([&] {
    while (!stop) {
      ASSERT_TRUE(db_->CreateSnapshot({}).ok());
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
  std::map<std::string, std::vector<std::string>> seen;  // by shard
  std::map<std::string, std::optional<std::string>> iterators;
  for (const StreamShard& shard : Shards(arn)) {
    auto it = db_->GetShardIterator({arn, shard.shard_id, ShardIteratorType::kTrimHorizon, {}});
    ASSERT_TRUE(it.ok());
    iterators[shard.shard_id] = it->shard_iterator;
  }
  const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(600);
  while (std::chrono::steady_clock::now() < end) {
    for (auto& [shard, iterator] : iterators) iterator = Drain(iterator, &seen[shard], 7, 3);
  }
  stop = true;
  for (std::thread& t : threads) t.join();
  size_t read = 0;
  for (const auto& [shard, records] : seen) read += records.size();
  EXPECT_GT(read, 20u);
  Open(/*manual=*/false);
  for (const auto& [shard, records] : seen) {
    std::vector<std::string> all;
    auto it = db_->GetShardIterator({arn, shard, ShardIteratorType::kTrimHorizon, {}});
    ASSERT_TRUE(it.ok());
    Drain(it->shard_iterator, &all);
    ASSERT_GE(all.size(), records.size()) << shard;
    EXPECT_TRUE(std::equal(records.begin(), records.end(), all.begin())) << shard;
  }
}

// What a damaged file may say is refused whole, never half restored: times and sequence numbers
// out of range fail to decode; a split that would leave an enabled stream's keys without an
// open shard, or a record of a shard the stream lacks, is a ValidationException.
TEST(StreamImageTest, DamagedImagesAreRefused) {
  std::string bytes;
  persist::ByteWriter writer(&bytes);
  persist::EncodeStreamMark({.stream = 1, .sequence = 5, .shard = 1, .epoch_micros = -1}, writer);
  persist::ByteReader reader(bytes);
  persist::StreamMark mark;
  EXPECT_FALSE(persist::DecodeStreamMark(reader, &mark));
  bytes.clear();
  persist::EncodeStreamMark(
      {.stream = 1, .sequence = persist::kMaxSequence + 1, .shard = 1, .epoch_micros = 0}, writer);
  persist::ByteReader too_far(bytes);
  EXPECT_FALSE(persist::DecodeStreamMark(too_far, &mark));

  StreamIdentity identity;
  identity.table_arn = "arn:aws:dynamodb:us-east-1:000000000000:table/T";
  identity.clock = std::make_shared<capacity::ManualClock>();
  persist::StreamImage image;
  image.number = 1;
  image.table_name = "T";
  image.table_arn = identity.table_arn;
  image.key_schema = StringKeys(false);
  image.label = "2027-01-15T08:00:00.000";
  image.next_sequence = 2;
  image.shards = {{.starting = 1, .begin = 0, .end = UINT64_MAX}};
  auto stream = Stream::Restore(identity, StreamOptions{}, image, 0);
  ASSERT_TRUE(stream.ok()) << stream.status().ToString();
  const std::vector<persist::StreamShardImage> closed_alone = {
      {.starting = 1, .begin = 0, .end = UINT64_MAX, .ending = 1}};
  EXPECT_EQ((*stream)->RestoreShards(closed_alone).code(), Code::kValidation);
  EXPECT_EQ((*stream)
                ->Replay({.stream = 1, .sequence = 9, .shard = 7, .epoch_micros = 0}, StoredItem(),
                         StoredItem::Encode(Item{{"PK", Value("k")}}))
                .code(),
            Code::kValidation);
  image.shards = {{.starting = 1, .begin = 5, .end = UINT64_MAX}};  // keys below 5 uncovered
  EXPECT_FALSE(Stream::Restore(identity, StreamOptions{}, image, 0).ok());
}

// A change logged in a transaction's group: its record is not read before the group is in the
// log (a reader that saw it could lose it to a crash, and a consumer would skip the number).
TEST(StreamPublishTest, ARecordLoggedInAGroupIsReadOnlyOnceTheGroupIsLogged) {
  StreamIdentity identity;
  identity.table_name = "T";
  identity.table_arn = "arn:aws:dynamodb:us-east-1:000000000000:table/T";
  identity.key_schema = StringKeys(false);
  identity.view_type = StreamViewType::kNewImage;
  identity.clock = std::make_shared<capacity::ManualClock>();
  identity.epoch_at_clock_zero = kStreamEpoch;
  identity.number = 1;
  const uint64_t starts[] = {0};
  Stream stream(identity, StreamOptions{}, starts, 0);
  struct Deferring final : Stream::Logger {
    bool Log(const persist::StreamMark& mark) override {
      marks.push_back(mark);
      return false;
    }
    std::vector<persist::StreamMark> marks;
  } logger;
  const StoredItem item = StoredItem::Encode(Item{{"PK", Value("k")}});
  std::optional<Stream::Unpublished> pending =
      stream.Append(1, StoredItem(), item, StreamRemover::kClient, &logger);
  ASSERT_TRUE(pending.has_value());
  ASSERT_EQ(logger.marks.size(), 1u);
  EXPECT_EQ(logger.marks[0].sequence, pending->sequence);
  EXPECT_EQ(logger.marks[0].shard, pending->shard);
  auto described = stream.Describe({.stream_arn = stream.arn()});
  ASSERT_TRUE(described.ok());
  const std::string shard = described->shards.at(0).shard_id;
  auto iterator =
      stream.GetShardIterator({stream.arn(), shard, ShardIteratorType::kTrimHorizon, std::nullopt});
  ASSERT_TRUE(iterator.ok());
  auto decoded = Stream::DecodeIterator(*iterator);
  ASSERT_TRUE(decoded.ok());
  auto page = stream.GetRecords(decoded->position, decoded->issued_epoch_micros, 100);
  ASSERT_TRUE(page.ok());
  EXPECT_TRUE(page->records.empty());
  stream.Publish(*pending);
  page = stream.GetRecords(decoded->position, decoded->issued_epoch_micros, 100);
  ASSERT_TRUE(page.ok());
  EXPECT_EQ(page->records.size(), 1u);
}

}  // namespace
}  // namespace partstore::testing
