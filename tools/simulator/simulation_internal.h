// The simulation driver's internals (simulation.h is the public interface): the state of one
// run (the Driver class, the requests it is retrying, the prepared mix entries) shared by the
// files that implement it:
//   simulation.cc           Simulate: the run's Database, then set-up, the phases, the report;
//   simulation_setup.cc     tables, sharding policies, the preload, the prepared mix entries;
//   simulation_loop.cc      the client: arrivals at the phases' rates, retries with backoff, the
//                           tally of what it saw;
//   simulation_requests.cc  one attempt of each operation kind, sent and classified;
//   simulation_items.cc     the keys and items a request is made of, padded to the drawn size;
//   simulation_replay.cc    a recorded request (trace_replay.h) offered and sent again.
//
// Thread safety: not thread-safe; a Driver belongs to one call of Simulate.
#pragma once

#include <boost/container/small_vector.hpp>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "partstore/cached_store.h"
#include "partstore/database.h"
#include "partstore/status.h"
#include "shard/prepared.h"
#include "shard/table.h"
#include "tools/simulator/client_tally.h"
#include "tools/simulator/key_chooser.h"
#include "tools/simulator/padding.h"
#include "tools/simulator/random.h"
#include "tools/simulator/retry_queue.h"
#include "tools/simulator/simulation.h"
#include "tools/simulator/trace_replay.h"
#include "tools/simulator/workload.h"

namespace partstore::sim::internal {

using Clock = std::chrono::steady_clock;

inline double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Pads `item` with the "data" attribute so that ItemSize reaches `bytes` (when it is not there
// already).
void PadTo(Item& item, int64_t bytes, Padding padding);

// A size drawn from `size` (kFixed: its bytes; kNormal: rounded and clamped to [min, max]).
int64_t DrawSize(const SizeDistribution& size, Random& random);

// The key attributes of a table (or of the index a query reads).
struct KeyNames {
  std::string partition;
  std::optional<std::string> sort;
};

// What one request is about: the values its templates are expanded with.
struct RequestSpec {
  int64_t key = 0;
  int64_t item = 0;
  int64_t seq = 0;
  int64_t time_millis = 0;
  int64_t size = 0;  // drawn once, so that a retry sends the same item (0: draw when needed)
};

enum class Outcome : uint8_t { kServed, kThrottled, kThrottledFinal, kConditionFailed, kError };

struct Attempt {
  Outcome outcome = Outcome::kServed;
  std::string error;  // kError
  // A batch's unprocessed part (what a retry sends).
  std::unique_ptr<BatchWriteItemRequest> unprocessed_writes;
  std::unique_ptr<BatchGetItemRequest> unprocessed_reads;
};

// A request waiting for its retry.
struct Pending {
  int64_t due = 0;
  int32_t phase = 0;
  int32_t entry = 0;
  int32_t attempt = 0;  // attempts made so far
  int64_t first_micros = 0;
  int64_t record = -1;  // a replayed request: its index in Replay::requests
  // The request's items (one for single-item operations).
  boost::container::small_vector<RequestSpec, 1> specs;
  std::unique_ptr<BatchWriteItemRequest> writes;
  std::unique_ptr<BatchGetItemRequest> reads;
};

// One entry of a phase's mix, ready to send: its key chooser and reusable requests.
struct Entry {
  const Operation* op = nullptr;
  KeyChooser keys;
  // The table, looked up once: plain (unsharded) requests go to it directly, skipping the
  // Database's catalogue lookup.
  std::shared_ptr<Table> table{};
  KeyNames table_keys{};  // the table's
  KeyNames read_keys{};   // the queried table's or index's
  int64_t seq = 0;
  std::optional<Item> scan_cursor{};
  std::string query_expression{};
  std::string update_expression{};
  // Reused by every GetItem / PutItem of the entry: its strings keep their buffers, so a request
  // costs no allocation to build (the engine copies what it stores). Their expression parameters
  // never change, so each is prepared (shard/prepared.h) once, at the entry's first request.
  GetItemRequest get{};
  PutItemRequest put{};
  std::optional<PreparedProjection> get_prepared{};
  std::optional<PreparedCondition> put_prepared{};
  // The table's cache (TableSpec::cache), which every request of the entry goes through; null:
  // none.
  CachedStore* cache = nullptr;
  Padding padding = Padding::kRepeated;  // the table's (Driver::PaddingOf)
};

// The run: set up once, then Run once; the tally is the client's half of the Report.
class Driver {
 public:
  Driver(const Workload& workload, Database& db, std::shared_ptr<capacity::ManualClock> clock)
      : w_(workload), db_(db), clock_(std::move(clock)), random_(workload.seed) {
    sharded_ = !w_.sharding.empty();
    for (const Phase& phase : w_.phases) sharded_ = sharded_ || !phase.sharding.empty();
    tally_.operations.resize(w_.phases.size());
    tally_.delays.resize(w_.phases.size());
  }

  // Replays `replay`'s requests instead of the phases' (null: the phases).
  void SetReplay(const Replay* replay) { replay_ = replay; }
  // SimulateOptions::full_items. Before SetUp.
  void SetFullItems(bool full) { full_items_ = full; }
  // Tables, policies, preload and mix entries (simulation_setup.cc). Errors: what the engine
  // refuses, prefixed with where it came from.
  Status SetUp(SimulationCost* cost);
  // The phases, on the manual clock (simulation_loop.cc).
  void Run(const SimulateOptions& options, SimulationCost* cost);
  const ClientTally& tally() const { return tally_; }
  // What each table's cache did (read_units_saved and cost_saved left for the caller, who has
  // the report), in workload order.
  std::vector<CacheReport> CacheReports() const;

 private:
  // --- Set-up (simulation_setup.cc) -------------------------------------------------------------
  KeyNames NamesOf(const std::string& table, const std::optional<std::string>& index) const;
  Status SetPolicies(const std::vector<ShardingSpec>& specs);
  // A phase's scheduled throughput changes, at `now` (recorded beside auto scaling's actions).
  void ChangeThroughput(const std::vector<ThroughputChange>& changes, int64_t now);
  // What the sharded operations cannot do with a workload's policies, refused up front.
  Status CheckShardedOperations() const;

  // --- The client (simulation_loop.cc) ----------------------------------------------------------
  // Moves the clock to `micros`, stopping at each auto-scaling event on the way.
  void AdvanceTo(int64_t micros) {
    while (scaler_ && scaler_->NextEventMicros() <= micros) {
      const int64_t at = scaler_->NextEventMicros();
      MoveClock(at);
      scaler_->Step(at);
    }
    MoveClock(micros);
  }
  void MoveClock(int64_t micros) {
    const int64_t now = clock_->NowMicros();
    if (micros > now) clock_->Advance(micros - now);
  }
  // Sends a new request of `entry` at `now`.
  void Offer(int32_t phase, int32_t entry, int64_t now);
  // One attempt of `pending` at `now`, tallied; a throttled one is scheduled for its retry.
  void Send(Pending&& pending, int64_t now);
  // The delay before the next retry, with the workload's jitter.
  int64_t Backoff(int32_t retries_so_far);

  // --- Replay (simulation_replay.cc) -------------------------------------------------------------
  // Sends recorded request `record` at `now`.
  void OfferRecord(int64_t record, int64_t now);
  Attempt Replayed(Entry& entry, Pending& pending);
  // A replayed item: its recorded key attributes (all of them, or the table's only), padded.
  Item ReplayedItem(const ReplayItem& item, bool table_key_only, int64_t size = -1) const;

  // --- Item building (simulation_items.cc) ------------------------------------------------------
  void Expand(const Template& t, const RequestSpec& spec, std::string& out) const {
    out.clear();
    t.Expand({spec.key, spec.item, spec.seq, spec.time_millis}, out);
  }
  Item KeyOf(const Entry& entry, const RequestSpec& spec);
  static void SetString(Item& item, const std::string& name, const Template& t,
                        const RequestSpec& spec);
  Item ItemOf(const Entry& entry, const RequestSpec& spec);

  // --- One attempt of each operation (simulation_requests.cc) -----------------------------------
  Attempt Execute(Entry& entry, Pending& pending);
  Attempt Classify(const Status& status);
  Attempt Get(Entry& entry, const RequestSpec& spec);
  Attempt Put(Entry& entry, const RequestSpec& spec);
  Attempt Update(Entry& entry, const RequestSpec& spec);
  Attempt Delete(Entry& entry, const RequestSpec& spec);
  Attempt Query(Entry& entry, const RequestSpec& spec);
  Attempt Scan(Entry& entry);
  Attempt BatchWrite(Entry& entry, Pending& pending);
  Attempt BatchGet(Entry& entry, Pending& pending);
  Attempt TransactWrite(Entry& entry, const Pending& pending);
  Attempt TransactGet(Entry& entry, const Pending& pending);

  // How the items of `table` are padded (SimulateOptions::full_items).
  Padding PaddingOf(std::string_view table) const;

  const Workload& w_;
  const Replay* replay_ = nullptr;
  bool full_items_ = false;
  Database& db_;
  std::shared_ptr<capacity::ManualClock> clock_;
  Random random_;
  bool sharded_ = false;
  std::vector<std::vector<Entry>> entries_;  // [phase][mix entry]
  RetryQueue<Pending> retries_;
  int64_t attempts_ = 0;
  ClientTally tally_;
  std::optional<AutoScaler> scaler_;  // when the workload scales any table or GSI
  std::string scratch_;
  // The tables' caches (TableSpec::cache), by table name; declared last: destroyed first.
  std::map<std::string, std::unique_ptr<CachedStore>> caches_;
};

}  // namespace partstore::sim::internal
