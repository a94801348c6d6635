// The Redis target against a real redis-server, started on a free loopback port per test.
#include "tools/bench/redis_target.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <hiredis/hiredis.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "tests/bench/target_testutil.h"

namespace partstore::bench {
namespace {

constexpr char kRedisServer[] = "/usr/bin/redis-server";

// A port nothing listens on right now (the kernel's pick for an ephemeral bind).
int FreePort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  int port = -1;
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
    port = ntohs(addr.sin_port);
  }
  close(fd);
  return port;
}

// Runs one command on a fresh raw connection; the reply, or null on any failure.
redisReply* RawCommand(int port, std::vector<std::string> args) {
  redisContext* c = redisConnect("127.0.0.1", port);
  if (c == nullptr || c->err != 0) {
    if (c != nullptr) redisFree(c);
    return nullptr;
  }
  std::vector<const char*> argv;
  std::vector<size_t> lens;
  for (const std::string& a : args) {
    argv.push_back(a.data());
    lens.push_back(a.size());
  }
  void* reply = redisCommandArgv(c, static_cast<int>(args.size()), argv.data(), lens.data());
  redisFree(c);
  return static_cast<redisReply*>(reply);
}

class RedisTargetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(access(kRedisServer, X_OK), 0)
        << kRedisServer << " is missing: the Redis target's tests need redis-server "
        << "(Debian package redis-server; `tools/run test` installs it)";
    for (int attempt = 0; attempt < 3 && pid_ <= 0; ++attempt) Start();
    ASSERT_GT(pid_, 0) << "redis-server did not answer PING on 127.0.0.1:" << port_;
  }
  void TearDown() override { Kill(); }

  // Starts redis-server on a free port and waits (up to 5 s) for it to answer PING; pid_ stays 0
  // if it did not.
  void Start() {
    port_ = FreePort();
    if (port_ <= 0) return;
    const std::string port = std::to_string(port_);
    std::vector<std::string> args = {kRedisServer, "--port",      port, "--bind",
                                     "127.0.0.1",  "--save",      "",   "--appendonly",
                                     "no",         "--daemonize", "no"};
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid < 0) return;
    if (pid == 0) {  // the child: only async-signal-safe calls until exec
      // Dies with the test, even one that crashed before TearDown, instead of holding its pipes.
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (getppid() != parent) _exit(1);
      const int null = open("/dev/null", O_WRONLY);
      if (null >= 0) dup2(null, STDOUT_FILENO);  // the server's log; errors still go to stderr
      execv(kRedisServer, argv.data());
      _exit(127);
    }
    pid_ = pid;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (std::chrono::steady_clock::now() < deadline) {
      if (redisReply* pong = RawCommand(port_, {"PING"}); pong != nullptr) {
        const bool up = pong->type == REDIS_REPLY_STATUS;
        freeReplyObject(pong);
        if (up) return;
      }
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {  // exited (the port was taken?)
        pid_ = 0;
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    Kill();
  }

  void Kill() {
    if (pid_ <= 0) return;
    kill(pid_, SIGKILL);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = 0;
  }

  std::unique_ptr<Target> MakeTarget() {
    auto target = MakeRedisTarget("redis", {.host = "127.0.0.1", .port = port_});
    EXPECT_TRUE(target.ok()) << target.status().ToString();
    return target.ok() ? std::move(*target) : nullptr;
  }

  // The integer reply of a raw command, or -1.
  long long RawInteger(std::vector<std::string> args) {
    redisReply* reply = RawCommand(port_, std::move(args));
    long long value = reply != nullptr && reply->type == REDIS_REPLY_INTEGER ? reply->integer : -1;
    if (reply != nullptr) freeReplyObject(reply);
    return value;
  }

  pid_t pid_ = 0;
  int port_ = 0;
};

TEST_F(RedisTargetTest, KeepsTheTargetContractTwice) {
  std::unique_ptr<Target> target = MakeTarget();
  ASSERT_NE(target, nullptr);
  EXPECT_EQ(target->name(), "redis");
  testing::CheckTargetContract(*target);
  ASSERT_FALSE(HasFatalFailure());
  testing::CheckTargetContract(*target);  // Prepare starts over: the same counts again
}

TEST_F(RedisTargetTest, PrepareDeletesItsTablesOnly) {
  std::unique_ptr<Target> target = MakeTarget();
  ASSERT_NE(target, nullptr);
  redisReply* set = RawCommand(port_, {"SET", "other:x", "1"});
  ASSERT_NE(set, nullptr);
  freeReplyObject(set);
  testing::CheckTargetContract(*target);
  ASSERT_FALSE(HasFatalFailure());
  // 51 hashes + the index; 35 hashes + 2 collections + 4 GSI partitions; other:x.
  EXPECT_EQ(RawInteger({"DBSIZE"}), 52 + 41 + 1);
  const std::vector<TableSpec> tables = {testing::ContractHashTable(),
                                         testing::ContractPairTable()};
  ASSERT_TRUE(target->Prepare(tables).ok());
  EXPECT_EQ(RawInteger({"EXISTS", "other:x"}), 1);
  EXPECT_EQ(RawInteger({"DBSIZE"}), 1);  // every key of both tables is gone
}

TEST_F(RedisTargetTest, PutMovesTheItemOnTheGsiAndUpdateToo) {
  std::unique_ptr<Target> target = MakeTarget();
  ASSERT_NE(target, nullptr);
  const TableSpec pair = testing::ContractPairTable();
  ASSERT_TRUE(target->Prepare(std::vector<TableSpec>{pair}).ok());
  auto session = target->NewSession();
  ASSERT_TRUE(session.ok()) << session.status().ToString();
  Session& s = **session;
  auto count = [&](std::string_view gsi_pk) {
    ReadOutcome out;
    EXPECT_TRUE(s.Query(pair, true, gsi_pk, "", 10, &out).ok());
    return out.items;
  };
  ASSERT_TRUE(
      s.Put(pair, {{{"PK", "O#1"}, {"SK", "O#1"}, {"GSI1PK", "U#1"}, {"GSI1SK", "D#1"}}}).ok());
  EXPECT_EQ(count("U#1"), 1);
  ASSERT_TRUE(
      s.Put(pair, {{{"PK", "O#1"}, {"SK", "O#1"}, {"GSI1PK", "U#2"}, {"GSI1SK", "D#1"}}}).ok());
  EXPECT_EQ(count("U#1"), 0);
  EXPECT_EQ(count("U#2"), 1);
  ASSERT_TRUE(s.Update(pair, {"O#1", "O#1"}, "GSI1PK", "U#3").ok());
  EXPECT_EQ(count("U#2"), 0);
  EXPECT_EQ(count("U#3"), 1);
  ASSERT_TRUE(s.Put(pair, {{{"PK", "O#1"}, {"SK", "O#1"}, {"note", "off the GSI"}}}).ok());
  EXPECT_EQ(count("U#3"), 0);
  ReadOutcome item;
  ASSERT_TRUE(s.Get(pair, {"O#1", "O#1"}, &item).ok());
  EXPECT_EQ(item.bytes, (2 + 3) + (2 + 3) + (4 + 11));
}

TEST_F(RedisTargetTest, ConcurrentPutsLeaveTheItemOnceOnTheGsi) {
  std::unique_ptr<Target> target = MakeTarget();
  ASSERT_NE(target, nullptr);
  const TableSpec pair = testing::ContractPairTable();
  ASSERT_TRUE(target->Prepare(std::vector<TableSpec>{pair}).ok());
  constexpr int kThreads = 4;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      auto session = target->NewSession();
      ASSERT_TRUE(session.ok()) << session.status().ToString();
      const std::string gsi_pk = "U#" + std::to_string(t);
      for (int i = 0; i < 200; ++i) {
        const BenchItem item{{{"PK", "O#1"}, {"SK", "O#1"}, {"GSI1PK", gsi_pk}, {"GSI1SK", "D"}}};
        const Status put = (*session)->Put(pair, item);
        ASSERT_TRUE(put.ok()) << put.ToString();
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  auto session = target->NewSession();
  ASSERT_TRUE(session.ok()) << session.status().ToString();
  int on_gsi = 0;
  for (int t = 0; t < kThreads; ++t) {
    ReadOutcome out;
    ASSERT_TRUE((*session)->Query(pair, true, "U#" + std::to_string(t), "", 10, &out).ok());
    on_gsi += out.items;
  }
  EXPECT_EQ(on_gsi, 1);
}

TEST_F(RedisTargetTest, ValuesAreBinarySafeAndPrefixesExact) {
  std::unique_ptr<Target> target = MakeTarget();
  ASSERT_NE(target, nullptr);
  const TableSpec pair = testing::ContractPairTable();
  ASSERT_TRUE(target->Prepare(std::vector<TableSpec>{pair}).ok());
  auto session = target->NewSession();
  ASSERT_TRUE(session.ok()) << session.status().ToString();
  Session& s = **session;
  const std::string odd("%s %d\0\r\n*1", 10);  // format directives, a NUL, RESP's own bytes
  ASSERT_TRUE(s.Put(pair, {{{"PK", "P"}, {"SK", "a\xff"}, {"v", odd}}}).ok());
  ASSERT_TRUE(s.Put(pair, {{{"PK", "P"}, {"SK", "a\xff\xff"}, {"v", odd}}}).ok());
  ASSERT_TRUE(s.Put(pair, {{{"PK", "P"}, {"SK", "b"}, {"v", odd}}}).ok());
  ReadOutcome got;
  ASSERT_TRUE(s.Get(pair, {"P", "b"}, &got).ok());
  EXPECT_EQ(got.bytes, (2 + 1) + (2 + 1) + (1 + 10));
  redisReply* stored = RawCommand(port_, {"HGET",
                                          pair.name + ":P\x1f"
                                                      "b",
                                          "v"});
  ASSERT_NE(stored, nullptr);
  EXPECT_EQ(std::string(stored->str, stored->len), odd);
  freeReplyObject(stored);
  ReadOutcome prefixed;
  ASSERT_TRUE(s.Query(pair, false, "P", "a\xff", 10, &prefixed).ok());
  EXPECT_EQ(prefixed.items, 2);
}

TEST_F(RedisTargetTest, NoServerIsAnErrorNamingThePort) {
  const int port = FreePort();
  auto target = MakeRedisTarget("redis", {.host = "127.0.0.1", .port = port});
  ASSERT_FALSE(target.ok());
  EXPECT_NE(target.status().message().find(":" + std::to_string(port)), std::string_view::npos)
      << target.status().ToString();
}

TEST_F(RedisTargetTest, ServerKilledMidSessionIsAnError) {
  std::unique_ptr<Target> target = MakeTarget();
  ASSERT_NE(target, nullptr);
  const TableSpec hash = testing::ContractHashTable();
  ASSERT_TRUE(target->Prepare(std::vector<TableSpec>{hash}).ok());
  auto session = target->NewSession();
  ASSERT_TRUE(session.ok()) << session.status().ToString();
  Session& s = **session;
  ASSERT_TRUE(s.Put(hash, {{{"YCSB_KEY", "user1"}, {"field0", "x"}}}).ok());
  ReadOutcome before;
  ASSERT_TRUE(s.Get(hash, {"user1", ""}, &before).ok());
  EXPECT_EQ(before.items, 1);
  Kill();
  ReadOutcome after;
  const Status get = s.Get(hash, {"user1", ""}, &after);
  EXPECT_FALSE(get.ok());
  EXPECT_NE(get.message().find(std::to_string(port_)), std::string_view::npos) << get.ToString();
  EXPECT_FALSE(s.Get(hash, {"user1", ""}, &after).ok());  // the connection stays dead
  std::vector<BenchItem> items(1000, BenchItem{{{"YCSB_KEY", "k"}, {"f", std::string(1000, 'v')}}});
  EXPECT_FALSE(s.Load(hash, items).ok());
  EXPECT_FALSE(target->NewSession().ok());
  EXPECT_FALSE(target->Prepare(std::vector<TableSpec>{hash}).ok());
}

}  // namespace
}  // namespace partstore::bench
