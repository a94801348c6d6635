// The simulation driver: set-up, the event loop on the manual clock, and one function per
// operation kind that builds the request, sends it to the Database and classifies the answer.
#include "tools/simulator/simulation.h"

#include <algorithm>
#include <boost/container/small_vector.hpp>
#include <chrono>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/error_detail.h"
#include "shard/database.h"
#include "tools/simulator/client_tally.h"
#include "tools/simulator/key_chooser.h"
#include "tools/simulator/random.h"
#include "tools/simulator/report_builder.h"

namespace partstore::sim {
namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

constexpr std::string_view kPadAttribute = kPaddingAttribute;

int64_t DrawSize(const SizeDistribution& size, Random& random) {
  switch (size.kind) {
    case SizeDistribution::Kind::kFixed:
      return size.bytes;
    case SizeDistribution::Kind::kUniform:
      return size.min +
             static_cast<int64_t>(random.Below(static_cast<uint64_t>(size.max - size.min + 1)));
    case SizeDistribution::Kind::kNormal: {
      const double drawn = size.mean + size.stddev * random.Normal();
      return std::clamp<int64_t>(static_cast<int64_t>(std::llround(drawn)), size.min, size.max);
    }
  }
  return size.bytes;
}

// Pads `item` with the "data" attribute so that ItemSize reaches `bytes` (when it is not there
// already).
void PadTo(Item& item, int64_t bytes) {
  item.erase(std::string(kPadAttribute));
  const int64_t have =
      static_cast<int64_t>(ItemSize(item)) + static_cast<int64_t>(kPadAttribute.size());
  if (bytes > have) {
    item.insert_or_assign(std::string(kPadAttribute),
                          Value(std::string(static_cast<size_t>(bytes - have), 'x')));
  }
}

// The key attributes of a table (or of the index a query reads).
struct KeyNames {
  std::string partition;
  std::optional<std::string> sort;
};

// What one request is about: the values its templates are expanded with.
struct RequestSpec {
  int64_t key = 0;
  int64_t item = 0;
  int64_t seq = 0;
  int64_t time_millis = 0;
  int64_t size = 0;  // drawn once, so that a retry sends the same item (0: draw when needed)
};

enum class Outcome : uint8_t { kServed, kThrottled, kThrottledFinal, kConditionFailed, kError };

struct Attempt {
  Outcome outcome = Outcome::kServed;
  std::string error;  // kError
  // A batch's unprocessed part (what a retry sends).
  std::unique_ptr<BatchWriteItemRequest> unprocessed_writes;
  std::unique_ptr<BatchGetItemRequest> unprocessed_reads;
};

// A request waiting for its retry.
struct Pending {
  int64_t due = 0;
  uint64_t order = 0;  // ties in `due` keep their scheduling order
  int32_t phase = 0;
  int32_t entry = 0;
  int32_t attempt = 0;  // attempts made so far
  int64_t first_micros = 0;
  // The request's items (one for single-item operations).
  boost::container::small_vector<RequestSpec, 1> specs;
  std::unique_ptr<BatchWriteItemRequest> writes;
  std::unique_ptr<BatchGetItemRequest> reads;
};
struct PendingLater {
  bool operator()(const Pending& a, const Pending& b) const {
    return a.due != b.due ? a.due > b.due : a.order > b.order;
  }
};

// One entry of a phase's mix, ready to send: its key chooser and reusable requests.
struct Entry {
  const Operation* op = nullptr;
  KeyChooser keys;
  // The table, looked up once: plain (unsharded) requests go to it directly, skipping the
  // Database's catalogue lookup.
  std::shared_ptr<Table> table;
  KeyNames table_keys;  // the table's
  KeyNames read_keys;   // the queried table's or index's
  int64_t seq = 0;
  std::optional<Item> scan_cursor;
  std::string query_expression;
  std::string update_expression;
  // Reused by every GetItem / PutItem of the entry: its strings keep their buffers, so a request
  // costs no allocation to build (the engine copies what it stores).
  GetItemRequest get;
  PutItemRequest put;
};

class Driver {
 public:
  Driver(const Workload& workload, Database& db, std::shared_ptr<capacity::ManualClock> clock)
      : w_(workload), db_(db), clock_(std::move(clock)), random_(workload.seed) {
    sharded_ = !w_.sharding.empty();
    for (const Phase& phase : w_.phases) sharded_ = sharded_ || !phase.sharding.empty();
    tally_.operations.resize(w_.phases.size());
    tally_.delays.resize(w_.phases.size());
  }

  Status SetUp(SimulationCost* cost);
  void Run(const SimulateOptions& options, SimulationCost* cost);
  const ClientTally& tally() const { return tally_; }

 private:
  KeyNames NamesOf(const std::string& table, const std::optional<std::string>& index) const;
  Status SetPolicies(const std::vector<ShardingSpec>& specs);
  // What the sharded operations cannot do with a workload's policies, refused up front.
  Status CheckShardedOperations() const;
  void AdvanceTo(int64_t micros) {
    const int64_t now = clock_->NowMicros();
    if (micros > now) clock_->Advance(micros - now);
  }

  // Sends a new request of `entry` at `now`, or a retry.
  void Offer(int32_t phase, int32_t entry, int64_t now);
  void Retry(Pending pending);
  void Send(Pending pending, int64_t now);
  Attempt Execute(Entry& entry, Pending& pending);
  int64_t Backoff(int32_t retries_so_far);

  // Item building.
  void Expand(const Template& t, const RequestSpec& spec, std::string& out) const {
    out.clear();
    t.Expand({spec.key, spec.item, spec.seq, spec.time_millis}, out);
  }
  Item KeyOf(const Entry& entry, const RequestSpec& spec);
  static void SetString(Item& item, const std::string& name, const Template& t,
                        const RequestSpec& spec);
  Item ItemOf(const Entry& entry, const RequestSpec& spec);

  Attempt Classify(const Status& status);
  Attempt Get(Entry& entry, const RequestSpec& spec);
  Attempt Put(Entry& entry, const RequestSpec& spec);
  Attempt Update(Entry& entry, const RequestSpec& spec);
  Attempt Delete(Entry& entry, const RequestSpec& spec);
  Attempt Query(Entry& entry, const RequestSpec& spec);
  Attempt Scan(Entry& entry);
  Attempt BatchWrite(Entry& entry, Pending& pending);
  Attempt BatchGet(Entry& entry, Pending& pending);
  Attempt TransactWrite(Entry& entry, const Pending& pending);
  Attempt TransactGet(Entry& entry, const Pending& pending);

  const Workload& w_;
  Database& db_;
  std::shared_ptr<capacity::ManualClock> clock_;
  Random random_;
  bool sharded_ = false;
  std::vector<std::vector<Entry>> entries_;  // [phase][mix entry]
  std::vector<Pending> retries_;             // a heap by PendingLater
  uint64_t order_ = 0;
  int64_t attempts_ = 0;
  ClientTally tally_;
  std::string scratch_;
};

KeyNames Driver::NamesOf(const std::string& table, const std::optional<std::string>& index) const {
  for (const TableSpec& t : w_.tables) {
    if (t.name != table) continue;
    if (!index) return {t.partition_key, t.sort_key};
    for (const IndexSpec& i : t.indexes) {
      if (i.name == *index) return {i.partition_key, i.sort_key};
    }
  }
  return {};
}

Status Driver::SetPolicies(const std::vector<ShardingSpec>& specs) {
  for (const ShardingSpec& spec : specs) {
    auto put = db_.PutShardingPolicy({.table_name = spec.table, .policy = spec.policy});
    if (!put.ok()) {
      return Status(put.status().code(), "sharding policy on " + spec.table + " (" +
                                             spec.policy.key +
                                             "): " + std::string(put.status().message()));
    }
  }
  return Status::Ok();
}

Status Driver::CheckShardedOperations() const {
  std::vector<const ShardingSpec*> specs;
  for (const ShardingSpec& s : w_.sharding) specs.push_back(&s);
  for (const Phase& phase : w_.phases) {
    for (const ShardingSpec& s : phase.sharding) specs.push_back(&s);
  }
  for (const Phase& phase : w_.phases) {
    for (size_t e = 0; e < phase.mix.size(); ++e) {
      const Operation& op = phase.mix[e];
      const std::string where = "phase " + phase.name + ", " + std::string(OpKindName(op.kind)) +
                                " on " + op.table + " (mix entry " + std::to_string(e + 1) + ")";
      for (const ShardingSpec* s : specs) {
        if (s->table != op.table) continue;
        if (op.kind == OpKind::kBatchGet || op.kind == OpKind::kTransactGet) {
          return Status::Validation(where +
                                    ": the table has write sharding, and BatchGetItem and "
                                    "TransactGetItems have no sharded form (they would read the "
                                    "logical keys, where no item is)");
        }
        // A suffix calculated from a non-key attribute needs that attribute in every request.
        const KeyNames keys = NamesOf(op.table, s->policy.index_name);
        const std::optional<std::string>& from = s->policy.calculated_from;
        if (s->policy.strategy != sharding::ShardStrategy::kCalculated || !from ||
            *from == keys.partition || (keys.sort && *from == *keys.sort)) {
          continue;
        }
        const bool has = std::any_of(op.attributes.begin(), op.attributes.end(),
                                     [&](const auto& a) { return a.first == *from; });
        const bool point =
            op.kind == OpKind::kGet || op.kind == OpKind::kUpdate || op.kind == OpKind::kDelete;
        if (point || (!has && (op.kind == OpKind::kPut || op.kind == OpKind::kBatchWrite ||
                               op.kind == OpKind::kTransactWrite))) {
          return Status::Validation(where + ": the sharding policy on " + s->policy.key +
                                    " is calculated from \"" + *from + "\", which " +
                                    (point ? "the simulator does not send with a key"
                                           : "the operation's attributes lack"));
        }
      }
    }
  }
  return Status::Ok();
}

Status Driver::SetUp(SimulationCost* cost) {
  for (const TableSpec& t : w_.tables) {
    CreateTableRequest create;
    create.table_name = t.name;
    auto define = [&](const std::string& name) {
      for (const AttributeDefinition& d : create.attribute_definitions) {
        if (d.attribute_name == name) return;
      }
      create.attribute_definitions.push_back({name, KeyType::kString});
    };
    define(t.partition_key);
    create.key_schema.push_back({t.partition_key, KeyRoleName::kHash});
    if (t.sort_key) {
      define(*t.sort_key);
      create.key_schema.push_back({*t.sort_key, KeyRoleName::kRange});
    }
    create.billing_mode = t.on_demand ? BillingMode::kPayPerRequest : BillingMode::kProvisioned;
    if (!t.on_demand)
      create.provisioned_throughput = ProvisionedThroughput{t.read_capacity, t.write_capacity};
    for (const IndexSpec& i : t.indexes) {
      GlobalSecondaryIndex gsi;
      gsi.index_name = i.name;
      define(i.partition_key);
      gsi.key_schema.push_back({i.partition_key, KeyRoleName::kHash});
      if (i.sort_key) {
        define(*i.sort_key);
        gsi.key_schema.push_back({*i.sort_key, KeyRoleName::kRange});
      }
      gsi.projection.projection_type =
          i.projection == "KEYS_ONLY" ? ProjectionType::kKeysOnly : ProjectionType::kAll;
      if (!t.on_demand)
        gsi.provisioned_throughput = ProvisionedThroughput{i.read_capacity, i.write_capacity};
      create.global_secondary_indexes.push_back(std::move(gsi));
    }
    auto created = db_.CreateTable(create);
    if (!created.ok()) {
      return Status(created.status().code(),
                    "table " + t.name + ": " + std::string(created.status().message()));
    }
  }
  PARTSTORE_RETURN_IF_ERROR(CheckShardedOperations());
  PARTSTORE_RETURN_IF_ERROR(SetPolicies(w_.sharding));

  // The preload, imported before time starts.
  const auto started = Clock::now();
  int64_t items = 0;
  for (const Preload& p : w_.preload) {
    Entry entry;
    entry.table_keys = NamesOf(p.table, std::nullopt);
    Operation op;  // the templates ItemOf reads
    op.key = p.key;
    op.sort = p.sort;
    op.attributes = p.attributes;
    op.size = p.size;
    entry.op = &op;
    int64_t ordinal = 0;
    for (int64_t k = 0; k < p.keys; ++k) {
      for (int64_t i = 0; i < p.items_per_key; ++i) {
        Item item = ItemOf(entry, {k, i, ordinal++, 0});
        Status imported = db_.ImportItem(p.table, std::move(item));
        if (!imported.ok()) {
          return Status(imported.code(),
                        "preload of " + p.table + ": " + std::string(imported.message()));
        }
        ++items;
      }
    }
  }
  if (cost != nullptr) {
    cost->preload_items = items;
    cost->preload_wall_seconds = SecondsSince(started);
  }

  entries_.resize(w_.phases.size());
  for (size_t p = 0; p < w_.phases.size(); ++p) {
    const Phase& phase = w_.phases[p];
    tally_.operations[p].resize(phase.mix.size());
    for (const Operation& op : phase.mix) {
      Entry entry{.op = &op, .keys = KeyChooser(op.keys.value_or(phase.keys))};
      entry.table_keys = NamesOf(op.table, std::nullopt);
      entry.read_keys = NamesOf(op.table, op.index);
      PARTSTORE_ASSIGN_OR_RETURN(entry.table, db_.GetTable(op.table));
      if (op.kind == OpKind::kQuery) {
        entry.query_expression = "#pk = :pk";
        if (op.sort_prefix) entry.query_expression += " AND begins_with(#sk, :sp)";
      }
      if (op.kind == OpKind::kUpdate) {
        std::string set;
        for (size_t a = 0; a < op.attributes.size(); ++a) {
          set += (set.empty() ? "SET " : ", ") + ("#a" + std::to_string(a)) + " = :a" +
                 std::to_string(a);
        }
        if (op.size) set += std::string(set.empty() ? "SET " : ", ") + "#d = :d";
        entry.update_expression = set + (set.empty() ? "" : " ") + "ADD #c :one";
      }
      entries_[p].push_back(std::move(entry));
    }
  }
  return Status::Ok();
}

Item Driver::KeyOf(const Entry& entry, const RequestSpec& spec) {
  Item key;
  Expand(entry.op->key, spec, scratch_);
  key.insert_or_assign(entry.table_keys.partition, Value(scratch_));
  if (entry.table_keys.sort && entry.op->sort) {
    Expand(*entry.op->sort, spec, scratch_);
    key.insert_or_assign(*entry.table_keys.sort, Value(scratch_));
  }
  return key;
}

Item Driver::ItemOf(const Entry& entry, const RequestSpec& spec) {
  Item item = KeyOf(entry, spec);
  for (const auto& [name, value] : entry.op->attributes) {
    Expand(value, spec, scratch_);
    item.insert_or_assign(name, Value(scratch_));
  }
  const SizeDistribution size = entry.op->size.value_or(SizeDistribution{});
  PadTo(item, spec.size > 0 ? spec.size : DrawSize(size, random_));
  return item;
}

Attempt Driver::Classify(const Status& status) {
  Attempt a;
  switch (status.code()) {
    case Code::kOk:
      a.outcome = Outcome::kServed;
      break;
    case Code::kProvisionedThroughputExceeded:
    case Code::kThrottling:
    case Code::kRequestLimitExceeded:
      a.outcome = Outcome::kThrottled;
      break;
    case Code::kConditionalCheckFailed:
      a.outcome = Outcome::kConditionFailed;
      break;
    case Code::kTransactionCanceled: {
      // The SDKs do not retry a cancelled transaction: throttled actions end it for good.
      a.outcome = Outcome::kConditionFailed;
      if (const ErrorDetail* detail = status.detail(); detail != nullptr) {
        for (const CancellationReason& r : detail->cancellation_reasons) {
          if (r.code == "ProvisionedThroughputExceeded" || r.code == "ThrottlingError") {
            a.outcome = Outcome::kThrottledFinal;
          }
        }
      }
      break;
    }
    default:
      a.outcome = Outcome::kError;
      a.error = std::string(CodeName(status.code())) + ": " + std::string(status.message());
      break;
  }
  return a;
}

// Sets `item`'s string attribute `name` to the expansion of `t`, reusing its buffer.
void Driver::SetString(Item& item, const std::string& name, const Template& t,
                       const RequestSpec& spec) {
  auto it = item.find(name);
  if (it == item.end()) it = item.insert_or_assign(name, Value(std::string())).first;
  std::string* value = it->second.if_string();
  value->clear();
  t.Expand({spec.key, spec.item, spec.seq, spec.time_millis}, *value);
}

Attempt Driver::Get(Entry& entry, const RequestSpec& spec) {
  GetItemRequest& request = entry.get;
  if (request.table_name.empty()) {
    request.table_name = entry.op->table;
    request.consistent_read = entry.op->consistent_read;
  }
  SetString(request.key, entry.table_keys.partition, entry.op->key, spec);
  if (entry.table_keys.sort && entry.op->sort) {
    SetString(request.key, *entry.table_keys.sort, *entry.op->sort, spec);
  }
  if (sharded_) return Classify(db_.ShardedGetItem(request).status());
  return Classify(entry.table->GetItem(request).status());
}

Attempt Driver::Put(Entry& entry, const RequestSpec& spec) {
  PutItemRequest& request = entry.put;
  const Operation& op = *entry.op;
  if (request.table_name.empty()) request.table_name = op.table;
  Item& item = request.item;
  SetString(item, entry.table_keys.partition, op.key, spec);
  if (entry.table_keys.sort && op.sort) SetString(item, *entry.table_keys.sort, *op.sort, spec);
  for (const auto& [name, value] : op.attributes) SetString(item, name, value, spec);
  // The padding: the drawn size less what the rest of the item takes.
  auto pad = item.find(kPadAttribute);
  if (pad == item.end())
    pad = item.insert_or_assign(std::string(kPadAttribute), Value(std::string())).first;
  std::string* data = pad->second.if_string();
  data->clear();
  // ItemSize of an item of string attributes, without its generic walk.
  int64_t rest = 0;
  for (const auto& [name, value] : item) {
    const std::string* text = value.if_string();
    rest += static_cast<int64_t>(name.size() + (text != nullptr ? text->size() : ValueSize(value)));
  }
  const int64_t bytes = spec.size;
  if (bytes > rest) data->assign(static_cast<size_t>(bytes - rest), 'x');
  if (data->empty()) item.erase(pad);
  if (sharded_) return Classify(db_.ShardedPutItem(request).status());
  return Classify(entry.table->PutItem(request).status());
}

Attempt Driver::Update(Entry& entry, const RequestSpec& spec) {
  const Operation& op = *entry.op;
  UpdateItemRequest request{.table_name = op.table,
                            .key = KeyOf(entry, spec),
                            .update_expression = entry.update_expression};
  expr::NameMap names{{"#c", op.counter}};
  AttributeMap values{{":one", Value(1)}};
  for (size_t a = 0; a < op.attributes.size(); ++a) {
    names.emplace("#a" + std::to_string(a), op.attributes[a].first);
    Expand(op.attributes[a].second, spec, scratch_);
    values.insert_or_assign(":a" + std::to_string(a), Value(scratch_));
  }
  if (op.size) {
    names.emplace("#d", std::string(kPadAttribute));
    // The item's size is not known before the update: the drawn size is the data attribute's.
    const int64_t bytes = spec.size;
    values.insert_or_assign(
        ":d", Value(std::string(static_cast<size_t>(std::max<int64_t>(bytes, 1)), 'x')));
  }
  request.expression_attribute_names = std::move(names);
  request.expression_attribute_values = std::move(values);
  if (sharded_) return Classify(db_.ShardedUpdateItem(request).status());
  return Classify(entry.table->UpdateItem(request).status());
}

Attempt Driver::Delete(Entry& entry, const RequestSpec& spec) {
  DeleteItemRequest request{.table_name = entry.op->table, .key = KeyOf(entry, spec)};
  if (sharded_) return Classify(db_.ShardedDeleteItem(request).status());
  return Classify(entry.table->DeleteItem(request).status());
}

Attempt Driver::Query(Entry& entry, const RequestSpec& spec) {
  const Operation& op = *entry.op;
  QueryRequest request;
  request.table_name = op.table;
  request.index_name = op.index;
  request.key_condition_expression = entry.query_expression;
  expr::NameMap names{{"#pk", entry.read_keys.partition}};
  AttributeMap values;
  Expand(op.key, spec, scratch_);
  values.insert_or_assign(":pk", Value(scratch_));
  if (op.sort_prefix && entry.read_keys.sort) {
    names.emplace("#sk", *entry.read_keys.sort);
    Expand(*op.sort_prefix, spec, scratch_);
    values.insert_or_assign(":sp", Value(scratch_));
  }
  request.expression_attribute_names = std::move(names);
  request.expression_attribute_values = std::move(values);
  if (op.limit > 0) request.limit = op.limit;
  request.scan_index_forward = op.scan_forward;
  request.consistent_read = op.consistent_read;
  if (sharded_) return Classify(db_.ShardedQuery(request).status());
  return Classify(entry.table->Query(request).status());
}

Attempt Driver::Scan(Entry& entry) {
  const Operation& op = *entry.op;
  ScanRequest request;
  request.table_name = op.table;
  request.index_name = op.index;
  if (op.limit > 0) request.limit = op.limit;
  request.consistent_read = op.consistent_read;
  request.exclusive_start_key = entry.scan_cursor;
  auto scanned = db_.Scan(request);
  if (scanned.ok()) entry.scan_cursor = std::move(scanned->last_evaluated_key);
  return Classify(scanned.status());
}

Attempt Driver::BatchWrite(Entry& entry, Pending& pending) {
  std::unique_ptr<BatchWriteItemRequest> request = std::move(pending.writes);
  if (request == nullptr) {
    request = std::make_unique<BatchWriteItemRequest>();
    std::vector<WriteRequest> writes;
    for (const RequestSpec& spec : pending.specs) {
      writes.push_back({WriteRequest::Kind::kPut, ItemOf(entry, spec)});
    }
    request->request_items.emplace_back(entry.op->table, std::move(writes));
  }
  Attempt a;
  BatchWriteItemResult result;
  if (sharded_) {
    auto written = db_.ShardedBatchWriteItem(*request);
    a = Classify(written.status());
    if (written.ok()) result = std::move(written->result);
  } else {
    auto written = db_.BatchWriteItem(*request);
    a = Classify(written.status());
    if (written.ok()) result = std::move(*written);
  }
  if (a.outcome == Outcome::kThrottled) {
    a.unprocessed_writes = std::move(request);  // nothing was written: all of it again
  } else if (a.outcome == Outcome::kServed && !result.unprocessed_items.empty()) {
    a.outcome = Outcome::kThrottled;
    a.unprocessed_writes = std::make_unique<BatchWriteItemRequest>();
    a.unprocessed_writes->request_items = std::move(result.unprocessed_items);
  }
  return a;
}

Attempt Driver::BatchGet(Entry& entry, Pending& pending) {
  std::unique_ptr<BatchGetItemRequest> request = std::move(pending.reads);
  if (request == nullptr) {
    request = std::make_unique<BatchGetItemRequest>();
    KeysAndAttributes keys;
    keys.consistent_read = entry.op->consistent_read;
    for (const RequestSpec& spec : pending.specs) keys.keys.push_back(KeyOf(entry, spec));
    request->request_items.emplace_back(entry.op->table, std::move(keys));
  }
  auto read = db_.BatchGetItem(*request);
  Attempt a = Classify(read.status());
  if (a.outcome == Outcome::kThrottled) {
    a.unprocessed_reads = std::move(request);
  } else if (a.outcome == Outcome::kServed && !read->unprocessed_keys.empty()) {
    a.outcome = Outcome::kThrottled;
    a.unprocessed_reads = std::make_unique<BatchGetItemRequest>();
    a.unprocessed_reads->request_items = std::move(read->unprocessed_keys);
  }
  return a;
}

Attempt Driver::TransactWrite(Entry& entry, const Pending& pending) {
  TransactWriteItemsRequest request;
  for (const RequestSpec& spec : pending.specs) {
    TransactWriteItem item;
    item.put = PutItemRequest{.table_name = entry.op->table, .item = ItemOf(entry, spec)};
    request.transact_items.push_back(std::move(item));
  }
  if (sharded_) return Classify(db_.ShardedTransactWriteItems(request).status());
  return Classify(db_.TransactWriteItems(request).status());
}

Attempt Driver::TransactGet(Entry& entry, const Pending& pending) {
  TransactGetItemsRequest request;
  for (const RequestSpec& spec : pending.specs) {
    request.transact_items.push_back(
        {GetItemRequest{.table_name = entry.op->table, .key = KeyOf(entry, spec)}});
  }
  return Classify(db_.TransactGetItems(request).status());
}

Attempt Driver::Execute(Entry& entry, Pending& pending) {
  const RequestSpec& spec = pending.specs.front();
  switch (entry.op->kind) {
    case OpKind::kGet:
      return Get(entry, spec);
    case OpKind::kPut:
      return Put(entry, spec);
    case OpKind::kUpdate:
      return Update(entry, spec);
    case OpKind::kDelete:
      return Delete(entry, spec);
    case OpKind::kQuery:
      return Query(entry, spec);
    case OpKind::kScan:
      return Scan(entry);
    case OpKind::kBatchGet:
      return BatchGet(entry, pending);
    case OpKind::kBatchWrite:
      return BatchWrite(entry, pending);
    case OpKind::kTransactWrite:
      return TransactWrite(entry, pending);
    case OpKind::kTransactGet:
      return TransactGet(entry, pending);
  }
  return {};
}

int64_t Driver::Backoff(int32_t retries_so_far) {
  const RetryPolicy& r = w_.retries;
  const int32_t doublings = std::min(retries_so_far, 40);
  const double raw = static_cast<double>(r.base_micros) * std::ldexp(1.0, doublings);
  const int64_t backoff =
      static_cast<int64_t>(std::min(raw, static_cast<double>(r.max_backoff_micros)));
  switch (r.jitter) {
    case RetryPolicy::Jitter::kFull:
      return static_cast<int64_t>(random_.Below(static_cast<uint64_t>(backoff) + 1));
    case RetryPolicy::Jitter::kEqual:
      return backoff / 2 +
             static_cast<int64_t>(random_.Below(static_cast<uint64_t>(backoff / 2) + 1));
    case RetryPolicy::Jitter::kNone:
      return backoff;
  }
  return backoff;
}

void Driver::Offer(int32_t phase, int32_t index, int64_t now) {
  Entry& entry = entries_[phase][index];
  const Operation& op = *entry.op;
  Pending pending;
  pending.phase = phase;
  pending.entry = index;
  pending.first_micros = now;
  const int32_t n = (op.kind == OpKind::kBatchGet || op.kind == OpKind::kBatchWrite ||
                     op.kind == OpKind::kTransactWrite || op.kind == OpKind::kTransactGet)
                        ? op.batch
                        : 1;
  const bool writes = op.kind == OpKind::kPut || op.kind == OpKind::kUpdate ||
                      op.kind == OpKind::kBatchWrite || op.kind == OpKind::kTransactWrite;
  pending.specs.reserve(static_cast<size_t>(n));
  // Batches and transactions need distinct primary keys (DynamoDB refuses duplicates): a draw
  // whose expanded key is already in the request is drawn again, at most kRedraws times in all;
  // a key space too small to give `batch` distinct keys makes a smaller request.
  constexpr int kRedraws = 8;
  std::vector<std::string> seen;
  for (int32_t misses = 0; static_cast<int32_t>(pending.specs.size()) < n && misses <= kRedraws;) {
    RequestSpec spec;
    spec.key = entry.keys.Next(random_, now);
    spec.item =
        op.items > 1 ? static_cast<int64_t>(random_.Below(static_cast<uint64_t>(op.items))) : 0;
    spec.seq = entry.seq++;
    spec.time_millis = now / 1000;
    if (writes) spec.size = DrawSize(op.size.value_or(SizeDistribution{}), random_);
    if (n > 1) {
      std::string key;
      Expand(op.key, spec, key);
      if (op.sort) {
        key += '\0';
        op.sort->Expand({spec.key, spec.item, spec.seq, spec.time_millis}, key);
      }
      if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
        ++misses;
        continue;
      }
      seen.push_back(std::move(key));
    }
    pending.specs.push_back(spec);
  }
  ++tally_.operations[phase][index].offered;
  ++tally_.Second(now).offered;
  Send(std::move(pending), now);
}

void Driver::Send(Pending pending, int64_t now) {
  Entry& entry = entries_[pending.phase][pending.entry];
  RequestCounts& op = tally_.operations[pending.phase][pending.entry];
  RequestCounts& second = tally_.Second(now);
  ++pending.attempt;
  ++attempts_;
  ++op.attempts;
  ++second.attempts;
  if (pending.attempt > 1) {
    ++op.retries;
    ++second.retries;
  }
  Attempt a = Execute(entry, pending);
  switch (a.outcome) {
    case Outcome::kServed:
      ++op.served;
      ++second.served;
      if (pending.attempt > 1) tally_.delays[pending.phase].push_back(now - pending.first_micros);
      return;
    case Outcome::kConditionFailed:
      ++op.condition_failed;
      ++second.condition_failed;
      return;
    case Outcome::kError:
      ++op.errors;
      ++second.errors;
      ++tally_.errors[a.error];
      return;
    case Outcome::kThrottled:
    case Outcome::kThrottledFinal:
      ++op.throttled;
      ++second.throttled;
      break;
  }
  const bool retry = a.outcome == Outcome::kThrottled &&
                     w_.retries.mode == RetryPolicy::Mode::kExponential &&
                     pending.attempt < w_.retries.max_attempts;
  if (!retry) {
    ++op.gave_up;
    ++second.gave_up;
    return;
  }
  pending.due = now + Backoff(pending.attempt - 1);
  pending.order = order_++;
  if (a.unprocessed_writes) pending.writes = std::move(a.unprocessed_writes);
  if (a.unprocessed_reads) pending.reads = std::move(a.unprocessed_reads);
  retries_.push_back(std::move(pending));
  std::push_heap(retries_.begin(), retries_.end(), PendingLater());
}

void Driver::Run(const SimulateOptions& options, SimulationCost* cost) {
  const auto started = Clock::now();
  const int64_t total = std::max<int64_t>(TotalMicros(w_), 1);
  int64_t next_report = 0;
  auto progress = [&](int64_t now) {
    if (!options.progress || now < next_report) return;
    options.progress(static_cast<double>(now) / static_cast<double>(total));
    next_report = now + total / 100;
  };
  // Sends every retry due by `until` (inclusive), in time order.
  auto drain = [&](int64_t until) {
    while (!retries_.empty() && retries_.front().due <= until) {
      std::pop_heap(retries_.begin(), retries_.end(), PendingLater());
      Pending pending = std::move(retries_.back());
      retries_.pop_back();
      AdvanceTo(pending.due);
      const int64_t due = pending.due;
      Send(std::move(pending), due);
    }
  };

  int64_t start = 0;
  for (size_t p = 0; p < w_.phases.size(); ++p) {
    const Phase& phase = w_.phases[p];
    drain(start);
    AdvanceTo(start);
    Status policies = SetPolicies(phase.sharding);
    if (!policies.ok()) ++tally_.errors[std::string(policies.message())];
    double weight_sum = 0;
    for (const Operation& op : phase.mix) weight_sum += op.weight;
    const double duration = static_cast<double>(phase.duration_micros) / 1e6;
    const double r0 = phase.rate;
    const double r1 = phase.rate_end.value_or(phase.rate);
    const double a = (r1 - r0) / (2 * duration);  // N(t) = r0 t + a t^2 arrivals by t seconds
    for (int64_t i = 0;; ++i) {
      double t;  // seconds into the phase of arrival i
      if (std::abs(a) < 1e-12) {
        if (r0 <= 0) break;
        t = static_cast<double>(i) / r0;
      } else {
        const double disc = r0 * r0 + 4 * a * static_cast<double>(i);
        if (disc < 0) break;
        t = (-r0 + std::sqrt(disc)) / (2 * a);
      }
      if (!(t < duration)) break;
      const int64_t now = start + static_cast<int64_t>(t * 1e6);
      drain(now);
      AdvanceTo(now);
      progress(now);
      // The operation, by weight.
      double pick = random_.Uniform() * weight_sum;
      int32_t index = 0;
      for (; index + 1 < static_cast<int32_t>(phase.mix.size()); ++index) {
        pick -= phase.mix[index].weight;
        if (pick < 0) break;
      }
      Offer(static_cast<int32_t>(p), index, now);
    }
    start += phase.duration_micros;
  }
  // Retries due before the end still run; later ones never do (the run is over): given up.
  drain(start - 1);
  AdvanceTo(start);
  for (const Pending& pending : retries_) {
    ++tally_.operations[pending.phase][pending.entry].gave_up;
    ++tally_.Second(start - 1).gave_up;
  }
  retries_.clear();
  if (options.progress) options.progress(1.0);
  if (cost != nullptr) {
    cost->requests = attempts_;
    cost->wall_seconds = SecondsSince(started);
  }
}

}  // namespace

Result<Report> Simulate(const Workload& workload, const SimulateOptions& options,
                        SimulationCost* cost) {
  auto clock = std::make_shared<capacity::ManualClock>();
  DatabaseOptions db_options;
  db_options.capacity.enabled = true;
  db_options.capacity.clock = clock;
  db_options.capacity.contributor_insights = true;
  // Keep every second of the run (and its minutes) for the report.
  const int64_t seconds = TotalMicros(workload) / 1'000'000 + 2;
  db_options.capacity.metric_seconds =
      std::max<int64_t>(db_options.capacity.metric_seconds, seconds);
  db_options.capacity.partition_metric_seconds = seconds;
  db_options.capacity.partition_metric_minutes = seconds / 60 + 2;
  // Top keys over the whole run (at most a day: each minute keeps 4 rules x 100 keys).
  db_options.capacity.insights_minutes =
      static_cast<size_t>(std::clamp<int64_t>(seconds / 60 + 1, 60, 24 * 60));
  if (workload.heat_split_seconds) {
    db_options.capacity.heat_split_seconds = *workload.heat_split_seconds;
  }
  Database db(db_options);
  Driver driver(workload, db, clock);
  SimulationCost local;
  SimulationCost* c = cost != nullptr ? cost : &local;
  PARTSTORE_RETURN_IF_ERROR(driver.SetUp(c));
  driver.Run(options, c);
  const auto started = Clock::now();
  auto report = BuildReport(db, workload, driver.tally());
  c->report_wall_seconds = SecondsSince(started);
  return report;
}

}  // namespace partstore::sim
