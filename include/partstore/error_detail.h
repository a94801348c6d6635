// ErrorDetail: the members some DynamoDB errors carry besides `__type` and `message`.
//
//   ConditionalCheckFailedException  Item: the existing item, when the request asked for
//                                    ReturnValuesOnConditionCheckFailure=ALL_OLD and one existed.
//   ProvisionedThroughputExceeded-   ThrottlingReasons: each limit the request ran into, with the
//   and ThrottlingException          ARN of the table or index that imposed it.
//   TransactionCanceledException     CancellationReasons: one per action, in action order.
//
// Attached to a Status with Status::WithDetail and read with Status::detail(); the wire layer
// writes each present member into the error body.
//
// Thread safety: immutable once attached; safe to read from any thread.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "partstore/item.h"
#include "partstore/throttle_reason.h"

namespace partstore {

struct ThrottlingReason {
  ThrottleReason reason{};
  std::string resource{};  // the table's or index's ARN
  friend bool operator==(const ThrottlingReason&, const ThrottlingReason&) = default;
};

// Why one action of a transaction was cancelled: Code "None" (no message) for an action that was
// fine, else "ConditionalCheckFailed" (with the item for ALL_OLD), "ValidationError",
// "ItemCollectionSizeLimitExceeded", "ProvisionedThroughputExceeded", "ThrottlingError" or
// "TransactionConflict" with DynamoDB's message.
struct CancellationReason {
  std::string code = "None";
  std::optional<std::string> message{};
  std::optional<Item> item{};
  friend bool operator==(const CancellationReason&, const CancellationReason&) = default;
};

struct ErrorDetail {
  std::optional<Item> item{};
  std::vector<ThrottlingReason> throttling_reasons{};
  std::vector<CancellationReason> cancellation_reasons{};
};

}  // namespace partstore
