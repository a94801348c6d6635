// A RemoteStore whose server is killed (SIGKILL) and restarted mid-run, on the same port and
// data directory (`partstore serve --data-dir D --wal fsync=off`: what it acknowledged survives a
// killed process). Writers keep going through the outage: every acknowledged write is there
// afterwards, and nothing is applied twice. The counter is the check for "twice": it is bumped
// with UpdateItem ADD, which the store never sends again once it may have arrived; so the final
// count lies between the acknowledged adds and those plus the ones answered kOutcomeUnknown.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "partstore/remote_store.h"
#include "tests/testutil/serve_process.h"

namespace partstore {
namespace {

using std::chrono::milliseconds;
using testing::ServeProcess;

std::vector<std::string> ServeArgs(const std::string& dir) {
  return {"--data-dir", dir, "--wal", "fsync=off"};
}

TEST(RemoteStoreRestartTest, NothingAcknowledgedIsLostNothingIsWrittenTwice) {
  const std::string dir =
      (std::filesystem::temp_directory_path() / ("partstore_restart_" + std::to_string(getpid())))
          .string();
  std::filesystem::remove_all(dir);
  auto server = std::make_unique<ServeProcess>(ServeArgs(dir), 0);
  const uint16_t port = server->port();
  ASSERT_NE(port, 0);

  RemoteOptions options{.endpoint = "http://127.0.0.1:" + std::to_string(port),
                        .region = "us-east-1",
                        .credentials = AwsCredentials{"AKIDRESTART", "secret", ""},
                        .connect_timeout = milliseconds(500),
                        .request_timeout = milliseconds(2000),
                        .seed = 7};
  // Enough attempts, with enough backoff, to outlast a restart of a few hundred milliseconds.
  options.retry.max_attempts = 12;
  options.retry.base_delay = milliseconds(40);
  options.retry.max_backoff = milliseconds(400);
  options.retry.quota = 100000;
  auto opened = RemoteStore::Open(options);
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  RemoteStore& store = **opened;
  ASSERT_TRUE(store
                  .CreateTable(SimpleTable(
                      "Restart", KeySchema{{"PK", KeyType::kString}, {{"SK", KeyType::kString}}}))
                  .ok());

  std::atomic<bool> done{false};
  std::atomic<int> acked_adds{0}, unknown_adds{0}, other_errors{0};
  std::vector<std::string> acked_puts;
  std::thread writer([&] {
    for (int i = 0; !done.load(); ++i) {
      auto add = store.UpdateItem({.table_name = "Restart",
                                   .key = {{"PK", Value("counter")}, {"SK", Value("c")}},
                                   .update_expression = "ADD n :one",
                                   .expression_attribute_values =
                                       AttributeMap{{":one", Value(Number::Parse("1").value())}}});
      if (add.ok()) {
        ++acked_adds;
      } else if (add.status().code() == Code::kOutcomeUnknown) {
        ++unknown_adds;
      } else {
        ++other_errors;  // the server was down longer than the retries lasted
      }
      const std::string sk = "item#" + std::to_string(i);
      if (store
              .PutItem(
                  {.table_name = "Restart", .item = {{"PK", Value("items")}, {"SK", Value(sk)}}})
              .ok()) {
        acked_puts.push_back(sk);
      }
    }
  });
  std::this_thread::sleep_for(milliseconds(300));
  server->Kill();
  std::this_thread::sleep_for(milliseconds(200));
  server = std::make_unique<ServeProcess>(ServeArgs(dir), port);
  ASSERT_EQ(server->port(), port);
  std::this_thread::sleep_for(milliseconds(300));
  done = true;
  writer.join();

  const RemoteStats stats = store.stats();
  EXPECT_GT(stats.retries, 0u) << "the outage was not seen";
  EXPECT_EQ(other_errors.load(), 0);
  auto counter = store.GetItem({.table_name = "Restart",
                                .key = {{"PK", Value("counter")}, {"SK", Value("c")}},
                                .consistent_read = true});
  ASSERT_TRUE(counter.ok()) << counter.status().ToString();
  ASSERT_TRUE(counter->item.has_value());
  const int64_t n = std::stoll(counter->item->at("n").as_number().ToString());
  EXPECT_GE(n, acked_adds.load());
  EXPECT_LE(n, acked_adds.load() + unknown_adds.load());
  for (const std::string& sk : acked_puts) {
    auto got = store.GetItem(
        {.table_name = "Restart", .key = {{"PK", Value("items")}, {"SK", Value(sk)}}});
    ASSERT_TRUE(got.ok());
    EXPECT_TRUE(got->item.has_value()) << sk << " was acknowledged but is gone";
  }
  std::cout << "adds acknowledged " << acked_adds << ", outcome unknown " << unknown_adds
            << ", counter " << n << ", puts acknowledged " << acked_puts.size() << ", retries "
            << stats.retries << "\n";
  server.reset();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace partstore
