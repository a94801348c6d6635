// A stream consumer across restarts of `partstore serve --data-dir D --wal fsync=always`: writers
// put items while the server is killed with SIGKILL (and once stopped with SIGTERM) and
// restarted on the same port; a consumer reads every shard with the iterators it held before each
// restart. Every acknowledged write's record is read (a third of them in transactions of two),
// none twice, none for a write that was never made, and each key's records in the order of its
// writes. PARTSTORE_HISTORY_SCALE=N: N times the restarts.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "tests/consistency/wire_testutil.h"
#include "tests/testutil/serve_process.h"

namespace partstore::consistency {
namespace {

using std::chrono::milliseconds;
using testing::ServeProcess;

constexpr int kWriters = 3;
constexpr int kKeysPerWriter = 4;

struct Written {
  std::mutex mu;
  std::set<std::pair<std::string, int64_t>> acknowledged, unknown;
};

void WriteUntil(Store& store, int writer, const std::atomic<bool>& stop, Written* written) {
  for (int64_t n = 1; !stop; ++n) {
    const std::string key = "w" + std::to_string(writer) + "-" + std::to_string(n % kKeysPerWriter);
    auto item = [&](const std::string& k) {
      return Item{{"PK", Value(k)}, {"v", Value(Number::Parse(std::to_string(n)).value())}};
    };
    // Every third write a transaction of two (its records are readable once it is logged).
    bool ok = false;
    if (n % 3 == 0) {
      TransactWriteItemsRequest transaction;
      transaction.transact_items.push_back(
          {.put = PutItemRequest{.table_name = "Feed", .item = item(key)}});
      transaction.transact_items.push_back(
          {.put = PutItemRequest{.table_name = "Feed", .item = item(key + "t")}});
      ok = store.TransactWriteItems(transaction).ok();
    } else {
      ok = store.PutItem({.table_name = "Feed", .item = item(key)}).ok();
    }
    std::lock_guard lock(written->mu);
    auto& into = ok ? written->acknowledged : written->unknown;
    into.insert({key, n});
    if (n % 3 == 0) into.insert({key + "t", n});
  }
}

// One consumer: an iterator per shard, advanced only by an answer (a GetRecords whose answer was
// lost is sent again with the same iterator).
class Consumer {
 public:
  Consumer(Store& store, std::string arn) : store_(store), arn_(std::move(arn)) {}

  // One GetRecords per shard; returns how many records came.
  size_t Poll() {
    if (iterators_.empty()) {
      Result<DescribeStreamResult> described = store_.DescribeStream({.stream_arn = arn_});
      if (!described.ok()) return 0;
      for (const StreamShard& shard : described->stream_description.shards) {
        Result<GetShardIteratorResult> it = store_.GetShardIterator(
            {arn_, shard.shard_id, ShardIteratorType::kTrimHorizon, std::nullopt});
        if (!it.ok()) {
          iterators_.clear();
          return 0;
        }
        iterators_.push_back(it->shard_iterator);
      }
    }
    size_t got = 0;
    for (std::string& iterator : iterators_) {
      if (iterator.empty()) continue;  // the shard ended
      Result<GetRecordsResult> page = store_.GetRecords({.shard_iterator = iterator, .limit = 200});
      if (!page.ok()) {
        errors_.push_back(page.status().ToString());
        continue;
      }
      for (const StreamRecord& r : page->records) {
        const StoredItem& image = *r.new_image;
        records_.push_back({r.sequence_number, r.keys.at("PK").as_string(),
                            std::stoll(image.ToItem().at("v").as_number().ToString())});
      }
      got += page->records.size();
      iterator = page->next_shard_iterator.value_or("");
    }
    return got;
  }

  struct Seen {
    std::string sequence, key;
    int64_t v = 0;
  };
  const std::vector<Seen>& records() const { return records_; }
  const std::vector<std::string>& errors() const { return errors_; }

 private:
  Store& store_;
  const std::string arn_;
  std::vector<std::string> iterators_;
  std::vector<Seen> records_;
  std::vector<std::string> errors_;
};

TEST(StreamRestartTest, AConsumerReadsEveryAcknowledgedWriteOnceAcrossKills) {
  ScratchDirectory dir("partstore_stream_restart");
  const std::vector<std::string> args = {"--data-dir", dir.path(), "--wal", "fsync=always"};
  auto server = std::make_unique<ServeProcess>(args, 0);
  const uint16_t port = server->port();
  ASSERT_NE(port, 0);
  std::vector<std::unique_ptr<RemoteStore>> stores;
  for (int c = 0; c <= kWriters; ++c) stores.push_back(Connect(port, c));
  CreateTableRequest create{.table_name = "Feed"};
  create.attribute_definitions = {{"PK", KeyType::kString}};
  create.key_schema = {{"PK", KeyRoleName::kHash}};
  create.billing_mode = BillingMode::kPayPerRequest;
  create.stream_specification = StreamSpecification{true, StreamViewType::kNewImage};
  Result<CreateTableResult> created = stores[0]->CreateTable(create);
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  const std::string arn = *created->table_description.latest_stream_arn;

  Written written;
  std::atomic<bool> stop_writers{false}, stop_consumer{false};
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] { WriteUntil(*stores[w + 1], w, stop_writers, &written); });
  }
  Consumer consumer(*stores[0], arn);
  std::thread reader([&] {
    while (!stop_consumer) {
      if (consumer.Poll() == 0) std::this_thread::sleep_for(milliseconds(20));
    }
  });
  int restarts = 0;
  for (int round = 0; round < 4 * HistoryScale(); ++round) {
    std::this_thread::sleep_for(milliseconds(600));
    if (round % 4 == 2) {
      EXPECT_EQ(server->Terminate(), 0);
    } else {
      server->Kill();
    }
    std::this_thread::sleep_for(milliseconds(100));
    server = std::make_unique<ServeProcess>(args, port);
    ASSERT_EQ(server->port(), port);
    ++restarts;
  }
  std::this_thread::sleep_for(milliseconds(500));
  stop_writers = true;
  for (std::thread& t : writers) t.join();
  stop_consumer = true;
  reader.join();
  // The rest, until nothing more comes.
  for (int empty = 0; empty < 3;) empty = consumer.Poll() == 0 ? empty + 1 : 0;

  std::set<std::string> sequences;
  std::map<std::pair<std::string, int64_t>, int> seen;
  std::map<std::string, int64_t> last_of_key;
  int twice = 0, phantoms = 0, out_of_order = 0;
  for (const Consumer::Seen& r : consumer.records()) {
    if (!sequences.insert(r.sequence).second) ++twice;
    if (++seen[{r.key, r.v}] > 1) ++twice;
    if (!written.acknowledged.contains({r.key, r.v}) && !written.unknown.contains({r.key, r.v})) {
      ++phantoms;
    }
    int64_t& last = last_of_key[r.key];
    if (r.v <= last) ++out_of_order;
    last = r.v;
  }
  int lost = 0;
  for (const auto& write : written.acknowledged) {
    if (!seen.contains(write)) {
      if (++lost <= 5) ADD_FAILURE() << "lost: " << write.first << " = " << write.second;
    }
  }
  std::cout << "stream across " << restarts << " restarts: " << written.acknowledged.size()
            << " acknowledged writes, " << written.unknown.size() << " unknown, "
            << consumer.records().size() << " records read, " << consumer.errors().size()
            << " reads failed (retried)\n";
  EXPECT_GT(written.acknowledged.size(), 100u);
  EXPECT_EQ(lost, 0);
  EXPECT_EQ(twice, 0);
  EXPECT_EQ(phantoms, 0);
  EXPECT_EQ(out_of_order, 0);
}

}  // namespace
}  // namespace partstore::consistency
