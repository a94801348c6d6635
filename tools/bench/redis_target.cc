#include "tools/bench/redis_target.h"

#include <hiredis/hiredis.h>
#include <signal.h>
#include <sys/time.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <random>
#include <span>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace partstore::bench {
namespace {

constexpr timeval kConnectTimeout = {5, 0};
constexpr timeval kReplyTimeout = {10, 0};
constexpr size_t kLoadBatch = 256;      // items per round trip in Load
constexpr int kMaxWriteAttempts = 100;  // WATCH conflicts tolerated by one Put
constexpr std::string_view kScanPage = "1000";

struct ReplyDeleter {
  void operator()(redisReply* reply) const { freeReplyObject(reply); }
};
using Reply = std::unique_ptr<redisReply, ReplyDeleter>;

bool IsString(const redisReply* r) { return r != nullptr && r->type == REDIS_REPLY_STRING; }
std::string_view View(const redisReply* r) { return {r->str, r->len}; }

// One hiredis connection: commands are appended (formatted into hiredis' output buffer at once, so
// their arguments need to live only during Append), then sent together by Finish.
class Connection {
 public:
  static Result<std::unique_ptr<Connection>> Open(const RedisOptions& options) {
    std::string where = "redis " + options.host + ":" + std::to_string(options.port);
    redisContext* c = redisConnectWithTimeout(options.host.c_str(), options.port, kConnectTimeout);
    if (c == nullptr) return Status::Internal(where + ": cannot allocate a hiredis context");
    std::unique_ptr<Connection> conn(new Connection(c, std::move(where)));
    if (c->err != 0) return conn->Error(std::string("cannot connect: ") + c->errstr);
    if (redisSetTimeout(c, kReplyTimeout) != REDIS_OK) return conn->IoError();
    return conn;
  }
  ~Connection() { redisFree(c_); }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  void Append(std::span<const std::string_view> args) {
    argv_.clear();
    argvlen_.clear();
    for (std::string_view a : args) {
      argv_.push_back(a.data());
      argvlen_.push_back(a.size());
    }
    if (redisAppendCommandArgv(c_, static_cast<int>(args.size()), argv_.data(), argvlen_.data()) ==
        REDIS_OK) {
      ++pending_;
    } else if (append_error_.ok()) {
      append_error_ = IoError();
    }
  }
  void Append(std::initializer_list<std::string_view> args) {
    Append(std::span<const std::string_view>(args.begin(), args.size()));
  }

  // Sends what was appended and reads one reply per command into `replies`. Every reply is read
  // (the connection stays in step) before the first error reply, also one inside EXEC's answer,
  // is returned; an I/O error leaves the connection dead.
  Status Finish(std::vector<Reply>* replies) {
    replies->clear();
    Status status = std::exchange(append_error_, Status::Ok());
    for (int n = std::exchange(pending_, 0); n > 0; --n) {
      void* raw = nullptr;
      if (redisGetReply(c_, &raw) != REDIS_OK) {
        if (raw != nullptr) freeReplyObject(raw);
        return IoError();
      }
      Reply reply(static_cast<redisReply*>(raw));
      if (status.ok()) status = Check(reply.get());
      replies->push_back(std::move(reply));
    }
    return status;
  }

  // One command, one round trip.
  Status Command(std::initializer_list<std::string_view> args, Reply* reply) {
    Append(args);
    std::vector<Reply> replies;
    PARTSTORE_RETURN_IF_ERROR(Finish(&replies));
    *reply = std::move(replies.at(0));
    return Status::Ok();
  }

  // An Internal error naming the server.
  Status Error(std::string_view what) const {
    return Status::Internal(where_ + ": " + std::string(what));
  }
  Status Unexpected(std::string_view what) const {
    return Error("unexpected reply to " + std::string(what));
  }

 private:
  Connection(redisContext* c, std::string where) : c_(c), where_(std::move(where)) {}

  Status IoError() const { return Error(c_->errstr[0] != '\0' ? c_->errstr : "I/O error"); }
  // The reply's error, or the first error among its elements (EXEC's answer), or OK.
  Status Check(const redisReply* r) const {
    const redisReply* error = r->type == REDIS_REPLY_ERROR ? r : nullptr;
    for (size_t i = 0; !error && r->type == REDIS_REPLY_ARRAY && i < r->elements; ++i) {
      if (r->element[i]->type == REDIS_REPLY_ERROR) error = r->element[i];
    }
    return error != nullptr ? Error(View(error)) : Status::Ok();
  }

  redisContext* c_;
  std::string where_;
  int pending_ = 0;
  Status append_error_;
  std::vector<const char*> argv_;
  std::vector<size_t> argvlen_;
};

// The item's key after "<table>:": "<pk>", or "<pk>\x1f<sk>" in a table with a sort key.
Status Suffix(const TableSpec& table, std::string_view pk, std::string_view sk,
              std::string* suffix) {
  if (pk.empty() || (sk.empty() && !table.sort_key.empty())) {
    return Status::Validation("an item of " + table.name + " needs every key attribute");
  }
  suffix->assign(pk);
  if (table.sort_key.empty()) return Status::Ok();
  *suffix += '\x1f';
  *suffix += sk;
  return Status::Ok();
}

// An item's member of its GSI partition's sorted set; empty set: the item is not on the GSI.
struct GsiEntry {
  std::string set;
  std::string member;
  bool valid() const { return !set.empty(); }
  friend bool operator==(const GsiEntry&, const GsiEntry&) = default;
};

GsiEntry MakeGsiEntry(const TableSpec& table, std::string_view gsi_pk, std::string_view gsi_sk,
                      std::string_view suffix) {
  if (table.gsi_name.empty() || gsi_pk.empty() || gsi_sk.empty()) return {};
  return {table.name + ":g:" + std::string(gsi_pk),
          std::string(gsi_sk) + '\x1f' + std::string(suffix)};
}

// The smallest string after every string beginning with `prefix`; empty when there is none.
std::string Successor(std::string_view prefix) {
  std::string s(prefix);
  while (!s.empty() && static_cast<unsigned char>(s.back()) == 0xff) s.pop_back();
  if (!s.empty()) s.back() = static_cast<char>(static_cast<unsigned char>(s.back()) + 1);
  return s;
}

// `s` with SCAN MATCH's glob characters escaped.
std::string EscapeGlob(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

class RedisSession final : public Session {
 public:
  explicit RedisSession(std::unique_ptr<Connection> conn) : conn_(std::move(conn)) {}

  Status Get(const TableSpec& table, ItemKey key, ReadOutcome* outcome) override {
    std::string suffix;
    PARTSTORE_RETURN_IF_ERROR(Suffix(table, key.partition, key.sort, &suffix));
    Reply reply;
    PARTSTORE_RETURN_IF_ERROR(conn_->Command({"HGETALL", table.name + ':' + suffix}, &reply));
    return CountItem(reply.get(), outcome);
  }

  Status Put(const TableSpec& table, const BenchItem& item) override {
    std::string suffix;
    PARTSTORE_RETURN_IF_ERROR(
        Suffix(table, item.Get(table.partition_key), item.Get(table.sort_key), &suffix));
    return Write(table, suffix, &item, {}, {});
  }

  Status Update(const TableSpec& table, ItemKey key, std::string_view attribute,
                std::string_view value) override {
    std::string suffix;
    PARTSTORE_RETURN_IF_ERROR(Suffix(table, key.partition, key.sort, &suffix));
    return Write(table, suffix, nullptr, attribute, value);
  }

  Status Query(const TableSpec& table, bool on_gsi, std::string_view partition,
               std::string_view sort_prefix, int limit, ReadOutcome* outcome) override {
    if (table.sort_key.empty() || (on_gsi && table.gsi_name.empty())) {
      return Status::Validation("Redis queries tables with a sort key, and their GSI");
    }
    std::string set = table.name + (on_gsi ? ":g:" : ":c:");
    set += partition;
    std::string min = "-";
    std::string max = "+";
    if (!sort_prefix.empty()) {
      min = "[" + std::string(sort_prefix);
      if (std::string next = Successor(sort_prefix); !next.empty()) max = "(" + next;
    }
    const std::string prefix = table.name + ':';
    return RangeThenRead(set, min, max, limit, outcome, [&](std::string_view member) {
      if (!on_gsi) return prefix + std::string(partition) + '\x1f' + std::string(member);
      const size_t cut = member.find('\x1f');
      return cut == std::string_view::npos ? std::string()
                                           : prefix + std::string(member.substr(cut + 1));
    });
  }

  Status Scan(const TableSpec& table, std::string_view start, int limit,
              ReadOutcome* outcome) override {
    if (!table.sort_key.empty()) return Status::Validation("Redis scans tables without sort key");
    const std::string min = start.empty() ? "-" : "(" + std::string(start);
    const std::string prefix = table.name + ':';
    return RangeThenRead(table.name + ":index", min, "+", limit, outcome,
                         [&](std::string_view member) { return prefix + std::string(member); });
  }

  Status Load(const TableSpec& table, std::span<const BenchItem> items) override {
    std::string suffix;
    for (size_t begin = 0; begin < items.size(); begin += kLoadBatch) {
      Status status;
      for (size_t i = begin; i < std::min(items.size(), begin + kLoadBatch); ++i) {
        const BenchItem& item = items[i];
        status = Suffix(table, item.Get(table.partition_key), item.Get(table.sort_key), &suffix);
        if (!status.ok()) break;
        AppendReplace(table, suffix, item);
        const GsiEntry gsi = MakeGsiEntry(table, item.Get(table.gsi_partition_key),
                                          item.Get(table.gsi_sort_key), suffix);
        if (gsi.valid()) conn_->Append({"ZADD", gsi.set, "0", gsi.member});
      }
      Status sent = conn_->Finish(&replies_);  // what was appended is always sent and read
      PARTSTORE_RETURN_IF_ERROR(status);
      PARTSTORE_RETURN_IF_ERROR(sent);
    }
    return Status::Ok();
  }

 private:
  // Counts an HGETALL reply: an empty array is no item.
  Status CountItem(const redisReply* r, ReadOutcome* outcome) const {
    if (r->type != REDIS_REPLY_ARRAY || r->elements % 2 != 0) return conn_->Unexpected("HGETALL");
    ReadOutcome item{
        .items = r->elements > 0 ? 1 : 0, .collect = outcome->collect, .values = outcome->values};
    for (size_t i = 0; i < r->elements; i += 2) {
      if (!IsString(r->element[i]) || !IsString(r->element[i + 1])) {
        return conn_->Unexpected("HGETALL");
      }
      item.Add(View(r->element[i]), View(r->element[i + 1]));
    }
    outcome->items += item.items;
    outcome->bytes += item.bytes;
    return Status::Ok();
  }

  // ZRANGEBYLEX `set` `min` `max` LIMIT 0 `limit`, then HGETALL of each member's item (key_of
  // maps a member to its item's key, empty if the member is malformed), pipelined.
  template <class KeyOf>
  Status RangeThenRead(const std::string& set, std::string_view min, std::string_view max,
                       int limit, ReadOutcome* outcome, KeyOf key_of) {
    if (limit <= 0) return Status::Ok();
    const std::string count = std::to_string(limit);
    Reply members;
    PARTSTORE_RETURN_IF_ERROR(
        conn_->Command({"ZRANGEBYLEX", set, min, max, "LIMIT", "0", count}, &members));
    if (members->type != REDIS_REPLY_ARRAY) return conn_->Unexpected("ZRANGEBYLEX");
    keys_.clear();
    for (size_t i = 0; i < members->elements; ++i) {
      if (!IsString(members->element[i])) return conn_->Unexpected("ZRANGEBYLEX");
      keys_.push_back(key_of(View(members->element[i])));
      if (keys_.back().empty()) return conn_->Unexpected("ZRANGEBYLEX (a malformed member)");
    }
    if (keys_.empty()) return Status::Ok();
    for (const std::string& key : keys_) conn_->Append({"HGETALL", key});
    PARTSTORE_RETURN_IF_ERROR(conn_->Finish(&replies_));
    for (const Reply& reply : replies_) PARTSTORE_RETURN_IF_ERROR(CountItem(reply.get(), outcome));
    return Status::Ok();
  }

  // DEL + HSET of the whole item + ZADD to its collection (or the table's index).
  void AppendReplace(const TableSpec& table, std::string_view suffix, const BenchItem& item) {
    const std::string key = table.name + ':' + std::string(suffix);
    conn_->Append({"DEL", key});
    args_.assign({"HSET", key});
    for (const Attribute& a : item.attributes) {
      args_.push_back(a.name);
      args_.push_back(a.value);
    }
    conn_->Append(args_);
    if (table.sort_key.empty()) {
      conn_->Append({"ZADD", table.name + ":index", "0", item.Get(table.partition_key)});
    } else {
      conn_->Append({"ZADD", table.name + ":c:" + std::string(item.Get(table.partition_key)), "0",
                     item.Get(table.sort_key)});
    }
  }

  // Put (item != null) or Update (attribute = value) of the item `suffix`. A put is one MULTI/EXEC;
  // when the write may move the item on the GSI, the old GSI keys are read first under WATCH, and
  // a concurrent write to the item makes EXEC answer nil: then it starts over.
  Status Write(const TableSpec& table, std::string_view suffix, const BenchItem* item,
               std::string_view attribute, std::string_view value) {
    const std::string key = table.name + ':' + std::string(suffix);
    const bool moves_gsi =
        !table.gsi_name.empty() && (item != nullptr || attribute == table.gsi_partition_key ||
                                    attribute == table.gsi_sort_key);
    if (item == nullptr && !moves_gsi) {  // an update that leaves the GSI alone: one command
      Reply reply;
      return conn_->Command({"HSET", key, attribute, value}, &reply);
    }
    for (int attempt = 0; attempt < kMaxWriteAttempts; ++attempt) {
      GsiEntry old_entry;
      GsiEntry new_entry;
      if (moves_gsi) {
        conn_->Append({"WATCH", key});
        conn_->Append({"HMGET", key, table.gsi_partition_key, table.gsi_sort_key});
        Status read = conn_->Finish(&replies_);
        const redisReply* old = read.ok() ? replies_.at(1).get() : nullptr;
        if (read.ok() && (old->type != REDIS_REPLY_ARRAY || old->elements != 2)) {
          read = conn_->Unexpected("HMGET");
        }
        if (!read.ok()) {
          conn_->Append({"UNWATCH"});
          (void)conn_->Finish(&replies_);  // best effort: the first error is the one to report
          return read;
        }
        const std::string_view old_pk = IsString(old->element[0]) ? View(old->element[0]) : "";
        const std::string_view old_sk = IsString(old->element[1]) ? View(old->element[1]) : "";
        old_entry = MakeGsiEntry(table, old_pk, old_sk, suffix);
        auto after = [&](const std::string& name, std::string_view before) -> std::string_view {
          if (item != nullptr) return item->Get(name);
          return attribute == name ? value : before;
        };
        new_entry = MakeGsiEntry(table, after(table.gsi_partition_key, old_pk),
                                 after(table.gsi_sort_key, old_sk), suffix);
      }
      conn_->Append({"MULTI"});
      if (item != nullptr) {
        AppendReplace(table, suffix, *item);
      } else {
        conn_->Append({"HSET", key, attribute, value});
      }
      if (old_entry.valid() && old_entry != new_entry) {
        conn_->Append({"ZREM", old_entry.set, old_entry.member});
      }
      if (new_entry.valid()) conn_->Append({"ZADD", new_entry.set, "0", new_entry.member});
      conn_->Append({"EXEC"});
      PARTSTORE_RETURN_IF_ERROR(conn_->Finish(&replies_));
      const redisReply* exec = replies_.back().get();
      if (exec->type == REDIS_REPLY_ARRAY) return Status::Ok();
      if (exec->type != REDIS_REPLY_NIL) return conn_->Unexpected("EXEC");
      // nil: the item changed since WATCH. Back off (randomly, up to 1 ms, so that writers of one
      // hot item do not keep aborting each other) and read its GSI keys again.
      const int cap_micros = std::min(1000, 10 << std::min(attempt, 7));
      std::this_thread::sleep_for(std::chrono::microseconds(rng_() % (cap_micros + 1)));
    }
    return conn_->Error(key + " kept changing under WATCH");
  }

  std::unique_ptr<Connection> conn_;
  std::minstd_rand rng_{static_cast<uint32_t>(reinterpret_cast<uintptr_t>(this) >> 4)};
  std::vector<Reply> replies_;          // scratch, reused
  std::vector<std::string> keys_;       // scratch, reused
  std::vector<std::string_view> args_;  // scratch, reused
};

class RedisTarget final : public Target {
 public:
  RedisTarget(std::string name, RedisOptions options)
      : name_(std::move(name)), options_(std::move(options)) {}

  const std::string& name() const override { return name_; }

  Status Prepare(std::span<const TableSpec> tables) override {
    auto conn = Connection::Open(options_);
    if (!conn.ok()) return conn.status();
    std::vector<Reply> unlinked;
    for (const TableSpec& table : tables) {
      const std::string pattern = EscapeGlob(table.name) + ":*";
      std::string cursor = "0";
      do {
        Reply page;
        PARTSTORE_RETURN_IF_ERROR(
            (*conn)->Command({"SCAN", cursor, "MATCH", pattern, "COUNT", kScanPage}, &page));
        if (page->type != REDIS_REPLY_ARRAY || page->elements != 2 || !IsString(page->element[0]) ||
            page->element[1]->type != REDIS_REPLY_ARRAY) {
          return (*conn)->Unexpected("SCAN");
        }
        cursor.assign(View(page->element[0]));
        const redisReply* keys = page->element[1];
        std::vector<std::string_view> unlink = {"UNLINK"};
        for (size_t i = 0; i < keys->elements; ++i) {
          if (!IsString(keys->element[i])) return (*conn)->Unexpected("SCAN");
          unlink.push_back(View(keys->element[i]));
        }
        if (unlink.size() == 1) continue;
        (*conn)->Append(unlink);
        PARTSTORE_RETURN_IF_ERROR((*conn)->Finish(&unlinked));
      } while (cursor != "0");
    }
    return Status::Ok();
  }

  Result<std::unique_ptr<Session>> NewSession() override {
    auto conn = Connection::Open(options_);
    if (!conn.ok()) return conn.status();
    return std::unique_ptr<Session>(std::make_unique<RedisSession>(std::move(*conn)));
  }

 private:
  const std::string name_;
  const RedisOptions options_;
};

}  // namespace

Result<std::unique_ptr<Target>> MakeRedisTarget(std::string name, RedisOptions options) {
  // A write to a connection the server reset raises SIGPIPE; make it the EPIPE error it should be,
  // unless the program chose its own handling.
  struct sigaction current {};
  if (sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL) {
    signal(SIGPIPE, SIG_IGN);
  }
  auto conn = Connection::Open(options);
  if (!conn.ok()) return conn.status();
  Reply pong;
  PARTSTORE_RETURN_IF_ERROR((*conn)->Command({"PING"}, &pong));
  if (pong->type != REDIS_REPLY_STATUS || View(pong.get()) != "PONG") {
    return (*conn)->Unexpected("PING");
  }
  return std::unique_ptr<Target>(
      std::make_unique<RedisTarget>(std::move(name), std::move(options)));
}

}  // namespace partstore::bench
