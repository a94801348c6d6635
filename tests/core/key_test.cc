#include "partstore/key.h"

#include <gtest/gtest.h>

#include <string>

namespace partstore {
namespace {

const KeyAttribute kPk{"pk", KeyType::kString};
const KeyAttribute kSk{"sk", KeyType::kBinary};
const KeyAttribute kNum{"n", KeyType::kNumber};

TEST(KeyTest, TypeNames) {
  EXPECT_EQ(KeyTypeName(KeyType::kString), "S");
  EXPECT_EQ(KeyTypeName(KeyType::kNumber), "N");
  EXPECT_EQ(KeyTypeName(KeyType::kBinary), "B");
  EXPECT_EQ(KeyTypeFromName("N"), KeyType::kNumber);
  EXPECT_FALSE(KeyTypeFromName("SS").has_value());
  EXPECT_FALSE(KeyTypeFromName("BOOL").has_value());
}

TEST(KeyTest, TypeMismatch) {
  Status s = CheckKeyValue(kPk, KeyRole::kPartition, Value(5));
  EXPECT_EQ(s.code(), Code::kValidation);
  EXPECT_EQ(s.message(),
            "One or more parameter values were invalid: Type mismatch for key pk expected: S "
            "actual: N");
  EXPECT_EQ(CheckKeyValue(kNum, KeyRole::kSort, Value("5")).message(),
            "One or more parameter values were invalid: Type mismatch for key n expected: N "
            "actual: S");
  EXPECT_FALSE(CheckKeyValue(kPk, KeyRole::kPartition, Value(StringSet{"a"})).ok());
}

TEST(KeyTest, EmptyKeyValues) {
  EXPECT_EQ(CheckKeyValue(kPk, KeyRole::kPartition, Value("")).message(),
            "One or more parameter values are not valid. The AttributeValue for a key attribute "
            "cannot contain an empty string value. Key: pk");
  EXPECT_EQ(CheckKeyValue(kSk, KeyRole::kSort, Value::Binary("")).message(),
            "One or more parameter values are not valid. The AttributeValue for a key attribute "
            "cannot contain an empty binary value. Key: sk");
}

TEST(KeyTest, PartitionKeyLimitIs2048Bytes) {
  EXPECT_TRUE(CheckKeyValue(kPk, KeyRole::kPartition, Value(std::string(2048, 'k'))).ok());
  Status s = CheckKeyValue(kPk, KeyRole::kPartition, Value(std::string(2049, 'k')));
  EXPECT_EQ(s.message(),
            "One or more parameter values were invalid: Size of hashkey has exceeded the maximum "
            "size limit of2048 bytes");
  // UTF-8 bytes, not characters: 683 three-byte characters = 2049 bytes.
  std::string euros;
  for (int i = 0; i < 683; ++i) euros += "\xE2\x82\xAC";
  EXPECT_FALSE(CheckKeyValue(kPk, KeyRole::kPartition, Value(euros)).ok());
}

TEST(KeyTest, SortKeyLimitIs1024Bytes) {
  EXPECT_TRUE(CheckKeyValue(kSk, KeyRole::kSort, Value::Binary(std::string(1024, 'b'))).ok());
  EXPECT_EQ(CheckKeyValue(kSk, KeyRole::kSort, Value::Binary(std::string(1025, 'b'))).message(),
            "One or more parameter values were invalid: Aggregated size of all range keys has "
            "exceeded the size limit of 1024 bytes");
  // The same 1025 bytes are fine as a partition key.
  EXPECT_TRUE(CheckKeyValue(kPk, KeyRole::kPartition, Value(std::string(1025, 'b'))).ok());
}

TEST(KeyTest, NumberKeysHaveNoLengthLimit) {
  Number big = Number::Parse("-1.2345678901234567890123456789012345678E-120").value();
  EXPECT_TRUE(CheckKeyValue(kNum, KeyRole::kSort, Value(big)).ok());
}

}  // namespace
}  // namespace partstore
