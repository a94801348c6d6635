// QueryCache: see query_cache.h.
#include "cache/query_cache.h"

#include <fmt/format.h>
#include <xxhash.h>

#include <charconv>
#include <cstring>
#include <string>
#include <utility>

#include "cache/counters.h"
#include "core/expr/key_condition.h"
#include "core/expr/legacy.h"
#include "core/key_encoding.h"
#include "shard/prepared.h"
#include "shard/table.h"
#include "tools/protocol/client_data_json.h"

namespace partstore::cache {

struct QueryCache::Group {
  std::string hash;  // 16 bytes: the pages' partition key
  size_t slot = 0;
  int index = -1;
};

namespace {

std::string Hash128(std::string_view bytes) {
  const XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
  std::string out(16, '\0');
  std::memcpy(out.data(), &h.low64, 8);
  std::memcpy(out.data() + 8, &h.high64, 8);
  return out;
}

std::string GroupKey(const CachedTable& table, int index, char kind, const Value* partition) {
  std::string key = fmt::format("{}\x1f{}\x1f{}", table.items_name, index, kind);
  if (partition != nullptr) AppendKeyEncoding(*partition, &key);
  return key;
}

std::string Generations(uint64_t group, uint64_t index) {
  std::string out(16, '\0');
  std::memcpy(out.data(), &group, 8);
  std::memcpy(out.data() + 8, &index, 8);
  return out;
}

int32_t ReadCount(const StoredItem& page, std::string_view name) {
  std::optional<ValueView> v = page.Find(name);
  int32_t n = 0;
  if (v && v->is(Type::kN)) {
    std::string_view text = v->number_text();
    std::from_chars(text.data(), text.data() + text.size(), n);
  }
  return n;
}

template <typename ItemT>
ItemT PageItem(const ValueView& value) {
  if constexpr (std::is_same_v<ItemT, StoredItem>) {
    return StoredItem::Encode(value.as_map().ToMap());
  } else {
    return value.as_map().ToMap();
  }
}

template <typename ItemT>
Item ToItem(const ItemT& item) {
  if constexpr (std::is_same_v<ItemT, StoredItem>) {
    return item.ToItem();
  } else {
    return item;
  }
}

}  // namespace

QueryCache::QueryCache(Store& upstream, const capacity::Clock& clock, CacheCounters& counters,
                       expr::ExpressionCache& expressions, double ttl)
    : upstream_(upstream),
      clock_(clock),
      counters_(counters),
      expressions_(expressions),
      ttl_micros_(static_cast<int64_t>(ttl * 1e6)),
      slots_(std::make_unique<std::atomic<uint64_t>[]>(kSlots)) {}

template <typename Page, typename Request, typename Read>
std::optional<Result<Page>> QueryCache::Run(const CachedTable& table, const Request& request,
                                            const Group& group, const std::string& request_json,
                                            Read read) {
  using ItemT = typename decltype(Page::items)::value_type;
  const std::string generations =
      Generations(slots_[group.slot].load(std::memory_order_acquire),
                  table.generations[group.index + 1].load(std::memory_order_acquire));
  Item page_key{{"c", Value::Binary(group.hash)}, {"r", Value::Binary(Hash128(request_json))}};
  Result<GetItemViewResult> cached = table.pages->GetItemView(
      {.table_name = table.pages_name, .key = page_key}, PreparedProjection{});
  if (cached.ok() && cached->item && !Expired(*cached->item, clock_.NowMicros())) {
    const StoredItem& stored = *cached->item;
    std::optional<ValueView> g = stored.Find("g");
    if (g && g->is(Type::kB) && g->as_binary() == generations) {
      CacheCounters::Add(counters_.query_hits);
      Page page;
      if (std::optional<ValueView> items = stored.Find("i"); items && items->is(Type::kL)) {
        for (const ValueView& item : items->as_list()) page.items.push_back(PageItem<ItemT>(item));
      }
      page.count = ReadCount(stored, "n");
      page.scanned_count = ReadCount(stored, "s");
      if (std::optional<ValueView> k = stored.Find("k"); k && k->is(Type::kM)) {
        page.last_evaluated_key = k->as_map().ToMap();
      }
      if (std::optional<ValueView> o = stored.Find("o"); o && o->is(Type::kBool)) {
        page.items_omitted = o->as_bool();
      }
      page.consumed_capacity = ZeroCapacity(table.name, request.return_consumed_capacity);
      return page;
    }
  }
  CacheCounters::Add(counters_.query_misses);
  Result<Page> page = TimedCall(counters_, read);
  if (!page.ok()) return page;

  PutItemRequest put{.table_name = table.pages_name, .item = std::move(page_key)};
  ValueList items;
  items.reserve(page->items.size());
  for (const ItemT& item : page->items) items.push_back(Value::Map(ToItem(item)));
  put.item.emplace("g", Value::Binary(generations));
  put.item.emplace("i", Value::List(std::move(items)));
  put.item.emplace("n", Value(Number::FromInt64(page->count)));
  put.item.emplace("s", Value(Number::FromInt64(page->scanned_count)));
  if (page->last_evaluated_key) put.item.emplace("k", Value::Map(*page->last_evaluated_key));
  if (page->items_omitted) put.item.emplace("o", Value(true));
  put.item.emplace(std::string(kExpiresAttribute), ExpiryValue(clock_.NowMicros() + ttl_micros_));
  if (!table.pages->PutItem(put).ok()) CacheCounters::Add(counters_.uncacheable_pages);
  return page;
}

std::optional<QueryCache::Group> QueryCache::QueryGroup(const CachedTable& table,
                                                        const QueryRequest& request) {
  Result<PreparedRead> prepared = PrepareQuery(request, request.table_name, &expressions_);
  if (!prepared.ok()) return std::nullopt;
  int index = -1;
  if (request.index_name) {
    index = table.FindIndex(*request.index_name);
    if (index < 0) return std::nullopt;
  }
  const KeySchema& schema = index < 0 ? table.key : table.indexes[index].key;
  expr::Condition legacy;
  const expr::Condition* condition = nullptr;
  if (prepared->key_condition) {
    condition = &*prepared->key_condition;
  } else if (request.key_conditions) {
    Result<expr::Condition> translated =
        expr::TranslateKeyConditions(*request.key_conditions, schema);
    if (!translated.ok()) return std::nullopt;
    legacy = std::move(*translated);
    condition = &legacy;
  }
  if (condition == nullptr) return std::nullopt;
  Result<expr::KeyCondition> keys = expr::AnalyzeKeyCondition(*condition, schema);
  if (!keys.ok() || keys->partition == nullptr) return std::nullopt;
  const std::string key = GroupKey(table, index, 'q', keys->partition);
  Group group{.hash = Hash128(key), .index = index};
  group.slot = XXH3_64bits(key.data(), key.size()) % kSlots;
  return group;
}

std::optional<QueryCache::Group> QueryCache::ScanGroup(const CachedTable& table,
                                                       const ScanRequest& request) {
  Result<PreparedRead> prepared = PrepareScan(request, request.table_name, &expressions_);
  if (!prepared.ok()) return std::nullopt;
  int index = -1;
  if (request.index_name) {
    index = table.FindIndex(*request.index_name);
    if (index < 0) return std::nullopt;
  }
  const std::string key = GroupKey(table, index, 's', nullptr);
  Group group{.hash = Hash128(key), .index = index};
  group.slot = XXH3_64bits(key.data(), key.size()) % kSlots;
  return group;
}

std::optional<Result<QueryResult>> QueryCache::Query(const CachedTable& table,
                                                     const QueryRequest& request) {
  std::optional<Group> group = QueryGroup(table, request);
  if (!group) return std::nullopt;
  return Run<QueryResult>(table, request, *group, protocol::EncodeQueryRequest(request),
                          [&] { return upstream_.Query(request); });
}

std::optional<Result<QueryViewResult>> QueryCache::QueryView(const CachedTable& table,
                                                             const QueryRequest& request) {
  std::optional<Group> group = QueryGroup(table, request);
  if (!group) return std::nullopt;
  return Run<QueryViewResult>(table, request, *group, protocol::EncodeQueryRequest(request),
                              [&] { return upstream_.QueryView(request); });
}

std::optional<Result<ScanResult>> QueryCache::Scan(const CachedTable& table,
                                                   const ScanRequest& request) {
  std::optional<Group> group = ScanGroup(table, request);
  if (!group) return std::nullopt;
  return Run<ScanResult>(table, request, *group, protocol::EncodeScanRequest(request),
                         [&] { return upstream_.Scan(request); });
}

std::optional<Result<ScanViewResult>> QueryCache::ScanView(const CachedTable& table,
                                                           const ScanRequest& request) {
  std::optional<Group> group = ScanGroup(table, request);
  if (!group) return std::nullopt;
  return Run<ScanViewResult>(table, request, *group, protocol::EncodeScanRequest(request),
                             [&] { return upstream_.ScanView(request); });
}

void QueryCache::Bump(const std::string& group_key) {
  slots_[XXH3_64bits(group_key.data(), group_key.size()) % kSlots].fetch_add(
      1, std::memory_order_acq_rel);
  CacheCounters::Add(counters_.page_invalidations);
}

void QueryCache::DropPartition(const CachedTable& table, int index, const Value& partition) {
  Bump(GroupKey(table, index, 'q', &partition));
}

void QueryCache::DropScans(const CachedTable& table) {
  for (int i = -1; i < static_cast<int>(table.indexes.size()); ++i) {
    Bump(GroupKey(table, i, 's', nullptr));
  }
}

void QueryCache::DropIndex(const CachedTable& table, int index) {
  table.generations[index + 1].fetch_add(1, std::memory_order_acq_rel);
  CacheCounters::Add(counters_.page_invalidations);
}

void QueryCache::DropWrite(const CachedTable& table, const Item& key, const Image& before,
                           const Image& after, const std::vector<std::string>* touched) {
  if (auto it = key.find(table.key.partition.name); it != key.end()) {
    DropPartition(table, -1, it->second);
  }
  DropScans(table);
  auto is_touched = [&](const std::string& name) {
    if (touched == nullptr) return true;
    for (const std::string& t : *touched) {
      if (t == name) return true;
    }
    return false;
  };
  for (size_t i = 0; i < table.indexes.size(); ++i) {
    const KeySchema& index_key = table.indexes[i].key;
    const bool keys_touched = is_touched(index_key.partition.name) ||
                              (index_key.sort && is_touched(index_key.sort->name));
    const bool known = before.kind != Image::Kind::kUnknown && after.kind != Image::Kind::kUnknown;
    const bool one_known =
        before.kind != Image::Kind::kUnknown || after.kind != Image::Kind::kUnknown;
    if (!known && (keys_touched || !one_known)) {
      DropIndex(table, static_cast<int>(i));
      continue;
    }
    // Both images known, or one known and the index's keys the same in both.
    for (const Image* image : {&before, &after}) {
      if (image->kind != Image::Kind::kItem) continue;
      auto it = image->item.find(index_key.partition.name);
      if (it != image->item.end()) DropPartition(table, static_cast<int>(i), it->second);
    }
  }
}

}  // namespace partstore::cache
