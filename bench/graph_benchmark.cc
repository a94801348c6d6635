// Graph traversals over adjacency lists in-process (issue 23): seed 002's follow graph at 10,000
// users with power-law degrees, read through the typed API the examples use (KeyCondition +
// QueryAll on stored items), one Query per adjacency list as a DynamoDB client would issue them.
//
//   BM_Graph_Neighbours   one adjacency list (who u follows)
//   BM_Graph_Bfs          a shortest path between two random users, breadth first, up to 4 hops
//   BM_Graph_Recommend    "people you may know": the follows of u's follows, ranked by count
//
// Counters: queries per traversal and items read. The same traversals through `partstore serve`
// (the other half of the issue's comparison) are not measured yet.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "partstore/database.h"
#include "partstore/key_condition.h"
#include "partstore/key_patterns.h"

namespace partstore {
namespace {

constexpr int kUsers = 10'000;
constexpr int kMaxDepth = 4;

std::string UserKey(int id) { return EntityKey("USER", std::to_string(id)); }

// 10,000 users; user i follows about 40 / (rank^0.5) others (1 to 400), chosen with a bias to
// low ids (popular accounts): out- and in-degrees both follow power laws. Both directions stored.
struct Graph {
  Database db;
  int64_t edges = 0;

  Graph() {
    KeySchema key;
    key.partition = {"PK", KeyType::kString};
    key.sort = KeyAttribute{"SK", KeyType::kString};
    if (!db.CreateTable(SimpleTable("Social", key)).ok()) std::abort();
    std::mt19937_64 rng(2026);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<int> order(kUsers);
    for (int i = 0; i < kUsers; ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), rng);
    for (int rank = 0; rank < kUsers; ++rank) {
      const int user = order[rank];
      const int degree = std::clamp(static_cast<int>(40.0 / std::sqrt(rank + 1.0) * 10), 1, 400);
      for (int e = 0; e < degree; ++e) {
        const int target = static_cast<int>(kUsers * std::pow(unit(rng), 2.0));
        if (target == user) continue;
        Put(UserKey(user), CompositeKey({"FOLLOWS", std::to_string(target)}));
        Put(UserKey(target), CompositeKey({"FOLLOWER", std::to_string(user)}));
        ++edges;
      }
    }
  }
  void Put(std::string pk, std::string sk) {
    PutItemRequest put;
    put.table_name = "Social";
    put.item = {{"PK", Value(std::move(pk))}, {"SK", Value(std::move(sk))}};
    if (!db.PutItem(put).ok()) std::abort();
  }

  // Whom `user` follows; counts the query and its items.
  std::vector<int> Follows(int user, int64_t* queries, int64_t* items) {
    QueryRequest query;
    query.table_name = "Social";
    if (!KeyCondition::Eq("PK", UserKey(user)).BeginsWith("SK", "FOLLOWS#").ApplyTo(&query).ok()) {
      std::abort();
    }
    std::vector<int> out;
    ItemRange range = db.QueryAll(std::move(query));
    for (const StoredItem& edge : range) {
      out.push_back(std::stoi(std::string(*KeyId(edge.Find("SK")->as_string(), "FOLLOWS"))));
    }
    if (!range.status().ok()) std::abort();
    *queries += range.pages();
    *items += static_cast<int64_t>(out.size());
    return out;
  }
};

Graph& TheGraph() {
  static Graph* graph = new Graph();
  return *graph;
}

void Report(benchmark::State& state, int64_t queries, int64_t items) {
  const double n = static_cast<double>(state.iterations());
  state.counters["queries"] = static_cast<double>(queries) / n;
  state.counters["items_read"] = static_cast<double>(items) / n;
  state.counters["edges"] = static_cast<double>(TheGraph().edges);
}

void BM_Graph_Neighbours(benchmark::State& state) {
  Graph& g = TheGraph();
  std::mt19937_64 rng(1);
  int64_t queries = 0, items = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(g.Follows(static_cast<int>(rng() % kUsers), &queries, &items));
  }
  Report(state, queries, items);
}

void BM_Graph_Bfs(benchmark::State& state) {
  Graph& g = TheGraph();
  std::mt19937_64 rng(2);
  int64_t queries = 0, items = 0, found = 0;
  for (auto _ : state) {
    const int from = static_cast<int>(rng() % kUsers), to = static_cast<int>(rng() % kUsers);
    std::unordered_map<int, int> depth{{from, 0}};
    std::deque<int> frontier{from};
    bool reached = from == to;
    while (!reached && !frontier.empty()) {
      const int u = frontier.front();
      frontier.pop_front();
      if (depth[u] == kMaxDepth) continue;
      for (int v : g.Follows(u, &queries, &items)) {
        if (!depth.emplace(v, depth[u] + 1).second) continue;
        if (v == to) {
          reached = true;
          break;
        }
        frontier.push_back(v);
      }
    }
    found += reached ? 1 : 0;
  }
  Report(state, queries, items);
  state.counters["reached"] = static_cast<double>(found) / static_cast<double>(state.iterations());
}

void BM_Graph_Recommend(benchmark::State& state) {
  Graph& g = TheGraph();
  std::mt19937_64 rng(3);
  int64_t queries = 0, items = 0;
  for (auto _ : state) {
    const int u = static_cast<int>(rng() % kUsers);
    const std::vector<int> follows = g.Follows(u, &queries, &items);
    std::unordered_map<int, int> common;
    for (int f : follows) {
      for (int c : g.Follows(f, &queries, &items)) ++common[c];
    }
    common.erase(u);
    for (int f : follows) common.erase(f);
    std::vector<std::pair<int, int>> ranked(common.begin(), common.end());
    const size_t top = std::min<size_t>(10, ranked.size());
    std::partial_sort(ranked.begin(), ranked.begin() + static_cast<long>(top), ranked.end(),
                      [](const auto& a, const auto& b) {
                        return a.second != b.second ? a.second > b.second : a.first < b.first;
                      });
    benchmark::DoNotOptimize(ranked.data());
  }
  Report(state, queries, items);
}

BENCHMARK(BM_Graph_Neighbours);
BENCHMARK(BM_Graph_Bfs);
BENCHMARK(BM_Graph_Recommend);

}  // namespace
}  // namespace partstore
