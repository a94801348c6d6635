// The workload whose history is checked: concurrent clients, each with its own Store (a Database
// shared in-process, or one RemoteStore per client over the wire), run random operations on a
// small key space and record each one's invocation, completion and result (history_testutil.h).
//
// Half the operations are on registers (table "Registers": attribute v, a number): consistent
// GetItem, PutItem, DeleteItem, UpdateItem with a condition (compare-and-set against the value
// the client last read) and UpdateItem ADD (a counter, ReturnValues UPDATED_NEW), and
// TransactWriteItems / TransactGetItems over two or three keys. Half are on lists (table "Lists":
// attribute l): an append (SET l = list_append(if_not_exists(l, :empty), :x)), a consistent read,
// and transactions appending to or reading two or three keys. Every value written is unique.
//
// What a client was told decides how an operation is recorded: done; refused by its condition
// (a definite answer about the state); refused for another reason (throttled, over the memory
// limit, cancelled: not applied, so left out, and for lists kept as failed); or unknown
// (kOutcomeUnknown, InternalServerError, TransactionInProgress, and any refusal of a request
// sent more than once: maybe applied). A PutItem or DeleteItem that RemoteStore sent again may
// have been applied by each earlier attempt too: each is recorded once more, as unknown.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "partstore/status.h"
#include "partstore/store.h"
#include "tests/consistency/history_testutil.h"

namespace partstore::consistency {

inline constexpr const char* kRegisterTable = "Registers";
inline constexpr const char* kListTable = "Lists";

struct WorkloadOptions {
  int clients = 6;
  int register_keys = 4;
  int list_keys = 6;
  // The keys move on to new ones after this many operations (by all clients together): a list's
  // reads hold all its elements, so each key's history must stay bounded (Elle does the same).
  size_t ops_per_key_generation = 6000;
  // Each client stops after this many operations, or when `stop` is set.
  size_t ops_per_client = 500;
  uint64_t seed = 1;
  // Client c's store. Called once per client, on its thread.
  std::function<Store&(int client)> store{};
  // HTTP attempts client c's store has made so far (RemoteStats::attempts), to find the writes
  // it sent twice; null for a store that never sends anything twice.
  std::function<uint64_t(int client)> attempts{};
  const std::atomic<bool>* stop = nullptr;
};

struct RecordedHistory {
  std::vector<RegisterOp> registers;
  ListHistory lists;
  size_t operations = 0;                   // requests made
  size_t unknown = 0;                      // of them, outcome unknown
  size_t sent_twice = 0;                   // writes RemoteStore sent again after a failure
  std::map<std::string, size_t> refusals;  // not applied, by error code (conditions apart)
  std::string Summary() const;
};

// Writes the history as text, one operation per line in invocation order (for a failed check: the
// tests save it beside the build and print its path).
void WriteHistory(const RecordedHistory& history, const std::string& path);

// When a check failed: the history goes to <test name>.history in the working directory (the
// build's tests/ folder under ctest), and its path to stdout.
void SaveIfFailed(const RecordedHistory& history, const CheckReport& registers,
                  const CheckReport& lists);

// Creates the two tables (key: PK, a string).
Status CreateWorkloadTables(Store& store);

// PARTSTORE_HISTORY_SCALE (default 1): how many times their CI size the histories are
// (tests/consistency/long_run.sh).
int HistoryScale();

// Runs the clients, each on its own thread, and returns what they recorded.
RecordedHistory RunWorkload(const WorkloadOptions& options);

}  // namespace partstore::consistency
