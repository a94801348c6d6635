#include "tools/client/retry_policy.h"

#include <algorithm>
#include <cmath>

namespace partstore::client {

FailureKind ClassifyError(const Status& status, int http_status) {
  switch (status.code()) {
    case Code::kProvisionedThroughputExceeded:
    case Code::kThrottling:
    case Code::kRequestLimitExceeded:
    case Code::kTransactionInProgress:
    case Code::kLimitExceeded:
      return FailureKind::kThrottling;
    case Code::kInternal:
      return FailureKind::kTransient;
    default:
      break;
  }
  // 429 Too Many Requests (a proxy's throttle, whatever its body says) is a throttle.
  if (http_status == 429) return FailureKind::kThrottling;
  return http_status >= 500 ? FailureKind::kTransient : FailureKind::kNotRetryable;
}

std::chrono::milliseconds RetryDelay(const RetryOptions& options, FailureKind kind, int retry,
                                     double random) {
  const double base = static_cast<double>(
      (kind == FailureKind::kThrottling ? options.throttling_base_delay : options.base_delay)
          .count());
  const double ceiling = std::min(static_cast<double>(options.max_backoff.count()),
                                  std::ldexp(base, std::clamp(retry - 1, 0, 62)));
  return std::chrono::milliseconds(static_cast<int64_t>(random * ceiling));
}

int RetryQuota::Acquire(FailureKind kind) {
  const int cost =
      kind == FailureKind::kTimeout ? options_.timeout_retry_cost : options_.retry_cost;
  std::lock_guard lock(mu_);
  if (tokens_ < cost) return 0;
  tokens_ -= cost;
  return cost;
}

void RetryQuota::Release(int taken) {
  std::lock_guard lock(mu_);
  tokens_ = std::min(options_.quota, tokens_ + (taken > 0 ? taken : options_.no_retry_increment));
}

int RetryQuota::tokens() const {
  std::lock_guard lock(mu_);
  return tokens_;
}

}  // namespace partstore::client
