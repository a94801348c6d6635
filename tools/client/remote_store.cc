// RemoteStore: see partstore/remote_store.h. Each operation is one line: encode the request
// (tools/protocol/client_*_json.h), Send it (the pool, SigV4, retries), decode the response.
#include "partstore/remote_store.h"

#include <zlib.h>

#include <atomic>
#include <cctype>
#include <condition_variable>
#include <cstring>
#include <ctime>
#include <mutex>
#include <random>
#include <span>
#include <thread>
#include <utility>
#include <vector>

#include "tools/client/aws_config.h"
#include "tools/client/http_client.h"
#include "tools/client/retry_policy.h"
#include "tools/protocol/attribute_value_json.h"
#include "tools/protocol/client_control_json.h"
#include "tools/protocol/client_data_json.h"
#include "tools/protocol/content_coding.h"
#include "tools/protocol/error_json.h"
#include "tools/protocol/sigv4.h"

namespace partstore {
namespace {

using client::HttpClient;
using client::HttpClientOptions;
using client::HttpReply;
using client::Url;
using protocol::SigV4Credentials;
using protocol::SigV4Header;
using protocol::SigV4Signer;
using Clock = std::chrono::steady_clock;

constexpr std::string_view kContentType = "application/x-amz-json-1.0";
// A decoded (gunzipped) response body is refused past this size.
constexpr size_t kMaxResponseBytes = 256u << 20;

// The two services a store calls: DynamoDB and DynamoDB Streams (each its endpoint and pool).
enum class Service : uint8_t { kDynamoDb, kStreams };

// One kept-alive connection with its own signer and buffers (used by one thread at a time).
struct Connection {
  Connection(const Url& url, const HttpClientOptions& http, const SigV4Credentials& credentials,
             const std::string& region)
      : client(url, http), signer(credentials, region, "dynamodb") {}
  HttpClient client;
  SigV4Signer signer;
  std::string headers, authorization;
  char date[20] = {};
  std::time_t date_time = -1;
  uint64_t counted = 0;  // connections_opened() already added to the pool's count

  std::string_view AmzDate() {
    const std::time_t now = std::time(nullptr);
    if (now != date_time) {
      std::tm utc{};
      gmtime_r(&now, &utc);
      std::strftime(date, sizeof date, "%Y%m%dT%H%M%SZ", &utc);
      date_time = now;
    }
    return date;
  }
};

// At most `max` connections to one endpoint, shared by every thread. Lock order: mu_ is a leaf
// (held only to move a connection in or out of idle_; never while connecting or sending).
class Pool {
 public:
  Pool(Url url, HttpClientOptions http, SigV4Credentials credentials, std::string region,
       size_t max)
      : url_(std::move(url)),
        http_(std::move(http)),
        credentials_(std::move(credentials)),
        region_(std::move(region)),
        max_(max) {}

  const Url& url() const { return url_; }

  // An idle connection (the most recently used: the likeliest still open), a new one while
  // fewer than max exist, else the first one released.
  std::unique_ptr<Connection> Acquire() {
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [&] { return !idle_.empty() || out_ + idle_.size() < max_; });
      ++out_;
      if (!idle_.empty()) {
        std::unique_ptr<Connection> c = std::move(idle_.back());
        idle_.pop_back();
        return c;
      }
    }
    return std::make_unique<Connection>(url_, http_, credentials_, region_);
  }

  void Release(std::unique_ptr<Connection> c) {
    {
      std::lock_guard lock(mu_);
      --out_;
      opened_ += c->client.connections_opened() - c->counted;
      c->counted = c->client.connections_opened();
      idle_.push_back(std::move(c));
    }
    cv_.notify_one();
  }

  uint64_t opened() const {
    std::lock_guard lock(mu_);
    return opened_;
  }

 private:
  const Url url_;
  const HttpClientOptions http_;
  const SigV4Credentials credentials_;
  const std::string region_;
  const size_t max_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::unique_ptr<Connection>> idle_;  // guarded by mu_
  size_t out_ = 0;                                 // guarded by mu_: connections in use
  uint64_t opened_ = 0;                            // guarded by mu_
};

std::string NewToken(std::mt19937_64& random) {
  // A version-4 UUID, as the SDKs fill idempotency tokens.
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  const uint64_t a = random(), b = random();
  for (int i = 0; i < 32; ++i) {
    if (i == 8 || i == 12 || i == 16 || i == 20) out += '-';
    unsigned nibble = static_cast<unsigned>(((i < 16 ? a : b) >> (4 * (i % 16))) & 15);
    if (i == 12) nibble = 4;
    if (i == 16) nibble = 8 | (nibble & 3);
    out += kHex[nibble];
  }
  return out;
}

bool StartsWithSelect(std::string_view statement) {
  while (!statement.empty() && std::isspace(static_cast<unsigned char>(statement.front()))) {
    statement.remove_prefix(1);
  }
  if (statement.size() < 6) return false;
  static constexpr std::string_view kSelect = "select";
  for (size_t i = 0; i < kSelect.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(statement[i])) != kSelect[i]) return false;
  }
  return statement.size() == 6 || !std::isalnum(static_cast<unsigned char>(statement[6]));
}

template <typename Request>
bool UnconditionalWithoutReturnValues(const Request& r) {
  return !r.condition_expression && !r.expected && r.return_values == ReturnValue::kNone;
}

template <typename ViewResult, typename TreeResult>
ViewResult ToView(TreeResult&& page) {
  ViewResult view;
  view.items.reserve(page.items.size());
  for (const Item& item : page.items) view.items.push_back(StoredItem::Encode(item));
  view.count = page.count;
  view.scanned_count = page.scanned_count;
  view.last_evaluated_key = std::move(page.last_evaluated_key);
  view.consumed_capacity = std::move(page.consumed_capacity);
  view.items_omitted = page.items_omitted;
  return view;
}

}  // namespace

struct RemoteStore::Impl {
  RemoteOptions options;
  client::ResolvedConfig config;
  std::unique_ptr<Pool> pools[2];
  client::RetryQuota quota;
  std::mutex random_mu;  // a leaf: guards random
  std::mt19937_64 random;
  std::atomic<uint64_t> calls{0}, attempts{0}, retries{0}, throttle_retries{0}, outcome_unknown{0},
      quota_exhausted{0};
  std::atomic<int64_t> retry_delay_ms{0};

  Impl(RemoteOptions o, client::ResolvedConfig c)
      : options(std::move(o)), config(std::move(c)), quota(options.retry) {
    random.seed(options.seed != 0 ? options.seed : std::random_device{}());
  }

  double Random() {
    std::lock_guard lock(random_mu);
    return std::uniform_real_distribution<double>(0, 1)(random);
  }
  std::string Token() {
    std::lock_guard lock(random_mu);
    return NewToken(random);
  }

  // One operation's request sent until it succeeds or the retry mode gives up: the 200 response's
  // body given to `decode` (read in place, while its connection is still held: no copy), or the
  // error.
  template <typename Decode>
  auto Send(Service service, std::string_view operation, std::string body, bool idempotent,
            Decode&& decode) -> decltype(decode(std::string_view())) {
    calls.fetch_add(1, std::memory_order_relaxed);
    Pool& pool = *pools[static_cast<int>(service)];
    char target_buffer[64];
    const std::string_view prefix =
        service == Service::kStreams ? "DynamoDBStreams_20120810." : "DynamoDB_20120810.";
    std::string target_text;  // for an operation name too long for the buffer
    std::string_view target;
    if (prefix.size() + operation.size() <= sizeof target_buffer) {
      std::memcpy(target_buffer, prefix.data(), prefix.size());
      std::memcpy(target_buffer + prefix.size(), operation.data(), operation.size());
      target = std::string_view(target_buffer, prefix.size() + operation.size());
    } else {
      target_text = std::string(prefix) + std::string(operation);
      target = target_text;
    }
    // "<Op> to <endpoint>", for messages: built only when one is needed.
    auto origin = [&] { return std::string(operation) + " to " + pool.url().ToString(); };
    bool gzip = false;
    if (options.gzip_requests && body.size() >= options.gzip_min_bytes) {
      if (auto compressed = protocol::EncodeBody(body, protocol::ContentCoding::kGzip)) {
        body = std::move(*compressed);
        gzip = true;
      }
    }
    int taken = 0;  // quota tokens this call's retries took
    for (int attempt = 1;; ++attempt) {
      attempts.fetch_add(1, std::memory_order_relaxed);
      std::unique_ptr<Connection> c = pool.Acquire();
      const std::string_view date = c->AmzDate();
      const std::string& token = c->signer.credentials().session_token;
      const SigV4Header signed_headers[] = {{"content-type", kContentType},
                                            {"host", pool.url().host_header},
                                            {"x-amz-date", date},
                                            {"x-amz-target", target},
                                            {"x-amz-security-token", token}};
      protocol::SigV4Request to_sign;
      to_sign.headers = std::span(signed_headers, token.empty() ? 4 : 5);
      to_sign.body = body;
      c->signer.Authorization(to_sign, date, &c->authorization);
      c->headers.assign("Content-Type: ").append(kContentType);
      c->headers.append("\r\nX-Amz-Target: ").append(target);
      c->headers.append("\r\nX-Amz-Date: ").append(date);
      if (!token.empty()) c->headers.append("\r\nX-Amz-Security-Token: ").append(token);
      if (gzip) c->headers.append("\r\nContent-Encoding: gzip");
      c->headers.append("\r\nAuthorization: ").append(c->authorization).append("\r\n");

      Result<HttpReply> reply = c->client.Post(c->headers, body, idempotent);
      if (c->client.last_request_resent()) {  // (on a new connection: a retry like the others)
        attempts.fetch_add(1, std::memory_order_relaxed);
        retries.fetch_add(1, std::memory_order_relaxed);
      }
      Status failure;
      client::FailureKind kind = client::FailureKind::kNotRetryable;
      if (!reply.ok()) {
        const bool sent = c->client.last_request_sent();
        pool.Release(std::move(c));
        if (sent && !idempotent) return OutcomeUnknown(origin(), reply.status().message());
        failure = Status::Internal(std::string(reply.status().message()));
        kind = client::FailureKind::kTimeout;
      } else {
        const int http_status = reply->status;
        Status damaged = CheckCrc(*reply, origin);
        if (damaged.ok() && http_status == 200 && IsIdentity(reply->content_encoding)) {
          auto result = decode(reply->body);  // the common case: no copy of the body
          pool.Release(std::move(c));
          quota.Release(taken);
          return result;
        }
        std::string text(reply->body);
        const std::string coding(reply->content_encoding);
        pool.Release(std::move(c));
        if (damaged.ok()) damaged = DecodeContent(origin, coding, text);
        if (damaged.ok() && http_status == 200) {
          quota.Release(taken);
          return decode(text);
        }
        if (!damaged.ok()) {
          failure = std::move(damaged);
          kind = client::FailureKind::kTransient;
          // A write answered 200 was applied: only its answer is lost.
          if (http_status == 200 && !idempotent) {
            return Status::Internal(std::string(failure.message()) +
                                    " (the request was applied: HTTP 200)");
          }
        } else {
          failure = protocol::DecodeErrorResponse(http_status, text, origin());
          kind = client::ClassifyError(failure, http_status);
          // A server error on a write that is not safe to repeat: it may have been applied.
          if (kind == client::FailureKind::kTransient && !idempotent) {
            return OutcomeUnknown(origin(), failure.ToString());
          }
        }
      }
      if (kind == client::FailureKind::kNotRetryable || attempt >= config.max_attempts) {
        return failure;
      }
      const int cost = quota.Acquire(kind);
      if (cost == 0) {
        quota_exhausted.fetch_add(1, std::memory_order_relaxed);
        return failure;
      }
      taken += cost;
      retries.fetch_add(1, std::memory_order_relaxed);
      if (kind == client::FailureKind::kThrottling) {
        throttle_retries.fetch_add(1, std::memory_order_relaxed);
      }
      const auto delay = client::RetryDelay(options.retry, kind, attempt, Random());
      retry_delay_ms.fetch_add(delay.count(), std::memory_order_relaxed);
      std::this_thread::sleep_for(delay);
    }
  }

  Status OutcomeUnknown(const std::string& origin, std::string_view why) {
    outcome_unknown.fetch_add(1, std::memory_order_relaxed);
    return Status(Code::kOutcomeUnknown,
                  origin + ": the request was sent but no answer came back (" + std::string(why) +
                      "); it may or may not have been applied, and it is not safe to send "
                      "twice, so it was not retried");
  }

  static bool IsIdentity(std::string_view coding) { return coding.empty() || coding == "identity"; }

  // A response body against its x-amz-crc32 (of the bytes as sent), when it has one.
  template <typename Origin>
  static Status CheckCrc(const HttpReply& reply, const Origin& origin) {
    if (!reply.crc32) return Status::Ok();
    const uint64_t actual = ::crc32(0, reinterpret_cast<const Bytef*>(reply.body.data()),
                                    static_cast<uInt>(reply.body.size()));
    if (actual == *reply.crc32) return Status::Ok();
    return Status::Internal(origin() + ": damaged response: x-amz-crc32 says " +
                            std::to_string(*reply.crc32) + ", the body's CRC-32 is " +
                            std::to_string(actual));
  }

  // A compressed response body decoded in place.
  template <typename Origin>
  static Status DecodeContent(const Origin& origin, const std::string& coding, std::string& text) {
    if (IsIdentity(coding)) return Status::Ok();
    if (protocol::DecodeRequestBody(coding, text, kMaxResponseBytes) ==
        protocol::DecodeOutcome::kOk) {
      return Status::Ok();
    }
    return Status::Internal(origin() + ": damaged response: cannot decode its " + coding + " body");
  }

  // Send, then decode the 200 body with `decode`.
  template <typename R>
  Result<R> Call(std::string_view operation, std::string body, bool idempotent,
                 Result<R> (*decode)(const rapidjson::Value&),
                 Service service = Service::kDynamoDb) {
    return Send(service, operation, std::move(body), idempotent,
                [&](std::string_view text) -> Result<R> {
                  rapidjson::Document document;
                  // An empty body is an empty answer (TagResource's, UntagResource's).
                  if (text.empty()) text = "{}";
                  if (!protocol::ParseJson(text, &document).ok() || !document.IsObject()) {
                    return Status::Internal(
                        std::string(operation) + " to " +
                        pools[static_cast<int>(service)]->url().ToString() +
                        ": the response is not a JSON object: " + std::string(text.substr(0, 200)));
                  }
                  return decode(document);
                });
  }
};

Result<std::unique_ptr<RemoteStore>> RemoteStore::Open(RemoteOptions options) {
  if (options.max_connections == 0) {
    return Status::Validation("RemoteOptions::max_connections must be at least 1");
  }
  if (options.connect_timeout.count() <= 0 || options.request_timeout.count() <= 0) {
    return Status::Validation("RemoteOptions' timeouts must be positive");
  }
  const RetryOptions& r = options.retry;
  if (r.base_delay.count() < 0 || r.throttling_base_delay.count() < 0 ||
      r.max_backoff.count() < 0 || r.quota < 0 || r.retry_cost < 0 || r.timeout_retry_cost < 0 ||
      r.no_retry_increment < 0) {
    return Status::Validation("RemoteOptions::retry's delays and quota must not be negative");
  }
  PARTSTORE_ASSIGN_OR_RETURN(client::ResolvedConfig config, client::ResolveConfig(options));
  PARTSTORE_ASSIGN_OR_RETURN(Url url, client::ParseUrl(config.endpoint));
  PARTSTORE_ASSIGN_OR_RETURN(Url streams_url, client::ParseUrl(config.streams_endpoint));
  HttpClientOptions http;
  http.connect_timeout = options.connect_timeout;
  http.timeout = options.request_timeout;
  http.ca_file = config.ca_file;
  const SigV4Credentials credentials{config.credentials.access_key_id,
                                     config.credentials.secret_access_key,
                                     config.credentials.session_token};
  const size_t max = options.max_connections;
  auto impl = std::make_unique<Impl>(std::move(options), std::move(config));
  impl->pools[0] =
      std::make_unique<Pool>(std::move(url), http, credentials, impl->config.region, max);
  impl->pools[1] =
      std::make_unique<Pool>(std::move(streams_url), http, credentials, impl->config.region, max);
  return std::unique_ptr<RemoteStore>(new RemoteStore(std::move(impl)));
}

RemoteStore::RemoteStore(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
RemoteStore::~RemoteStore() = default;

const std::string& RemoteStore::endpoint() const { return impl_->config.endpoint; }
const std::string& RemoteStore::streams_endpoint() const { return impl_->config.streams_endpoint; }
const std::string& RemoteStore::region() const { return impl_->config.region; }

RemoteStats RemoteStore::stats() const {
  RemoteStats s;
  s.calls = impl_->calls.load();
  s.attempts = impl_->attempts.load();
  s.retries = impl_->retries.load();
  s.throttle_retries = impl_->throttle_retries.load();
  s.outcome_unknown = impl_->outcome_unknown.load();
  s.quota_exhausted = impl_->quota_exhausted.load();
  s.connections_opened = impl_->pools[0]->opened() + impl_->pools[1]->opened();
  s.retry_delay_ms = impl_->retry_delay_ms.load();
  return s;
}

double RemoteStore::EpochSeconds() const {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// ---- Tables, tags, Time to Live, backups, Contributor Insights ----
namespace p = protocol;

Result<CreateTableResult> RemoteStore::CreateTable(const CreateTableRequest& r) {
  return impl_->Call("CreateTable", p::EncodeCreateTableRequest(r), false,
                     p::DecodeCreateTableResult);
}
Result<DeleteTableResult> RemoteStore::DeleteTable(const DeleteTableRequest& r) {
  return impl_->Call("DeleteTable", p::EncodeDeleteTableRequest(r), false,
                     p::DecodeDeleteTableResult);
}
Result<DescribeTableResult> RemoteStore::DescribeTable(const DescribeTableRequest& r) {
  return impl_->Call("DescribeTable", p::EncodeDescribeTableRequest(r), true,
                     p::DecodeDescribeTableResult);
}
Result<ListTablesResult> RemoteStore::ListTables(const ListTablesRequest& r) {
  return impl_->Call("ListTables", p::EncodeListTablesRequest(r), true, p::DecodeListTablesResult);
}
Result<UpdateTableResult> RemoteStore::UpdateTable(const UpdateTableRequest& r) {
  return impl_->Call("UpdateTable", p::EncodeUpdateTableRequest(r), false,
                     p::DecodeUpdateTableResult);
}
// Setting tags, or removing them, twice leaves the same tags: safe to repeat.
Result<TagResourceResult> RemoteStore::TagResource(const TagResourceRequest& r) {
  return impl_->Call("TagResource", p::EncodeTagResourceRequest(r), true,
                     p::DecodeTagResourceResult);
}
Result<TagResourceResult> RemoteStore::UntagResource(const UntagResourceRequest& r) {
  return impl_->Call("UntagResource", p::EncodeUntagResourceRequest(r), true,
                     p::DecodeUntagResourceResult);
}
Result<ListTagsOfResourceResult> RemoteStore::ListTagsOfResource(
    const ListTagsOfResourceRequest& r) {
  return impl_->Call("ListTagsOfResource", p::EncodeListTagsOfResourceRequest(r), true,
                     p::DecodeListTagsOfResourceResult);
}
Result<UpdateTimeToLiveResult> RemoteStore::UpdateTimeToLive(const UpdateTimeToLiveRequest& r) {
  return impl_->Call("UpdateTimeToLive", p::EncodeUpdateTimeToLiveRequest(r), false,
                     p::DecodeUpdateTimeToLiveResult);
}
Result<DescribeTimeToLiveResult> RemoteStore::DescribeTimeToLive(
    const DescribeTimeToLiveRequest& r) {
  return impl_->Call("DescribeTimeToLive", p::EncodeDescribeTimeToLiveRequest(r), true,
                     p::DecodeDescribeTimeToLiveResult);
}
Result<CreateBackupResult> RemoteStore::CreateBackup(const CreateBackupRequest& r) {
  return impl_->Call("CreateBackup", p::EncodeCreateBackupRequest(r), false,
                     p::DecodeCreateBackupResult);
}
Result<DescribeBackupResult> RemoteStore::DescribeBackup(const DescribeBackupRequest& r) {
  return impl_->Call("DescribeBackup", p::EncodeDescribeBackupRequest(r), true,
                     p::DecodeDescribeBackupResult);
}
Result<ListBackupsResult> RemoteStore::ListBackups(const ListBackupsRequest& r) {
  return impl_->Call("ListBackups", p::EncodeListBackupsRequest(r), true,
                     p::DecodeListBackupsResult);
}
Result<DeleteBackupResult> RemoteStore::DeleteBackup(const DeleteBackupRequest& r) {
  return impl_->Call("DeleteBackup", p::EncodeDeleteBackupRequest(r), false,
                     p::DecodeDeleteBackupResult);
}
Result<RestoreTableFromBackupResult> RemoteStore::RestoreTableFromBackup(
    const RestoreTableFromBackupRequest& r) {
  return impl_->Call("RestoreTableFromBackup", p::EncodeRestoreTableFromBackupRequest(r), false,
                     p::DecodeRestoreTableFromBackupResult);
}
// Setting point-in-time recovery twice leaves the same setting: safe to repeat.
Result<ContinuousBackupsResult> RemoteStore::UpdateContinuousBackups(
    const UpdateContinuousBackupsRequest& r) {
  return impl_->Call("UpdateContinuousBackups", p::EncodeUpdateContinuousBackupsRequest(r), true,
                     p::DecodeUpdateContinuousBackupsResult);
}
Result<ContinuousBackupsResult> RemoteStore::DescribeContinuousBackups(
    const DescribeContinuousBackupsRequest& r) {
  return impl_->Call("DescribeContinuousBackups", p::EncodeDescribeContinuousBackupsRequest(r),
                     true, p::DecodeDescribeContinuousBackupsResult);
}
Result<RestoreTableToPointInTimeResult> RemoteStore::RestoreTableToPointInTime(
    const RestoreTableToPointInTimeRequest& r) {
  return impl_->Call("RestoreTableToPointInTime", p::EncodeRestoreTableToPointInTimeRequest(r),
                     false, p::DecodeRestoreTableToPointInTimeResult);
}
Result<UpdateContributorInsightsResult> RemoteStore::UpdateContributorInsights(
    const UpdateContributorInsightsRequest& r) {
  return impl_->Call("UpdateContributorInsights", p::EncodeUpdateContributorInsightsRequest(r),
                     false, p::DecodeUpdateContributorInsightsResult);
}
Result<ListContributorInsightsResult> RemoteStore::ListContributorInsights(
    const ListContributorInsightsRequest& r) {
  return impl_->Call("ListContributorInsights", p::EncodeListContributorInsightsRequest(r), true,
                     p::DecodeListContributorInsightsResult);
}
Result<DescribeContributorInsightsResult> RemoteStore::DescribeContributorInsights(
    const DescribeContributorInsightsRequest& r) {
  return impl_->Call("DescribeContributorInsights", p::EncodeDescribeContributorInsightsRequest(r),
                     true, p::DecodeDescribeContributorInsightsResult);
}

// ---- Streams: the DynamoDB Streams service ----
Result<ListStreamsResult> RemoteStore::ListStreams(const ListStreamsRequest& r) {
  return impl_->Call("ListStreams", p::EncodeListStreamsRequest(r), true,
                     p::DecodeListStreamsResult, Service::kStreams);
}
Result<DescribeStreamResult> RemoteStore::DescribeStream(const DescribeStreamRequest& r) {
  return impl_->Call("DescribeStream", p::EncodeDescribeStreamRequest(r), true,
                     p::DecodeDescribeStreamResult, Service::kStreams);
}
Result<GetShardIteratorResult> RemoteStore::GetShardIterator(const GetShardIteratorRequest& r) {
  return impl_->Call("GetShardIterator", p::EncodeGetShardIteratorRequest(r), true,
                     p::DecodeGetShardIteratorResult, Service::kStreams);
}
Result<GetRecordsResult> RemoteStore::GetRecords(const GetRecordsRequest& r) {
  return impl_->Call("GetRecords", p::EncodeGetRecordsRequest(r), true, p::DecodeGetRecordsResult,
                     Service::kStreams);
}

// ---- Items ----
// An unconditional PutItem or DeleteItem without ReturnValues leaves the same item however
// often it is applied; a conditional one (or one answering with the old item) does not.
Result<PutItemResult> RemoteStore::PutItem(const PutItemRequest& r) {
  return impl_->Call("PutItem", p::EncodePutItemRequest(r), UnconditionalWithoutReturnValues(r),
                     p::DecodePutItemResult);
}
Result<GetItemResult> RemoteStore::GetItem(const GetItemRequest& r) {
  return impl_->Call("GetItem", p::EncodeGetItemRequest(r), true, p::DecodeGetItemResult);
}
// An update may add to a number or append to a list: never repeated.
Result<UpdateItemResult> RemoteStore::UpdateItem(const UpdateItemRequest& r) {
  return impl_->Call("UpdateItem", p::EncodeUpdateItemRequest(r), false, p::DecodeUpdateItemResult);
}
Result<DeleteItemResult> RemoteStore::DeleteItem(const DeleteItemRequest& r) {
  return impl_->Call("DeleteItem", p::EncodeDeleteItemRequest(r),
                     UnconditionalWithoutReturnValues(r), p::DecodeDeleteItemResult);
}
Result<QueryResult> RemoteStore::Query(const QueryRequest& r) {
  return impl_->Call("Query", p::EncodeQueryRequest(r), true, p::DecodeReadPageResult);
}
Result<ScanResult> RemoteStore::Scan(const ScanRequest& r) {
  return impl_->Call("Scan", p::EncodeScanRequest(r), true, p::DecodeReadPageResult);
}
Result<GetItemViewResult> RemoteStore::GetItemView(const GetItemRequest& r) {
  PARTSTORE_ASSIGN_OR_RETURN(GetItemResult got, GetItem(r));
  GetItemViewResult view;
  if (got.item) view.item = StoredItem::Encode(*got.item);
  view.consumed_capacity = std::move(got.consumed_capacity);
  return view;
}
Result<QueryViewResult> RemoteStore::QueryView(const QueryRequest& r) {
  PARTSTORE_ASSIGN_OR_RETURN(QueryResult page, Query(r));
  return ToView<QueryViewResult>(std::move(page));
}
Result<ScanViewResult> RemoteStore::ScanView(const ScanRequest& r) {
  PARTSTORE_ASSIGN_OR_RETURN(ScanResult page, Scan(r));
  return ToView<ScanViewResult>(std::move(page));
}
Result<BatchGetItemResult> RemoteStore::BatchGetItem(const BatchGetItemRequest& r) {
  return impl_->Call("BatchGetItem", p::EncodeBatchGetItemRequest(r), true,
                     p::DecodeBatchGetItemResult);
}
// Puts and deletes without conditions: repeating the batch leaves the same items.
Result<BatchWriteItemResult> RemoteStore::BatchWriteItem(const BatchWriteItemRequest& r) {
  return impl_->Call("BatchWriteItem", p::EncodeBatchWriteItemRequest(r), true,
                     p::DecodeBatchWriteItemResult);
}

// ---- Transactions and PartiQL ----
// With a ClientRequestToken, DynamoDB answers a repeat within 10 minutes with the first result
// and applies nothing twice; the store gives each transaction without one a token of its own.
Result<TransactWriteItemsResult> RemoteStore::TransactWriteItems(
    const TransactWriteItemsRequest& r) {
  // DynamoDB's transaction actions have no legacy members, so the JSON cannot carry them: refused
  // as the engine refuses them (shard/transaction.cc), never silently dropped.
  for (const TransactWriteItem& action : r.transact_items) {
    if ((action.put && (action.put->expected || action.put->conditional_operator)) ||
        (action.del && (action.del->expected || action.del->conditional_operator)) ||
        (action.update && (action.update->expected || action.update->conditional_operator ||
                           action.update->attribute_updates))) {
      return Status::Validation(
          "Transactions take expressions only: Expected, ConditionalOperator and "
          "AttributeUpdates are not supported");
    }
  }
  if (r.client_request_token) {
    return impl_->Call("TransactWriteItems", p::EncodeTransactWriteItemsRequest(r), true,
                       p::DecodeTransactWriteItemsResult);
  }
  TransactWriteItemsRequest with_token = r;
  with_token.client_request_token = impl_->Token();
  return impl_->Call("TransactWriteItems", p::EncodeTransactWriteItemsRequest(with_token), true,
                     p::DecodeTransactWriteItemsResult);
}
Result<TransactGetItemsResult> RemoteStore::TransactGetItems(const TransactGetItemsRequest& r) {
  return impl_->Call("TransactGetItems", p::EncodeTransactGetItemsRequest(r), true,
                     p::DecodeTransactGetItemsResult);
}
Result<ExecuteStatementResult> RemoteStore::ExecuteStatement(const ExecuteStatementRequest& r) {
  return impl_->Call("ExecuteStatement", p::EncodeExecuteStatementRequest(r),
                     StartsWithSelect(r.statement), p::DecodeExecuteStatementResult);
}
Result<BatchExecuteStatementResult> RemoteStore::BatchExecuteStatement(
    const BatchExecuteStatementRequest& r) {
  bool reads = true;
  for (const BatchStatementRequest& s : r.statements)
    reads = reads && StartsWithSelect(s.statement);
  return impl_->Call("BatchExecuteStatement", p::EncodeBatchExecuteStatementRequest(r), reads,
                     p::DecodeBatchExecuteStatementResult);
}
Result<ExecuteTransactionResult> RemoteStore::ExecuteTransaction(
    const ExecuteTransactionRequest& r) {
  if (r.client_request_token) {
    return impl_->Call("ExecuteTransaction", p::EncodeExecuteTransactionRequest(r), true,
                       p::DecodeExecuteTransactionResult);
  }
  ExecuteTransactionRequest with_token = r;
  with_token.client_request_token = impl_->Token();
  return impl_->Call("ExecuteTransaction", p::EncodeExecuteTransactionRequest(with_token), true,
                     p::DecodeExecuteTransactionResult);
}

}  // namespace partstore
