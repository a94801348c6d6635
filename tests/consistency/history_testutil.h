// A recorded history: what concurrent clients asked of a store, when, and what they were told.
// Two families of operations, each with its own checker:
//
// - Registers (register_checker_testutil.h): each key holds an integer or nothing. Reads, puts,
//   deletes, compare-and-set updates and counter increments, and transactions' effects on each of
//   their keys (a transaction is projected onto its keys as one operation per key). Checked for
//   linearizability, key by key.
// - Lists (append_checker_testutil.h): each key holds a list, to which writes append unique
//   elements. Transactions append to and read several keys. A read shows the whole order of the
//   key's writes so far, so the dependencies between transactions can be known, not guessed (the
//   list-append workload of Jepsen's Elle). Checked for strict serializability.
//
// Times are nanoseconds on one steady clock: an operation took effect, if at all, between its
// invocation and its completion. An operation whose outcome the client could not learn (a
// timeout, a cut connection, a killed server) is recorded as unknown: it may have taken effect at
// any time after its invocation, or never, as Jepsen treats them.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace partstore::consistency {

inline constexpr int64_t kNever = std::numeric_limits<int64_t>::max();

enum class Outcome : uint8_t {
  kOk,               // done, with the result recorded
  kConditionFailed,  // refused by its condition: a definite answer about the state it saw
  kUnknown,          // may or may not have taken effect
};

enum class RegisterOpKind : uint8_t {
  kRead,           // value: what was read (nullopt: no item)
  kPut,            // value: what was written
  kDelete,         //
  kCompareAndSet,  // expected -> value; kConditionFailed: the key did not hold expected
  kIncrement,      // ADD 1 (nothing counts as 0); value: the new value, when kOk
};

struct RegisterOp {
  int client = 0;
  int key = 0;
  RegisterOpKind kind = RegisterOpKind::kRead;
  std::optional<int64_t> value{};
  std::optional<int64_t> expected{};  // kCompareAndSet: nullopt means "no item"
  Outcome outcome = Outcome::kOk;
  int64_t invoked = 0;
  int64_t completed = 0;  // kNever for kUnknown
  std::string origin{};   // the request it came from, for reports ("TransactWriteItems", ...)
};

struct ListMicroOp {
  bool append = false;  // else a read
  int key = 0;
  int64_t element = 0;                         // append: the element
  std::optional<std::vector<int64_t>> read{};  // read, when known: the list (empty: no item)
};

struct ListTxn {
  int client = 0;
  std::vector<ListMicroOp> ops{};
  Outcome outcome = Outcome::kOk;  // kConditionFailed is not used: a failed txn is not recorded
  int64_t invoked = 0;
  int64_t completed = 0;  // kNever for kUnknown
  std::string origin{};
};

// Some transactions failed for certain (refused, cancelled): their appends must never be seen.
struct ListHistory {
  std::vector<ListTxn> txns;
  std::vector<ListTxn> failed;
};

// What a checker found: nothing (ok), or each anomaly described in words.
struct CheckReport {
  std::vector<std::string> anomalies;
  size_t operations = 0;  // checked
  bool ok() const { return anomalies.empty(); }
  // Whether an anomaly's description holds `text`.
  bool Mentions(std::string_view text) const;
  std::string ToString() const;
};

}  // namespace partstore::consistency
