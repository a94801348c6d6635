// The standard retry mode's pieces: which answers are retried, the delays, the quota.
#include "tools/client/retry_policy.h"

#include <gtest/gtest.h>

namespace partstore::client {
namespace {

using std::chrono::milliseconds;

TEST(RetryPolicyTest, ClassifiesAnswers) {
  EXPECT_EQ(ClassifyError(Status(Code::kProvisionedThroughputExceeded, ""), 400),
            FailureKind::kThrottling);
  EXPECT_EQ(ClassifyError(Status(Code::kThrottling, ""), 400), FailureKind::kThrottling);
  EXPECT_EQ(ClassifyError(Status(Code::kRequestLimitExceeded, ""), 400), FailureKind::kThrottling);
  EXPECT_EQ(ClassifyError(Status(Code::kTransactionInProgress, ""), 400), FailureKind::kThrottling);
  EXPECT_EQ(ClassifyError(Status(Code::kInternal, ""), 500), FailureKind::kTransient);
  EXPECT_EQ(ClassifyError(Status(Code::kValidation, "Bad Gateway"), 502), FailureKind::kTransient);
  EXPECT_EQ(ClassifyError(Status(Code::kConditionalCheckFailed, ""), 400),
            FailureKind::kNotRetryable);
  EXPECT_EQ(ClassifyError(Status(Code::kValidation, ""), 400), FailureKind::kNotRetryable);
  EXPECT_EQ(ClassifyError(Status(Code::kInvalidSignature, ""), 400), FailureKind::kNotRetryable);
  EXPECT_EQ(ClassifyError(Status(Code::kValidation, "HTTP 429 from a proxy"), 429),
            FailureKind::kThrottling);
  EXPECT_EQ(ClassifyError(Status(Code::kValidation, "HTTP 403 from a proxy"), 403),
            FailureKind::kNotRetryable);
}

TEST(RetryPolicyTest, FullJitterUnderAnExponentialCeiling) {
  const RetryOptions options;  // 100 ms, 500 ms for throttles, at most 20 s
  EXPECT_EQ(RetryDelay(options, FailureKind::kTransient, 1, 0.0), milliseconds(0));
  EXPECT_EQ(RetryDelay(options, FailureKind::kTransient, 1, 0.5), milliseconds(50));
  EXPECT_EQ(RetryDelay(options, FailureKind::kTransient, 3, 0.5), milliseconds(200));
  EXPECT_EQ(RetryDelay(options, FailureKind::kTimeout, 2, 0.999), milliseconds(199));
  EXPECT_EQ(RetryDelay(options, FailureKind::kThrottling, 1, 0.5), milliseconds(250));
  EXPECT_EQ(RetryDelay(options, FailureKind::kThrottling, 4, 0.5), milliseconds(2000));
  EXPECT_EQ(RetryDelay(options, FailureKind::kThrottling, 10, 0.5), milliseconds(10000));  // cap
  EXPECT_EQ(RetryDelay(options, FailureKind::kThrottling, 1000, 0.999), milliseconds(19980));
}

TEST(RetryPolicyTest, TheQuotaEmptiesAndRefills) {
  RetryOptions options;
  options.quota = 20;
  RetryQuota quota(options);
  EXPECT_EQ(quota.Acquire(FailureKind::kThrottling), 5);
  EXPECT_EQ(quota.Acquire(FailureKind::kTimeout), 10);
  EXPECT_EQ(quota.tokens(), 5);
  EXPECT_EQ(quota.Acquire(FailureKind::kTimeout), 0);  // too few: nothing taken
  EXPECT_EQ(quota.tokens(), 5);
  EXPECT_EQ(quota.Acquire(FailureKind::kTransient), 5);
  EXPECT_EQ(quota.Acquire(FailureKind::kTransient), 0);
  quota.Release(10);  // a call that succeeded after retries gives back what they took
  EXPECT_EQ(quota.tokens(), 10);
  quota.Release(0);  // one that needed none gives back no_retry_increment
  EXPECT_EQ(quota.tokens(), 11);
  quota.Release(100);
  EXPECT_EQ(quota.tokens(), 20);  // never past the start
}

}  // namespace
}  // namespace partstore::client
