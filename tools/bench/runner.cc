#include "tools/bench/runner.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace partstore::bench {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int64_t kNoInsert = std::numeric_limits<int64_t>::max();

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Loads `items` into `table` with `loaders` sessions, each a contiguous slice in chunks.
Status LoadItems(Target& target, const TableSpec& table, const std::vector<BenchItem>& items,
                 int loaders) {
  constexpr size_t kChunk = 1000;
  std::atomic<size_t> next{0};
  std::mutex mu;
  Status first = Status::Ok();
  auto work = [&] {
    auto session = target.NewSession();
    if (!session.ok()) {
      std::lock_guard lock(mu);
      if (first.ok()) first = session.status();
      return;
    }
    for (;;) {
      const size_t begin = next.fetch_add(kChunk);
      if (begin >= items.size()) return;
      const size_t end = std::min(items.size(), begin + kChunk);
      Status s = (*session)->Load(table, std::span(items).subspan(begin, end - begin));
      if (!s.ok()) {
        std::lock_guard lock(mu);
        if (first.ok()) first = std::move(s);
        next = items.size();
        return;
      }
    }
  };
  std::vector<std::thread> threads;
  for (int i = 1; i < loaders; ++i) threads.emplace_back(work);
  work();
  for (std::thread& t : threads) t.join();
  return first;
}

// One client thread's state and its closed loop.
class Worker {
 public:
  Worker(TargetState& state, const Workload& workload, const CellOptions& options, int index,
         const RecordChooser& records, const RecordChooser& users, const RecordChooser& products,
         const RecordChooser& orders, std::vector<std::atomic<int64_t>>& inserting)
      : state_(state),
        data_(state.dataset()),
        workload_(workload),
        options_(options),
        random_(options.seed * 0x9e3779b97f4a7c15ull + static_cast<uint64_t>(index) + 1),
        records_(records),
        users_(users),
        products_(products),
        orders_(orders),
        inserting_(inserting),
        index_(index) {
    for (int i = 0; i < kOpTypes; ++i) results_[i].op = static_cast<OpType>(i);
  }

  void Run(Session& session, const std::atomic<bool>& measuring, const std::atomic<bool>& stop) {
    while (!stop.load(std::memory_order_relaxed)) {
      const bool measure = measuring.load(std::memory_order_relaxed);
      const OpType op = NextOp();
      const Clock::time_point start = Clock::now();
      bool miss = false;
      Status s = Execute(session, op, &miss);
      const auto nanos =
          std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
      if (!measure) continue;
      OpResult& r = results_[static_cast<int>(op)];
      ++r.count;
      if (!s.ok()) {
        ++r.errors;
        if (first_error_.empty()) {
          first_error_ = s.ToString();  // one line in the report's table
          std::replace(first_error_.begin(), first_error_.end(), '\n', ' ');
        }
        // A target that fails at once (a dead server) must not spin a core.
        if (r.errors > 1000 && r.errors == r.count) std::this_thread::yield();
        continue;
      }
      if (miss && options_.check_reads) ++r.misses;
      r.latency.Record(static_cast<uint64_t>(nanos));
    }
  }

  const std::array<OpResult, kOpTypes>& results() const { return results_; }
  const std::string& first_error() const { return first_error_; }

 private:
  OpType NextOp() {
    if (!workload_.ycsb) return workload_.seed_op;
    double u = random_.Uniform();
    if ((u -= workload_.read) < 0) return OpType::kRead;
    if ((u -= workload_.update) < 0) return OpType::kUpdate;
    if ((u -= workload_.insert) < 0) return OpType::kInsert;
    if ((u -= workload_.scan) < 0) return OpType::kScan;
    if (workload_.read_modify_write > 0) return OpType::kReadModifyWrite;
    return OpType::kRead;  // rounding
  }

  // A record that exists: the loaded ones by the distribution, or for "latest" counted back from
  // the newest record below every insert still in flight (YCSB's acknowledged counter). The
  // loads are in this order, sequentially consistent: a writer publishes a lower bound of its
  // number in inserting_ before it takes the number.
  int64_t ChooseRecord() {
    const int64_t rank = records_.Next(random_);
    if (!workload_.latest) return rank;
    int64_t newest = state_.next_record().load() - 1;
    for (const std::atomic<int64_t>& n : inserting_) newest = std::min(newest, n.load() - 1);
    return std::max<int64_t>(0, newest - rank);
  }

  std::string Field() {
    return "field" + std::to_string(random_.Below(static_cast<uint64_t>(data_.options().fields)));
  }

  Status Execute(Session& session, OpType op, bool* miss) {
    const TableSpec& ycsb = data_.ycsb_table();
    const TableSpec& seed = data_.seed_table();
    ReadOutcome out;
    Status s;
    switch (op) {
      case OpType::kRead: {
        key_ = Dataset::YcsbKey(ChooseRecord());
        s = session.Get(ycsb, {key_, {}}, &out);
        break;
      }
      case OpType::kUpdate: {
        key_ = Dataset::YcsbKey(ChooseRecord());
        return session.Update(ycsb, {key_, {}}, Field(), data_.RandomField(random_));
      }
      case OpType::kInsert: {
        std::atomic<int64_t>& mine = inserting_[static_cast<size_t>(index_)];
        mine = state_.next_record().load();
        const int64_t n = state_.next_record().fetch_add(1);
        s = session.Put(ycsb, data_.YcsbRecord(n, random_));
        mine = kNoInsert;
        return s;
      }
      case OpType::kScan: {
        key_ = Dataset::YcsbKey(ChooseRecord());
        const int length = 1 + static_cast<int>(random_.Below(100));
        // The scan may start at the end of the target's order: no miss is counted for scans.
        return session.Scan(ycsb, key_, length, &out);
      }
      case OpType::kReadModifyWrite: {
        key_ = Dataset::YcsbKey(ChooseRecord());
        s = session.Get(ycsb, {key_, {}}, &out);
        if (!s.ok()) return s;
        s = session.Update(ycsb, {key_, {}}, Field(), data_.RandomField(random_));
        break;
      }
      case OpType::kGetUser: {
        key_ = Dataset::UserKey(users_.Next(random_));
        s = session.Get(seed, {key_, key_}, &out);
        break;
      }
      case OpType::kUserOrders:
        key_ = Dataset::UserKey(users_.Next(random_));
        s = session.Query(seed, true, key_, "ORDER#", 10, &out);
        break;
      case OpType::kProductReviews:
        key_ = Dataset::ProductKey(products_.Next(random_));
        s = session.Query(seed, false, key_, "", 1 + data_.options().reviews_per_product, &out);
        break;
      case OpType::kOrderItems:
        key_ = Dataset::OrderKey(orders_.Next(random_));
        s = session.Query(seed, false, key_, "", 1 + data_.options().lines_per_order, &out);
        break;
      case OpType::kFollowersPage:
        key_ = Dataset::UserKey(users_.Next(random_));
        s = session.Query(seed, false, key_, "FOLLOWER#", 25, &out);
        break;
    }
    *miss = out.items == 0;
    return s;
  }

  TargetState& state_;
  const Dataset& data_;
  const Workload& workload_;
  const CellOptions& options_;
  sim::Random random_;
  const RecordChooser& records_;
  const RecordChooser& users_;
  const RecordChooser& products_;
  const RecordChooser& orders_;
  std::vector<std::atomic<int64_t>>& inserting_;
  const int index_;
  std::string key_;
  std::array<OpResult, kOpTypes> results_;
  std::string first_error_;
};

}  // namespace

Status TargetState::Load(int loaders) {
  const Clock::time_point start = Clock::now();
  const std::vector<TableSpec> tables = dataset_.tables();
  if (Status s = target_.Prepare(tables); !s.ok()) return s;
  const std::vector<BenchItem> records = dataset_.YcsbItems();
  if (Status s = LoadItems(target_, dataset_.ycsb_table(), records, loaders); !s.ok()) return s;
  const std::vector<BenchItem> seed = dataset_.SeedItems();
  if (Status s = LoadItems(target_, dataset_.seed_table(), seed, loaders); !s.ok()) return s;
  next_record_ = dataset_.options().records;
  loaded_items_ = static_cast<int64_t>(records.size() + seed.size());
  load_seconds_ = SecondsSince(start);
  return Status::Ok();
}

Result<CellResult> RunCell(TargetState& state, const Workload& workload,
                           const CellOptions& options) {
  const Dataset& data = state.dataset();
  // YCSB's scrambled zipfian, but for "latest", whose ranks count back from the newest record.
  const RecordChooser records(options.distribution, data.options().records, !workload.latest);
  // The seed model's users, products and orders: plain zipfian, user 0 the hottest.
  const RecordChooser users(options.distribution, data.users(), false);
  const RecordChooser products(options.distribution, data.products(), false);
  const RecordChooser orders(options.distribution, data.orders(), false);

  const int threads = std::max(1, options.threads);
  std::vector<std::unique_ptr<Session>> sessions;
  std::vector<std::unique_ptr<Worker>> workers;
  std::vector<std::atomic<int64_t>> inserting(static_cast<size_t>(threads));
  for (std::atomic<int64_t>& n : inserting) n = kNoInsert;
  for (int i = 0; i < threads; ++i) {
    auto session = state.target().NewSession();
    if (!session.ok()) return session.status();
    sessions.push_back(std::move(*session));
    workers.push_back(std::make_unique<Worker>(state, workload, options, i, records, users,
                                               products, orders, inserting));
  }
  std::atomic<bool> measuring{false};
  std::atomic<bool> stop{false};
  std::vector<std::thread> pool;
  for (int i = 0; i < threads; ++i) {
    pool.emplace_back([&, i] { workers[i]->Run(*sessions[i], measuring, stop); });
  }
  auto sleep = [](double seconds) {
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  };
  sleep(options.warmup_seconds);
  const Clock::time_point start = Clock::now();
  measuring = true;
  sleep(options.seconds);
  stop = true;
  const double seconds = SecondsSince(start);
  for (std::thread& t : pool) t.join();

  CellResult cell;
  cell.target = state.target().name();
  cell.workload = workload.name;
  cell.distribution = options.distribution;
  cell.threads = threads;
  cell.seconds = seconds;
  for (int op = 0; op < kOpTypes; ++op) {
    OpResult merged;
    merged.op = static_cast<OpType>(op);
    for (const auto& w : workers) {
      const OpResult& r = w->results()[op];
      merged.count += r.count;
      merged.errors += r.errors;
      merged.misses += r.misses;
      merged.latency.Merge(r.latency);
    }
    if (merged.count == 0) continue;
    cell.operations += merged.count;
    cell.errors += merged.errors;
    cell.misses += merged.misses;
    cell.latency.Merge(merged.latency);
    cell.ops.push_back(std::move(merged));
  }
  for (const auto& w : workers) {
    if (cell.first_error.empty()) cell.first_error = w->first_error();
  }
  // Throughput counts the answered operations; errors are reported beside it.
  cell.ops_per_second =
      seconds > 0 ? static_cast<double>(cell.operations - cell.errors) / seconds : 0;
  return cell;
}

}  // namespace partstore::bench
