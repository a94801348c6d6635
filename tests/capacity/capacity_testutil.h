// Helpers for the capacity simulation tests: a Database on a manual clock, tables in either
// billing mode, keys that land in a chosen partition, and traffic at a steady rate.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>

#include "core/key_encoding.h"
#include "partstore/database.h"
#include "partstore/error_detail.h"
#include "shard/stripe.h"

namespace partstore::testing {

inline DatabaseOptions ManualCapacity(std::shared_ptr<capacity::ManualClock> clock,
                                      capacity::CapacityOptions options = {}) {
  DatabaseOptions out;
  options.enabled = true;
  options.clock = std::move(clock);
  out.capacity = options;
  return out;
}

// A table keyed by PK (S) alone; provisioned when rcu/wcu are given, else on-demand.
inline CreateTableRequest CapacityTable(const std::string& name, std::optional<int64_t> rcu = {},
                                        std::optional<int64_t> wcu = {}) {
  KeySchema key;
  key.partition = {"PK", KeyType::kString};
  CreateTableRequest request = SimpleTable(name, key);
  if (rcu || wcu) {
    request.billing_mode = BillingMode::kProvisioned;
    request.provisioned_throughput = ProvisionedThroughput{rcu.value_or(1), wcu.value_or(1)};
  }
  return request;
}

inline uint64_t HashOfKey(const std::string& pk) {
  std::string encoded;
  AppendKeyEncoding(Value(pk), &encoded);
  return HashPartitionKey(encoded);
}

// The first key "<prefix><n>" (n = 0, 1, ...) whose hash lies in [begin, end], after `skip` such
// keys.
inline std::string KeyInRange(const std::string& prefix, uint64_t begin, uint64_t end,
                              int skip = 0) {
  for (int n = 0;; ++n) {
    std::string key = prefix + std::to_string(n);
    const uint64_t h = HashOfKey(key);
    if (h >= begin && h <= end && skip-- == 0) return key;
  }
}

class CapacityTest : public ::testing::Test {
 protected:
  explicit CapacityTest(capacity::CapacityOptions options = {})
      : clock_(std::make_shared<capacity::ManualClock>()),
        db_(ManualCapacity(clock_, std::move(options))) {}

  void Create(const CreateTableRequest& request) {
    auto created = db_.CreateTable(request);
    ASSERT_TRUE(created.ok()) << created.status().ToString();
  }
  void Advance(double seconds) { clock_->Advance(static_cast<int64_t>(seconds * 1e6)); }
  int64_t NowMicros() const { return clock_->NowMicros(); }

  // Reuses one request: its item's strings are assigned in place, not built and sorted again.
  // Tests drive a million writes through it, and test files compile at -O0 under the sanitizers
  // (cmake/build_speed.cmake), where building the item each time was a third of such a test.
  // So Put is for the test's own thread only (concurrent tests build their own requests).
  Status Put(const std::string& table, const std::string& pk, size_t payload = 10) {
    if (put_.item.empty()) put_.item = {{"PK", Value(std::string())}, {"v", Value(std::string())}};
    put_.table_name = table;
    *put_.item.find("PK")->second.if_string() = pk;
    put_.item.find("v")->second.if_string()->assign(payload, 'x');
    return db_.PutItem(put_).status();
  }
  Status Get(const std::string& table, const std::string& pk, bool consistent = true) {
    GetItemRequest request;
    request.table_name = table;
    request.key = {{"PK", Value(pk)}};
    request.consistent_read = consistent;
    return db_.GetItem(request).status();
  }

  // Sends `op` (returning a Status) `rate` times per second for `seconds`, evenly spaced from now;
  // returns how many succeeded. The clock ends `seconds` later. Non-throttling errors fail.
  template <class Op>
  int64_t Drive(double rate, double seconds, Op&& op) {
    const int64_t start = NowMicros();
    const int64_t n = static_cast<int64_t>(rate * seconds);
    int64_t ok = 0;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t at = start + static_cast<int64_t>(static_cast<double>(i) * 1e6 / rate);
      if (at > NowMicros()) clock_->Advance(at - NowMicros());
      Status status = op(i);
      if (status.ok()) {
        ++ok;
      } else {
        EXPECT_TRUE(status.code() == Code::kProvisionedThroughputExceeded ||
                    status.code() == Code::kThrottling)
            << status.ToString();
      }
    }
    const int64_t end = start + static_cast<int64_t>(seconds * 1e6);
    if (end > NowMicros()) clock_->Advance(end - NowMicros());
    return ok;
  }

  DescribePartitionsResult Partitions(const std::string& table,
                                      std::optional<std::string> index = {}) {
    auto out = db_.DescribePartitions({table, std::move(index)});
    EXPECT_TRUE(out.ok()) << out.status().ToString();
    return out.ok() ? *out : DescribePartitionsResult{};
  }

  std::shared_ptr<capacity::ManualClock> clock_;
  Database db_;
  PutItemRequest put_;  // Put's
};

// The reasons' names of a throttling error.
inline std::vector<std::string> ReasonNames(const Status& status) {
  std::vector<std::string> out;
  if (const ErrorDetail* detail = status.detail()) {
    for (const ThrottlingReason& r : detail->throttling_reasons) out.push_back(r.reason.name());
  }
  return out;
}

}  // namespace partstore::testing
