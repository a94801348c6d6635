// Key helpers for single-table designs: the strings single-table design patterns build by hand
// ("USER#alice", "ORDER#2024-01-05#17") and the two keys of an adjacency-list edge.
//
//   EntityKey("USER", "alice")                    -> "USER#alice"
//   CompositeKey({"ORDER", "2024-01-05", "17"})   -> "ORDER#2024-01-05#17"
//   AdjacencyKeys("USER#alice", "USER#bob")       -> {.pk = "USER#alice", .sk = "USER#bob"}
//
// The separator is '#', the convention of DynamoDB's single-table guides. Parts are joined as
// given, not escaped: a part that itself contains '#' makes keys that a begins_with prefix cannot
// tell apart, so keep '#' out of identifiers (or use CompositeKey's parts for the structure).
// Pure functions; thread-safe.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "partstore/item.h"

namespace partstore {

inline constexpr char kKeySeparator = '#';

// "TYPE#id".
std::string EntityKey(std::string_view type, std::string_view id);

// The parts joined by '#': {"A", "B", "C"} -> "A#B#C"; one part -> itself; none -> "".
std::string CompositeKey(std::initializer_list<std::string_view> parts);

// The prefix that selects every key of `type` under a begins_with condition: "TYPE#".
std::string KeyPrefix(std::string_view type);

// The id of a "TYPE#id" key: KeyId("USER#alice", "USER") -> "alice"; nullopt when `key` does not
// begin with KeyPrefix(type). The view points into `key`.
std::optional<std::string_view> KeyId(std::string_view key, std::string_view type);

// An edge of an adjacency list: the item stored under partition key `from` with sort key `to`.
// Store both directions (AdjacencyKeys(a, b) and AdjacencyKeys(b, a)) to query either way.
struct AdjacencyKey {
  std::string pk;
  std::string sk;
  // The edge as a key (GetItem, DeleteItem) or the start of an item: {pk_name: pk, sk_name: sk}.
  Item ToItem(const std::string& pk_name, const std::string& sk_name) const;
  friend bool operator==(const AdjacencyKey&, const AdjacencyKey&) = default;
};
AdjacencyKey AdjacencyKeys(std::string_view from, std::string_view to);

}  // namespace partstore
