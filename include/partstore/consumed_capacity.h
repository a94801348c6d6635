// ConsumedCapacity: what one operation reports it consumed (DynamoDB's ConsumedCapacity), and
// the ReturnConsumedCapacity parameter that asks for it.
//
// Units are kept as integers: *half* units, so that eventually consistent reads (0.5 RCU per
// 4 KB) stay exact; writes are whole units, stored doubled. CapacityUnits() gives the decimal
// DynamoDB reports. Shapes, as DynamoDB returns them:
//   TOTAL    {TableName, CapacityUnits}
//   INDEXES  the same plus Table{CapacityUnits} and, per index touched,
//            GlobalSecondaryIndexes / LocalSecondaryIndexes {name: {CapacityUnits}}.
// `total` is always table + the sum of the indexes.
//
// Thread safety: a value type.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace partstore {

// Half units as the decimal DynamoDB reports (exact: a multiple of 0.5).
constexpr double HalfUnitsToDouble(int64_t half_units) {
  return static_cast<double>(half_units) / 2.0;
}

enum class ReturnConsumedCapacity : uint8_t { kNone, kTotal, kIndexes };

struct ConsumedCapacity {
  std::string table_name;
  int64_t total_half_units = 0;
  // Only with ReturnConsumedCapacity=INDEXES.
  std::optional<int64_t> table_half_units;
  std::map<std::string, int64_t, std::less<>> global_secondary_indexes;  // half units
  std::map<std::string, int64_t, std::less<>> local_secondary_indexes;   // half units

  double CapacityUnits() const { return HalfUnitsToDouble(total_half_units); }

  friend bool operator==(const ConsumedCapacity&, const ConsumedCapacity&) = default;
};

// What an operation consumed, before the caller's ReturnConsumedCapacity shapes it: the base
// table's half units and each index's. Reads report half units; writes report 2 x units.
// Used by the engine to build results; users read ConsumedCapacity instead.
struct CapacityCharge {
  int64_t table_half_units = 0;
  std::map<std::string, int64_t, std::less<>> global_secondary_indexes;
  std::map<std::string, int64_t, std::less<>> local_secondary_indexes;

  int64_t TotalHalfUnits() const {
    int64_t total = table_half_units;
    for (const auto& [name, units] : global_secondary_indexes) total += units;
    for (const auto& [name, units] : local_secondary_indexes) total += units;
    return total;
  }
};

// The ConsumedCapacity to report, or nullopt for ReturnConsumedCapacity=NONE. Used by the engine
// to build results; users read ConsumedCapacity instead.
inline std::optional<ConsumedCapacity> ReportCapacity(ReturnConsumedCapacity mode,
                                                      const std::string& table_name,
                                                      const CapacityCharge& charge) {
  if (mode == ReturnConsumedCapacity::kNone) return std::nullopt;
  ConsumedCapacity out;
  out.table_name = table_name;
  out.total_half_units = charge.TotalHalfUnits();
  if (mode == ReturnConsumedCapacity::kIndexes) {
    out.table_half_units = charge.table_half_units;
    out.global_secondary_indexes = charge.global_secondary_indexes;
    out.local_secondary_indexes = charge.local_secondary_indexes;
  }
  return out;
}

}  // namespace partstore
