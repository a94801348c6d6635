// The AWS SDKs' standard retry mode, as RemoteStore applies it (partstore/remote_store.h has the
// rules): which failures are retried, how long to wait, and the retry quota shared by a store.
//
// Sources: the AWS SDKs and Tools reference guide, "Retry behavior" (standard mode: 3 attempts,
// exponential backoff with jitter, a retry quota); the constants are the AWS SDK for JavaScript
// v3's (@smithy/util-retry constants.ts: DEFAULT_RETRY_DELAY_BASE 100 ms,
// THROTTLING_RETRY_DELAY_BASE 500 ms, MAXIMUM_RETRY_DELAY 20 s, INITIAL_RETRY_TOKENS 500,
// RETRY_COST 5, TIMEOUT_RETRY_COST 10, NO_RETRY_INCREMENT 1), its delay
// random * min(MAXIMUM_RETRY_DELAY, 2^retries * base) (full jitter).
//
// Thread safety: RetryQuota is safe for concurrent use; the free functions are pure.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>

#include "partstore/remote_store.h"
#include "partstore/status.h"

namespace partstore::client {

// How a failed attempt is retried.
enum class FailureKind : uint8_t {
  kNotRetryable,  // DynamoDB's answer stands (a validation error, a failed condition, ...)
  kThrottling,    // a throttling error: the throttling base delay, retry_cost
  kTransient,     // 5xx, InternalServerError, a damaged response: the base delay, retry_cost
  kTimeout,       // a timeout or connection failure: the base delay, timeout_retry_cost
};

// The kind of an error answer from the server (a Status decoded from an error body).
FailureKind ClassifyError(const Status& status, int http_status);

// The wait before retry number `retry` (1 for the first retry): `random` in [0, 1) times
// min(max_backoff, 2^(retry-1) * base).
std::chrono::milliseconds RetryDelay(const RetryOptions& options, FailureKind kind, int retry,
                                     double random);

// The retry quota: a bucket of tokens a store's calls share. A retry takes its cost (Acquire
// fails, taking nothing, when the bucket holds less); a call that succeeds gives back what its
// retries took, or no_retry_increment when it needed none, up to the initial amount.
class RetryQuota {
 public:
  explicit RetryQuota(const RetryOptions& options) : options_(options), tokens_(options.quota) {}

  // The tokens a retry after `kind` takes, or 0 (nothing taken) when the bucket holds too few.
  int Acquire(FailureKind kind);
  // A call succeeded after retries that took `taken` tokens (0: it needed none).
  void Release(int taken);
  int tokens() const;

 private:
  const RetryOptions options_;
  mutable std::mutex mu_;  // a leaf: nothing else is locked while it is held
  int tokens_;             // guarded by mu_
};

}  // namespace partstore::client
