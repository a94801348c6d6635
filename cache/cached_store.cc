// CachedStore: see partstore/cached_store.h. The Store's operations, each either through the
// item cache (item_cache.h), the query cache (query_cache.h), write-through with invalidation,
// or passed to the upstream unchanged.
#include "partstore/cached_store.h"

#include <fmt/format.h>

#include <utility>
#include <vector>

#include "cache/catalog.h"
#include "cache/counters.h"
#include "cache/image.h"
#include "cache/item_cache.h"
#include "cache/query_cache.h"
#include "cache/stream_follower.h"
#include "core/expr/projection.h"
#include "core/partiql/parser.h"
#include "shard/prepared.h"

namespace partstore {

using cache::CacheCounters;
using cache::CachedTable;
using cache::Image;
using cache::ItemCache;

namespace {

// The key attributes of `item` (a key or a whole item) under `table`'s schema; nullopt when one
// is missing (the upstream then answers the request's error).
std::optional<Item> KeyOf(const CachedTable& table, const Item& item) {
  Item key;
  auto take = [&](const std::string& name) {
    auto it = item.find(name);
    if (it == item.end()) return false;
    key.emplace(name, it->second);
    return true;
  };
  if (!take(table.key.partition.name)) return std::nullopt;
  if (table.key.sort && !take(table.key.sort->name)) return std::nullopt;
  return key;
}

// Whether a failed write may have been applied all the same: DynamoDB's InternalServerError
// ("the operation may or may not have succeeded"), and RemoteStore's kOutcomeUnknown.
bool MaybeApplied(const Status& status) {
  return status.code() == Code::kOutcomeUnknown || status.code() == Code::kInternal;
}

// The top-level attributes an update may change; nullopt: unknown (the cache could not read the
// update).
std::optional<std::vector<std::string>> TouchedBy(const UpdateItemRequest& request,
                                                  expr::ExpressionCache& expressions) {
  Result<PreparedUpdate> prepared = PrepareUpdate(request, request.table_name, &expressions);
  if (!prepared.ok()) return std::nullopt;
  std::vector<std::string> names;
  for (const expr::UpdateAction& action : prepared->update.actions) {
    names.push_back(action.path.top());
  }
  return names;
}

}  // namespace

struct CachedStore::Impl {
  Impl(Store& upstream_store, CacheOptions cache_options, std::unique_ptr<Database> local_db)
      : upstream(upstream_store),
        options(std::move(cache_options)),
        local(std::move(local_db)),
        expressions(4096),
        catalog(upstream, *local),
        items(upstream, *options.clock, counters, options.item_ttl_seconds,
              options.negative_ttl_seconds),
        pages(upstream, *options.clock, counters, expressions, options.query_ttl_seconds),
        streams(upstream, catalog, items, pages, counters, options.stream_poll_interval,
                options.follow_streams) {}

  template <typename R, typename Request>
  Result<R> Pass(Result<R> (Store::*call)(const Request&), const Request& request) {
    CacheCounters::Add(counters.passed_through);
    return cache::TimedCall(counters, [&] { return (upstream.*call)(request); });
  }

  // A write of one item: `send` sends it upstream (with the ReturnValues the cache needs) and
  // answers the images it learnt.
  template <typename R, typename Send>
  Result<R> WriteOne(const std::string& table_name, const Item& item_or_key,
                     const std::optional<std::vector<std::string>>& touched, Send send);

  std::shared_ptr<CachedTable> Table(std::string_view name) { return catalog.Get(name); }
  void ForgetStatementTable(std::string_view statement);

  Store& upstream;
  const CacheOptions options;
  std::unique_ptr<Database> local;
  CacheCounters counters;
  expr::ExpressionCache expressions;
  cache::Catalog catalog;
  ItemCache items;
  cache::QueryCache pages;
  cache::StreamFollower streams;  // last: stopped first
};

template <typename R, typename Send>
Result<R> CachedStore::Impl::WriteOne(const std::string& table_name, const Item& item_or_key,
                                      const std::optional<std::vector<std::string>>& touched,
                                      Send send) {
  std::shared_ptr<CachedTable> table = Table(table_name);
  std::optional<Item> key = table ? KeyOf(*table, item_or_key) : std::nullopt;
  if (!key) return send(nullptr, nullptr);
  CacheCounters::Add(counters.writes);
  streams.Follow(*table);
  ItemCache::WriteGuard guard = items.BeginWrite(table, *key);
  Image before, after;
  Result<R> result = send(&before, &after);
  const std::vector<std::string>* touched_names = touched ? &*touched : nullptr;
  if (!result.ok()) {
    if (MaybeApplied(result.status())) {
      pages.DropWrite(*table, *key, Image::Unknown(), Image::Unknown(), touched_names);
    }
    guard.Finish(Image::Unknown());
    return result;
  }
  pages.DropWrite(*table, *key, before, after, touched_names);
  guard.Finish(after);
  return result;
}

void CachedStore::Impl::ForgetStatementTable(std::string_view statement) {
  Result<partiql::Statement> parsed = partiql::ParseStatement(statement);
  if (!parsed.ok()) {
    catalog.ForgetAll();
    return;
  }
  if (std::holds_alternative<partiql::SelectStatement>(parsed->body)) return;
  std::visit(
      [&](const auto& body) {
        using T = std::decay_t<decltype(body)>;
        if constexpr (std::is_same_v<T, partiql::ExistsStatement>) {
          return;
        } else if constexpr (std::is_same_v<T, partiql::SelectStatement>) {
          return;
        } else {
          catalog.Forget(body.table);
        }
      },
      parsed->body);
}

Result<std::unique_ptr<CachedStore>> CachedStore::Open(Store& upstream, CacheOptions options) {
  auto positive = [](double v) { return v > 0 && v <= 10.0 * 365 * 86400; };
  if (!positive(options.item_ttl_seconds)) {
    return Status::Validation("CacheOptions: item_ttl_seconds must be in (0, 10 years]");
  }
  if (!positive(options.negative_ttl_seconds)) {
    return Status::Validation("CacheOptions: negative_ttl_seconds must be in (0, 10 years]");
  }
  if (!positive(options.query_ttl_seconds)) {
    return Status::Validation("CacheOptions: query_ttl_seconds must be in (0, 10 years]");
  }
  if (options.memory_limit_bytes < (uint64_t{1} << 20)) {
    return Status::Validation("CacheOptions: memory_limit_bytes must be at least 1 MiB");
  }
  if (options.stream_poll_interval.count() < 1 ||
      options.stream_poll_interval > std::chrono::minutes(10)) {
    return Status::Validation("CacheOptions: stream_poll_interval must be 1 ms .. 10 minutes");
  }
  if (options.clock == nullptr) options.clock = std::make_shared<capacity::SystemClock>();
  DatabaseOptions local;
  local.expression_cache_capacity = 0;  // the cache parses with its own (Impl::expressions)
  local.capacity.clock = options.clock;
  local.memory = {.limit_bytes = options.memory_limit_bytes, .policy = MemoryPolicy::kEvict};
  PARTSTORE_ASSIGN_OR_RETURN(std::unique_ptr<Database> db, Database::Open(std::move(local)));
  auto impl = std::make_unique<Impl>(upstream, std::move(options), std::move(db));
  return std::unique_ptr<CachedStore>(new CachedStore(std::move(impl)));
}

CachedStore::CachedStore(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CachedStore::~CachedStore() = default;

CacheStats CachedStore::stats() const {
  const CacheCounters& c = impl_->counters;
  auto get = [](const auto& v) { return v.load(std::memory_order_relaxed); };
  CacheStats s;
  s.item_hits = get(c.item_hits);
  s.negative_hits = get(c.negative_hits);
  s.item_misses = get(c.item_misses);
  s.shared_loads = get(c.shared_loads);
  s.query_hits = get(c.query_hits);
  s.query_misses = get(c.query_misses);
  s.uncacheable_pages = get(c.uncacheable_pages);
  s.passed_through = get(c.passed_through);
  s.writes = get(c.writes);
  s.item_invalidations = get(c.item_invalidations);
  s.page_invalidations = get(c.page_invalidations);
  s.upstream_calls = get(c.upstream_calls);
  s.upstream_micros = get(c.upstream_micros);
  s.stream_records = get(c.stream_records);
  s.stream_throttles = get(c.stream_throttles);
  s.stream_errors = get(c.stream_errors);
  s.stream_lag_seconds = impl_->streams.LagSeconds();
  const DescribeMemoryResult memory = impl_->local->DescribeMemory();
  s.memory_bytes = memory.used_bytes;
  for (const TableMemory& t : memory.tables) s.evicted_items += t.evicted_items;
  return s;
}

std::string CachedStore::PrometheusMetrics() const {
  const CacheStats s = stats();
  std::string out;
  auto metric = [&](std::string_view name, std::string_view type, std::string_view help,
                    auto value) {
    out += fmt::format(
        "# HELP partstore_cache_{0} {1}\n# TYPE partstore_cache_{0} {2}\n"
        "partstore_cache_{0} {3}\n",
        name, help, type, value);
  };
  metric("item_hits_total", "counter", "GetItem and BatchGetItem keys answered with a cached item.",
         s.item_hits);
  metric("negative_hits_total", "counter", "Keys answered 'no such item' from the cache.",
         s.negative_hits);
  metric("item_misses_total", "counter", "Keys read from the upstream.", s.item_misses);
  metric("shared_loads_total", "counter", "Misses that waited for another caller's load.",
         s.shared_loads);
  metric("query_hits_total", "counter", "Query and Scan pages answered from the cache.",
         s.query_hits);
  metric("query_misses_total", "counter", "Query and Scan pages read from the upstream.",
         s.query_misses);
  metric("uncacheable_pages_total", "counter", "Pages too large to keep.", s.uncacheable_pages);
  metric("passed_through_total", "counter", "Calls sent to the upstream unchanged.",
         s.passed_through);
  metric("writes_total", "counter", "Writes sent through the cache.", s.writes);
  metric("item_invalidations_total", "counter",
         "Cached keys replaced or forgotten by a write or a stream record.", s.item_invalidations);
  metric("page_invalidations_total", "counter", "Page groups dropped.", s.page_invalidations);
  metric("evicted_items_total", "counter", "Entries evicted by the memory limit.", s.evicted_items);
  metric("memory_bytes", "gauge", "What the cache holds.", s.memory_bytes);
  metric("upstream_calls_total", "counter", "Calls made to the upstream.", s.upstream_calls);
  metric("upstream_seconds_total", "counter", "Time spent in calls to the upstream.",
         static_cast<double>(s.upstream_micros) / 1e6);
  metric("stream_records_total", "counter", "Stream records applied.", s.stream_records);
  metric("stream_throttles_total", "counter", "GetRecords calls throttled.", s.stream_throttles);
  metric("stream_errors_total", "counter", "Stream calls that failed otherwise.", s.stream_errors);
  metric("stream_lag_seconds", "gauge",
         "How far the slowest followed stream is behind (0: caught up).", s.stream_lag_seconds);
  return out;
}

void CachedStore::Clear() { impl_->catalog.ForgetAll(); }
void CachedStore::PollStreams() { impl_->streams.PollOnce(); }
double CachedStore::EpochSeconds() const { return impl_->upstream.EpochSeconds(); }

// ---- Passed through unchanged ----

Result<CreateTableResult> CachedStore::CreateTable(const CreateTableRequest& request) {
  impl_->catalog.Forget(request.table_name);
  return impl_->Pass(&Store::CreateTable, request);
}
Result<DeleteTableResult> CachedStore::DeleteTable(const DeleteTableRequest& request) {
  auto result = impl_->Pass(&Store::DeleteTable, request);
  impl_->catalog.Forget(request.table_name);
  return result;
}
Result<DescribeTableResult> CachedStore::DescribeTable(const DescribeTableRequest& request) {
  return impl_->Pass(&Store::DescribeTable, request);
}
Result<ListTablesResult> CachedStore::ListTables(const ListTablesRequest& request) {
  return impl_->Pass(&Store::ListTables, request);
}
Result<UpdateTableResult> CachedStore::UpdateTable(const UpdateTableRequest& request) {
  auto result = impl_->Pass(&Store::UpdateTable, request);
  impl_->catalog.Forget(request.table_name);
  return result;
}
Result<TagResourceResult> CachedStore::TagResource(const TagResourceRequest& request) {
  return impl_->Pass(&Store::TagResource, request);
}
Result<TagResourceResult> CachedStore::UntagResource(const UntagResourceRequest& request) {
  return impl_->Pass(&Store::UntagResource, request);
}
Result<ListTagsOfResourceResult> CachedStore::ListTagsOfResource(
    const ListTagsOfResourceRequest& request) {
  return impl_->Pass(&Store::ListTagsOfResource, request);
}
Result<UpdateTimeToLiveResult> CachedStore::UpdateTimeToLive(
    const UpdateTimeToLiveRequest& request) {
  return impl_->Pass(&Store::UpdateTimeToLive, request);
}
Result<DescribeTimeToLiveResult> CachedStore::DescribeTimeToLive(
    const DescribeTimeToLiveRequest& request) {
  return impl_->Pass(&Store::DescribeTimeToLive, request);
}
Result<CreateBackupResult> CachedStore::CreateBackup(const CreateBackupRequest& request) {
  return impl_->Pass(&Store::CreateBackup, request);
}
Result<DescribeBackupResult> CachedStore::DescribeBackup(const DescribeBackupRequest& request) {
  return impl_->Pass(&Store::DescribeBackup, request);
}
Result<ListBackupsResult> CachedStore::ListBackups(const ListBackupsRequest& request) {
  return impl_->Pass(&Store::ListBackups, request);
}
Result<DeleteBackupResult> CachedStore::DeleteBackup(const DeleteBackupRequest& request) {
  return impl_->Pass(&Store::DeleteBackup, request);
}
Result<RestoreTableFromBackupResult> CachedStore::RestoreTableFromBackup(
    const RestoreTableFromBackupRequest& request) {
  impl_->catalog.Forget(request.target_table_name);
  return impl_->Pass(&Store::RestoreTableFromBackup, request);
}
Result<ContinuousBackupsResult> CachedStore::UpdateContinuousBackups(
    const UpdateContinuousBackupsRequest& request) {
  return impl_->Pass(&Store::UpdateContinuousBackups, request);
}
Result<ContinuousBackupsResult> CachedStore::DescribeContinuousBackups(
    const DescribeContinuousBackupsRequest& request) {
  return impl_->Pass(&Store::DescribeContinuousBackups, request);
}
Result<RestoreTableToPointInTimeResult> CachedStore::RestoreTableToPointInTime(
    const RestoreTableToPointInTimeRequest& request) {
  impl_->catalog.Forget(request.target_table_name);
  return impl_->Pass(&Store::RestoreTableToPointInTime, request);
}
Result<ListStreamsResult> CachedStore::ListStreams(const ListStreamsRequest& request) {
  return impl_->Pass(&Store::ListStreams, request);
}
Result<DescribeStreamResult> CachedStore::DescribeStream(const DescribeStreamRequest& request) {
  return impl_->Pass(&Store::DescribeStream, request);
}
Result<GetShardIteratorResult> CachedStore::GetShardIterator(
    const GetShardIteratorRequest& request) {
  return impl_->Pass(&Store::GetShardIterator, request);
}
Result<GetRecordsResult> CachedStore::GetRecords(const GetRecordsRequest& request) {
  return impl_->Pass(&Store::GetRecords, request);
}
Result<UpdateContributorInsightsResult> CachedStore::UpdateContributorInsights(
    const UpdateContributorInsightsRequest& request) {
  return impl_->Pass(&Store::UpdateContributorInsights, request);
}
Result<ListContributorInsightsResult> CachedStore::ListContributorInsights(
    const ListContributorInsightsRequest& request) {
  return impl_->Pass(&Store::ListContributorInsights, request);
}
Result<DescribeContributorInsightsResult> CachedStore::DescribeContributorInsights(
    const DescribeContributorInsightsRequest& request) {
  return impl_->Pass(&Store::DescribeContributorInsights, request);
}
Result<TransactGetItemsResult> CachedStore::TransactGetItems(
    const TransactGetItemsRequest& request) {
  return impl_->Pass(&Store::TransactGetItems, request);
}

// ---- PartiQL: passed through; a write forgets its table ----

Result<ExecuteStatementResult> CachedStore::ExecuteStatement(
    const ExecuteStatementRequest& request) {
  auto result = impl_->Pass(&Store::ExecuteStatement, request);
  impl_->ForgetStatementTable(request.statement);
  return result;
}
Result<BatchExecuteStatementResult> CachedStore::BatchExecuteStatement(
    const BatchExecuteStatementRequest& request) {
  auto result = impl_->Pass(&Store::BatchExecuteStatement, request);
  for (const BatchStatementRequest& s : request.statements) {
    impl_->ForgetStatementTable(s.statement);
  }
  return result;
}
Result<ExecuteTransactionResult> CachedStore::ExecuteTransaction(
    const ExecuteTransactionRequest& request) {
  auto result = impl_->Pass(&Store::ExecuteTransaction, request);
  for (const ParameterizedStatement& s : request.transact_statements) {
    impl_->ForgetStatementTable(s.statement);
  }
  return result;
}

// ---- The item cache ----

namespace {

template <typename ItemT>
std::optional<ItemT> Answer(const std::optional<StoredItem>& item,
                            const PreparedProjection& prepared) {
  if (!item) return std::nullopt;
  if constexpr (std::is_same_v<ItemT, StoredItem>) {
    return prepared.projection ? expr::ProjectStored(*prepared.projection, *item)
                               : ItemCache::Strip(*item);
  } else {
    return prepared.projection ? expr::Project(*prepared.projection, *item)
                               : ItemCache::ToItem(*item);
  }
}

}  // namespace

template <typename ResultT>
static Result<ResultT> CachedGet(CachedStore::Impl& impl, const GetItemRequest& request,
                                 Result<ResultT> (Store::*pass)(const GetItemRequest&)) {
  if (request.consistent_read) return impl.Pass(pass, request);
  Result<PreparedProjection> prepared = PrepareGet(request, request.table_name, &impl.expressions);
  if (!prepared.ok()) return impl.Pass(pass, request);
  using ItemT = typename decltype(ResultT::item)::value_type;
  // The hit path: the table pinned by this thread (no lock, no reference count), memory only.
  if (CachedTable* pinned = impl.catalog.Pinned(request.table_name);
      pinned != nullptr && pinned->followed.load(std::memory_order_acquire)) {
    std::optional<cache::ItemRead> hit = impl.items.Hit(*pinned, request);
    if (hit) {
      ResultT out;
      out.consumed_capacity = std::move(hit->consumed_capacity);
      out.item = Answer<ItemT>(hit->item, *prepared);
      return out;
    }
  }
  std::shared_ptr<CachedTable> table = impl.Table(request.table_name);
  if (!table) return impl.Pass(pass, request);
  impl.streams.Follow(*table);
  PARTSTORE_ASSIGN_OR_RETURN(cache::ItemRead read, impl.items.Read(*table, request));
  if (read.refused) return impl.Pass(pass, request);
  ResultT out;
  out.consumed_capacity = std::move(read.consumed_capacity);
  out.item = Answer<ItemT>(read.item, *prepared);
  return out;
}

Result<GetItemResult> CachedStore::GetItem(const GetItemRequest& request) {
  return CachedGet(*impl_, request, &Store::GetItem);
}
Result<GetItemViewResult> CachedStore::GetItemView(const GetItemRequest& request) {
  return CachedGet(*impl_, request, &Store::GetItemView);
}

Result<BatchGetItemResult> CachedStore::BatchGetItem(const BatchGetItemRequest& request) {
  Impl& impl = *impl_;
  // What the cache answers itself, per table: the prepared projection and its table.
  struct Served {
    const std::string* name = nullptr;
    const KeysAndAttributes* keys = nullptr;
    std::shared_ptr<CachedTable> table;
    PreparedProjection projection;
    std::vector<Item> found;
    // The keys this batch reads from the upstream (it leads their loads: ItemCache's single
    // flight), with their generations and tickets; `done` once a ticket is completed or abandoned.
    std::vector<Item> missing;
    std::vector<uint64_t> generations;
    std::vector<ItemCache::FlightTicket> tickets;
    std::vector<bool> done;
    // The keys another caller is loading: awaited after the batch's own call.
    std::vector<std::pair<Item, ItemCache::FlightTicket>> joined;

    void AbandonRest(ItemCache& items) {
      for (size_t i = 0; i < tickets.size(); ++i) {
        if (!done[i]) items.Abandon(tickets[i]);
        done[i] = true;
      }
    }
  };
  size_t total_keys = 0;
  for (const auto& [name, keys] : request.request_items) total_keys += keys.keys.size();
  if (request.request_items.empty() || total_keys > kMaxBatchGetKeys) {
    return impl.Pass(&Store::BatchGetItem, request);  // the upstream's error
  }
  BatchGetItemRequest upstream_request{.return_consumed_capacity =
                                           request.return_consumed_capacity};
  std::vector<Served> served;
  served.reserve(request.request_items.size());
  for (const auto& [name, keys] : request.request_items) {
    std::shared_ptr<CachedTable> table = keys.consistent_read ? nullptr : impl.Table(name);
    Result<PreparedProjection> prepared = PrepareKeysAndAttributes(keys, &impl.expressions);
    bool cacheable = table != nullptr && prepared.ok();
    Served s;
    s.name = &name;
    s.keys = &keys;
    if (cacheable) {
      s.table = table;
      s.projection = std::move(*prepared);
      for (size_t i = 0; i < keys.keys.size() && cacheable; ++i) {
        const Item& key = keys.keys[i];
        for (size_t j = 0; j < i; ++j) {
          if (keys.keys[j] == key) cacheable = false;  // duplicates: the upstream's error
        }
        if (!cacheable) break;
        Result<std::optional<std::optional<StoredItem>>> peek =
            impl.items.Peek(*table, {.table_name = name, .key = key});
        if (!peek.ok()) {
          cacheable = false;
        } else if (*peek) {
          if (**peek) {
            impl.counters.item_hits.Add();
            s.found.push_back(*Answer<Item>(**peek, s.projection));
          } else {
            impl.counters.negative_hits.Add();
          }
        } else {
          ItemCache::FlightTicket ticket = impl.items.JoinOrLead(*table, key);
          if (ticket.leader()) {
            s.missing.push_back(key);
            s.generations.push_back(impl.items.Generation(*table, key));
            s.tickets.push_back(std::move(ticket));
            s.done.push_back(false);
          } else {
            s.joined.emplace_back(key, std::move(ticket));
          }
        }
      }
    }
    if (!cacheable) {
      s.AbandonRest(impl.items);
      upstream_request.request_items.emplace_back(name, keys);
      continue;
    }
    impl.streams.Follow(*table);
    CacheCounters::Add(impl.counters.item_misses, s.missing.size() + s.joined.size());
    if (!s.missing.empty()) {
      upstream_request.request_items.emplace_back(name, KeysAndAttributes{.keys = s.missing});
    }
    served.push_back(std::move(s));
  }
  auto find_served = [&](const std::string& name) -> Served* {
    for (Served& s : served) {
      if (*s.name == name) return &s;
    }
    return nullptr;
  };
  BatchGetItemResult out;
  if (!upstream_request.request_items.empty()) {
    Result<BatchGetItemResult> got = cache::TimedCall(
        impl.counters, [&] { return impl.upstream.BatchGetItem(upstream_request); });
    if (!got.ok()) {
      for (Served& s : served) s.AbandonRest(impl.items);
      return got.status();
    }
    out.consumed_capacity = std::move(got->consumed_capacity);
    for (auto& [name, items] : got->responses) {
      Served* s = find_served(name);
      if (s == nullptr) {
        out.responses.emplace_back(name, std::move(items));
        continue;
      }
      for (Item& item : items) {
        std::optional<Item> key = KeyOf(*s->table, item);
        for (size_t i = 0; key && i < s->missing.size(); ++i) {
          if (!s->done[i] && s->missing[i] == *key) {
            impl.items.Fill(*s->table, s->missing[i], item, s->generations[i]);
            impl.items.Complete(s->tickets[i], item);
            s->done[i] = true;
          }
        }
        s->found.push_back(s->projection.projection ? expr::Project(*s->projection.projection, item)
                                                    : std::move(item));
      }
    }
    for (auto& [name, keys] : got->unprocessed_keys) {
      Served* s = find_served(name);
      if (s == nullptr) {
        out.unprocessed_keys.emplace_back(name, std::move(keys));
        continue;
      }
      for (const Item& unprocessed : keys.keys) {
        for (size_t i = 0; i < s->missing.size(); ++i) {
          if (!s->done[i] && s->missing[i] == unprocessed) {
            impl.items.Abandon(s->tickets[i]);  // neither found nor known absent
            s->done[i] = true;
          }
        }
      }
      KeysAndAttributes again = *s->keys;
      again.keys = std::move(keys.keys);
      out.unprocessed_keys.emplace_back(name, std::move(again));
    }
    // The keys asked for and neither returned nor unprocessed: no such item.
    for (Served& s : served) {
      for (size_t i = 0; i < s.missing.size(); ++i) {
        if (s.done[i]) continue;
        impl.items.Fill(*s.table, s.missing[i], std::nullopt, s.generations[i]);
        impl.items.Complete(s.tickets[i], std::nullopt);
        s.done[i] = true;
      }
    }
  }
  // Every load this batch led is finished: now the ones it joined.
  for (Served& s : served) {
    for (auto& [key, ticket] : s.joined) {
      std::optional<std::optional<StoredItem>> entry = impl.items.Await(ticket);
      if (!entry) {
        // The caller loading it could not: the key goes back to the caller as unprocessed, as
        // DynamoDB returns keys it did not read.
        KeysAndAttributes* again = nullptr;
        for (auto& [name, keys] : out.unprocessed_keys) {
          if (name == *s.name) again = &keys;
        }
        if (again == nullptr) {
          KeysAndAttributes fresh = *s.keys;
          fresh.keys.clear();
          out.unprocessed_keys.emplace_back(*s.name, std::move(fresh));
          again = &out.unprocessed_keys.back().second;
        }
        again->keys.push_back(key);
      } else if (*entry) {
        s.found.push_back(*Answer<Item>(*entry, s.projection));
      }
    }
  }
  for (Served& s : served) {
    if (request.return_consumed_capacity != ReturnConsumedCapacity::kNone) {
      bool reported = false;
      for (const ConsumedCapacity& c : out.consumed_capacity) reported |= c.table_name == *s.name;
      if (!reported) {
        out.consumed_capacity.emplace_back();
        out.consumed_capacity.back().table_name = *s.name;
      }
    }
    // DynamoDB lists every requested table in Responses, with no items when none was found.
    bool listed = false;
    for (auto& [response_name, items] : out.responses) {
      if (response_name != *s.name) continue;
      listed = true;
      for (Item& item : s.found) items.push_back(std::move(item));
    }
    if (!listed) out.responses.emplace_back(*s.name, std::move(s.found));
  }
  return out;
}

// ---- The query cache ----

template <typename ResultT, typename Request, typename Lookup>
static Result<ResultT> CachedRead(CachedStore::Impl& impl, const Request& request,
                                  Result<ResultT> (Store::*pass)(const Request&), Lookup lookup) {
  if (request.consistent_read) return impl.Pass(pass, request);
  std::shared_ptr<CachedTable> table = impl.Table(request.table_name);
  if (!table) return impl.Pass(pass, request);
  impl.streams.Follow(*table);
  std::optional<Result<ResultT>> page = lookup(*table);
  if (!page) return impl.Pass(pass, request);
  return std::move(*page);
}

Result<QueryResult> CachedStore::Query(const QueryRequest& request) {
  return CachedRead(*impl_, request, &Store::Query,
                    [&](const CachedTable& t) { return impl_->pages.Query(t, request); });
}
Result<QueryViewResult> CachedStore::QueryView(const QueryRequest& request) {
  return CachedRead(*impl_, request, &Store::QueryView,
                    [&](const CachedTable& t) { return impl_->pages.QueryView(t, request); });
}
Result<ScanResult> CachedStore::Scan(const ScanRequest& request) {
  return CachedRead(*impl_, request, &Store::Scan,
                    [&](const CachedTable& t) { return impl_->pages.Scan(t, request); });
}
Result<ScanViewResult> CachedStore::ScanView(const ScanRequest& request) {
  return CachedRead(*impl_, request, &Store::ScanView,
                    [&](const CachedTable& t) { return impl_->pages.ScanView(t, request); });
}

// ---- Writes ----

Result<PutItemResult> CachedStore::PutItem(const PutItemRequest& request) {
  return impl_->WriteOne<PutItemResult>(
      request.table_name, request.item, std::nullopt,
      [&](Image* before, Image* after) -> Result<PutItemResult> {
        const bool ours = before != nullptr && (request.return_values == ReturnValue::kNone ||
                                                request.return_values == ReturnValue::kAllOld);
        if (!ours) return impl_->Pass(&Store::PutItem, request);
        PutItemRequest sent = request;
        sent.return_values = ReturnValue::kAllOld;
        Result<PutItemResult> result =
            cache::TimedCall(impl_->counters, [&] { return impl_->upstream.PutItem(sent); });
        if (!result.ok()) return result;
        *before = Image::FromOptional(result->attributes);
        *after = Image::Of(request.item);
        if (request.return_values == ReturnValue::kNone) result->attributes.reset();
        return result;
      });
}

Result<DeleteItemResult> CachedStore::DeleteItem(const DeleteItemRequest& request) {
  return impl_->WriteOne<DeleteItemResult>(
      request.table_name, request.key, std::nullopt,
      [&](Image* before, Image* after) -> Result<DeleteItemResult> {
        const bool ours = before != nullptr && (request.return_values == ReturnValue::kNone ||
                                                request.return_values == ReturnValue::kAllOld);
        if (!ours) return impl_->Pass(&Store::DeleteItem, request);
        DeleteItemRequest sent = request;
        sent.return_values = ReturnValue::kAllOld;
        Result<DeleteItemResult> result =
            cache::TimedCall(impl_->counters, [&] { return impl_->upstream.DeleteItem(sent); });
        if (!result.ok()) return result;
        *before = Image::FromOptional(result->attributes);
        *after = Image::Absent();
        if (request.return_values == ReturnValue::kNone) result->attributes.reset();
        return result;
      });
}

Result<UpdateItemResult> CachedStore::UpdateItem(const UpdateItemRequest& request) {
  return impl_->WriteOne<UpdateItemResult>(
      request.table_name, request.key, TouchedBy(request, impl_->expressions),
      [&](Image* before, Image* after) -> Result<UpdateItemResult> {
        if (before == nullptr) return impl_->Pass(&Store::UpdateItem, request);
        UpdateItemRequest sent = request;
        const bool want_new = request.return_values == ReturnValue::kNone ||
                              request.return_values == ReturnValue::kAllNew;
        if (want_new) sent.return_values = ReturnValue::kAllNew;
        Result<UpdateItemResult> result =
            cache::TimedCall(impl_->counters, [&] { return impl_->upstream.UpdateItem(sent); });
        if (!result.ok()) return result;
        if (want_new && result->attributes) *after = Image::Of(*result->attributes);
        if (request.return_values == ReturnValue::kAllOld) {
          *before = Image::FromOptional(result->attributes);
        }
        if (request.return_values == ReturnValue::kNone) result->attributes.reset();
        return result;
      });
}

Result<BatchWriteItemResult> CachedStore::BatchWriteItem(const BatchWriteItemRequest& request) {
  Impl& impl = *impl_;
  struct Write {
    std::shared_ptr<CachedTable> table;
    Item key;
    const WriteRequest* write;
    std::optional<ItemCache::WriteGuard> guard;
  };
  std::vector<Write> writes;
  for (const auto& [name, list] : request.request_items) {
    std::shared_ptr<CachedTable> table = impl.Table(name);
    if (!table) continue;
    impl.streams.Follow(*table);
    for (const WriteRequest& w : list) {
      std::optional<Item> key = KeyOf(*table, w.item);
      if (!key) continue;
      writes.push_back({table, *key, &w, std::nullopt});
    }
  }
  for (Write& w : writes) w.guard.emplace(impl.items.BeginWrite(w.table, w.key));
  CacheCounters::Add(impl.counters.writes);
  Result<BatchWriteItemResult> result =
      cache::TimedCall(impl.counters, [&] { return impl.upstream.BatchWriteItem(request); });
  if (!result.ok()) {
    if (MaybeApplied(result.status())) {
      for (Write& w : writes) {
        impl.pages.DropWrite(*w.table, w.key, Image::Unknown(), Image::Unknown(), nullptr);
      }
    }
    return result;  // the guards forget every key
  }
  for (Write& w : writes) {
    bool unprocessed = false;
    for (const auto& [name, list] : result->unprocessed_items) {
      if (name != w.table->name) continue;
      for (const WriteRequest& u : list) {
        std::optional<Item> key = KeyOf(*w.table, u.item);
        unprocessed |= key && *key == w.key;
      }
    }
    if (unprocessed) continue;  // not written: the guard forgets the key
    const Image after =
        w.write->kind == WriteRequest::Kind::kPut ? Image::Of(w.write->item) : Image::Absent();
    impl.pages.DropWrite(*w.table, w.key, Image::Unknown(), after, nullptr);
    w.guard->Finish(after);
  }
  return result;
}

Result<TransactWriteItemsResult> CachedStore::TransactWriteItems(
    const TransactWriteItemsRequest& request) {
  Impl& impl = *impl_;
  struct Write {
    std::shared_ptr<CachedTable> table;
    Item key;
    Image after;
    std::optional<std::vector<std::string>> touched;
    std::optional<ItemCache::WriteGuard> guard;
  };
  std::vector<Write> writes;
  for (const TransactWriteItem& action : request.transact_items) {
    const std::string* name = nullptr;
    const Item* item = nullptr;
    Image after;
    std::optional<std::vector<std::string>> touched;
    if (action.put) {
      name = &action.put->table_name;
      item = &action.put->item;
      after = Image::Of(action.put->item);
    } else if (action.del) {
      name = &action.del->table_name;
      item = &action.del->key;
      after = Image::Absent();
    } else if (action.update) {
      name = &action.update->table_name;
      item = &action.update->key;
      touched = TouchedBy(*action.update, impl.expressions);
    } else {
      continue;  // a ConditionCheck writes nothing
    }
    std::shared_ptr<CachedTable> table = impl.Table(*name);
    if (!table) continue;
    impl.streams.Follow(*table);
    std::optional<Item> key = KeyOf(*table, *item);
    if (!key) continue;
    writes.push_back({table, *key, std::move(after), std::move(touched), std::nullopt});
  }
  for (Write& w : writes) w.guard.emplace(impl.items.BeginWrite(w.table, w.key));
  CacheCounters::Add(impl.counters.writes);
  Result<TransactWriteItemsResult> result =
      cache::TimedCall(impl.counters, [&] { return impl.upstream.TransactWriteItems(request); });
  if (!result.ok()) {
    if (MaybeApplied(result.status())) {
      for (Write& w : writes) {
        impl.pages.DropWrite(*w.table, w.key, Image::Unknown(), Image::Unknown(),
                             w.touched ? &*w.touched : nullptr);
      }
    }
    return result;
  }
  for (Write& w : writes) {
    impl.pages.DropWrite(*w.table, w.key, Image::Unknown(), w.after,
                         w.touched ? &*w.touched : nullptr);
    w.guard->Finish(w.after);
  }
  return result;
}

}  // namespace partstore
