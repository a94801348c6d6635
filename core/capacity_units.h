// Capacity-unit arithmetic: how many read and write units an operation consumes.
//
// Pure integer functions. Read units are counted in *half* units so that eventually consistent
// reads (0.5 RCU per 4 KB) stay integral; write units are whole. DynamoDB reports capacity as a
// decimal: HalfUnitsToDouble (partstore/consumed_capacity.h) converts half units to it. An engine
// helper, not part of the public API: a ConsumedCapacity reports what an operation cost.
//
//   read:  ceil(bytes / 4 KB) units, at least 1; eventually consistent x0.5, strongly consistent
//          x1, transactional x2.
//   write: ceil(bytes / 1 KB) units, at least 1; transactional x2.
//
// Thread safety: pure functions; thread-safe.
#pragma once

#include <cstdint>

namespace partstore {

inline constexpr uint64_t kReadUnitBytes = 4 * 1024;
inline constexpr uint64_t kWriteUnitBytes = 1024;

enum class ReadConsistency : uint8_t { kEventual, kStrong, kTransactional };
enum class WriteKind : uint8_t { kStandard, kTransactional };

// Read capacity in half units for reading `bytes` (summed first when a Query or Scan reads several
// items; each item separately for GetItem and BatchGetItem). A read of nothing (a missing item)
// still costs one 4 KB unit.
constexpr int64_t ReadHalfUnits(uint64_t bytes, ReadConsistency consistency) {
  const uint64_t blocks = bytes == 0 ? 1 : (bytes + kReadUnitBytes - 1) / kReadUnitBytes;
  switch (consistency) {
    case ReadConsistency::kEventual:
      return static_cast<int64_t>(blocks);
    case ReadConsistency::kStrong:
      return static_cast<int64_t>(blocks * 2);
    case ReadConsistency::kTransactional:
      return static_cast<int64_t>(blocks * 4);
  }
  return 0;
}

// Write capacity units for writing an item of `bytes` (for Put and Update the larger of the old
// and the new item; a write of nothing, such as deleting a missing item, costs one unit).
constexpr int64_t WriteUnits(uint64_t bytes, WriteKind kind) {
  const uint64_t blocks = bytes == 0 ? 1 : (bytes + kWriteUnitBytes - 1) / kWriteUnitBytes;
  return static_cast<int64_t>(kind == WriteKind::kTransactional ? blocks * 2 : blocks);
}

}  // namespace partstore
