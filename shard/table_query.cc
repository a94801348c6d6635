// Table::Query: one item collection, a binary-searched range of sort keys, forward or backward,
// paged by ReadPage (Limit, 1 MB): the collection's stripe lock is held shared while the page's
// item handles are taken; filter, projection and result are built after it is released.
//
// Capacity (reference §2.2): the sizes of all items read (before the filter and the projection)
// summed, then rounded up to 4 KB once; 0.5x when eventually consistent.
#include <algorithm>
#include <string>

#include "core/capacity_units.h"
#include "core/expr/key_condition.h"
#include "core/expr/legacy.h"
#include "core/key_encoding.h"
#include "shard/prepared.h"
#include "shard/read_page.h"
#include "shard/table.h"

namespace partstore {

namespace {

// The encoded sort-key range of a key condition: keys k with lower <= k (or <) and k <= upper
// (or <), or k starting with `prefix`.
struct SortRange {
  std::optional<std::string> lower;
  bool lower_inclusive = true;
  std::optional<std::string> upper;
  bool upper_inclusive = true;
  std::optional<std::string> prefix;

  bool AboveLower(std::string_view k) const {
    if (!lower) return true;
    return lower_inclusive ? k >= *lower : k > *lower;
  }
  bool BelowUpper(std::string_view k) const {
    if (prefix) return k.starts_with(*prefix) || k < *prefix;
    if (!upper) return true;
    return upper_inclusive ? k <= *upper : k < *upper;
  }
};

// The smallest byte string greater than every string starting with `prefix`: the prefix without
// its trailing 0xFF bytes, last byte incremented. nullopt when there is none (all 0xFF).
std::optional<std::string> PrefixSuccessor(std::string prefix) {
  while (!prefix.empty() && static_cast<unsigned char>(prefix.back()) == 0xFF) prefix.pop_back();
  if (prefix.empty()) return std::nullopt;
  prefix.back() = static_cast<char>(static_cast<unsigned char>(prefix.back()) + 1);
  return prefix;
}

SortRange RangeOf(const expr::KeyCondition& condition) {
  SortRange range;
  auto enc = [](const Value* v) { return EncodeKey(*v); };
  switch (condition.sort_op) {
    case expr::SortKeyOp::kNone:
      break;
    case expr::SortKeyOp::kEq:
      range.lower = range.upper = enc(condition.sort_low);
      break;
    case expr::SortKeyOp::kLt:
      range.upper = enc(condition.sort_low);
      range.upper_inclusive = false;
      break;
    case expr::SortKeyOp::kLe:
      range.upper = enc(condition.sort_low);
      break;
    case expr::SortKeyOp::kGt:
      range.lower = enc(condition.sort_low);
      range.lower_inclusive = false;
      break;
    case expr::SortKeyOp::kGe:
      range.lower = enc(condition.sort_low);
      break;
    case expr::SortKeyOp::kBetween:
      range.lower = enc(condition.sort_low);
      range.upper = enc(condition.sort_high);
      break;
    case expr::SortKeyOp::kBeginsWith:
      // S and B keys encode as their bytes, so a prefix of the value is a prefix of the key.
      range.lower = range.prefix = enc(condition.sort_low);
      break;
  }
  return range;
}

}  // namespace

Result<QueryResult> Table::Query(const QueryRequest& request) const {
  PARTSTORE_ASSIGN_OR_RETURN(PreparedRead prepared, PrepareQuery(request, name_, cache()));
  return Query(request, prepared);
}

namespace {

// The entry-key range of a key condition on an index with a sort key: entry keys start with the
// escaped index sort key (secondary_index.h), so bounds are escaped values, and "everything
// equal to v" is the prefix E(v).
SortRange IndexRangeOf(const expr::KeyCondition& condition) {
  auto escaped = [](const Value* v) {
    std::string out;
    AppendEscapedComponent(EncodeKey(*v), &out);
    return out;
  };
  auto after = [&](const Value* v) {  // the first entry key above every one with sort key v
    std::string out = escaped(v);
    out.back() = '\x02';
    return out;
  };
  SortRange range;
  switch (condition.sort_op) {
    case expr::SortKeyOp::kNone:
      break;
    case expr::SortKeyOp::kEq:
      range.lower = range.prefix = escaped(condition.sort_low);
      break;
    case expr::SortKeyOp::kLt:
      range.upper = escaped(condition.sort_low);
      range.upper_inclusive = false;
      break;
    case expr::SortKeyOp::kLe:
      range.upper = after(condition.sort_low);
      range.upper_inclusive = false;
      break;
    case expr::SortKeyOp::kGt:
      range.lower = after(condition.sort_low);
      break;
    case expr::SortKeyOp::kGe:
      range.lower = escaped(condition.sort_low);
      break;
    case expr::SortKeyOp::kBetween:
      range.lower = escaped(condition.sort_low);
      range.upper = after(condition.sort_high);
      range.upper_inclusive = false;
      break;
    case expr::SortKeyOp::kBeginsWith: {
      std::string prefix = escaped(condition.sort_low);
      prefix.resize(prefix.size() - 2);  // without the terminator: a prefix of the value
      range.lower = range.prefix = std::move(prefix);
      break;
    }
  }
  return range;
}

}  // namespace

Status Table::CheckFilterNamesNoKey(const PreparedRead& prepared, const KeySchema& schema) const {
  if (!prepared.key_condition || !prepared.filter) return Status::Ok();
  std::vector<std::string> names;
  CollectTopLevelNames(*prepared.filter, &names);
  for (const KeySchema* keys_of : {&schema, &key_schema_}) {
    for (const KeyAttribute* attribute :
         {&keys_of->partition, keys_of->sort ? &*keys_of->sort : nullptr}) {
      if (attribute == nullptr) continue;
      for (const std::string& name : names) {
        if (name == attribute->name) {
          return Status::Validation(
              "Filter Expression can only contain non-primary key attributes: Primary key "
              "attribute: " +
              name);
        }
      }
    }
  }
  return Status::Ok();
}

Result<std::vector<std::string>> Table::QueryOrderKeys(std::string_view index_name,
                                                       std::span<const Item> items) const {
  std::vector<std::string> out;
  out.reserve(items.size());
  if (index_name.empty()) {
    for (const Item& item : items) {
      if (!key_schema_.sort) {
        out.emplace_back();
        continue;
      }
      auto sort = item.find(key_schema_.sort->name);
      if (sort == item.end()) return Status::Validation("The item has no sort key");
      out.push_back(EncodeKey(sort->second));
    }
    return out;
  }
  std::shared_ptr<SecondaryIndex> index = FindIndex(index_name);
  if (index == nullptr) {
    return Status::Validation("The table does not have the specified index: " +
                              std::string(index_name));
  }
  for (const Item& item : items) {
    PARTSTORE_ASSIGN_OR_RETURN(EncodedKey key, EncodeItemKeyOfItem(item));
    std::optional<SecondaryIndex::EntryKey> entry = index->KeyOf(item, key.partition, key.sort);
    if (!entry)
      return Status::Validation("The item has no key in index " + std::string(index_name));
    out.push_back(std::move(entry->entry));
  }
  return out;
}

Result<Item> Table::QueryLastEvaluatedKey(std::string_view index_name, const Item& item) const {
  if (index_name.empty()) return KeyOf(item);
  std::shared_ptr<SecondaryIndex> index = FindIndex(index_name);
  if (index == nullptr) {
    return Status::Validation("The table does not have the specified index: " +
                              std::string(index_name));
  }
  return IndexKeyOf(*index, item);
}

Result<QueryResult> Table::Query(const QueryRequest& request, const PreparedRead& prepared,
                                 TableQueryOptions options) const {
  PARTSTORE_ASSIGN_OR_RETURN(PendingPage page, ReadQuery(request, prepared, options));
  return std::move(page).Finish();
}

Result<QueryViewResult> Table::QueryView(const QueryRequest& request, const PreparedRead& prepared,
                                         TableQueryOptions options) const {
  PARTSTORE_ASSIGN_OR_RETURN(PendingPage page, ReadQuery(request, prepared, options));
  return std::move(page).FinishStored();
}

Item Table::QueryPartitionKey(const QueryRequest& request, const PreparedRead& prepared) const {
  Item out;
  std::shared_ptr<SecondaryIndex> index;
  if (request.index_name) {
    index = FindIndex(*request.index_name);
    if (index == nullptr) return out;
  }
  const KeySchema& schema = index ? index->definition().key : key_schema_;
  expr::Condition legacy;
  const expr::Condition* condition = nullptr;
  if (prepared.key_condition) {
    condition = &*prepared.key_condition;
  } else if (request.key_conditions) {
    auto translated = expr::TranslateKeyConditions(*request.key_conditions, schema);
    if (!translated.ok()) return out;
    legacy = std::move(*translated);
    condition = &legacy;
  }
  if (condition == nullptr) return out;
  auto keys = expr::AnalyzeKeyCondition(*condition, schema);
  if (keys.ok() && keys->partition != nullptr) out.emplace(schema.partition.name, *keys->partition);
  return out;
}

Result<PendingPage> Table::ReadQuery(const QueryRequest& request, const PreparedRead& prepared,
                                     TableQueryOptions options) const {
  // What is read: the table, or an index (its key schema, its stripes).
  std::shared_ptr<SecondaryIndex> index;
  if (request.index_name) {
    index = FindIndex(*request.index_name);
    if (index == nullptr) {
      return Status::Validation("The table does not have the specified index: " +
                                *request.index_name);
    }
    PARTSTORE_RETURN_IF_ERROR(CheckIndexRead(*index, prepared, request.consistent_read));
  }
  const KeySchema& schema = index ? index->definition().key : key_schema_;
  const StripeSet& stripes = index ? index->stripes() : stripes_;

  // DynamoDB checks the start key's size and partition key attribute before the key condition
  // (dynalite test/query.js: a mistyped partition key wins over a key condition on a non-key
  // attribute, a mistyped sort key does not).
  if (request.exclusive_start_key) {
    PARTSTORE_RETURN_IF_ERROR(
        CheckQueryStartKeyPartition(*request.exclusive_start_key, index.get()));
  }

  // The key condition, against the key schema.
  expr::Condition legacy_key_condition;
  const expr::Condition* key_condition = nullptr;
  if (prepared.key_condition) {
    key_condition = &*prepared.key_condition;
  } else {
    if (prepared.query_filter != nullptr) {
      PARTSTORE_RETURN_IF_ERROR(expr::CheckQueryFilterKeys(*prepared.query_filter, schema));
    }
    PARTSTORE_ASSIGN_OR_RETURN(legacy_key_condition,
                               expr::TranslateKeyConditions(*request.key_conditions, schema));
    key_condition = &legacy_key_condition;
  }
  PARTSTORE_ASSIGN_OR_RETURN(expr::KeyCondition keys,
                             expr::AnalyzeKeyCondition(*key_condition, schema));
  PARTSTORE_RETURN_IF_ERROR(CheckFilterNamesNoKey(prepared, schema));

  std::string partition;
  AppendKeyEncoding(*keys.partition, &partition);
  const uint64_t hash = HashPartitionKey(partition);

  // ExclusiveStartKey -> the entry key to continue after. Texts: dynalite test/query.js (recorded
  // against DynamoDB).
  std::optional<std::string> start;
  if (request.exclusive_start_key) {
    const Item& esk = *request.exclusive_start_key;
    std::string esk_partition;
    if (index) {
      PARTSTORE_ASSIGN_OR_RETURN(SecondaryIndex::EntryKey entry, DecodeIndexStartKey(*index, esk));
      esk_partition = std::move(entry.partition);
      start = std::move(entry.entry);
    } else {
      PARTSTORE_ASSIGN_OR_RETURN(EncodedKey decoded, DecodeStartKey(esk, StartKeyUse::kQuery));
      esk_partition = std::move(decoded.partition);
      start = std::move(decoded.sort);
    }
    if (esk_partition != partition) {
      return Status::Validation(
          "The provided starting key is outside query boundaries based on provided conditions");
    }
    if (schema.sort && !keys.MatchesSortKey(esk.find(schema.sort->name)->second)) {
      return Status::Validation("The provided starting key does not match the range key predicate");
    }
  }

  // Simulated capacity: a GSI's partitions, or the table's (LSIs included).
  const std::string_view capacity_name =
      index && index->global() ? std::string_view(index->name()) : std::string_view();
  Item key_source;
  capacity::KeyAccess access;
  if (capacity_) {
    key_source.emplace(schema.partition.name, *keys.partition);
    access = {partition, partition, &key_source};
    PARTSTORE_RETURN_IF_ERROR(capacity_->AdmitRead(capacity_name, hash, &access));
  }

  const bool forward = request.scan_index_forward.value_or(true);
  const SortRange range = index && schema.sort ? IndexRangeOf(keys) : RangeOf(keys);
  // An LSI read of attributes its entries do not carry fetches the base items (charged per item):
  // Select ALL_ATTRIBUTES, or a ProjectionExpression naming an attribute the index does not
  // project (DynamoDB's "Local Secondary Indexes" page: "If you query a local secondary index and
  // request attributes that are not projected into the index, DynamoDB automatically fetches those
  // attributes from the base table").
  auto wants_unprojected = [&] {
    if (prepared.select == Select::kAllAttributes) return true;
    if (!prepared.projection) return false;
    return std::any_of(prepared.projection->paths.begin(), prepared.projection->paths.end(),
                       [&](const expr::Path& path) { return !index->Projects(path.top()); });
  };
  const bool fetch = index && !index->global() &&
                     index->definition().projection != ProjectionType::kAll && wants_unprojected();
  ReadPage page(prepared.filter, prepared.projection, prepared.select, request.limit);
  std::vector<StoredItem> fetched_entries;  // entries whose base items are read after the lock
  StoredItem last;  // the item a full page stopped at (its key is the LastEvaluatedKey)
  uint64_t entry_bytes = 0;
  // Under the lock only handles are taken; keys, filters and projections are built after it.
  const Expiry expiry = CacheExpiry();
  auto read = [&](const StoredItem& item) {
    if (expiry.Expired(item)) return;  // cache mode: gone (entries without the attribute: below)
    if (fetch) {
      entry_bytes += item.item_size();
      fetched_entries.push_back(item);
      if (fetched_entries.size() >= static_cast<size_t>(request.limit.value_or(INT32_MAX)) ||
          entry_bytes >= kMaxPageBytes) {
        last = item;
      }
      return;
    }
    page.Add(item);
    if (page.full()) last = item;
  };
  auto full = [&] { return !last.empty(); };
  // The item at a cursor: a KEYS_ONLY index's entries are rebuilt from their keys.
  const bool rebuild = index && index->entries_are_keys();
  auto read_at = [&](const ItemCollection::Cursor& cursor) {
    if (rebuild) {
      read(index->EntryItem(partition, cursor.key(), cursor.item()));
    } else {
      read(cursor.item());
    }
  };
  {
    const Stripe& stripe = stripes.ForHash(hash);
    Stripe::ReadLock lock(stripe);
    const ItemCollection* collection = stripe.Find({hash, partition});
    if (collection != nullptr && !index) collection->Touch(memory_->Touch());
    if (collection != nullptr && !collection->empty()) {
      ItemCollection::Cursor cursor = collection->NewCursor();
      if (forward) {
        if (start) {
          options.start_inclusive ? cursor.Seek(*start) : cursor.SeekAfter(*start);
          if (range.lower && cursor.valid() && !range.AboveLower(cursor.key())) {
            range.lower_inclusive ? cursor.Seek(*range.lower) : cursor.SeekAfter(*range.lower);
          }
        } else if (range.lower) {
          range.lower_inclusive ? cursor.Seek(*range.lower) : cursor.SeekAfter(*range.lower);
        } else {
          cursor.SeekToFirst();
        }
        for (; cursor.valid() && !full() && range.BelowUpper(cursor.key()) &&
               (!range.prefix || cursor.key().starts_with(*range.prefix));
             cursor.Next()) {
          read_at(cursor);
        }
      } else {
        // Backward: from the last key within the upper bound (and before the start key).
        if (range.prefix) {
          // The last key starting with the prefix: the one before the prefix's successor.
          if (std::optional<std::string> successor = PrefixSuccessor(*range.prefix)) {
            cursor.SeekBefore(*successor);
          } else {
            cursor.SeekToLast();
          }
        } else if (range.upper) {
          range.upper_inclusive ? cursor.SeekForPrev(*range.upper)
                                : cursor.SeekBefore(*range.upper);
        } else {
          cursor.SeekToLast();
        }
        if (start && cursor.valid() &&
            (options.start_inclusive ? cursor.key() > *start : cursor.key() >= *start)) {
          options.start_inclusive ? cursor.SeekForPrev(*start) : cursor.SeekBefore(*start);
        }
        for (; cursor.valid() && !full() && range.AboveLower(cursor.key()); cursor.Prev()) {
          read_at(cursor);
        }
      }
    }
  }

  const ReadConsistency consistency =
      request.consistent_read ? ReadConsistency::kStrong : ReadConsistency::kEventual;
  int64_t fetch_half_units = 0;
  if (fetch) {
    // After the index lock (lock order: never a base stripe while an index stripe is held).
    for (const StoredItem& entry : fetched_entries) {
      StoredItem item = ReadBaseItem(entry);
      fetch_half_units += ReadHalfUnits(item ? item.item_size() : 0, consistency);
      if (item) page.Add(std::move(item));
    }
  }
  if (!fetch) DropExpiredEntries(index.get(), expiry, &page);
  std::optional<Item> last_key;
  if (last) last_key = index ? IndexKeyOf(*index, last) : KeyOf(last);
  const uint64_t bytes = fetch ? entry_bytes : page.bytes();
  page.Filter();
  const int64_t half_units = ReadHalfUnits(bytes, consistency) + fetch_half_units;
  if (capacity_) {
    capacity_->ChargeRead(capacity_name, hash, half_units, page.count(), &access);
  }
  PendingPage out{std::move(page), std::move(last_key),
                  ReportReadCapacity(request.return_consumed_capacity, index.get(), half_units),
                  std::nullopt};
  if (fetch) out.scanned_count = static_cast<int32_t>(fetched_entries.size());
  return out;
}

}  // namespace partstore
