// Table::Query: one item collection, a binary-searched range of sort keys, forward or backward,
// paged by ReadPage (Limit, 1 MB) under the collection's stripe lock held shared.
//
// Capacity (reference §2.2): the sizes of all items read (before the filter and the projection)
// summed, then rounded up to 4 KB once; 0.5x when eventually consistent.
#include <string>

#include "core/expr/key_condition.h"
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

Result<QueryResult> Table::Query(const QueryRequest& request, const PreparedRead& prepared) const {
  if (request.index_name) {
    return Status::Validation("The table does not have the specified index: " +
                              *request.index_name);
  }

  // The key condition, against the key schema.
  expr::Condition legacy_key_condition;
  const expr::Condition* key_condition = nullptr;
  if (prepared.key_condition) {
    key_condition = &*prepared.key_condition;
  } else {
    if (prepared.query_filter != nullptr) {
      PARTSTORE_RETURN_IF_ERROR(expr::CheckQueryFilterKeys(*prepared.query_filter, key_schema_));
    }
    PARTSTORE_ASSIGN_OR_RETURN(legacy_key_condition,
                               expr::TranslateKeyConditions(*request.key_conditions, key_schema_));
    key_condition = &legacy_key_condition;
  }
  PARTSTORE_ASSIGN_OR_RETURN(expr::KeyCondition keys,
                             expr::AnalyzeKeyCondition(*key_condition, key_schema_));
  if (prepared.key_condition && prepared.filter) {
    std::vector<std::string> names;
    CollectTopLevelNames(*prepared.filter, &names);
    for (const KeyAttribute* attribute :
         {&key_schema_.partition, key_schema_.sort ? &*key_schema_.sort : nullptr}) {
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

  std::string partition;
  AppendKeyEncoding(*keys.partition, &partition);
  const uint64_t hash = HashPartitionKey(partition);

  std::optional<EncodedKey> start;
  if (request.exclusive_start_key) {
    PARTSTORE_ASSIGN_OR_RETURN(EncodedKey decoded, DecodeStartKey(*request.exclusive_start_key, StartKeyUse::kQuery));
    // Texts: nubo-db/dynamodb-conformance query tests (live DynamoDB).
    if (decoded.partition != partition) {
      return Status::Validation(
          "The provided starting key is outside query boundaries based on provided conditions");
    }
    if (key_schema_.sort &&
        !keys.MatchesSortKey(request.exclusive_start_key->find(key_schema_.sort->name)->second)) {
      return Status::Validation("The provided starting key does not match the range key predicate");
    }
    start = std::move(decoded);
  }

  const bool forward = request.scan_index_forward.value_or(true);
  const SortRange range = RangeOf(keys);
  ReadPage page(prepared.filter, prepared.projection, prepared.select, request.limit);
  std::optional<Item> last_key;
  {
    const Stripe& stripe = stripes_.ForHash(hash);
    std::shared_lock lock(stripe.mu);
    const ItemCollection* collection = stripe.Find({hash, partition});
    if (collection != nullptr && !collection->empty()) {
      ItemCollection::ConstCursor cursor = collection->NewCursor();
      if (forward) {
        if (start) {
          cursor.SeekAfter(start->sort);
          if (range.lower && cursor.valid() && !range.AboveLower(cursor.key())) {
            range.lower_inclusive ? cursor.Seek(*range.lower) : cursor.SeekAfter(*range.lower);
          }
        } else if (range.lower) {
          range.lower_inclusive ? cursor.Seek(*range.lower) : cursor.SeekAfter(*range.lower);
        } else {
          cursor.SeekToFirst();
        }
        for (; cursor.valid() && !page.full() && range.BelowUpper(cursor.key()) &&
               (!range.prefix || cursor.key().starts_with(*range.prefix));
             cursor.Next()) {
          page.Add(cursor.item());
          if (page.full()) last_key = KeyOf(cursor.item());
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
        if (start && cursor.valid() && cursor.key() >= start->sort) cursor.SeekBefore(start->sort);
        for (; cursor.valid() && !page.full() && range.AboveLower(cursor.key()); cursor.Prev()) {
          page.Add(cursor.item());
          if (page.full()) last_key = KeyOf(cursor.item());
        }
      }
    }
  }

  const uint64_t bytes = page.bytes();
  QueryResult result = std::move(page).Finish();
  result.last_evaluated_key = std::move(last_key);
  CapacityCharge charge;
  charge.table_half_units = ReadHalfUnits(
      bytes, request.consistent_read ? ReadConsistency::kStrong : ReadConsistency::kEventual);
  result.consumed_capacity = ReportCapacity(request.return_consumed_capacity, name_, charge);
  return result;
}

}  // namespace partstore
