#include "tools/bench/dynamodb_target.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "tools/bench/dynamodb_response.h"
#include "tools/client/http_client.h"
#include "tools/protocol/sigv4.h"

namespace partstore::bench {

using client::HttpClient;
using client::HttpClientOptions;
using client::HttpReply;
using client::ParseUrl;
using client::Url;

using protocol::SigV4Credentials;
using protocol::SigV4Header;
using protocol::SigV4Request;
using protocol::SigV4Signer;

namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

enum Op {
  kGetItem,
  kPutItem,
  kUpdateItem,
  kQuery,
  kScan,
  kBatchWriteItem,
  kCreateTable,
  kDeleteTable,
  kDescribeTable,
  kOpCount
};
constexpr const char* kOpNames[kOpCount] = {"GetItem",     "PutItem",     "UpdateItem",
                                            "Query",       "Scan",        "BatchWriteItem",
                                            "CreateTable", "DeleteTable", "DescribeTable"};
constexpr std::string_view kContentType = "application/x-amz-json-1.0";
constexpr std::string_view kTargetPrefix = "DynamoDB_20120810.";
constexpr int kBatchSize = 25;  // BatchWriteItem's limit

// Everything a session needs, computed once by MakeDynamoDbTarget.
struct Endpoint {
  std::string name;
  Url url;
  HttpClientOptions http;
  std::string region;
  bool static_response = false;
  std::optional<SigV4Credentials> credentials;  // none: unsigned
  std::string target_value[kOpCount];           // "DynamoDB_20120810.GetItem"
  // Unsigned: the whole header block per operation. Signed: its constant part (Content-Type,
  // X-Amz-Target); the date, token and signature are added per request.
  std::string headers[kOpCount];
};

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

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

// A JSON text written into a reused string: R() appends raw text, S() a string, quoted and
// escaped as RFC 8259 requires.
class Json {
 public:
  explicit Json(std::string* out, std::string_view start) : out_(*out) { out_.assign(start); }
  Json& R(std::string_view raw) { return out_.append(raw), *this; }
  const std::string& text() const { return out_; }
  Json& N(int n) { return R(std::to_string(n)); }
  Json& S(std::string_view s) {
    static constexpr char kHex[] = "0123456789abcdef";
    out_.push_back('"');
    size_t plain = 0;  // s[plain, i) needs no escaping
    for (size_t i = 0; i < s.size(); ++i) {
      const auto c = static_cast<unsigned char>(s[i]);
      if (c >= 0x20 && c != '"' && c != '\\') continue;
      out_.append(s.data() + plain, i - plain);
      plain = i + 1;
      const char quoted[] = {'\\', static_cast<char>(c)};
      const char control[] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
      c >= 0x20 ? R({quoted, 2}) : R({control, 6});
    }
    out_.append(s.data() + plain, s.size() - plain);
    return R("\"");
  }
  // "name":{"S":"value"} (or another type).
  Json& Attr(std::string_view name, std::string_view value, std::string_view type = "S") {
    return S(name).R(":{\"").R(type).R("\":").S(value).R("}");
  }
  Json& Key(const TableSpec& t, ItemKey key) {
    R("{").Attr(t.partition_key, key.partition);
    if (!t.sort_key.empty()) R(",").Attr(t.sort_key, key.sort);
    return R("}");
  }
  Json& Item(const BenchItem& item) {
    for (size_t i = 0; i < item.attributes.size(); ++i) {
      R(i == 0 ? "{" : ",").Attr(item.attributes[i].name, item.attributes[i].value);
    }
    return R(item.attributes.empty() ? "{}" : "}");
  }

 private:
  std::string& out_;
};
constexpr std::string_view kTableName = "{\"TableName\":";

class WireSession final : public Session {
 public:
  explicit WireSession(std::shared_ptr<const Endpoint> e)
      : e_(std::move(e)), client_(e_->url, e_->http) {
    if (e_->credentials) signer_.emplace(*e_->credentials, e_->region, "dynamodb");
  }

  Status Connect() { return client_.Connect(); }

  // One call: the body of a 200 response, or the error.
  Result<std::string_view> Call(Op op, std::string_view body) {
    std::string_view headers = e_->headers[op];
    if (signer_) {
      const std::string_view date = AmzDate();
      const std::string& token = signer_->credentials().session_token;
      const SigV4Header signed_headers[5] = {{"content-type", kContentType},
                                             {"host", e_->url.host_header},
                                             {"x-amz-date", date},
                                             {"x-amz-target", e_->target_value[op]},
                                             {"x-amz-security-token", token}};
      SigV4Request request;
      request.headers = std::span(signed_headers, token.empty() ? 4 : 5);
      request.body = body;
      signer_->Authorization(request, date, &auth_);
      headers_.assign(e_->headers[op]).append("X-Amz-Date: ").append(date).append("\r\n");
      if (!token.empty()) headers_.append("X-Amz-Security-Token: ").append(token).append("\r\n");
      headers = headers_.append("Authorization: ").append(auth_).append("\r\n");
    }
    PARTSTORE_ASSIGN_OR_RETURN(HttpReply reply, client_.Post(headers, body));
    if (reply.status == 200) return reply.body;
    return ErrorStatus(reply.status, reply.body);
  }

  Status Get(const TableSpec& t, ItemKey key, ReadOutcome* outcome) override {
    Json(&body_, kTableName).S(t.name).R(",\"Key\":").Key(t, key).R(",\"ConsistentRead\":false}");
    return Read(kGetItem, outcome);
  }

  Status Put(const TableSpec& t, const BenchItem& item) override {
    Json(&body_, kTableName).S(t.name).R(",\"Item\":").Item(item).R("}");
    return Call(kPutItem, body_).status();
  }

  Status Update(const TableSpec& t, ItemKey key, std::string_view attribute,
                std::string_view value) override {
    Json(&body_, kTableName)
        .S(t.name)
        .R(",\"Key\":")
        .Key(t, key)
        .R(",\"UpdateExpression\":\"SET #a = :v\",\"ExpressionAttributeNames\":{\"#a\":")
        .S(attribute)
        .R("},\"ExpressionAttributeValues\":{")
        .Attr(":v", value)
        .R("}}");
    return Call(kUpdateItem, body_).status();
  }

  Status Query(const TableSpec& t, bool on_gsi, std::string_view partition,
               std::string_view sort_prefix, int limit, ReadOutcome* outcome) override {
    const bool prefix = !sort_prefix.empty();
    const int start = outcome->items;
    last_key_.clear();
    for (;;) {
      Json j(&body_, kTableName);
      j.S(t.name);
      if (on_gsi) j.R(",\"IndexName\":").S(t.gsi_name);
      j.R(prefix ? ",\"KeyConditionExpression\":\"#pk = :pk AND begins_with(#sk, :p)\""
                 : ",\"KeyConditionExpression\":\"#pk = :pk\"");
      j.R(",\"ExpressionAttributeNames\":{\"#pk\":")
          .S(on_gsi ? t.gsi_partition_key : t.partition_key);
      if (prefix) j.R(",\"#sk\":").S(on_gsi ? t.gsi_sort_key : t.sort_key);
      j.R("},\"ExpressionAttributeValues\":{").Attr(":pk", partition);
      if (prefix) j.R(",").Attr(":p", sort_prefix);
      StartKey(j.R("},\"Limit\":").N(limit - (outcome->items - start))).R("}");
      PARTSTORE_RETURN_IF_ERROR(Read(kQuery, outcome));
      // A page ends at 1 MB: follow LastEvaluatedKey until `limit` items or the end.
      if (e_->static_response || last_key_.empty() || outcome->items - start >= limit) {
        return Status::Ok();
      }
    }
  }

  Status Scan(const TableSpec& t, std::string_view start, int limit,
              ReadOutcome* outcome) override {
    last_key_.clear();
    if (!start.empty()) last_key_.push_back({t.partition_key, "S", std::string(start)});
    StartKey(Json(&body_, kTableName).S(t.name).R(",\"Limit\":").N(limit)).R("}");
    return Read(kScan, outcome);
  }

  Status Load(const TableSpec& t, std::span<const BenchItem> items) override {
    if (e_->static_response) return Status::Ok();
    for (size_t begin = 0; begin < items.size(); begin += kBatchSize) {
      Json j(&body_, "{\"RequestItems\":{");
      j.S(t.name).R(":[");
      for (size_t i = begin; i < std::min(items.size(), begin + kBatchSize); ++i) {
        j.R(i == begin ? "{\"PutRequest\":{\"Item\":" : ",{\"PutRequest\":{\"Item\":")
            .Item(items[i])
            .R("}}");
      }
      j.R("]}}");
      PARTSTORE_RETURN_IF_ERROR(WriteBatch());
    }
    return Status::Ok();
  }

  // For Prepare. The table's status, "" when it does not exist; *gsi_active: all its GSIs are.
  Result<std::string> TableStatus(const std::string& table, bool* gsi_active) {
    Result<std::string_view> r =
        Call(kDescribeTable, Json(&body_, kTableName).S(table).R("}").text());
    if (!r.ok()) {
      if (r.status().code() == Code::kResourceNotFound) return std::string();
      return r.status();
    }
    Result<TableState> state = ParseDescribeTable(*r);
    if (!state.ok()) {
      return Status::Internal("DescribeTable: unparseable response from " + e_->name + ": " +
                              std::string(state.status().message()));
    }
    *gsi_active = state->gsi_active;
    return std::move(state->status);
  }
  // Not found is done; in use (being created) is retried by Prepare once the table is ACTIVE.
  Status DeleteTable(const std::string& table) {
    Status s = Call(kDeleteTable, Json(&body_, kTableName).S(table).R("}").text()).status();
    const bool done = s.code() == Code::kResourceNotFound || s.code() == Code::kResourceInUse;
    return done ? Status::Ok() : s;
  }
  Status CreateTable(const TableSpec& t) {
    Json j(&body_, kTableName);
    j.S(t.name).R(",\"BillingMode\":\"PAY_PER_REQUEST\",\"AttributeDefinitions\":[");
    std::vector<std::string_view> defined;
    for (std::string_view a :
         {t.partition_key, t.sort_key, t.gsi_name.empty() ? "" : t.gsi_partition_key,
          t.gsi_name.empty() ? "" : t.gsi_sort_key}) {
      if (a.empty() || std::find(defined.begin(), defined.end(), a) != defined.end()) continue;
      j.R(defined.empty() ? "{\"AttributeName\":" : ",{\"AttributeName\":")
          .S(a)
          .R(",\"AttributeType\":\"S\"}");
      defined.push_back(a);
    }
    auto key_schema = [&](const std::string& hash, const std::string& range) {
      j.R("\"KeySchema\":[{\"AttributeName\":").S(hash).R(",\"KeyType\":\"HASH\"}");
      if (!range.empty()) j.R(",{\"AttributeName\":").S(range).R(",\"KeyType\":\"RANGE\"}");
      j.R("]");
    };
    j.R("],");
    key_schema(t.partition_key, t.sort_key);
    if (!t.gsi_name.empty()) {
      j.R(",\"GlobalSecondaryIndexes\":[{\"IndexName\":").S(t.gsi_name).R(",");
      key_schema(t.gsi_partition_key, t.gsi_sort_key);
      j.R(",\"Projection\":{\"ProjectionType\":\"ALL\"}}]");
    }
    return Call(kCreateTable, j.R("}").text()).status();
  }

 private:
  // Sends the BatchWriteItem in body_ until nothing is left unprocessed; throttles and
  // UnprocessedItems are retried with a short backoff, 50 times at most.
  Status WriteBatch() {
    for (int attempt = 1;; ++attempt) {
      const auto backoff = std::chrono::milliseconds(std::min(10 * attempt, 500));
      Result<std::string_view> r = Call(kBatchWriteItem, body_);
      if (!r.ok() && (!r.status().retryable() || attempt == 50)) return r.status();
      if (r.ok()) {
        if (Status s = ParseBatchWriteResponse(*r, &unprocessed_); !s.ok()) {
          return Status::Internal("BatchWriteItem: unparseable response from " + e_->name + ": " +
                                  std::string(s.message()));
        }
        if (unprocessed_.empty()) return Status::Ok();
        if (attempt == 50) return Status::Internal("BatchWriteItem: items left unprocessed");
        Json(&body_, "{\"RequestItems\":").R(unprocessed_).R("}");
      }
      std::this_thread::sleep_for(backoff);
    }
  }

  // Counts a read's response into *outcome and last_key_.
  Status Read(Op op, ReadOutcome* outcome) {
    PARTSTORE_ASSIGN_OR_RETURN(std::string_view body, Call(op, body_));
    Status s = CountReadResponse(body, outcome, &last_key_);
    if (!s.ok() && !e_->static_response) {
      return Status::Internal(std::string(kOpNames[op]) + ": unparseable response from " +
                              e_->name + ": " + std::string(s.message()));
    }
    return Status::Ok();
  }

  // ,"ExclusiveStartKey":{...} from last_key_, when there is one.
  Json& StartKey(Json& j) {
    for (size_t i = 0; i < last_key_.size(); ++i) {
      j.R(i == 0 ? ",\"ExclusiveStartKey\":{" : ",")
          .Attr(last_key_[i].name, last_key_[i].value, last_key_[i].type);
    }
    return j.R(last_key_.empty() ? "" : "}");
  }

  // X-Amz-Date for now, formatted once per second.
  std::string_view AmzDate() {
    const std::time_t now = std::time(nullptr);
    if (now != date_time_) {
      std::tm utc{};
      gmtime_r(&now, &utc);
      std::strftime(date_, sizeof date_, "%Y%m%dT%H%M%SZ", &utc);
      date_time_ = now;
    }
    return date_;
  }

  std::shared_ptr<const Endpoint> e_;
  HttpClient client_;
  std::optional<SigV4Signer> signer_;
  std::string body_, headers_, auth_, unprocessed_;  // reused buffers
  std::vector<KeyPart> last_key_;
  char date_[20] = {};
  std::time_t date_time_ = -1;
};

class DynamoDbTarget final : public Target {
 public:
  explicit DynamoDbTarget(std::shared_ptr<const Endpoint> e) : e_(std::move(e)) {}

  const std::string& name() const override { return e_->name; }

  Status Prepare(std::span<const TableSpec> tables) override {
    if (e_->static_response) return Status::Ok();
    WireSession s(e_);
    // Deletion and creation take a while on DynamoDB (and dynalite); partstore is immediate.
    const auto deadline = Clock::now() + std::chrono::minutes(10);
    for (const TableSpec& t : tables) PARTSTORE_RETURN_IF_ERROR(s.DeleteTable(t.name));
    for (const TableSpec& t : tables) PARTSTORE_RETURN_IF_ERROR(WaitFor(s, t.name, true, deadline));
    for (const TableSpec& t : tables) PARTSTORE_RETURN_IF_ERROR(s.CreateTable(t));
    for (const TableSpec& t : tables) {
      PARTSTORE_RETURN_IF_ERROR(WaitFor(s, t.name, false, deadline));
    }
    return Status::Ok();
  }

  Result<std::unique_ptr<Session>> NewSession() override {
    auto session = std::make_unique<WireSession>(e_);
    PARTSTORE_RETURN_IF_ERROR(session->Connect());
    return std::unique_ptr<Session>(std::move(session));
  }

 private:
  // Polls DescribeTable until the table is gone (gone) or it and its GSIs are ACTIVE.
  Status WaitFor(WireSession& s, const std::string& table, bool gone, Clock::time_point deadline) {
    for (std::chrono::milliseconds pause(20);; pause = std::min(2 * pause, pause.zero() + 1s)) {
      bool gsi_active = false;
      PARTSTORE_ASSIGN_OR_RETURN(std::string status, s.TableStatus(table, &gsi_active));
      if (gone ? status.empty() : status == "ACTIVE" && gsi_active) return Status::Ok();
      // A table that was still CREATING when DeleteTable came is ACTIVE now: delete it again.
      if (gone && status == "ACTIVE") PARTSTORE_RETURN_IF_ERROR(s.DeleteTable(table));
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
  PARTSTORE_ASSIGN_OR_RETURN(Url url, ParseUrl(options.url));
  auto e = std::make_shared<Endpoint>();
  e->name = options.name.empty() ? url.ToString() : std::move(options.name);
  e->static_response = options.static_response;
  e->http.ca_file = Env("AWS_CA_BUNDLE");
  e->region = std::move(options.region);
  if (e->region.empty()) e->region = RegionOfHost(url.host);
  if (e->region.empty()) e->region = Env("AWS_REGION");
  if (e->region.empty()) e->region = Env("AWS_DEFAULT_REGION");
  if (e->region.empty()) e->region = "us-east-1";
  SigV4Credentials credentials{Env("AWS_ACCESS_KEY_ID"), Env("AWS_SECRET_ACCESS_KEY"),
                               Env("AWS_SESSION_TOKEN")};
  if (!credentials.access_key_id.empty() && !credentials.secret_access_key.empty()) {
    e->credentials = std::move(credentials);
  }
  for (int op = 0; op < kOpCount; ++op) {
    e->target_value[op] = std::string(kTargetPrefix) + kOpNames[op];
    e->headers[op] = "Content-Type: " + std::string(kContentType) +
                     "\r\nX-Amz-Target: " + e->target_value[op] + "\r\n";
    if (!e->credentials) {  // what bench/wire/load.py sends
      e->headers[op] +=
          "X-Amz-Date: 20260101T000000Z\r\nAuthorization: AWS4-HMAC-SHA256 "
          "Credential=AKIDBENCH/20260101/" +
          e->region +
          "/dynamodb/aws4_request, "
          "SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=" +
          std::string(64, '0') + "\r\n";
    }
  }
  e->url = std::move(url);
  return std::unique_ptr<Target>(std::make_unique<DynamoDbTarget>(std::move(e)));
}

}  // namespace partstore::bench
