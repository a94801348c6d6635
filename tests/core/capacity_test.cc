#include <gtest/gtest.h>

#include "core/capacity_units.h"
#include "partstore/consumed_capacity.h"

namespace partstore {
namespace {

constexpr uint64_t KB = 1024;

TEST(CapacityTest, ReadUnitsRoundUpTo4KB) {
  // Examples from the reference (§2.1, §2.2): an 8 KB read costs 2 strong / 1 eventual /
  // 4 transactional read units. Half units: 4 / 2 / 8.
  EXPECT_EQ(ReadHalfUnits(8 * KB, ReadConsistency::kStrong), 4);
  EXPECT_EQ(ReadHalfUnits(8 * KB, ReadConsistency::kEventual), 2);
  EXPECT_EQ(ReadHalfUnits(8 * KB, ReadConsistency::kTransactional), 8);
  EXPECT_EQ(ReadHalfUnits(1, ReadConsistency::kStrong), 2);
  EXPECT_EQ(ReadHalfUnits(4 * KB, ReadConsistency::kStrong), 2);
  EXPECT_EQ(ReadHalfUnits(4 * KB + 1, ReadConsistency::kStrong), 4);
  // Query: 10 items totalling 40.8 KB round once to 44 KB: 11 strong.
  EXPECT_EQ(ReadHalfUnits(41779, ReadConsistency::kStrong), 22);
  // 1500 x 64 B = 96 KB: 24 strong, 12 eventual.
  EXPECT_EQ(ReadHalfUnits(1500 * 64, ReadConsistency::kStrong), 48);
  EXPECT_EQ(ReadHalfUnits(1500 * 64, ReadConsistency::kEventual), 24);
}

TEST(CapacityTest, MissingItemStillCostsOneReadUnit) {
  EXPECT_EQ(ReadHalfUnits(0, ReadConsistency::kStrong), 2);
  EXPECT_EQ(ReadHalfUnits(0, ReadConsistency::kEventual), 1);
  EXPECT_DOUBLE_EQ(HalfUnitsToDouble(ReadHalfUnits(0, ReadConsistency::kEventual)), 0.5);
}

TEST(CapacityTest, WriteUnitsRoundUpTo1KB) {
  EXPECT_EQ(WriteUnits(500, WriteKind::kStandard), 1);
  EXPECT_EQ(WriteUnits(1 * KB, WriteKind::kStandard), 1);
  EXPECT_EQ(WriteUnits(1 * KB + 1, WriteKind::kStandard), 2);
  EXPECT_EQ(WriteUnits(3 * KB + 512, WriteKind::kStandard), 4);  // 500 B + 3.5 KB batch: 1 + 4
  EXPECT_EQ(WriteUnits(2 * KB, WriteKind::kTransactional), 4);   // 2 KB transactional: 4
  EXPECT_EQ(WriteUnits(500, WriteKind::kTransactional), 2);      // 3 x 500 B in a tx: 6
  EXPECT_EQ(WriteUnits(0, WriteKind::kStandard), 1);             // delete of a missing item
  EXPECT_EQ(WriteUnits(400 * KB, WriteKind::kStandard), 400);
}

static_assert(ReadHalfUnits(8 * KB, ReadConsistency::kStrong) == 4,
              "usable in constant expressions");

}  // namespace
}  // namespace partstore
