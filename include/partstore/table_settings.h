// The table settings beyond keys, indexes and throughput, as CreateTable, UpdateTable and
// DescribeTable carry them: the table class, deletion protection, server-side encryption, the
// on-demand maximum, warm throughput, and tags (partstore/tags.h has the tag operations).
//
// partstore stores and reports each; it enforces deletion protection (DeleteTable refuses a
// protected table with DynamoDB's ValidationException); the capacity simulation throttles at a
// table's or GSI's on-demand maximum (MaxOnDemandThroughputExceeded) and gives it the partitions
// its warm throughput calls for.
//
// Thread safety: value types.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace partstore {

enum class TableClass : uint8_t { kStandard, kStandardInfrequentAccess };
// "STANDARD", "STANDARD_INFREQUENT_ACCESS".
std::string_view TableClassName(TableClass table_class);
// The class a name spells, if any.
std::optional<TableClass> TableClassNamed(std::string_view name);

// A resource tag: key 1..128 characters, value 0..256, at most 50 per table (partstore/tags.h).
struct Tag {
  std::string key{};
  std::string value{};
  friend bool operator==(const Tag&, const Tag&) = default;
};
inline constexpr size_t kMaxTagsPerResource = 50;

// SSESpecification: enabled = true is a KMS key (the AWS managed key unless one is named);
// false or absent is the default AWS owned key.
struct SseSpecification {
  std::optional<bool> enabled{};
  std::optional<std::string> sse_type{};  // "KMS" ("AES256" is refused, as DynamoDB's)
  std::optional<std::string> kms_master_key_id{};
  friend bool operator==(const SseSpecification&, const SseSpecification&) = default;
};
// SSEDescription, reported while a KMS key encrypts the table.
struct SseDescription {
  std::string status = "ENABLED";
  std::string sse_type = "KMS";
  std::string kms_master_key_arn{};
  friend bool operator==(const SseDescription&, const SseDescription&) = default;
};

// OnDemandThroughput: the most request units a second an on-demand table or index may use; -1
// (or absent) is no maximum.
struct OnDemandThroughput {
  std::optional<int64_t> max_read_request_units{};
  std::optional<int64_t> max_write_request_units{};
  friend bool operator==(const OnDemandThroughput&, const OnDemandThroughput&) = default;
};

// WarmThroughput: the units a second the table can serve at once; only ever raised.
struct WarmThroughput {
  std::optional<int64_t> read_units_per_second{};
  std::optional<int64_t> write_units_per_second{};
  friend bool operator==(const WarmThroughput&, const WarmThroughput&) = default;
};

}  // namespace partstore
