#include "tools/bench/dynamodb_target.h"

#include <algorithm>
#include <chrono>
#include <thread>
#include <utility>
#include <vector>

#include "partstore/remote_store.h"
#include "tools/bench/items.h"
#include "tools/client/aws_config.h"
#include "tools/client/http_client.h"

namespace partstore::bench {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// What a local server without authentication is signed with when no credentials are found.
constexpr std::string_view kDummyAccessKeyId = "AKIDBENCH";
constexpr std::string_view kDummySecretKey = "bench";
constexpr std::string_view kDefaultRegion = "us-east-1";

// What the target's sessions share.
struct Endpoint {
  std::string name;
  bool static_response = false;
  std::unique_ptr<RemoteStore> store;
};

// The region in an AWS endpoint's host name: the label after the first one beginning with
// "dynamodb" (dynamodb.eu-west-3.amazonaws.com, vpce-1.dynamodb.us-east-1.vpce.amazonaws.com).
std::string RegionOfHost(std::string_view host) {
  if (!host.ends_with(".amazonaws.com") && !host.ends_with(".amazonaws.com.cn") &&
      !host.ends_with(".api.aws")) {
    return "";
  }
  for (size_t at = 0, dot; (dot = host.find('.', at)) != std::string_view::npos; at = dot + 1) {
    if (!host.substr(at).starts_with("dynamodb")) continue;
    const std::string_view rest = host.substr(dot + 1);
    return std::string(rest.substr(0, rest.find('.')));
  }
  return "";
}

Value S(std::string_view s) { return Value::String(std::string(s)); }

// One item read: its attribute names and top-level S values count, as the engine target counts
// them (the bench's items hold only S values).
void Count(const Item& item, ReadOutcome* outcome) {
  ++outcome->items;
  for (const auto& [name, value] : item) {
    const std::string* s = value.if_string();
    outcome->Add(name, s != nullptr ? std::string_view(*s) : std::string_view(), s != nullptr);
  }
}

class WireSession final : public Session {
 public:
  explicit WireSession(std::shared_ptr<const Endpoint> e) : e_(std::move(e)), store_(*e_->store) {}

  Status Get(const TableSpec& t, ItemKey key, ReadOutcome* outcome) override {
    // One request per session, its key strings rewritten in place.
    if (get_.table_name != t.name || get_.key.size() != (t.sort_key.empty() ? 1u : 2u)) {
      get_.table_name = t.name;
      get_.key = KeyOf(t, key);
    }
    for (auto& [name, value] : get_.key) {
      std::string* s = value.if_string();
      if (s == nullptr) return Status::Internal("bench key is not a string");
      s->assign(name == t.partition_key ? key.partition : key.sort);
    }
    PARTSTORE_ASSIGN_OR_RETURN(GetItemResult got, store_.GetItem(get_));
    if (got.item) Count(*got.item, outcome);
    return Status::Ok();
  }

  Status Put(const TableSpec& t, const BenchItem& item) override {
    PutItemRequest request;
    request.table_name = t.name;
    request.item = ToItem(item);
    return store_.PutItem(request).status();
  }

  Status Update(const TableSpec& t, ItemKey key, std::string_view attribute,
                std::string_view value) override {
    UpdateItemRequest request;
    request.table_name = t.name;
    request.key = KeyOf(t, key);
    request.update_expression = "SET #a = :v";
    request.expression_attribute_names = expr::NameMap{{"#a", std::string(attribute)}};
    request.expression_attribute_values = AttributeMap{{":v", S(value)}};
    return store_.UpdateItem(request).status();
  }

  Status Query(const TableSpec& t, bool on_gsi, std::string_view partition,
               std::string_view sort_prefix, int limit, ReadOutcome* outcome) override {
    QueryRequest request;
    request.table_name = t.name;
    if (on_gsi) request.index_name = t.gsi_name;
    expr::NameMap names{{"#pk", on_gsi ? t.gsi_partition_key : t.partition_key}};
    AttributeMap values{{":pk", S(partition)}};
    if (sort_prefix.empty()) {
      request.key_condition_expression = "#pk = :pk";
    } else {
      request.key_condition_expression = "#pk = :pk AND begins_with(#sk, :p)";
      names.emplace("#sk", on_gsi ? t.gsi_sort_key : t.sort_key);
      values.emplace(":p", S(sort_prefix));
    }
    request.expression_attribute_names = std::move(names);
    request.expression_attribute_values = std::move(values);
    const int start = outcome->items;
    // A page ends at 1 MB: follow LastEvaluatedKey until `limit` items or the end (a static
    // response would repeat its page forever).
    for (;;) {
      request.limit = limit - (outcome->items - start);
      PARTSTORE_ASSIGN_OR_RETURN(QueryResult page, store_.Query(request));
      for (const Item& item : page.items) Count(item, outcome);
      if (e_->static_response || !page.last_evaluated_key || outcome->items - start >= limit) {
        return Status::Ok();
      }
      request.exclusive_start_key = std::move(page.last_evaluated_key);
    }
  }

  Status Scan(const TableSpec& t, std::string_view start, int limit,
              ReadOutcome* outcome) override {
    ScanRequest request;
    request.table_name = t.name;
    request.limit = limit;
    if (!start.empty()) request.exclusive_start_key = Item{{t.partition_key, S(start)}};
    PARTSTORE_ASSIGN_OR_RETURN(ScanResult page, store_.Scan(request));
    for (const Item& item : page.items) Count(item, outcome);
    return Status::Ok();
  }

  // BatchWriteItem, kMaxBatchWriteRequests puts per call; UnprocessedItems and retryable errors
  // (throttles the store's own retries did not absorb) are resent with a short backoff, 50
  // attempts per batch at most.
  Status Load(const TableSpec& t, std::span<const BenchItem> items) override {
    if (e_->static_response) return Status::Ok();
    for (size_t begin = 0; begin < items.size(); begin += kMaxBatchWriteRequests) {
      BatchWriteItemRequest request;
      std::vector<WriteRequest>& puts =
          request.request_items.emplace_back(t.name, std::vector<WriteRequest>()).second;
      for (size_t i = begin; i < std::min(items.size(), begin + kMaxBatchWriteRequests); ++i) {
        puts.push_back({WriteRequest::Kind::kPut, ToItem(items[i])});
      }
      for (int attempt = 1;; ++attempt) {
        Result<BatchWriteItemResult> r = store_.BatchWriteItem(request);
        if (!r.ok() && (!r.status().retryable() || attempt == 50)) return r.status();
        if (r.ok()) {
          if (r->unprocessed_items.empty()) break;
          if (attempt == 50) return Status::Internal("BatchWriteItem: items left unprocessed");
          request.request_items = std::move(r->unprocessed_items);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(std::min(10 * attempt, 500)));
      }
    }
    return Status::Ok();
  }

 private:
  std::shared_ptr<const Endpoint> e_;
  RemoteStore& store_;
  GetItemRequest get_;  // reused by Get
};

class DynamoDbTarget final : public Target {
 public:
  explicit DynamoDbTarget(std::shared_ptr<const Endpoint> e) : e_(std::move(e)) {}

  const std::string& name() const override { return e_->name; }

  Status Prepare(std::span<const TableSpec> tables) override {
    if (e_->static_response) return Status::Ok();
    // Deletion and creation take a while on DynamoDB (and dynalite); partstore is immediate.
    const auto deadline = Clock::now() + std::chrono::minutes(10);
    for (const TableSpec& t : tables) PARTSTORE_RETURN_IF_ERROR(DeleteTable(t.name));
    for (const TableSpec& t : tables) PARTSTORE_RETURN_IF_ERROR(WaitFor(t.name, true, deadline));
    for (const TableSpec& t : tables) PARTSTORE_RETURN_IF_ERROR(CreateTable(t));
    for (const TableSpec& t : tables) PARTSTORE_RETURN_IF_ERROR(WaitFor(t.name, false, deadline));
    return Status::Ok();
  }

  // Sessions share the store's pool: a connection is opened by the first request that finds
  // none idle.
  Result<std::unique_ptr<Session>> NewSession() override {
    return std::unique_ptr<Session>(std::make_unique<WireSession>(e_));
  }

 private:
  // Not found is done; in use (being created) is retried by WaitFor once the table is ACTIVE.
  Status DeleteTable(const std::string& table) {
    Status s = e_->store->DeleteTable({.table_name = table}).status();
    const bool done = s.code() == Code::kResourceNotFound || s.code() == Code::kResourceInUse;
    return done ? Status::Ok() : s;
  }

  // On demand, every key attribute a string, the GSI with an ALL projection.
  Status CreateTable(const TableSpec& t) {
    CreateTableRequest request;
    request.table_name = t.name;
    request.billing_mode = BillingMode::kPayPerRequest;
    for (const std::string* a :
         {&t.partition_key, &t.sort_key, &t.gsi_partition_key, &t.gsi_sort_key}) {
      const bool of_gsi = a == &t.gsi_partition_key || a == &t.gsi_sort_key;
      if (a->empty() || (of_gsi && t.gsi_name.empty())) continue;
      auto& defined = request.attribute_definitions;
      if (std::none_of(defined.begin(), defined.end(),
                       [&](const AttributeDefinition& d) { return d.attribute_name == *a; })) {
        defined.push_back({*a, KeyType::kString});
      }
    }
    auto key_schema = [](const std::string& hash, const std::string& range) {
      std::vector<KeySchemaElement> key{{hash, KeyRoleName::kHash}};
      if (!range.empty()) key.push_back({range, KeyRoleName::kRange});
      return key;
    };
    request.key_schema = key_schema(t.partition_key, t.sort_key);
    if (!t.gsi_name.empty()) {
      GlobalSecondaryIndex gsi;
      gsi.index_name = t.gsi_name;
      gsi.key_schema = key_schema(t.gsi_partition_key, t.gsi_sort_key);
      gsi.projection.projection_type = ProjectionType::kAll;
      request.global_secondary_indexes.push_back(std::move(gsi));
    }
    return e_->store->CreateTable(request).status();
  }

  // Polls DescribeTable until the table is gone (gone) or it and its GSIs are ACTIVE.
  Status WaitFor(const std::string& table, bool gone, Clock::time_point deadline) {
    for (std::chrono::milliseconds pause(20);; pause = std::min(2 * pause, pause.zero() + 1s)) {
      Result<DescribeTableResult> described = e_->store->DescribeTable({.table_name = table});
      if (!described.ok() && described.status().code() != Code::kResourceNotFound) {
        return described.status();
      }
      std::string status;  // empty: no such table
      if (described.ok()) {
        const TableDescription& d = described->table;
        const bool gsi_active =
            std::all_of(d.global_secondary_indexes.begin(), d.global_secondary_indexes.end(),
                        [](const auto& g) { return g.index_status == IndexStatus::kActive; });
        status = TableStatusName(d.table_status);
        if (!gone && d.table_status == TableStatus::kActive && gsi_active) return Status::Ok();
      } else if (gone) {
        return Status::Ok();
      }
      // A table that was still CREATING when DeleteTable came is ACTIVE now: delete it again.
      if (gone && status == "ACTIVE") PARTSTORE_RETURN_IF_ERROR(DeleteTable(table));
      if (Clock::now() > deadline) {
        return Status::Internal("table " + table + " on " + e_->name +
                                (gone ? " not deleted" : " not ACTIVE") +
                                " after 10 minutes (status " + status + ")");
      }
      std::this_thread::sleep_for(pause);
    }
  }

  std::shared_ptr<const Endpoint> e_;
};

}  // namespace

Result<std::unique_ptr<Target>> MakeDynamoDbTarget(EndpointOptions options) {
  PARTSTORE_ASSIGN_OR_RETURN(client::Url url, client::ParseUrl(options.url));
  auto e = std::make_shared<Endpoint>();
  e->name = options.name.empty() ? url.ToString() : std::move(options.name);
  e->static_response = options.static_response;
  RemoteOptions remote;
  remote.endpoint = url.ToString();
  remote.region = !options.region.empty() ? std::move(options.region) : RegionOfHost(url.host);
  remote.max_connections = std::max<size_t>(options.max_connections, 1);
  // The chain first; what it cannot find, a local server does not need (see the header).
  PARTSTORE_ASSIGN_OR_RETURN(std::optional<std::string> region, client::FindRegion(remote));
  if (!region) remote.region = kDefaultRegion;
  PARTSTORE_ASSIGN_OR_RETURN(std::optional<AwsCredentials> credentials,
                             client::FindCredentials(remote));
  if (!credentials) {
    remote.credentials =
        AwsCredentials{std::string(kDummyAccessKeyId), std::string(kDummySecretKey), ""};
  }
  Result<std::unique_ptr<RemoteStore>> store = RemoteStore::Open(remote);
  if (!store.ok()) return store.status();
  e->store = std::move(*store);
  return std::unique_ptr<Target>(std::make_unique<DynamoDbTarget>(std::move(e)));
}

}  // namespace partstore::bench
