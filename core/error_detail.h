// ErrorDetail: the members some DynamoDB errors carry besides `__type` and `message`.
//
//   ConditionalCheckFailedException  Item: the existing item, when the request asked for
//                                    ReturnValuesOnConditionCheckFailure=ALL_OLD and one existed.
//   ProvisionedThroughputExceeded-   ThrottlingReasons: each limit the request ran into, with the
//   and ThrottlingException          ARN of the table or index that imposed it.
//
// Attached to a Status with Status::WithDetail and read with Status::detail(); the wire layer
// writes each present member into the error body.
//
// Thread safety: immutable once attached; safe to read from any thread.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/item.h"
#include "core/throttle_reason.h"

namespace partstore {

struct ThrottlingReason {
  ThrottleReason reason;
  std::string resource;  // the table's or index's ARN
  friend bool operator==(const ThrottlingReason&, const ThrottlingReason&) = default;
};

struct ErrorDetail {
  std::optional<Item> item;
  std::vector<ThrottlingReason> throttling_reasons;
};

}  // namespace partstore
