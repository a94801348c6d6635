// partstore::RemoteStore: the Store (partstore/store.h) that talks to a DynamoDB endpoint over
// HTTP or HTTPS: DynamoDB itself, ScyllaDB Alternator, DynamoDB Local, or `partstore serve`. The
// same program runs on the in-process engine or on a real table by swapping the Store it holds.
// Linked from the partstore_client library (CMake: partstore::client), which brings OpenSSL and
// Boost.Beast; the engine alone (partstore::partstore) does not.
//
//   auto store = partstore::RemoteStore::Open({.endpoint = "http://127.0.0.1:8000",
//                                              .region = "us-east-1"});
//   if (!store.ok()) { /* store.status(): what is missing or malformed, before any request */ }
//   auto got = (*store)->GetItem({.table_name = "Orders", .key = key});
//
// What it finds by itself, as the AWS SDKs do (the first that gives a value wins):
//   endpoint     options.endpoint; $AWS_ENDPOINT_URL_DYNAMODB; $AWS_ENDPOINT_URL; the profile's
//                endpoint_url; else https://dynamodb.<region>.amazonaws.com. DynamoDB Streams'
//                calls go to options.streams_endpoint; $AWS_ENDPOINT_URL_DYNAMODB_STREAMS; the
//                DynamoDB endpoint when that was given; else
//                https://streams.dynamodb.<region>.amazonaws.com.
//   region       options.region; $AWS_REGION; $AWS_DEFAULT_REGION; the profile's `region` in the
//                config file. None: Open fails (ValidationException) before any request.
//   credentials  options.credentials; $AWS_ACCESS_KEY_ID + $AWS_SECRET_ACCESS_KEY (+
//                $AWS_SESSION_TOKEN); the profile in the shared credentials file
//                ($AWS_SHARED_CREDENTIALS_FILE, else ~/.aws/credentials), then in the config file
//                ($AWS_CONFIG_FILE, else ~/.aws/config). None: Open fails.
//   profile      options.profile; $AWS_PROFILE; "default".
//   max attempts options.retry.max_attempts when set; $AWS_MAX_ATTEMPTS; 3.
//   CA bundle    options.ca_file; $AWS_CA_BUNDLE (HTTPS: trusted besides the system's store).
//
// Every request is signed with Signature Version 4 (the signer `partstore serve --auth sigv4`
// verifies with: one implementation for both sides). Responses are checked against x-amz-crc32
// (a mismatch is retried as a damaged response) and decoded (gzip when the server compressed).
//
// Errors: DynamoDB's errors come back as the same Status codes, messages and ErrorDetail the
// engine gives (the `__type` after '#' names the Code). Transport failures (cannot resolve,
// connect, TLS, timeout, a response that is not HTTP or not JSON) are InternalServerError naming
// the endpoint and what happened. A write that may have been applied, and that is not safe to
// send twice, is Code::kOutcomeUnknown (see "Retries").
//
// Retries follow the AWS SDKs' standard retry mode: at most max_attempts attempts; retried are
// throttling errors (ProvisionedThroughputExceeded, Throttling, RequestLimitExceeded,
// TransactionInProgress, LimitExceeded), HTTP 5xx / InternalServerError, a damaged response, and
// connection failures; each retry waits a random time in [0, min(max_backoff, base * 2^n)) (full
// jitter; base = throttling_base_delay for throttles, base_delay otherwise) and takes tokens from
// a retry quota shared by the store (retry_cost, timeout_retry_cost for timeouts and connection
// failures; a success without retry returns no_retry_increment, one after retries returns what
// it took). An empty quota ends the retries with the last error.
// A failure after the request left (a timeout, a connection reset before the response) is
// retried only for idempotent requests: reads, table descriptions and listings, unconditional
// PutItem / DeleteItem without ReturnValues, BatchWriteItem (unconditional by definition), and
// TransactWriteItems with a ClientRequestToken (DynamoDB answers a repeat with the first
// result); the store gives a TransactWriteItems without one a fresh token, as the SDKs do.
// Anything else (UpdateItem, conditional writes, PartiQL writes, CreateTable, ...) fails with
// kOutcomeUnknown instead of being sent again. A PutItem or DeleteItem sent again may have been
// applied by its first attempt too: when another client wrote the item in between, the repeat
// overwrites that write (the AWS SDKs repeat them the same way; tests/consistency records it).
// Where that matters, give the write a condition, or make it a transaction with a token.
//
// Connections: a pool of at most max_connections kept-alive connections per endpoint, shared by
// every thread; a caller waits for a free one when all are busy. Idle connections are checked
// before reuse (one the server closed is replaced before anything is sent on it).
//
// Thread safety: safe for concurrent use from any number of threads.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "partstore/status.h"
#include "partstore/store.h"

namespace partstore {

struct AwsCredentials {
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;  // empty: none
};

// The AWS SDKs' standard retry mode (the AWS SDK for JavaScript v3's constants by default).
struct RetryOptions {
  // Attempts per call, the first included (1: no retries). Unset: $AWS_MAX_ATTEMPTS, else 3.
  std::optional<int> max_attempts;
  std::chrono::milliseconds base_delay{100};
  std::chrono::milliseconds throttling_base_delay{500};
  std::chrono::milliseconds max_backoff{20000};
  // The retry quota: tokens at start (and at most), the cost of a retry, of a retry after a
  // timeout or connection failure, and what a call that needed no retry gives back.
  int quota = 500;
  int retry_cost = 5;
  int timeout_retry_cost = 10;
  int no_retry_increment = 1;
};

struct RemoteOptions {
  std::string endpoint;          // http[s]://host[:port][/]; empty: see the header comment
  std::string streams_endpoint;  // DynamoDB Streams' calls; empty: see the header comment
  std::string region;
  std::optional<AwsCredentials> credentials;
  std::string profile;
  std::chrono::milliseconds connect_timeout{std::chrono::seconds(3)};
  std::chrono::milliseconds request_timeout{std::chrono::seconds(30)};
  size_t max_connections = 64;  // per endpoint, >= 1
  RetryOptions retry;
  // Request bodies of at least gzip_min_bytes are sent with Content-Encoding: gzip (the SDKs'
  // request compression); off by default.
  bool gzip_requests = false;
  size_t gzip_min_bytes = 10240;
  std::string ca_file;
  // Seeds the retry delays' random numbers (0: from the system); tests set it.
  uint64_t seed = 0;
};

// What the store has done so far (monotonic counters).
struct RemoteStats {
  uint64_t calls = 0;             // operations called
  uint64_t attempts = 0;          // HTTP requests sent (calls + retries)
  uint64_t retries = 0;           // of the attempts, retries (also a request sent again on a
                                  // new connection when its kept-alive one failed)
  uint64_t throttle_retries = 0;  // of the retries, after a throttling error
  uint64_t outcome_unknown = 0;   // calls that ended in Code::kOutcomeUnknown
  uint64_t quota_exhausted = 0;   // retries not made for want of quota
  uint64_t connections_opened = 0;
  int64_t retry_delay_ms = 0;  // time spent waiting between attempts
};

class RemoteStore final : public Store {
 public:
  // Resolves the endpoint, region and credentials (see the header comment) and checks them:
  // ValidationException naming what is missing or malformed (a bad URL, no region, no
  // credentials, a profile not found, an option out of range). Connects lazily.
  static Result<std::unique_ptr<RemoteStore>> Open(RemoteOptions options = {});
  ~RemoteStore() override;
  RemoteStore(const RemoteStore&) = delete;
  RemoteStore& operator=(const RemoteStore&) = delete;

  // The endpoint, streams endpoint and region in use (as resolved by Open).
  const std::string& endpoint() const;
  const std::string& streams_endpoint() const;
  const std::string& region() const;
  RemoteStats stats() const;

  Result<CreateTableResult> CreateTable(const CreateTableRequest& request) override;
  Result<DeleteTableResult> DeleteTable(const DeleteTableRequest& request) override;
  Result<DescribeTableResult> DescribeTable(const DescribeTableRequest& request) override;
  Result<ListTablesResult> ListTables(const ListTablesRequest& request) override;
  Result<UpdateTableResult> UpdateTable(const UpdateTableRequest& request) override;
  Result<TagResourceResult> TagResource(const TagResourceRequest& request) override;
  Result<TagResourceResult> UntagResource(const UntagResourceRequest& request) override;
  Result<ListTagsOfResourceResult> ListTagsOfResource(
      const ListTagsOfResourceRequest& request) override;
  Result<UpdateTimeToLiveResult> UpdateTimeToLive(const UpdateTimeToLiveRequest& request) override;
  Result<DescribeTimeToLiveResult> DescribeTimeToLive(
      const DescribeTimeToLiveRequest& request) override;
  Result<CreateBackupResult> CreateBackup(const CreateBackupRequest& request) override;
  Result<DescribeBackupResult> DescribeBackup(const DescribeBackupRequest& request) override;
  Result<ListBackupsResult> ListBackups(const ListBackupsRequest& request) override;
  Result<DeleteBackupResult> DeleteBackup(const DeleteBackupRequest& request) override;
  Result<RestoreTableFromBackupResult> RestoreTableFromBackup(
      const RestoreTableFromBackupRequest& request) override;
  Result<ContinuousBackupsResult> UpdateContinuousBackups(
      const UpdateContinuousBackupsRequest& request) override;
  Result<ContinuousBackupsResult> DescribeContinuousBackups(
      const DescribeContinuousBackupsRequest& request) override;
  Result<RestoreTableToPointInTimeResult> RestoreTableToPointInTime(
      const RestoreTableToPointInTimeRequest& request) override;
  Result<ListStreamsResult> ListStreams(const ListStreamsRequest& request) override;
  Result<DescribeStreamResult> DescribeStream(const DescribeStreamRequest& request) override;
  Result<GetShardIteratorResult> GetShardIterator(const GetShardIteratorRequest& request) override;
  Result<GetRecordsResult> GetRecords(const GetRecordsRequest& request) override;
  Result<UpdateContributorInsightsResult> UpdateContributorInsights(
      const UpdateContributorInsightsRequest& request) override;
  Result<ListContributorInsightsResult> ListContributorInsights(
      const ListContributorInsightsRequest& request) override;
  Result<DescribeContributorInsightsResult> DescribeContributorInsights(
      const DescribeContributorInsightsRequest& request) override;
  Result<PutItemResult> PutItem(const PutItemRequest& request) override;
  Result<GetItemResult> GetItem(const GetItemRequest& request) override;
  Result<UpdateItemResult> UpdateItem(const UpdateItemRequest& request) override;
  Result<DeleteItemResult> DeleteItem(const DeleteItemRequest& request) override;
  Result<QueryResult> Query(const QueryRequest& request) override;
  Result<ScanResult> Scan(const ScanRequest& request) override;
  Result<GetItemViewResult> GetItemView(const GetItemRequest& request) override;
  Result<QueryViewResult> QueryView(const QueryRequest& request) override;
  Result<ScanViewResult> ScanView(const ScanRequest& request) override;
  Result<BatchGetItemResult> BatchGetItem(const BatchGetItemRequest& request) override;
  Result<BatchWriteItemResult> BatchWriteItem(const BatchWriteItemRequest& request) override;
  Result<TransactWriteItemsResult> TransactWriteItems(
      const TransactWriteItemsRequest& request) override;
  Result<TransactGetItemsResult> TransactGetItems(const TransactGetItemsRequest& request) override;
  Result<ExecuteStatementResult> ExecuteStatement(const ExecuteStatementRequest& request) override;
  Result<BatchExecuteStatementResult> BatchExecuteStatement(
      const BatchExecuteStatementRequest& request) override;
  Result<ExecuteTransactionResult> ExecuteTransaction(
      const ExecuteTransactionRequest& request) override;
  double EpochSeconds() const override;

  struct Impl;  // remote_store.cc

 private:
  explicit RemoteStore(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace partstore
