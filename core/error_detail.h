// ErrorDetail: the members some DynamoDB errors carry besides `__type` and `message`.
//
//   ConditionalCheckFailedException  Item: the existing item, when the request asked for
//                                    ReturnValuesOnConditionCheckFailure=ALL_OLD and one existed.
//
// Attached to a Status with Status::WithDetail and read with Status::detail(); the wire layer
// writes each present member into the error body.
//
// Thread safety: immutable once attached; safe to read from any thread.
#pragma once

#include <optional>

#include "core/item.h"

namespace partstore {

struct ErrorDetail {
  std::optional<Item> item;
};

}  // namespace partstore
