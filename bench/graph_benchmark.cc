// Graph traversals over adjacency lists, in-process and through `partstore serve` (issue 23): seed
// 002's follow graph at 10,000 users with power-law degrees, one Query per adjacency list as a
// DynamoDB client would issue them. Each traversal is written once, over a source of adjacency
// lists ("whom user u follows"), and the source is written once too, over a partstore::Store
// (KeyCondition + Store::QueryAll on stored items, as the examples do); two stores answer it:
//
//   in-process  the Database itself
//   served      a RemoteStore (partstore/remote_store.h) in front of the same Database served by
//               tools/server on 127.0.0.1 (an ephemeral port, in this process, one server
//               thread), over one kept-alive HTTP connection: a Query request per page, its JSON
//               response decoded into items
//
//   BM_Graph_[Served_]Neighbours  one adjacency list (who u follows)
//   BM_Graph_[Served_]Bfs         a shortest path between two random users, breadth first, up
//                                 to 4 hops
//   BM_Graph_[Served_]Recommend   "people you may know": the follows of u's follows, ranked
//                                 by count
//
// Both sources read the one Database built here (nothing is loaded over HTTP), and the served
// benchmarks first check that both give the same answers (adjacency lists, BFS distances,
// recommendations, query and item counts) for a few fixed users; they are skipped with the
// difference otherwise. Counters: queries per traversal and items read. The served path signs its
// requests with SigV4 (fixed test credentials), as every RemoteStore does. Results, and why the
// served times depend on whether client and server share a CPU: bench/README.md, "Graph
// traversals".
#include <benchmark/benchmark.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <concepts>
#include <deque>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "partstore/database.h"
#include "partstore/key_condition.h"
#include "partstore/key_patterns.h"
#include "partstore/remote_store.h"
#include "tools/server/server.h"

namespace partstore::graph_benchmark {
namespace {

constexpr int kUsers = 10'000;
constexpr int kMaxDepth = 4;
constexpr char kTable[] = "Social";

std::string UserKey(int id) { return EntityKey("USER", std::to_string(id)); }

// The id in a "FOLLOWS#<id>" sort key; both sources parse their keys with it, so the paths differ
// only in how the keys reach them.
Result<int> FollowedId(std::string_view sort_key) {
  const std::optional<std::string_view> id = KeyId(sort_key, "FOLLOWS");
  int out = 0;
  if (id) {
    const auto [end, error] = std::from_chars(id->data(), id->data() + id->size(), out);
    if (error == std::errc() && end == id->data() + id->size()) return out;
  }
  return Status::Internal("not a FOLLOWS#<id> sort key: " + std::string(sort_key));
}

// 10,000 users; user i follows about 40 / (rank^0.5) others (1 to 400), chosen with a bias to
// low ids (popular accounts): out- and in-degrees both follow power laws. Both directions stored.
struct Graph {
  Database db;
  int64_t edges = 0;

  Graph() {
    KeySchema key;
    key.partition = {"PK", KeyType::kString};
    key.sort = KeyAttribute{"SK", KeyType::kString};
    if (!db.CreateTable(SimpleTable(kTable, key)).ok()) std::abort();
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
    put.table_name = kTable;
    put.item = {{"PK", Value(std::move(pk))}, {"SK", Value(std::move(sk))}};
    if (!db.PutItem(put).ok()) std::abort();
  }
};

Graph& TheGraph() {
  static Graph* graph = new Graph();
  return *graph;
}

// What a traversal read.
struct Counts {
  int64_t queries = 0;  // Query pages (in-process) or Query requests (served)
  int64_t items = 0;
};

// A source of adjacency lists: whom `user` follows, in sort-key order, counted into *counts.
template <class S>
concept AdjacencySource = requires(S& source, int user, Counts* counts) {
  { source.Follows(user, counts) } -> std::same_as<Result<std::vector<int>>>;
};

// Either home of the API: the same code reads the Database in-process and through a RemoteStore.
class StoreSource {
 public:
  explicit StoreSource(Store& db) : db_(db) {}

  Result<std::vector<int>> Follows(int user, Counts* counts) {
    QueryRequest query;
    query.table_name = kTable;
    PARTSTORE_RETURN_IF_ERROR(
        KeyCondition::Eq("PK", UserKey(user)).BeginsWith("SK", "FOLLOWS#").ApplyTo(&query));
    std::vector<int> out;
    ItemRange range = db_.QueryAll(std::move(query));
    for (const StoredItem& edge : range) {
      PARTSTORE_ASSIGN_OR_RETURN(int id, FollowedId(edge.Find("SK")->as_string()));
      out.push_back(id);
    }
    PARTSTORE_RETURN_IF_ERROR(range.status());
    counts->queries += range.pages();
    counts->items += static_cast<int64_t>(out.size());
    return out;
  }

 private:
  Store& db_;
};

// The traversals, written once.

// Hops from `from` to `to` following follows, breadth first; -1 when not within kMaxDepth.
template <AdjacencySource S>
Result<int> ShortestPath(S& source, int from, int to, Counts* counts) {
  if (from == to) return 0;
  std::unordered_map<int, int> depth{{from, 0}};
  std::deque<int> frontier{from};
  while (!frontier.empty()) {
    const int u = frontier.front();
    frontier.pop_front();
    const int d = depth[u];
    if (d == kMaxDepth) continue;
    PARTSTORE_ASSIGN_OR_RETURN(std::vector<int> follows, source.Follows(u, counts));
    for (int v : follows) {
      if (!depth.emplace(v, d + 1).second) continue;
      if (v == to) return d + 1;
      frontier.push_back(v);
    }
  }
  return -1;
}

// The 10 users followed most by those u follows (u and whom u follows excluded), as (id, count),
// by count then id.
template <AdjacencySource S>
Result<std::vector<std::pair<int, int>>> Recommend(S& source, int u, Counts* counts) {
  PARTSTORE_ASSIGN_OR_RETURN(const std::vector<int> follows, source.Follows(u, counts));
  std::unordered_map<int, int> common;
  for (int f : follows) {
    PARTSTORE_ASSIGN_OR_RETURN(const std::vector<int> theirs, source.Follows(f, counts));
    for (int c : theirs) ++common[c];
  }
  common.erase(u);
  for (int f : follows) common.erase(f);
  std::vector<std::pair<int, int>> ranked(common.begin(), common.end());
  const size_t top = std::min<size_t>(10, ranked.size());
  std::partial_sort(ranked.begin(), ranked.begin() + static_cast<long>(top), ranked.end(),
                    [](const auto& a, const auto& b) {
                      return a.second != b.second ? a.second > b.second : a.first < b.first;
                    });
  ranked.resize(top);
  return ranked;
}

// The benchmark loops, written once too.

void Report(benchmark::State& state, const Counts& counts) {
  const double n = static_cast<double>(std::max<int64_t>(1, state.iterations()));
  state.counters["queries"] = static_cast<double>(counts.queries) / n;
  state.counters["items_read"] = static_cast<double>(counts.items) / n;
  state.counters["edges"] = static_cast<double>(TheGraph().edges);
}

template <AdjacencySource S>
void RunNeighbours(benchmark::State& state, S& source) {
  std::mt19937_64 rng(1);
  Counts counts;
  for (auto _ : state) {
    Result<std::vector<int>> follows = source.Follows(static_cast<int>(rng() % kUsers), &counts);
    if (!follows.ok()) return state.SkipWithError(follows.status().ToString().c_str());
    benchmark::DoNotOptimize(follows->data());
  }
  Report(state, counts);
}

template <AdjacencySource S>
void RunBfs(benchmark::State& state, S& source) {
  std::mt19937_64 rng(2);
  Counts counts;
  int64_t found = 0;
  for (auto _ : state) {
    const int from = static_cast<int>(rng() % kUsers), to = static_cast<int>(rng() % kUsers);
    Result<int> hops = ShortestPath(source, from, to, &counts);
    if (!hops.ok()) return state.SkipWithError(hops.status().ToString().c_str());
    found += *hops >= 0 ? 1 : 0;
  }
  Report(state, counts);
  state.counters["reached"] =
      static_cast<double>(found) / static_cast<double>(std::max<int64_t>(1, state.iterations()));
}

template <AdjacencySource S>
void RunRecommend(benchmark::State& state, S& source) {
  std::mt19937_64 rng(3);
  Counts counts;
  for (auto _ : state) {
    Result<std::vector<std::pair<int, int>>> ranked =
        Recommend(source, static_cast<int>(rng() % kUsers), &counts);
    if (!ranked.ok()) return state.SkipWithError(ranked.status().ToString().c_str());
    benchmark::DoNotOptimize(ranked->data());
  }
  Report(state, counts);
}

StoreSource& InProcess() {
  static StoreSource* source = new StoreSource(TheGraph().db);
  return *source;
}

// Both sources answer alike: for the first BFS pairs and recommendation users the in-process
// benchmarks draw (same seeds), the same lists, distances, rankings and counts. A difference is
// the Status that skips the served benchmarks.
Status CheckSameAnswers(StoreSource& local, StoreSource& served) {
  std::mt19937_64 pairs(2), users(3);
  int reached = 0;
  for (int i = 0; i < 6; ++i) {
    const int from = static_cast<int>(pairs() % kUsers), to = static_cast<int>(pairs() % kUsers);
    const int user = static_cast<int>(users() % kUsers);
    const std::string what = " differ between in-process and served for users " +
                             std::to_string(from) + " -> " + std::to_string(to) + " / " +
                             std::to_string(user);
    Counts a, b;
    PARTSTORE_ASSIGN_OR_RETURN(std::vector<int> local_follows, local.Follows(user, &a));
    PARTSTORE_ASSIGN_OR_RETURN(std::vector<int> served_follows, served.Follows(user, &b));
    if (local_follows != served_follows) return Status::Internal("adjacency lists" + what);
    PARTSTORE_ASSIGN_OR_RETURN(int local_hops, ShortestPath(local, from, to, &a));
    PARTSTORE_ASSIGN_OR_RETURN(int served_hops, ShortestPath(served, from, to, &b));
    if (local_hops != served_hops) {
      return Status::Internal("BFS distances (" + std::to_string(local_hops) + " vs " +
                              std::to_string(served_hops) + ")" + what);
    }
    reached += local_hops > 0 ? 1 : 0;
    PARTSTORE_ASSIGN_OR_RETURN(auto local_ranked, Recommend(local, user, &a));
    PARTSTORE_ASSIGN_OR_RETURN(auto served_ranked, Recommend(served, user, &b));
    if (local_ranked != served_ranked) return Status::Internal("recommendations" + what);
    if (a.queries != b.queries || a.items != b.items) {
      return Status::Internal("query / item counts (" + std::to_string(a.queries) + "/" +
                              std::to_string(a.items) + " vs " + std::to_string(b.queries) + "/" +
                              std::to_string(b.items) + ")" + what);
    }
  }
  // A check that never found a path would compare only "not reached".
  if (reached == 0) return Status::Internal("the answer check found no path to compare");
  return Status::Ok();
}

// The server on TheGraph()'s Database and a RemoteStore in front of it, set up and checked once;
// stopped at exit, so the server thread is not running while the process tears down.
class Served {
 public:
  Served() {
    server::ServerOptions options;
    options.port = 0;
    // One connection whose requests are answered in order: a second thread could not help it,
    // and would compete with the client for this machine's two cores.
    options.threads = 1;
    options.handle_signals = false;
    server_ = std::make_unique<server::Server>(TheGraph().db, options);
    status_ = Setup();
  }
  ~Served() {
    source_.reset();
    remote_.reset();  // closes the connection first
    if (thread_.joinable()) {
      server_->Stop();
      thread_.join();
    }
  }

  // OK when the served benchmarks can run; else why not.
  const Status& status() const { return status_; }
  StoreSource& source() { return *source_; }

 private:
  Status Setup() {
    PARTSTORE_RETURN_IF_ERROR(server_->Start());
    thread_ = std::thread([this] { server_->Run(); });
    PARTSTORE_ASSIGN_OR_RETURN(
        remote_,
        RemoteStore::Open({.endpoint = "http://127.0.0.1:" + std::to_string(server_->port()),
                           .region = "us-east-1",
                           .credentials = AwsCredentials{"AKIDBENCH", "bench", ""},
                           .max_connections = 1}));
    source_ = std::make_unique<StoreSource>(*remote_);
    return CheckSameAnswers(InProcess(), *source_);
  }

  std::unique_ptr<server::Server> server_;
  std::thread thread_;
  std::unique_ptr<RemoteStore> remote_;
  std::unique_ptr<StoreSource> source_;
  Status status_;
};

// The served source, or null after skipping the benchmark with the reason.
StoreSource* ServedOrSkip(benchmark::State& state) {
  static Served served;
  if (served.status().ok()) return &served.source();
  state.SkipWithError(served.status().ToString().c_str());
  return nullptr;
}

void BM_Graph_Neighbours(benchmark::State& state) { RunNeighbours(state, InProcess()); }
void BM_Graph_Bfs(benchmark::State& state) { RunBfs(state, InProcess()); }
void BM_Graph_Recommend(benchmark::State& state) { RunRecommend(state, InProcess()); }

void BM_Graph_Served_Neighbours(benchmark::State& state) {
  if (StoreSource* source = ServedOrSkip(state)) RunNeighbours(state, *source);
}
void BM_Graph_Served_Bfs(benchmark::State& state) {
  if (StoreSource* source = ServedOrSkip(state)) RunBfs(state, *source);
}
void BM_Graph_Served_Recommend(benchmark::State& state) {
  if (StoreSource* source = ServedOrSkip(state)) RunRecommend(state, *source);
}

// A BFS's number of queries varies widely with the pair (a recommendation's with the user's
// degree: 1 to 401), so the BFS and recommendation benchmarks of both paths walk the same pairs /
// users (the first N of one seed), every repetition: the two paths then issue exactly the same
// queries and their times compare directly. Iteration counts chosen by the library would differ
// (~40 served BFS traversals against ~400 in-process) and so would the samples.
constexpr int kBfsPairs = 100;
constexpr int kRecommendUsers = 1000;

BENCHMARK(BM_Graph_Neighbours);
BENCHMARK(BM_Graph_Bfs)->Iterations(kBfsPairs);
BENCHMARK(BM_Graph_Recommend)->Iterations(kRecommendUsers);
// Served: wall time, since the CPU column is only this thread's (the client's) and the server
// thread's work is the point; iterations are then also chosen by wall time.
BENCHMARK(BM_Graph_Served_Neighbours)->UseRealTime();
BENCHMARK(BM_Graph_Served_Bfs)->UseRealTime()->Iterations(kBfsPairs);
BENCHMARK(BM_Graph_Served_Recommend)->UseRealTime()->Iterations(kRecommendUsers);

}  // namespace
}  // namespace partstore::graph_benchmark
