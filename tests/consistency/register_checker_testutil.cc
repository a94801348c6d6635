#include "tests/consistency/register_checker_testutil.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <unordered_map>
#include <utility>

namespace partstore::consistency {
namespace {

constexpr int64_t kAbsent = std::numeric_limits<int64_t>::min();

int64_t StateOf(const std::optional<int64_t>& v) { return v ? *v : kAbsent; }

std::string StateText(int64_t state) {
  return state == kAbsent ? "(no item)" : std::to_string(state);
}

// Whether `op` can take effect on `state`, and the state after it.
bool Step(int64_t state, const RegisterOp& op, int64_t* next) {
  const bool unknown = op.outcome == Outcome::kUnknown;
  *next = state;
  switch (op.kind) {
    case RegisterOpKind::kRead:
      return StateOf(op.value) == state;
    case RegisterOpKind::kPut:
      *next = *op.value;
      return true;
    case RegisterOpKind::kDelete:
      *next = kAbsent;
      return true;
    case RegisterOpKind::kCompareAndSet: {
      const bool holds = state == StateOf(op.expected);
      if (op.outcome == Outcome::kConditionFailed) return !holds;
      if (holds) *next = *op.value;
      return holds || unknown;  // an unknown one that met a false condition changed nothing
    }
    case RegisterOpKind::kIncrement:
      *next = (state == kAbsent ? 0 : state) + 1;
      return unknown || StateOf(op.value) == *next;
  }
  return false;
}

std::string Describe(const RegisterOp& op, int64_t origin_ns) {
  std::string what;
  switch (op.kind) {
    case RegisterOpKind::kRead:
      what = "read " + StateText(StateOf(op.value));
      break;
    case RegisterOpKind::kPut:
      what = "put " + std::to_string(*op.value);
      break;
    case RegisterOpKind::kDelete:
      what = "delete";
      break;
    case RegisterOpKind::kCompareAndSet:
      what = "compare-and-set " + StateText(StateOf(op.expected)) + " -> " +
             StateText(StateOf(op.value));
      break;
    case RegisterOpKind::kIncrement:
      what = "increment" + (op.value ? " -> " + std::to_string(*op.value) : std::string());
      break;
  }
  const char* outcome = op.outcome == Outcome::kOk                ? "ok"
                        : op.outcome == Outcome::kConditionFailed ? "condition failed"
                                                                  : "outcome unknown";
  const double from = static_cast<double>(op.invoked - origin_ns) / 1e6;
  const std::string to =
      op.completed == kNever ? "never" : fmt::format("{:.3f}", (op.completed - origin_ns) / 1e6);
  return fmt::format("client {} {} of k{} ({}, {}) [{:.3f} .. {} ms]", op.client, what, op.key,
                     outcome, op.origin, from, to);
}

// Which operations are linearized: a bit set that can be hashed.
class OpSet {
 public:
  explicit OpSet(size_t n) : words_((n + 63) / 64) {}
  void Set(size_t i) { words_[i / 64] |= uint64_t{1} << (i % 64); }
  void Clear(size_t i) { words_[i / 64] &= ~(uint64_t{1} << (i % 64)); }
  uint64_t Hash(int64_t state) const {
    uint64_t h = static_cast<uint64_t>(state) * 0x9E3779B97F4A7C15ULL;
    for (uint64_t w : words_) h = (h ^ w) * 0x100000001B3ULL + (h >> 29);
    return h;
  }
  friend bool operator==(const OpSet&, const OpSet&) = default;

 private:
  std::vector<uint64_t> words_;
};

// The search over one key's operations (Porcupine's checkSingle).
class KeySearch {
 public:
  KeySearch(const std::vector<const RegisterOp*>& ops, int64_t origin_ns)
      : ops_(ops), origin_ns_(origin_ns), entries_(2 * ops.size() + 1) {
    // entries_[0] is the list's head; then each op's call and return.
    std::vector<size_t> order;
    for (size_t i = 0; i < ops.size(); ++i) {
      Entry& call = entries_[1 + 2 * i];
      Entry& ret = entries_[2 + 2 * i];
      call = {.call = true, .op = i, .time = ops[i]->invoked, .match = &ret};
      ret = {.call = false, .op = i, .time = ops[i]->completed, .match = &call};
      order.push_back(1 + 2 * i);
      order.push_back(2 + 2 * i);
    }
    // By time; at a tie, calls first: operations that touch in time count as concurrent.
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      const Entry &x = entries_[a], &y = entries_[b];
      if (x.time != y.time) return x.time < y.time;
      return x.call && !y.call;
    });
    Entry* prev = &entries_[0];
    for (size_t i : order) {
      prev->next = &entries_[i];
      entries_[i].prev = prev;
      prev = &entries_[i];
    }
  }

  // Empty when linearizable; else why not.
  std::string Run(uint64_t budget) {
    Entry* head = &entries_[0];
    OpSet linearized(ops_.size());
    int64_t state = kAbsent;
    struct Frame {
      Entry* call;
      int64_t state;
    };
    std::vector<Frame> stack;
    size_t deepest = 0;
    std::string deepest_why;
    uint64_t steps = 0;
    Entry* entry = head->next;
    while (head->next != nullptr) {
      if (++steps > budget) {
        return fmt::format("could not decide in {} steps ({} operations)", budget, ops_.size());
      }
      if (entry->call) {
        const RegisterOp& op = *ops_[entry->op];
        int64_t next = 0;
        if (Step(state, op, &next)) {
          linearized.Set(entry->op);
          if (Remember(linearized, next)) {
            stack.push_back({entry, state});
            state = next;
            Lift(entry);
            entry = head->next;
            continue;
          }
          linearized.Clear(entry->op);
        }
        entry = entry->next;
        continue;
      }
      // A completion: its operation should have taken effect by now, and could not.
      if (stack.size() >= deepest) {
        deepest = stack.size();
        deepest_why = fmt::format(
            "{} of {} operations put in order, the key holding {}; then {} cannot have taken "
            "effect before it completed",
            stack.size(), ops_.size(), StateText(state), Describe(*ops_[entry->op], origin_ns_));
      }
      if (stack.empty()) break;
      const Frame top = stack.back();
      stack.pop_back();
      state = top.state;
      linearized.Clear(top.call->op);
      Unlift(top.call);
      entry = top.call->next;
    }
    if (head->next == nullptr) return {};
    return "not linearizable: " + deepest_why;
  }

 private:
  struct Entry {
    bool call = false;
    size_t op = 0;
    int64_t time = 0;
    Entry* match = nullptr;
    Entry* prev = nullptr;
    Entry* next = nullptr;
  };

  static void Lift(Entry* call) {
    call->prev->next = call->next;
    if (call->next != nullptr) call->next->prev = call->prev;
    Entry* ret = call->match;
    ret->prev->next = ret->next;
    if (ret->next != nullptr) ret->next->prev = ret->prev;
  }
  static void Unlift(Entry* call) {
    Entry* ret = call->match;
    ret->prev->next = ret;
    if (ret->next != nullptr) ret->next->prev = ret;
    call->prev->next = call;
    if (call->next != nullptr) call->next->prev = call;
  }

  // False when (linearized, state) was seen before: that branch is known to fail.
  bool Remember(const OpSet& linearized, int64_t state) {
    auto& bucket = seen_[linearized.Hash(state)];
    for (const auto& [set, s] : bucket) {
      if (s == state && set == linearized) return false;
    }
    bucket.emplace_back(linearized, state);
    return true;
  }

  const std::vector<const RegisterOp*>& ops_;
  const int64_t origin_ns_;
  std::vector<Entry> entries_;
  std::unordered_map<uint64_t, std::vector<std::pair<OpSet, int64_t>>> seen_;
};

}  // namespace

CheckReport CheckRegisters(const std::vector<RegisterOp>& history, uint64_t max_steps_per_key) {
  CheckReport report;
  report.operations = history.size();
  int64_t origin = kNever;
  std::map<int, std::vector<const RegisterOp*>> by_key;
  for (const RegisterOp& op : history) {
    origin = std::min(origin, op.invoked);
    by_key[op.key].push_back(&op);
  }
  for (const auto& [key, ops] : by_key) {
    KeySearch search(ops, origin);
    const std::string why = search.Run(max_steps_per_key);
    if (!why.empty()) report.anomalies.push_back(fmt::format("key k{}: {}", key, why));
  }
  return report;
}

}  // namespace partstore::consistency
