// ThrottleReason: why DynamoDB throttled a request (the ThrottlingReasons member DynamoDB adds to
// ProvisionedThroughputExceededException and ThrottlingException).
//
// A reason is ResourceType (Table | Index) + Operation (Read | Write) + LimitType, 16 in all, e.g.
// "TableWriteKeyRangeThroughputExceeded" or "IndexWriteProvisionedThroughputExceeded":
//   ProvisionedThroughputExceeded   the table's or GSI's provisioned rate;
//   AccountLimitExceeded            the on-demand per-table quota (40,000 units by default);
//   KeyRangeThroughputExceeded      one partition's limit (3,000 RCU / 1,000 WCU), either mode;
//   MaxOnDemandThroughputExceeded   the on-demand ceiling (the user's maximum, or 2x the
//                                   previous peak).
//
// Thread safety: value types and pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace partstore {

enum class ThrottleResource : uint8_t { kTable, kIndex };
enum class ThrottleOperation : uint8_t { kRead, kWrite };
enum class ThrottleLimit : uint8_t {
  kProvisionedThroughputExceeded,
  kAccountLimitExceeded,
  kKeyRangeThroughputExceeded,
  kMaxOnDemandThroughputExceeded,
};

struct ThrottleReason {
  ThrottleResource resource = ThrottleResource::kTable;
  ThrottleOperation operation = ThrottleOperation::kRead;
  ThrottleLimit limit = ThrottleLimit::kProvisionedThroughputExceeded;

  // 0..15: resource, then operation, then limit (a dense index for per-reason counters).
  constexpr int index() const {
    return static_cast<int>(resource) * 8 + static_cast<int>(operation) * 4 +
           static_cast<int>(limit);
  }
  static constexpr ThrottleReason FromIndex(int i) {
    return {static_cast<ThrottleResource>(i / 8), static_cast<ThrottleOperation>((i / 4) % 2),
            static_cast<ThrottleLimit>(i % 4)};
  }
  // DynamoDB's code, e.g. "TableReadKeyRangeThroughputExceeded".
  std::string name() const {
    constexpr std::string_view kLimits[] = {"ProvisionedThroughputExceeded", "AccountLimitExceeded",
                                            "KeyRangeThroughputExceeded",
                                            "MaxOnDemandThroughputExceeded"};
    std::string out(resource == ThrottleResource::kTable ? "Table" : "Index");
    out += operation == ThrottleOperation::kRead ? "Read" : "Write";
    out += kLimits[static_cast<int>(limit)];
    return out;
  }
  friend bool operator==(const ThrottleReason&, const ThrottleReason&) = default;
};

inline constexpr int kThrottleReasonCount = 16;

}  // namespace partstore
