#include "tests/consistency/workload_testutil.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

namespace partstore::consistency {
namespace {

int64_t Now() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

Item KeyOf(int key) { return {{"PK", Value("k" + std::to_string(key))}}; }

std::optional<int64_t> NumberOf(const std::optional<Item>& item, const char* name) {
  if (!item) return std::nullopt;
  auto it = item->find(name);
  if (it == item->end() || it->second.if_number() == nullptr) return std::nullopt;
  return it->second.as_number().ToInt64();
}

std::vector<int64_t> ListOf(const std::optional<Item>& item) {
  std::vector<int64_t> out;
  if (!item) return out;
  auto it = item->find("l");
  if (it == item->end() || it->second.if_list() == nullptr) return out;
  for (const Value& v : it->second.as_list()) out.push_back(v.as_number().ToInt64().value_or(-1));
  return out;
}

enum class Answer { kOk, kCondition, kUnknown, kRefused };

UpdateItemRequest CompareAndSet(int key, std::optional<int64_t> expected, int64_t value) {
  UpdateItemRequest r{.table_name = kRegisterTable,
                      .key = KeyOf(key),
                      .update_expression = "SET v = :new",
                      .expression_attribute_values = AttributeMap{{":new", Value(value)}}};
  if (expected) {
    r.condition_expression = "v = :old";
    (*r.expression_attribute_values)[":old"] = Value(*expected);
  } else {
    r.condition_expression = "attribute_not_exists(PK)";
  }
  return r;
}

UpdateItemRequest AppendRequest(int key, int64_t element) {
  return {.table_name = kListTable,
          .key = KeyOf(key),
          .update_expression = "SET l = list_append(if_not_exists(l, :empty), :x)",
          .expression_attribute_values = AttributeMap{{":empty", Value(ValueList{})},
                                                      {":x", Value(ValueList{Value(element)})}}};
}

class Client {
 public:
  Client(int id, const WorkloadOptions& options, std::atomic<size_t>* issued, RecordedHistory* out)
      : id_(id),
        options_(options),
        issued_(*issued),
        out_(*out),
        rng_(options.seed * 7919 + id),
        next_value_((id + 1) * int64_t{1'000'000'000}) {}

  void Run() {
    store_ = &options_.store(id_);
    for (size_t i = 0; i < options_.ops_per_client; ++i) {
      if (options_.stop != nullptr && options_.stop->load()) break;
      ++out_.operations;
      generation_ = static_cast<int>(issued_.fetch_add(1) / options_.ops_per_key_generation);
      if (rng_() % 2 == 0) {
        RegisterStep();
      } else {
        ListStep();
      }
    }
  }

 private:
  // A key of the current generation: the keys move on every ops_per_key_generation operations
  // (all clients together), so that no key's history grows without bound.
  int Key(int n) { return generation_ * n + static_cast<int>(rng_() % n); }
  // Distinct keys of the current generation, two or three of them.
  std::vector<int> SomeKeys(int n) {
    std::vector<int> keys(n);
    for (int i = 0; i < n; ++i) keys[i] = generation_ * n + i;
    std::shuffle(keys.begin(), keys.end(), rng_);
    keys.resize(std::min<size_t>(keys.size(), 2 + rng_() % 2));
    return keys;
  }

  // What an answer says about the operation. Any refusal after the request was sent more than
  // once is unknown: an earlier attempt may have been applied (a cancelled transaction forgets its
  // token, so a repeat can be refused while the first copy lands).
  Answer Classify(const Status& s, uint64_t attempts_before) const {
    if (s.ok()) return Answer::kOk;
    switch (s.code()) {
      case Code::kConditionalCheckFailed:  // (conditional writes are never sent twice)
        return Answer::kCondition;
      case Code::kOutcomeUnknown:
      case Code::kInternal:
      case Code::kTransactionInProgress:  // an earlier attempt with its token is being applied
        return Answer::kUnknown;
      default:
        return Attempts() - attempts_before > 1 ? Answer::kUnknown : Answer::kRefused;
    }
  }

  uint64_t Attempts() const { return options_.attempts ? options_.attempts(id_) : 0; }

  RegisterOp Op(RegisterOpKind kind, int key, int64_t invoked, std::string origin) {
    return {.client = id_, .key = key, .kind = kind, .invoked = invoked, .origin = origin};
  }
  // Records `op` as `answer` said; false when it was not recorded (refused).
  void Record(RegisterOp op, Answer answer, const Status& status, int64_t completed) {
    switch (answer) {
      case Answer::kOk:
        op.outcome = Outcome::kOk;
        op.completed = completed;
        break;
      case Answer::kCondition:
        op.outcome = Outcome::kConditionFailed;
        op.completed = completed;
        break;
      case Answer::kUnknown:
        if (op.kind == RegisterOpKind::kRead) return;
        op.outcome = Outcome::kUnknown;
        op.completed = kNever;
        op.value = op.kind == RegisterOpKind::kIncrement ? std::nullopt : op.value;
        break;
      case Answer::kRefused:
        ++out_.refusals[std::string(CodeName(status.code()))];
        return;
    }
    out_.registers.push_back(std::move(op));
  }
  void Count(Answer answer) {
    if (answer == Answer::kUnknown) ++out_.unknown;
  }
  // A write RemoteStore sent more than once: each attempt before the last may have taken effect
  // too, at any time after it was sent.
  void MaybeSentTwice(const RegisterOp& op, uint64_t attempts_before) {
    for (uint64_t extra = Attempts() - attempts_before; extra > 1; --extra) {
      ++out_.sent_twice;
      RegisterOp again = op;
      again.outcome = Outcome::kUnknown;
      again.completed = kNever;
      again.origin += " (an earlier attempt)";
      out_.registers.push_back(std::move(again));
    }
  }

  void RegisterStep() {
    const int key = Key(options_.register_keys);
    const unsigned roll = rng_() % 100;
    const int64_t invoked = Now();
    const uint64_t attempts = Attempts();
    if (roll < 30) {
      auto got = store_->GetItem(
          {.table_name = kRegisterTable, .key = KeyOf(key), .consistent_read = true});
      const int64_t completed = Now();
      RegisterOp op = Op(RegisterOpKind::kRead, key, invoked, "GetItem");
      if (got.ok()) {
        op.value = NumberOf(got->item, "v");
        last_read_[key] = op.value;
      }
      Record(std::move(op), Classify(got.status(), attempts), got.status(), completed);
      return;
    }
    if (roll < 45) {
      RegisterOp op = Op(RegisterOpKind::kPut, key, invoked, "PutItem");
      op.value = next_value_ += 1000;
      Item item = KeyOf(key);
      item["v"] = Value(*op.value);
      auto put = store_->PutItem({.table_name = kRegisterTable, .item = std::move(item)});
      const int64_t completed = Now();
      Count(Classify(put.status(), attempts));
      if (Classify(put.status(), attempts) != Answer::kRefused) MaybeSentTwice(op, attempts);
      Record(std::move(op), Classify(put.status(), attempts), put.status(), completed);
      return;
    }
    if (roll < 50) {
      RegisterOp op = Op(RegisterOpKind::kDelete, key, invoked, "DeleteItem");
      auto del = store_->DeleteItem({.table_name = kRegisterTable, .key = KeyOf(key)});
      const int64_t completed = Now();
      Count(Classify(del.status(), attempts));
      if (Classify(del.status(), attempts) != Answer::kRefused) MaybeSentTwice(op, attempts);
      Record(std::move(op), Classify(del.status(), attempts), del.status(), completed);
      return;
    }
    if (roll < 70) {
      RegisterOp op = Op(RegisterOpKind::kCompareAndSet, key, invoked, "UpdateItem");
      op.expected = last_read_[key];
      op.value = next_value_ += 1000;
      auto cas = store_->UpdateItem(CompareAndSet(key, op.expected, *op.value));
      const int64_t completed = Now();
      Count(Classify(cas.status(), attempts));
      Record(std::move(op), Classify(cas.status(), attempts), cas.status(), completed);
      return;
    }
    if (roll < 85) {
      RegisterOp op = Op(RegisterOpKind::kIncrement, key, invoked, "UpdateItem ADD");
      auto add =
          store_->UpdateItem({.table_name = kRegisterTable,
                              .key = KeyOf(key),
                              .update_expression = "ADD v :one",
                              .expression_attribute_values = AttributeMap{{":one", Value(1)}},
                              .return_values = ReturnValue::kUpdatedNew});
      const int64_t completed = Now();
      if (add.ok()) op.value = NumberOf(add->attributes, "v");
      Count(Classify(add.status(), attempts));
      Record(std::move(op), Classify(add.status(), attempts), add.status(), completed);
      return;
    }
    if (roll < 95) {
      RegisterTransactWrite(invoked, attempts);
      return;
    }
    const std::vector<int> keys = SomeKeys(options_.register_keys);
    TransactGetItemsRequest request;
    for (int k : keys) {
      request.transact_items.push_back({.get = {.table_name = kRegisterTable, .key = KeyOf(k)}});
    }
    auto got = store_->TransactGetItems(request);
    const int64_t completed = Now();
    const Answer answer = Classify(got.status(), attempts);
    for (size_t i = 0; i < keys.size(); ++i) {
      RegisterOp op = Op(RegisterOpKind::kRead, keys[i], invoked, "TransactGetItems");
      if (got.ok()) op.value = NumberOf(got->responses[i], "v");
      Record(std::move(op), answer, got.status(), completed);
    }
  }

  // A Put on some keys and a compare-and-set on others, all or nothing.
  void RegisterTransactWrite(int64_t invoked, uint64_t attempts) {
    const std::vector<int> keys = SomeKeys(options_.register_keys);
    TransactWriteItemsRequest request;
    std::vector<RegisterOp> ops;
    for (int k : keys) {
      if (rng_() % 2 == 0) {
        RegisterOp op = Op(RegisterOpKind::kPut, k, invoked, "TransactWriteItems");
        op.value = next_value_ += 1000;
        Item item = KeyOf(k);
        item["v"] = Value(*op.value);
        request.transact_items.push_back(
            {.put = PutItemRequest{.table_name = kRegisterTable, .item = std::move(item)}});
        ops.push_back(std::move(op));
      } else {
        RegisterOp op = Op(RegisterOpKind::kCompareAndSet, k, invoked, "TransactWriteItems");
        op.expected = last_read_[k];
        op.value = next_value_ += 1000;
        request.transact_items.push_back({.update = CompareAndSet(k, op.expected, *op.value)});
        ops.push_back(std::move(op));
      }
    }
    auto written = store_->TransactWriteItems(request);
    const int64_t completed = Now();
    const Answer answer = Classify(written.status(), attempts);
    Count(answer);
    if (answer == Answer::kRefused && written.status().code() == Code::kTransactionCanceled) {
      // The actions refused by their condition say something about the state; the others none.
      const ErrorDetail* detail = written.status().detail();
      for (size_t i = 0;
           detail != nullptr && i < ops.size() && i < detail->cancellation_reasons.size(); ++i) {
        if (detail->cancellation_reasons[i].code == "ConditionalCheckFailed") {
          Record(std::move(ops[i]), Answer::kCondition, written.status(), completed);
        }
      }
      ++out_.refusals["TransactionCanceled"];
      return;
    }
    for (RegisterOp& op : ops) Record(std::move(op), answer, written.status(), completed);
  }

  void ListStep() {
    const unsigned roll = rng_() % 100;
    const uint64_t attempts = Attempts();
    ListTxn txn{.client = id_, .invoked = Now()};
    Status status;
    if (roll < 35) {
      const int key = Key(options_.list_keys);
      const int64_t element = ++next_value_;
      txn.origin = "UpdateItem";
      txn.ops.push_back({.append = true, .key = key, .element = element});
      status = store_->UpdateItem(AppendRequest(key, element)).status();
    } else if (roll < 65) {
      const int key = Key(options_.list_keys);
      txn.origin = "GetItem";
      auto got =
          store_->GetItem({.table_name = kListTable, .key = KeyOf(key), .consistent_read = true});
      status = got.status();
      txn.ops.push_back({.key = key});
      if (got.ok()) txn.ops.back().read = ListOf(got->item);
    } else if (roll < 85) {
      txn.origin = "TransactWriteItems";
      TransactWriteItemsRequest request;
      for (int key : SomeKeys(options_.list_keys)) {
        const int64_t element = ++next_value_;
        txn.ops.push_back({.append = true, .key = key, .element = element});
        request.transact_items.push_back({.update = AppendRequest(key, element)});
      }
      status = store_->TransactWriteItems(request).status();
    } else {
      txn.origin = "TransactGetItems";
      TransactGetItemsRequest request;
      for (int key : SomeKeys(options_.list_keys)) {
        txn.ops.push_back({.key = key});
        request.transact_items.push_back({.get = {.table_name = kListTable, .key = KeyOf(key)}});
      }
      auto got = store_->TransactGetItems(request);
      status = got.status();
      for (size_t i = 0; got.ok() && i < txn.ops.size(); ++i) {
        txn.ops[i].read = ListOf(got->responses[i]);
      }
    }
    txn.completed = Now();
    const Answer answer = Classify(status, attempts);
    Count(answer);
    switch (answer) {
      case Answer::kOk:
        out_.lists.txns.push_back(std::move(txn));
        break;
      case Answer::kUnknown:
        txn.outcome = Outcome::kUnknown;
        txn.completed = kNever;
        for (ListMicroOp& op : txn.ops) op.read.reset();
        out_.lists.txns.push_back(std::move(txn));
        break;
      case Answer::kCondition:
      case Answer::kRefused:
        ++out_.refusals[std::string(CodeName(status.code()))];
        out_.lists.failed.push_back(std::move(txn));
        break;
    }
  }

  const int id_;
  const WorkloadOptions& options_;
  std::atomic<size_t>& issued_;  // operations begun by all clients
  int generation_ = 0;
  RecordedHistory& out_;
  std::mt19937_64 rng_;
  int64_t next_value_;
  Store* store_ = nullptr;
  std::map<int, std::optional<int64_t>> last_read_;
};

}  // namespace

std::string RecordedHistory::Summary() const {
  std::vector<std::string> refused;
  for (const auto& [code, n] : refusals) refused.push_back(fmt::format("{} {}", n, code));
  return fmt::format(
      "{} operations ({} register operations recorded, {} list transactions, {} failed), {} "
      "outcome unknown, {} attempts of writes sent again, refused: {}",
      operations, registers.size(), lists.txns.size(), lists.failed.size(), unknown, sent_twice,
      refused.empty() ? std::string("none") : fmt::format("{}", fmt::join(refused, ", ")));
}

void WriteHistory(const RecordedHistory& history, const std::string& path) {
  std::vector<std::pair<int64_t, std::string>> lines;
  auto end = [](int64_t t) { return t == kNever ? std::string("never") : std::to_string(t); };
  for (const RegisterOp& op : history.registers) {
    const char* kinds[] = {"read", "put", "delete", "cas", "increment"};
    const char* outcomes[] = {"ok", "condition-failed", "unknown"};
    lines.emplace_back(
        op.invoked,
        fmt::format("{} {} register k{} client {} {} value={} expected={} {} ({})", op.invoked,
                    end(op.completed), op.key, op.client, kinds[static_cast<int>(op.kind)],
                    op.value ? std::to_string(*op.value) : "-",
                    op.expected ? std::to_string(*op.expected) : "-",
                    outcomes[static_cast<int>(op.outcome)], op.origin));
  }
  auto txn_line = [&](const ListTxn& t, const char* status) {
    std::string ops;
    for (const ListMicroOp& op : t.ops) {
      ops += op.append ? fmt::format(" append(k{},{})", op.key, op.element)
                       : fmt::format(" read(k{},[{}])", op.key,
                                     op.read ? fmt::format("{}", fmt::join(*op.read, " ")) : "?");
    }
    lines.emplace_back(t.invoked, fmt::format("{} {} list client {} {} ({}){}", t.invoked,
                                              end(t.completed), t.client, status, t.origin, ops));
  };
  for (const ListTxn& t : history.lists.txns) {
    txn_line(t, t.outcome == Outcome::kOk ? "ok" : "unknown");
  }
  for (const ListTxn& t : history.lists.failed) txn_line(t, "failed");
  std::sort(lines.begin(), lines.end());
  std::ofstream out(path);
  out << "# invoked completed (steady clock, ns) family key/client operation\n";
  for (const auto& [time, line] : lines) out << line << "\n";
}

void SaveIfFailed(const RecordedHistory& history, const CheckReport& registers,
                  const CheckReport& lists) {
  if (registers.ok() && lists.ok()) return;
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string path =
      std::filesystem::absolute(fmt::format("{}.{}.history", test->test_suite_name(), test->name()))
          .string();
  WriteHistory(history, path);
  std::cout << "the history is in " << path << "\n";
}

int HistoryScale() {
  const char* text = std::getenv("PARTSTORE_HISTORY_SCALE");
  const long n = text != nullptr ? std::strtol(text, nullptr, 10) : 1;
  return n > 0 ? static_cast<int>(n) : 1;
}

Status CreateWorkloadTables(Store& store) {
  for (const char* name : {kRegisterTable, kListTable}) {
    auto created = store.CreateTable(SimpleTable(name, KeySchema{{"PK", KeyType::kString}, {}}));
    if (!created.ok()) return created.status();
  }
  return Status::Ok();
}

RecordedHistory RunWorkload(const WorkloadOptions& options) {
  std::vector<RecordedHistory> parts(options.clients);
  std::atomic<size_t> issued{0};
  std::vector<std::thread> threads;
  for (int c = 0; c < options.clients; ++c) {
    threads.emplace_back([&, c] { Client(c, options, &issued, &parts[c]).Run(); });
  }
  for (std::thread& t : threads) t.join();
  RecordedHistory all;
  for (RecordedHistory& p : parts) {
    all.registers.insert(all.registers.end(), p.registers.begin(), p.registers.end());
    all.lists.txns.insert(all.lists.txns.end(), p.lists.txns.begin(), p.lists.txns.end());
    all.lists.failed.insert(all.lists.failed.end(), p.lists.failed.begin(), p.lists.failed.end());
    all.operations += p.operations;
    all.unknown += p.unknown;
    all.sent_twice += p.sent_twice;
    for (const auto& [code, n] : p.refusals) all.refusals[code] += n;
  }
  return all;
}

}  // namespace partstore::consistency
