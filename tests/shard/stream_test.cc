// DynamoDB Streams (partstore/streams.h): the StreamSpecification rules, the records a mixed
// workload writes (per view type, no record for a write that changed nothing, TTL deletions with
// their userIdentity), shard lineage across a partition split, retention and the byte cap,
// iterator types and expiry, pagination, and the push subscription.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "partstore/database.h"
#include "partstore/shard_reader.h"
#include "partstore/stream_subscription.h"
#include "shard/database_state.h"
#include "tests/shard/database_testutil.h"
#include "tests/testutil/filler.h"

namespace partstore::testing {
namespace {

constexpr int64_t kEpochSeconds = 1'800'000'000;

class StreamTest : public ::testing::Test {
 protected:
  StreamTest() : clock_(std::make_shared<capacity::ManualClock>()) { Open({}); }

  void Open(StreamOptions streams) {
    DatabaseOptions options;
    options.capacity.enabled = true;
    options.capacity.clock = clock_;
    options.time_to_live.epoch_at_clock_zero = kEpochSeconds;
    options.time_to_live.expiry_mode = ExpiryMode::kDynamoDb;
    options.streams = streams;
    db_ = std::make_unique<Database>(options);
  }

  CreateTableRequest Table(const std::string& name, std::optional<StreamViewType> view) {
    CreateTableRequest request = SimpleTable(name, StringKeys());
    if (view) request.stream_specification = StreamSpecification{true, view};
    return request;
  }
  std::string Create(const std::string& name, StreamViewType view) {
    auto created = db_->CreateTable(Table(name, view));
    EXPECT_TRUE(created.ok()) << created.status().ToString();
    return created.ok() ? created->table_description.latest_stream_arn.value_or("") : "";
  }
  static Item Key(const std::string& pk, const std::string& sk) {
    return {{"PK", Value(pk)}, {"SK", Value(sk)}};
  }
  static Item With(Item item, const std::string& name, Value value) {
    item[name] = std::move(value);
    return item;
  }
  void Advance(double seconds) {
    auto advanced = db_->AdvanceClock({seconds});
    ASSERT_TRUE(advanced.ok()) << advanced.status().ToString();
  }
  std::vector<StreamShard> Shards(const std::string& arn) {
    auto described = db_->DescribeStream({.stream_arn = arn});
    EXPECT_TRUE(described.ok()) << described.status().ToString();
    return described.ok() ? described->stream_description.shards : std::vector<StreamShard>{};
  }
  std::string Iterator(const std::string& arn, const std::string& shard,
                       ShardIteratorType type = ShardIteratorType::kTrimHorizon,
                       std::optional<std::string> sequence = std::nullopt) {
    auto got = db_->GetShardIterator({arn, shard, type, sequence});
    EXPECT_TRUE(got.ok()) << got.status().ToString();
    return got.ok() ? got->shard_iterator : "";
  }
  // Every record of the stream, shard by shard (parents first), each shard read to its end or
  // to its newest record.
  std::vector<StreamRecord> ReadAll(const std::string& arn) {
    std::vector<StreamRecord> out;
    for (const StreamShard& shard : Shards(arn)) {
      std::optional<std::string> it = Iterator(arn, shard.shard_id);
      while (it) {
        auto page = db_->GetRecords({*it});
        EXPECT_TRUE(page.ok()) << page.status().ToString();
        if (!page.ok()) break;
        for (auto& r : page->records) out.push_back(std::move(r));
        if (page->records.empty()) break;
        it = page->next_shard_iterator;
      }
    }
    return out;
  }

  std::shared_ptr<capacity::ManualClock> clock_;
  std::unique_ptr<Database> db_;
};

TEST_F(StreamTest, DescribeTableShowsTheStreamAndItsArnNamesTheLabel) {
  const std::string arn = Create("Orders", StreamViewType::kNewImage);
  auto described = db_->DescribeTable({"Orders"});
  ASSERT_TRUE(described.ok());
  const TableDescription& d = described->table;
  ASSERT_TRUE(d.stream_specification.has_value());
  EXPECT_TRUE(d.stream_specification->stream_enabled);
  EXPECT_EQ(d.stream_specification->stream_view_type, StreamViewType::kNewImage);
  ASSERT_TRUE(d.latest_stream_label.has_value());
  EXPECT_EQ(arn, d.table_arn + "/stream/" + *d.latest_stream_label);
  // The label is the creation time on the database clock: kEpochSeconds is 2027-01-15T08:00:00 UTC.
  EXPECT_EQ(*d.latest_stream_label, "2027-01-15T08:00:00.000");
  // A table without a stream reports none.
  ASSERT_TRUE(db_->CreateTable(Table("Plain", std::nullopt)).ok());
  auto plain = db_->DescribeTable({"Plain"});
  EXPECT_FALSE(plain->table.stream_specification.has_value());
  EXPECT_FALSE(plain->table.latest_stream_arn.has_value());
}

TEST_F(StreamTest, SpecificationRulesUseDynamoDbsMessages) {
  CreateTableRequest no_view = Table("Tab1", std::nullopt);
  no_view.stream_specification = StreamSpecification{true, std::nullopt};
  EXPECT_EQ(ErrorText(db_->CreateTable(no_view)),
            "One or more parameter values were invalid: If stream is being enabled then "
            "UpdateViewType is required");
  ASSERT_TRUE(db_->CreateTable(Table("Tab1", std::nullopt)).ok());
  auto update = [&](StreamSpecification spec) {
    UpdateTableRequest request;
    request.table_name = "Tab1";
    request.stream_specification = spec;
    return db_->UpdateTable(request);
  };
  EXPECT_EQ(ErrorText(update({false, std::nullopt})),
            "Table has no stream to disable: TableName: Tab1");
  EXPECT_EQ(ErrorText(update({false, StreamViewType::kKeysOnly})),
            "One or more parameter values were invalid: If stream is being disabled, then "
            "UpdateViewType must not be specified");
  EXPECT_EQ(ErrorText(update({true, std::nullopt})),
            "One or more parameter values were invalid: If stream is being enabled then "
            "UpdateViewType is required");
  ASSERT_TRUE(update({true, StreamViewType::kKeysOnly}).ok());
  // The view type cannot change in place; an identical re-send is refused too.
  EXPECT_EQ(ErrorText(update({true, StreamViewType::kNewImage})),
            "Table already has an enabled stream: TableName: Tab1");
  EXPECT_EQ(ErrorText(update({true, StreamViewType::kKeysOnly})),
            "Table already has an enabled stream: TableName: Tab1");
}

TEST_F(StreamTest, DisablingKeepsTheOldStreamReadableAndReenablingMakesANewOne) {
  const std::string first = Create("Orders", StreamViewType::kKeysOnly);
  MustPut(*db_, "Orders", Key("a", "1"));
  UpdateTableRequest off{.table_name = "Orders"};
  off.stream_specification = StreamSpecification{false, std::nullopt};
  ASSERT_TRUE(db_->UpdateTable(off).ok());
  auto described = db_->DescribeTable({"Orders"});
  EXPECT_FALSE(described->table.stream_specification.has_value());
  EXPECT_EQ(described->table.latest_stream_arn, first);
  MustPut(*db_, "Orders", Key("b", "1"));  // no stream: no record
  Advance(0.001);
  UpdateTableRequest on{.table_name = "Orders"};
  on.stream_specification = StreamSpecification{true, StreamViewType::kNewImage};
  auto enabled = db_->UpdateTable(on);
  ASSERT_TRUE(enabled.ok());
  const std::string second = *enabled->table_description.latest_stream_arn;
  EXPECT_NE(first, second);
  MustPut(*db_, "Orders", Key("c", "1"));

  auto old_stream = db_->DescribeStream({.stream_arn = first});
  ASSERT_TRUE(old_stream.ok());
  EXPECT_EQ(old_stream->stream_description.stream_status, StreamStatus::kDisabled);
  for (const StreamShard& s : old_stream->stream_description.shards) {
    EXPECT_TRUE(s.sequence_number_range.ending_sequence_number.has_value());
  }
  std::vector<StreamRecord> old_records = ReadAll(first);
  ASSERT_EQ(old_records.size(), 1u);
  EXPECT_EQ(old_records[0].keys, Key("a", "1"));
  std::vector<StreamRecord> new_records = ReadAll(second);
  ASSERT_EQ(new_records.size(), 1u);
  EXPECT_EQ(new_records[0].keys, Key("c", "1"));

  auto listed = db_->ListStreams({.table_name = "Orders"});
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->streams.size(), 2u);
  EXPECT_EQ(listed->streams[0].stream_arn, first);
  EXPECT_EQ(listed->streams[1].stream_arn, second);
  // Pages of one.
  auto page = db_->ListStreams({.limit = 1});
  ASSERT_TRUE(page.ok());
  ASSERT_EQ(page->streams.size(), 1u);
  ASSERT_TRUE(page->last_evaluated_stream_arn.has_value());
  auto next =
      db_->ListStreams({.limit = 1, .exclusive_start_stream_arn = page->last_evaluated_stream_arn});
  ASSERT_EQ(next->streams.size(), 1u);
  EXPECT_EQ(next->streams[0].stream_arn, second);
  // Deleting the table disables its stream; it stays readable.
  ASSERT_TRUE(db_->DeleteTable({"Orders"}).ok());
  EXPECT_EQ(db_->DescribeStream({.stream_arn = second})->stream_description.stream_status,
            StreamStatus::kDisabled);
  EXPECT_EQ(ReadAll(second).size(), 1u);
}

TEST_F(StreamTest, AMixedWorkloadWritesOneRecordPerChangeInWriteOrder) {
  const std::string arn = Create("Orders", StreamViewType::kNewAndOldImages);
  ASSERT_TRUE(db_->UpdateTimeToLive({"Orders", {"exp", true}}).ok());
  const Item a = With(Key("a", "1"), "v", N("1"));
  MustPut(*db_, "Orders", a);                     // INSERT a
  MustPut(*db_, "Orders", a);                     // identical: nothing
  MustPut(*db_, "Orders", With(a, "v", N("2")));  // MODIFY a
  UpdateItemRequest same{
      .table_name = "Orders", .key = Key("a", "1"), .update_expression = "SET v = :v"};
  same.expression_attribute_values = AttributeMap{{":v", N("2")}};
  ASSERT_TRUE(db_->UpdateItem(same).ok());  // sets what is there: nothing
  UpdateItemRequest bump = same;
  bump.expression_attribute_values = AttributeMap{{":v", N("3")}};
  ASSERT_TRUE(db_->UpdateItem(bump).ok());                                             // MODIFY a
  ASSERT_TRUE(db_->DeleteItem({.table_name = "Orders", .key = Key("zz", "1")}).ok());  // nothing
  BatchWriteItemRequest batch;
  batch.request_items.push_back(
      {"Orders",
       {{WriteRequest::Kind::kPut, With(Key("b", "1"), "v", N("1"))},
        {WriteRequest::Kind::kPut,
         With(Key("c", "1"), "exp", N(std::to_string(kEpochSeconds + 10)))}}});
  ASSERT_TRUE(db_->BatchWriteItem(batch).ok());  // INSERT b, INSERT c
  TransactWriteItemsRequest tx;
  tx.transact_items.push_back(
      {.del = DeleteItemRequest{.table_name = "Orders", .key = Key("a", "1")}});
  tx.transact_items.push_back(
      {.put = PutItemRequest{.table_name = "Orders", .item = With(Key("d", "1"), "v", N("9"))}});
  ASSERT_TRUE(db_->TransactWriteItems(tx).ok());  // REMOVE a, INSERT d
  Advance(11);  // (AdvanceClock runs the sweeper on the manual clock)
  EXPECT_FALSE(MustGet(*db_, "Orders", Key("c", "1")).has_value());  // REMOVE c (by TTL)

  std::vector<StreamRecord> records = ReadAll(arn);
  ASSERT_EQ(records.size(), 8u);
  std::map<std::string, std::vector<const StreamRecord*>> by_key;
  for (const StreamRecord& r : records) by_key[r.keys.at("PK").as_string()].push_back(&r);
  ASSERT_EQ(by_key["a"].size(), 4u);
  const auto& ra = by_key["a"];
  EXPECT_EQ(ra[0]->event_name, StreamEventName::kInsert);
  EXPECT_FALSE(ra[0]->old_image.has_value());
  EXPECT_TRUE(ra[0]->new_image->ToItem() == a);
  EXPECT_EQ(ra[1]->event_name, StreamEventName::kModify);
  EXPECT_EQ(ra[1]->old_image->ToItem().at("v"), N("1"));
  EXPECT_EQ(ra[1]->new_image->ToItem().at("v"), N("2"));
  EXPECT_EQ(ra[2]->event_name, StreamEventName::kModify);
  EXPECT_EQ(ra[2]->new_image->ToItem().at("v"), N("3"));
  EXPECT_EQ(ra[3]->event_name, StreamEventName::kRemove);
  EXPECT_FALSE(ra[3]->new_image.has_value());
  EXPECT_EQ(ra[3]->old_image->ToItem().at("v"), N("3"));
  EXPECT_EQ(ra[3]->remover, StreamRemover::kClient);
  for (size_t i = 1; i < ra.size(); ++i) {
    EXPECT_LT(ra[i - 1]->sequence_number, ra[i]->sequence_number);
  }
  ASSERT_EQ(by_key["c"].size(), 2u);
  EXPECT_EQ(by_key["c"][1]->event_name, StreamEventName::kRemove);
  EXPECT_EQ(by_key["c"][1]->remover, StreamRemover::kTimeToLive);
  EXPECT_EQ(by_key["b"].size(), 1u);
  EXPECT_EQ(by_key["d"].size(), 1u);
  EXPECT_FALSE(by_key.contains("zz"));
  // Record fields: unique event ids, the view type, the size of keys and both images.
  std::set<std::string> ids;
  for (const StreamRecord& r : records) {
    ids.insert(r.event_id);
    EXPECT_EQ(r.stream_view_type, StreamViewType::kNewAndOldImages);
    EXPECT_EQ(r.approximate_creation_date_time, std::floor(r.approximate_creation_date_time));
    EXPECT_GE(r.approximate_creation_date_time, kEpochSeconds);
  }
  EXPECT_EQ(ids.size(), records.size());
  // a's first MODIFY: keys (PK "a": 2+1, SK "1": 2+1) + old (6 + v 1+2) + new (the same).
  EXPECT_EQ(ra[1]->size_bytes, 6 + 9 + 9);
}

TEST_F(StreamTest, ViewTypesCarryTheirImagesOnly) {
  for (StreamViewType view : {StreamViewType::kKeysOnly, StreamViewType::kNewImage,
                              StreamViewType::kOldImage, StreamViewType::kNewAndOldImages}) {
    const std::string name = "T" + std::string(StreamViewTypeName(view));
    const std::string arn = Create(name, view);
    MustPut(*db_, name, With(Key("k", "1"), "v", N("1")));
    MustPut(*db_, name, With(Key("k", "1"), "v", N("2")));
    std::vector<StreamRecord> records = ReadAll(arn);
    ASSERT_EQ(records.size(), 2u) << name;
    const StreamRecord& modify = records[1];
    EXPECT_EQ(modify.keys, Key("k", "1"));
    const bool has_new =
        view == StreamViewType::kNewImage || view == StreamViewType::kNewAndOldImages;
    const bool has_old =
        view == StreamViewType::kOldImage || view == StreamViewType::kNewAndOldImages;
    EXPECT_EQ(modify.new_image.has_value(), has_new) << name;
    EXPECT_EQ(modify.old_image.has_value(), has_old) << name;
    EXPECT_EQ(modify.size_bytes, 6 + (has_new ? 9 : 0) + (has_old ? 9 : 0)) << name;
  }
}

TEST_F(StreamTest, APartitionSplitClosesTheShardAndOpensTwoChildren) {
  CreateTableRequest request = Table("Hot", StreamViewType::kKeysOnly);
  request.billing_mode = BillingMode::kProvisioned;
  request.provisioned_throughput = ProvisionedThroughput{100, 500};  // one partition
  auto created = db_->CreateTable(request);
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  const std::string arn = *created->table_description.latest_stream_arn;
  ASSERT_EQ(Shards(arn).size(), 1u);
  for (int i = 0; i < 20; ++i) MustPut(*db_, "Hot", Key("k" + std::to_string(i), "before"));
  Advance(1);
  UpdateTableRequest raise{.table_name = "Hot"};
  raise.provisioned_throughput = ProvisionedThroughput{100, 1500};  // two partitions
  ASSERT_TRUE(db_->UpdateTable(raise).ok());
  // DescribeStream sees the split without any write since.
  std::vector<StreamShard> shards = Shards(arn);
  ASSERT_EQ(shards.size(), 3u);
  const StreamShard& parent = shards[0];
  EXPECT_FALSE(parent.parent_shard_id.has_value());
  ASSERT_TRUE(parent.sequence_number_range.ending_sequence_number.has_value());
  for (int c = 1; c <= 2; ++c) {
    EXPECT_EQ(shards[c].parent_shard_id, parent.shard_id);
    EXPECT_FALSE(shards[c].sequence_number_range.ending_sequence_number.has_value());
    EXPECT_GT(shards[c].sequence_number_range.starting_sequence_number,
              *parent.sequence_number_range.ending_sequence_number);
  }
  for (int i = 0; i < 20; ++i) MustPut(*db_, "Hot", Key("k" + std::to_string(i), "after"));
  // The parent holds the 20 records before the split and then ends (no NextShardIterator).
  std::optional<std::string> it = Iterator(arn, parent.shard_id);
  auto page = db_->GetRecords({*it});
  ASSERT_TRUE(page.ok());
  EXPECT_EQ(page->records.size(), 20u);
  EXPECT_FALSE(page->next_shard_iterator.has_value());
  // Each key's later record is in exactly one child, after its record in the parent.
  std::map<std::string, int> children;
  for (int c = 1; c <= 2; ++c) {
    auto records = db_->GetRecords({Iterator(arn, shards[c].shard_id)});
    ASSERT_TRUE(records.ok());
    EXPECT_TRUE(records->next_shard_iterator.has_value());  // open
    for (const StreamRecord& r : records->records) {
      EXPECT_EQ(r.keys.at("SK").as_string(), "after");
      ++children[r.keys.at("PK").as_string()];
    }
  }
  EXPECT_EQ(children.size(), 20u);
  for (const auto& [key, count] : children) EXPECT_EQ(count, 1) << key;
}

TEST_F(StreamTest, RecordsPastTheRetentionAreTrimmed) {
  const std::string arn = Create("Orders", StreamViewType::kKeysOnly);
  MustPut(*db_, "Orders", Key("old", "1"));
  const std::string shard_of_old = [&] {
    for (const StreamShard& s : Shards(arn)) {
      auto r = db_->GetRecords({Iterator(arn, s.shard_id)});
      if (!r->records.empty()) return s.shard_id;
    }
    return std::string();
  }();
  ASSERT_FALSE(shard_of_old.empty());
  const std::string at_old = Iterator(arn, shard_of_old);
  const std::string old_sequence = db_->GetRecords({at_old})->records.at(0).sequence_number;
  Advance(24 * 3600 + 1);
  MustPut(*db_, "Orders", Key("new", "1"));
  // The old record is gone: its iterator and its sequence number answer TrimmedDataAccess.
  auto trimmed = db_->GetShardIterator(
      {arn, shard_of_old, ShardIteratorType::kAtSequenceNumber, old_sequence});
  EXPECT_EQ(trimmed.status().code(), Code::kTrimmedDataAccess);
  std::vector<StreamRecord> left = ReadAll(arn);
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0].keys, Key("new", "1"));
}

TEST_F(StreamTest, AnIteratorWhoseRecordsWereTrimmedFails) {
  Open({.retention_seconds = 60});
  const std::string arn = Create("Orders", StreamViewType::kKeysOnly);
  MustPut(*db_, "Orders", Key("old", "1"));
  std::vector<std::string> iterators;  // TRIM_HORIZON of each shard, taken before the trim
  for (const StreamShard& s : Shards(arn)) iterators.push_back(Iterator(arn, s.shard_id));
  Advance(61);
  MustPut(*db_, "Orders", Key("other", "1"));
  int trimmed = 0;
  for (const std::string& it : iterators) {
    auto page = db_->GetRecords({it});
    if (!page.ok()) {
      EXPECT_EQ(page.status().code(), Code::kTrimmedDataAccess);
      ++trimmed;
    }
  }
  EXPECT_EQ(trimmed, 1);  // the shard that held "old"
}

TEST_F(StreamTest, IteratorsExpireAfterFifteenMinutes) {
  const std::string arn = Create("Orders", StreamViewType::kKeysOnly);
  const std::string shard = Shards(arn).at(0).shard_id;
  const std::string it = Iterator(arn, shard);
  Advance(15 * 60);
  EXPECT_TRUE(db_->GetRecords({it}).ok());
  Advance(1);
  auto expired = db_->GetRecords({it});
  EXPECT_EQ(expired.status().code(), Code::kExpiredIterator);
  EXPECT_EQ(ErrorText(expired), "The provided iterator exceeds the maximum age allowed.");
  EXPECT_EQ(db_->GetRecords({"not an iterator"}).status().code(), Code::kValidation);
}

TEST_F(StreamTest, TheByteCapTrimsTheOldestRecords) {
  Open({.max_bytes = 1 << 20});
  const std::string arn = Create("Big", StreamViewType::kNewImage);
  const std::string blob = partstore::testing::Filler(10'000);
  for (int i = 0; i < 300; ++i) {  // about 3 MB of images
    MustPut(*db_, "Big", With(Key("k" + std::to_string(i), "1"), "blob", Value(blob)));
  }
  std::vector<StreamRecord> left = ReadAll(arn);
  EXPECT_LT(left.size(), 110u);
  EXPECT_GT(left.size(), 90u);
  // The newest are kept.
  std::set<std::string> keys;
  for (const StreamRecord& r : left) keys.insert(r.keys.at("PK").as_string());
  EXPECT_TRUE(keys.contains("k299"));
  EXPECT_FALSE(keys.contains("k0"));
}

TEST_F(StreamTest, KeysOnlyRecordsKeepOnlyTheKeys) {
  // 300 items of 10 KB: about 3 MB of images, but a KEYS_ONLY stream keeps only the keys (a buffer
  // of their own), so a 1 MiB cap trims nothing.
  Open({.max_bytes = 1 << 20});
  const std::string arn = Create("Big", StreamViewType::kKeysOnly);
  const std::string blob = partstore::testing::Filler(10'000);
  for (int i = 0; i < 300; ++i) {
    MustPut(*db_, "Big", With(Key("k" + std::to_string(i), "1"), "blob", Value(blob)));
  }
  EXPECT_EQ(ReadAll(arn).size(), 300u);
}

TEST_F(StreamTest, AFailedCreateTableLeavesNoStreamAndArnsStayUnique) {
  const std::string first = Create("Orders", StreamViewType::kKeysOnly);
  // The name is taken: the second table's stream must not linger.
  EXPECT_EQ(db_->CreateTable(Table("Orders", StreamViewType::kNewImage)).status().code(),
            Code::kResourceInUse);
  EXPECT_EQ(db_->ListStreams({})->streams.size(), 1u);
  // Deleted and created again in the same millisecond (the manual clock did not move): a new ARN.
  ASSERT_TRUE(db_->DeleteTable({"Orders"}).ok());
  const std::string second = Create("Orders", StreamViewType::kKeysOnly);
  EXPECT_NE(first, second);
  EXPECT_EQ(db_->DescribeStream({.stream_arn = second})->stream_description.stream_status,
            StreamStatus::kEnabled);
  EXPECT_EQ(db_->DescribeStream({.stream_arn = first})->stream_description.stream_status,
            StreamStatus::kDisabled);
  auto listed = db_->ListStreams({.limit = 1});
  ASSERT_EQ(listed->streams.size(), 1u);
  auto rest = db_->ListStreams({.exclusive_start_stream_arn = listed->last_evaluated_stream_arn});
  ASSERT_EQ(rest->streams.size(), 1u);
  EXPECT_NE(rest->streams[0].stream_arn, listed->streams[0].stream_arn);
}

TEST_F(StreamTest, AfterTheLastTrimmedRecordIsReadableAndSurvivesASplit) {
  Open({.retention_seconds = 60});
  CreateTableRequest request = Table("One", StreamViewType::kKeysOnly);
  request.billing_mode = BillingMode::kProvisioned;
  request.provisioned_throughput = ProvisionedThroughput{100, 500};
  auto created = db_->CreateTable(request);
  ASSERT_TRUE(created.ok());
  const std::string arn = *created->table_description.latest_stream_arn;
  const std::string shard = Shards(arn).at(0).shard_id;
  MustPut(*db_, "One", Key("a", "1"));
  const std::string a = db_->GetRecords({Iterator(arn, shard)})->records.at(0).sequence_number;
  Advance(61);  // a is trimmed
  EXPECT_EQ(
      db_->GetShardIterator({arn, shard, ShardIteratorType::kAtSequenceNumber, a}).status().code(),
      Code::kTrimmedDataAccess);
  // After a: the next record, which is kept.
  const std::string after = Iterator(arn, shard, ShardIteratorType::kAfterSequenceNumber, a);
  MustPut(*db_, "One", Key("b", "1"));
  EXPECT_EQ(db_->GetRecords({after})->records.at(0).keys, Key("b", "1"));
  // The shard closes at its newest record even when its records are trimmed.
  Advance(61);
  UpdateTableRequest raise{.table_name = "One"};
  raise.provisioned_throughput = ProvisionedThroughput{100, 1500};
  ASSERT_TRUE(db_->UpdateTable(raise).ok());
  std::vector<StreamShard> shards = Shards(arn);
  ASSERT_EQ(shards.size(), 3u);
  const std::string b_sequence = Stream::SequenceText(*Stream::ParseSequence(a) + 1);
  EXPECT_GE(*shards[0].sequence_number_range.ending_sequence_number, b_sequence);
  EXPECT_TRUE(db_->GetShardIterator({arn, shard, ShardIteratorType::kLatest}).ok());
}

TEST_F(StreamTest, ASubscriptionRenewsAnIteratorThatExpiredWhileItIdled) {
  Create("Sub", StreamViewType::kKeysOnly);
  size_t count = 0;
  auto sub = StreamSubscription::Open(*db_, "Sub", {}, [&](const StreamRecord&) { ++count; });
  ASSERT_TRUE(sub.ok());
  MustPut(*db_, "Sub", Key("a", "1"));
  Advance(16 * 60);  // every LATEST iterator taken at Open has expired
  MustPut(*db_, "Sub", Key("b", "1"));
  auto polled = (*sub)->Poll();
  ASSERT_TRUE(polled.ok()) << polled.status().ToString();
  EXPECT_EQ(*polled, 2u);
  EXPECT_EQ(count, 2u);
}

TEST_F(StreamTest, AShardReaderPullsInOrderRenewsAndFinishesWithItsShard) {
  Open({.retention_seconds = 3600});
  CreateTableRequest request = Table("One", StreamViewType::kKeysOnly);
  request.billing_mode = BillingMode::kProvisioned;
  request.provisioned_throughput = ProvisionedThroughput{100, 500};  // one shard
  auto created = db_->CreateTable(request);
  ASSERT_TRUE(created.ok());
  const std::string arn = *created->table_description.latest_stream_arn;
  const std::string shard = Shards(arn).at(0).shard_id;
  auto reader = ShardReader::Open(*db_, arn, shard, ShardIteratorType::kLatest);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_TRUE(reader->Next()->empty());
  for (int i = 0; i < 5; ++i) MustPut(*db_, "One", Key("k" + std::to_string(i), "1"));
  auto two = reader->Next(2);
  ASSERT_EQ(two->size(), 2u);
  EXPECT_EQ(two->at(1).keys, Key("k1", "1"));
  EXPECT_EQ(reader->last_sequence_number(), two->at(1).sequence_number);
  Advance(16 * 60);  // the iterator expired: renewed at its position
  auto rest = reader->Next();
  ASSERT_TRUE(rest.ok()) << rest.status().ToString();
  ASSERT_EQ(rest->size(), 3u);
  EXPECT_EQ(rest->at(0).keys, Key("k2", "1"));
  EXPECT_FALSE(reader->finished());
  // Records trimmed before they are read: reported once, then the reader goes on.
  MustPut(*db_, "One", Key("lost", "1"));
  Advance(3601);
  MustPut(*db_, "One", Key("kept", "1"));
  EXPECT_EQ(reader->Next().status().code(), Code::kTrimmedDataAccess);
  auto after = reader->Next();
  ASSERT_TRUE(after.ok());
  ASSERT_EQ(after->size(), 1u);
  EXPECT_EQ(after->at(0).keys, Key("kept", "1"));
  // A split closes the shard: the reader finishes once it has read it all.
  UpdateTableRequest raise{.table_name = "One"};
  raise.provisioned_throughput = ProvisionedThroughput{100, 1500};
  ASSERT_TRUE(db_->UpdateTable(raise).ok());
  EXPECT_TRUE(reader->Next()->empty());
  EXPECT_TRUE(reader->finished());
  EXPECT_EQ(ShardReader::Open(*db_, arn, "shardId-00000000000000000099-00000000").status().code(),
            Code::kResourceNotFound);
}

TEST_F(StreamTest, EvictionsAndCacheModeReclaimsWriteNamedRemoveRecords) {
  // The memory limit's evict policy: each evicted item gets a REMOVE naming the eviction.
  DatabaseOptions options;
  options.memory = {.limit_bytes = 1 << 20, .policy = MemoryPolicy::kEvict};
  db_ = std::make_unique<Database>(options);
  const std::string arn_evicting = Create("Cache", StreamViewType::kKeysOnly);
  const std::string blob = partstore::testing::Filler(10'000);
  for (int i = 0; i < 300; ++i) {  // 3 MB into 1 MiB
    MustPut(*db_, "Cache", With(Key("k" + std::to_string(i), "1"), "blob", Value(blob)));
  }
  std::vector<StreamRecord> records = ReadAll(arn_evicting);
  int evicted = 0;
  for (const StreamRecord& r : records) {
    if (r.event_name == StreamEventName::kRemove) {
      EXPECT_EQ(r.remover, StreamRemover::kEviction);
      ++evicted;
    }
  }
  EXPECT_GT(evicted, 100);
  EXPECT_EQ(static_cast<uint64_t>(evicted), db_->DescribeMemory().tables.at(0).evicted_items);

  // Cache expiry mode: a write to an expired item reclaims it first, as a TTL deletion.
  DatabaseOptions cache;
  cache.capacity.enabled = true;
  cache.capacity.clock = clock_;
  cache.time_to_live.epoch_at_clock_zero = kEpochSeconds;
  cache.time_to_live.expiry_mode = ExpiryMode::kCache;
  cache.time_to_live.expiry_delay_seconds = 1e6;  // the sweeper leaves it: the write reclaims it
  db_ = std::make_unique<Database>(cache);
  const std::string arn = Create("Ttl", StreamViewType::kOldImage);
  ASSERT_TRUE(db_->UpdateTimeToLive({"Ttl", {"exp", true}}).ok());
  MustPut(*db_, "Ttl", With(Key("a", "1"), "exp", N(std::to_string(kEpochSeconds + 10))));
  Advance(11);
  MustPut(*db_, "Ttl", Key("a", "1"));
  std::vector<StreamRecord> ttl = ReadAll(arn);
  ASSERT_EQ(ttl.size(), 3u);
  EXPECT_EQ(ttl[1].event_name, StreamEventName::kRemove);
  EXPECT_EQ(ttl[1].remover, StreamRemover::kTimeToLive);
  EXPECT_EQ(ttl[2].event_name, StreamEventName::kInsert);  // not a MODIFY of the expired item
}

TEST_F(StreamTest, IteratorTypesAndLimits) {
  CreateTableRequest request = Table("One", StreamViewType::kKeysOnly);
  request.billing_mode = BillingMode::kProvisioned;
  request.provisioned_throughput = ProvisionedThroughput{100, 100};  // one partition, one shard
  auto created = db_->CreateTable(request);
  ASSERT_TRUE(created.ok());
  const std::string arn = *created->table_description.latest_stream_arn;
  const std::string shard = Shards(arn).at(0).shard_id;
  for (int i = 0; i < 5; ++i) MustPut(*db_, "One", Key("k" + std::to_string(i), "1"));
  const std::string latest = Iterator(arn, shard, ShardIteratorType::kLatest);
  MustPut(*db_, "One", Key("k5", "1"));
  auto after_latest = db_->GetRecords({latest});
  ASSERT_EQ(after_latest->records.size(), 1u);
  EXPECT_EQ(after_latest->records[0].keys.at("PK").as_string(), "k5");
  auto two = db_->GetRecords({Iterator(arn, shard), 2});
  ASSERT_EQ(two->records.size(), 2u);
  const std::string second = two->records[1].sequence_number;
  auto at =
      db_->GetRecords({Iterator(arn, shard, ShardIteratorType::kAtSequenceNumber, second), 1});
  EXPECT_EQ(at->records.at(0).sequence_number, second);
  auto after =
      db_->GetRecords({Iterator(arn, shard, ShardIteratorType::kAfterSequenceNumber, second)});
  EXPECT_EQ(after->records.size(), 4u);
  EXPECT_EQ(after->records.at(0).keys.at("PK").as_string(), "k2");
  // Errors.
  EXPECT_EQ(
      db_->GetShardIterator({arn, shard, ShardIteratorType::kAtSequenceNumber}).status().code(),
      Code::kValidation);
  EXPECT_EQ(db_->GetShardIterator({arn, "shardId-00000000000000000000-00000000"}).status().code(),
            Code::kResourceNotFound);
  EXPECT_EQ(db_->DescribeStream({.stream_arn = arn + "x"}).status().code(),
            Code::kResourceNotFound);
  EXPECT_EQ(db_->GetRecords({Iterator(arn, shard), 1001}).status().code(), Code::kValidation);
}

TEST_F(StreamTest, DescribeStreamPagesItsShards) {
  const std::string arn = Create("Four", StreamViewType::kKeysOnly);  // on-demand: 4 partitions
  std::vector<std::string> seen;
  DescribeStreamRequest request{.stream_arn = arn, .limit = 1};
  while (true) {
    auto page = db_->DescribeStream(request);
    ASSERT_TRUE(page.ok());
    for (const auto& s : page->stream_description.shards) seen.push_back(s.shard_id);
    if (!page->stream_description.last_evaluated_shard_id) break;
    request.exclusive_start_shard_id = page->stream_description.last_evaluated_shard_id;
  }
  EXPECT_EQ(seen.size(), 4u);
  EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()).size(), 4u);
}

TEST_F(StreamTest, ASubscriptionDeliversOnTheCallersThreadAcrossASplit) {
  CreateTableRequest request = Table("Sub", StreamViewType::kNewImage);
  request.billing_mode = BillingMode::kProvisioned;
  request.provisioned_throughput = ProvisionedThroughput{100, 500};
  ASSERT_TRUE(db_->CreateTable(request).ok());
  MustPut(*db_, "Sub", With(Key("before", "1"), "v", N("0")));  // before the subscription
  std::map<std::string, std::vector<std::string>> seen;
  auto sub = StreamSubscription::Open(*db_, "Sub", {}, [&](const StreamRecord& r) {
    seen[r.keys.at("PK").as_string()].push_back(
        r.new_image->ToItem().at("v").as_number().ToString());
  });
  ASSERT_TRUE(sub.ok()) << sub.status().ToString();
  for (int v = 1; v <= 3; ++v) MustPut(*db_, "Sub", With(Key("a", "1"), "v", N(std::to_string(v))));
  Advance(1);
  UpdateTableRequest raise{.table_name = "Sub"};
  raise.provisioned_throughput = ProvisionedThroughput{100, 1500};
  ASSERT_TRUE(db_->UpdateTable(raise).ok());
  for (int v = 4; v <= 6; ++v) MustPut(*db_, "Sub", With(Key("a", "1"), "v", N(std::to_string(v))));
  auto delivered = (*sub)->Poll();
  ASSERT_TRUE(delivered.ok()) << delivered.status().ToString();
  EXPECT_EQ(*delivered, 6u);
  EXPECT_FALSE(seen.contains("before"));  // Start::kLatest
  EXPECT_EQ(seen["a"], (std::vector<std::string>{"1", "2", "3", "4", "5", "6"}));
  EXPECT_EQ(*(*sub)->Poll(), 0u);
  // A table without a stream cannot be subscribed to.
  ASSERT_TRUE(db_->CreateTable(Table("Plain", std::nullopt)).ok());
  EXPECT_EQ(StreamSubscription::Open(*db_, "Plain", {}, [](const StreamRecord&) {}).status().code(),
            Code::kValidation);
}

TEST_F(StreamTest, ASubscriptionFromTheTrimHorizonSeesEverything) {
  Create("Sub", StreamViewType::kKeysOnly);
  for (int i = 0; i < 10; ++i) MustPut(*db_, "Sub", Key("k" + std::to_string(i), "1"));
  size_t count = 0;
  auto sub =
      StreamSubscription::Open(*db_, "Sub", {.start = StreamSubscription::Start::kTrimHorizon},
                               [&](const StreamRecord&) { ++count; });
  ASSERT_TRUE(sub.ok());
  EXPECT_EQ(*(*sub)->Wait(std::chrono::milliseconds(0)), 10u);
  EXPECT_EQ(count, 10u);
}

}  // namespace
}  // namespace partstore::testing
