#include "tests/consistency/append_checker_testutil.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace partstore::consistency {
namespace {

enum class Dep : uint8_t { kWriteWrite, kWriteRead, kReadWrite, kRealTime };

const char* DepName(Dep d) {
  switch (d) {
    case Dep::kWriteWrite:
      return "ww";
    case Dep::kWriteRead:
      return "wr";
    case Dep::kReadWrite:
      return "rw";
    case Dep::kRealTime:
      return "rt";
  }
  return "?";
}

struct Edge {
  size_t to;
  Dep dep;
  int key;  // -1 for real time
};

std::string ListText(const std::vector<int64_t>& list) {
  if (list.size() > 6) {
    return fmt::format("[{} elements, ending {}, {}]", list.size(), list[list.size() - 2],
                       list.back());
  }
  return fmt::format("[{}]", fmt::join(list, " "));
}

std::string TxnText(const ListTxn& t, size_t index) {
  std::vector<std::string> parts;
  for (const ListMicroOp& op : t.ops) {
    if (op.append) {
      parts.push_back(fmt::format("append {} to k{}", op.element, op.key));
    } else {
      parts.push_back(
          fmt::format("read k{} = {}", op.key, op.read ? ListText(*op.read) : std::string("?")));
    }
  }
  return fmt::format("T{} (client {}, {}, {}: {})", index, t.client, t.origin,
                     t.outcome == Outcome::kOk ? "ok" : "outcome unknown", fmt::join(parts, ", "));
}

// Strongly connected components (Tarjan's, without recursion); the components of more than
// one transaction.
std::vector<std::vector<size_t>> CyclicComponents(const std::vector<std::vector<Edge>>& graph) {
  const size_t n = graph.size();
  std::vector<int64_t> index(n, -1), low(n, 0);
  std::vector<bool> on_stack(n, false);
  std::vector<size_t> stack;
  std::vector<std::vector<size_t>> components;
  int64_t next_index = 0;
  struct Frame {
    size_t node;
    size_t edge;
  };
  for (size_t root = 0; root < n; ++root) {
    if (index[root] >= 0) continue;
    std::vector<Frame> calls{{root, 0}};
    index[root] = low[root] = next_index++;
    stack.push_back(root);
    on_stack[root] = true;
    while (!calls.empty()) {
      Frame& f = calls.back();
      if (f.edge < graph[f.node].size()) {
        const size_t to = graph[f.node][f.edge++].to;
        if (index[to] < 0) {
          index[to] = low[to] = next_index++;
          stack.push_back(to);
          on_stack[to] = true;
          calls.push_back({to, 0});
        } else if (on_stack[to]) {
          low[f.node] = std::min(low[f.node], index[to]);
        }
        continue;
      }
      const size_t node = f.node;
      calls.pop_back();
      if (!calls.empty()) low[calls.back().node] = std::min(low[calls.back().node], low[node]);
      if (low[node] != index[node]) continue;
      std::vector<size_t> component;
      size_t member;
      do {
        member = stack.back();
        stack.pop_back();
        on_stack[member] = false;
        component.push_back(member);
      } while (member != node);
      if (component.size() > 1) components.push_back(std::move(component));
    }
  }
  return components;
}

// A shortest cycle through `start` inside its component, as the edges taken.
std::vector<Edge> CycleThrough(const std::vector<std::vector<Edge>>& graph, size_t start,
                               const std::unordered_set<size_t>& component) {
  std::unordered_map<size_t, std::pair<size_t, Edge>> parent;  // node -> (from, edge)
  std::vector<size_t> frontier{start};
  while (!frontier.empty()) {
    std::vector<size_t> next;
    for (size_t node : frontier) {
      for (const Edge& e : graph[node]) {
        if (!component.contains(e.to) || parent.contains(e.to)) continue;
        parent.emplace(e.to, std::make_pair(node, e));
        if (e.to == start) {
          std::vector<Edge> cycle;
          size_t at = start;
          do {
            const auto& [from, edge] = parent.at(at);
            cycle.push_back(edge);
            at = from;
          } while (at != start);
          std::reverse(cycle.begin(), cycle.end());
          return cycle;
        }
        next.push_back(e.to);
      }
    }
    frontier = std::move(next);
  }
  return {};
}

}  // namespace

CheckReport CheckLists(const ListHistory& history) {
  CheckReport report;
  const std::vector<ListTxn>& txns = history.txns;
  report.operations = txns.size();
  auto anomaly = [&](std::string text) {
    if (report.anomalies.size() < 50) report.anomalies.push_back(std::move(text));
  };

  // Who appended what.
  struct Writer {
    size_t txn;
    int key;
  };
  std::unordered_map<int64_t, Writer> writer;
  for (size_t i = 0; i < txns.size(); ++i) {
    for (const ListMicroOp& op : txns[i].ops) {
      if (op.append) writer.emplace(op.element, Writer{i, op.key});
    }
  }
  std::unordered_map<int64_t, size_t> failed_writer;
  for (size_t i = 0; i < history.failed.size(); ++i) {
    for (const ListMicroOp& op : history.failed[i].ops) {
      if (op.append) failed_writer.emplace(op.element, i);
    }
  }

  // Each key's reads, checked one by one, and its version order.
  struct Read {
    size_t txn;
    const std::vector<int64_t>* list;
  };
  std::map<int, std::vector<Read>> reads;
  for (size_t i = 0; i < txns.size(); ++i) {
    if (txns[i].outcome != Outcome::kOk) continue;
    for (const ListMicroOp& op : txns[i].ops) {
      if (!op.append && op.read) reads[op.key].push_back({i, &*op.read});
    }
  }
  std::map<int, const std::vector<int64_t>*> order;
  std::vector<bool> observed(txns.size(), false);
  for (const auto& [key, key_reads] : reads) {
    const std::vector<int64_t>* longest = nullptr;
    for (const Read& r : key_reads) {
      if (longest == nullptr || r.list->size() > longest->size()) longest = r.list;
      std::unordered_set<int64_t> seen;
      for (int64_t e : *r.list) {
        if (!seen.insert(e).second) {
          auto w = writer.find(e);
          anomaly(fmt::format("duplicate: {} holds {} twice; it was appended once, by {}",
                              TxnText(txns[r.txn], r.txn), e,
                              w == writer.end() ? std::string("nobody")
                                                : TxnText(txns[w->second.txn], w->second.txn)));
        }
        auto w = writer.find(e);
        if (w == writer.end() || w->second.key != key) {
          auto f = failed_writer.find(e);
          if (f != failed_writer.end()) {
            anomaly(fmt::format(
                "aborted read: {} holds {}, appended by a transaction that "
                "failed: {}",
                TxnText(txns[r.txn], r.txn), e, TxnText(history.failed[f->second], f->second)));
          } else {
            anomaly(fmt::format("garbage: {} holds {}, which nobody appended to k{}",
                                TxnText(txns[r.txn], r.txn), e, key));
          }
        } else {
          observed[w->second.txn] = true;
        }
      }
    }
    for (const Read& r : key_reads) {
      if (!std::equal(r.list->begin(), r.list->end(), longest->begin())) {
        anomaly(fmt::format("incompatible orders of k{}: {} and {}", key, ListText(*r.list),
                            ListText(*longest)));
      }
    }
    order[key] = longest;
  }

  // Acknowledged appends that the first read invoked after them does not show (a later read
  // that also misses one is a stale read, which the graph below finds).
  for (auto& [key, key_reads] : reads) {
    std::sort(key_reads.begin(), key_reads.end(), [&](const Read& a, const Read& b) {
      return txns[a.txn].invoked < txns[b.txn].invoked;
    });
  }
  for (size_t i = 0; i < txns.size(); ++i) {
    const ListTxn& t = txns[i];
    if (t.outcome != Outcome::kOk) continue;
    for (const ListMicroOp& op : t.ops) {
      auto it = op.append ? reads.find(op.key) : reads.end();
      if (it == reads.end()) continue;
      auto first =
          std::upper_bound(it->second.begin(), it->second.end(), t.completed,
                           [&](int64_t time, const Read& r) { return time < txns[r.txn].invoked; });
      if (first == it->second.end()) continue;
      const std::vector<int64_t>& list = *first->list;
      if (std::find(list.begin(), list.end(), op.element) == list.end()) {
        anomaly(
            fmt::format("lost or stale: {} completed before {} was invoked, which does not "
                        "show {}",
                        TxnText(t, i), TxnText(txns[first->txn], first->txn), op.element));
      }
    }
  }

  // The dependency graph.
  std::vector<std::vector<Edge>> graph(txns.size());
  auto add = [&](size_t from, size_t to, Dep dep, int key) {
    if (from != to) graph[from].push_back({to, dep, key});
  };
  for (const auto& entry : order) {
    const int key = entry.first;
    const std::vector<int64_t>* list = entry.second;
    auto writer_of = [&](int64_t e) -> std::optional<size_t> {
      auto w = writer.find(e);
      if (w == writer.end() || w->second.key != key) return std::nullopt;
      return w->second.txn;
    };
    for (size_t i = 0; i + 1 < list->size(); ++i) {
      auto a = writer_of((*list)[i]), b = writer_of((*list)[i + 1]);
      if (a && b) add(*a, *b, Dep::kWriteWrite, key);
    }
    for (const Read& r : reads[key]) {
      if (!std::equal(r.list->begin(), r.list->end(), list->begin())) continue;
      if (!r.list->empty()) {
        if (auto w = writer_of(r.list->back())) add(*w, r.txn, Dep::kWriteRead, key);
      }
      if (r.list->size() < list->size()) {
        if (auto w = writer_of((*list)[r.list->size()])) add(r.txn, *w, Dep::kReadWrite, key);
      }
    }
  }
  // Committed appends no read shows (acknowledged, or of a transaction seen on another key) come
  // after every element read (each read is a prefix of the key's final list): after the last
  // element read, and after every read of the key.
  for (size_t i = 0; i < txns.size(); ++i) {
    if (txns[i].outcome != Outcome::kOk && !observed[i]) continue;
    for (const ListMicroOp& op : txns[i].ops) {
      if (!op.append) continue;
      auto o = order.find(op.key);
      const std::vector<int64_t>* list = o == order.end() ? nullptr : o->second;
      if (list != nullptr && std::find(list->begin(), list->end(), op.element) != list->end()) {
        continue;
      }
      if (list != nullptr && !list->empty()) {
        auto last = writer.find(list->back());
        if (last != writer.end() && last->second.key == op.key) {
          add(last->second.txn, i, Dep::kWriteWrite, op.key);
        }
      }
      for (const Read& r : reads[op.key]) add(r.txn, i, Dep::kReadWrite, op.key);
    }
  }
  // Real time, as Elle builds it: each transaction follows the frontier of those completed
  // before its invocation, and a completion replaces in the frontier the ones it follows.
  {
    struct Event {
      int64_t time;
      bool invoke;
      size_t txn;
    };
    std::vector<Event> events;
    for (size_t i = 0; i < txns.size(); ++i) {
      if (txns[i].outcome != Outcome::kOk && !observed[i]) continue;
      events.push_back({txns[i].invoked, true, i});
      if (txns[i].completed != kNever) events.push_back({txns[i].completed, false, i});
    }
    // At a tie, invocations first: touching operations count as concurrent.
    std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
      if (a.time != b.time) return a.time < b.time;
      return a.invoke && !b.invoke;
    });
    std::set<size_t> frontier;
    std::vector<std::vector<size_t>> after(txns.size());
    for (const Event& e : events) {
      if (e.invoke) {
        after[e.txn].assign(frontier.begin(), frontier.end());
        for (size_t f : frontier) add(f, e.txn, Dep::kRealTime, -1);
      } else {
        for (size_t f : after[e.txn]) frontier.erase(f);
        frontier.insert(e.txn);
      }
    }
  }

  for (const std::vector<size_t>& component : CyclicComponents(graph)) {
    const std::unordered_set<size_t> members(component.begin(), component.end());
    const std::vector<Edge> cycle = CycleThrough(graph, component.front(), members);
    std::string text =
        fmt::format("cycle of {} transactions (component of {}):", cycle.size(), component.size());
    size_t at = component.front();
    for (const Edge& e : cycle) {
      text += "\n    " + TxnText(txns[at], at);
      text += e.key >= 0 ? fmt::format("\n      -{}(k{})->", DepName(e.dep), e.key)
                         : fmt::format("\n      -{}->", DepName(e.dep));
      at = e.to;
    }
    anomaly(std::move(text));
  }
  return report;
}

}  // namespace partstore::consistency
