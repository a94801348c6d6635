// Partstore.DescribeMemory over the JSON protocol, and the reject policy's error on the wire
// (partstore/memory.h).
#include <gtest/gtest.h>

#include <string>

#include "partstore/database.h"
#include "tests/testutil/filler.h"
#include "tools/protocol/dispatch.h"

namespace partstore::protocol {
namespace {

DatabaseOptions Limited() {
  DatabaseOptions options;
  options.memory.limit_bytes = uint64_t{1} << 20;
  return options;
}

class MemoryJsonTest : public ::testing::Test {
 protected:
  MemoryJsonTest() : db_(Limited()) {
    Response created = Call("CreateTable", R"({"TableName":"Tbl","BillingMode":"PAY_PER_REQUEST",)"
                                           R"("AttributeDefinitions":[{"AttributeName":"pk",)"
                                           R"("AttributeType":"S"}],"KeySchema":[{"AttributeName":)"
                                           R"("pk","KeyType":"HASH"}]})");
    EXPECT_EQ(created.http_status, 200) << created.body;
  }
  Response Call(std::string_view operation, std::string_view body) {
    return Dispatch(db_, operation, body);
  }
  Database db_;
};

TEST_F(MemoryJsonTest, DescribeMemory) {
  const DescribeMemoryResult memory = db_.DescribeMemory();
  Response described = Call("Partstore.DescribeMemory", "{}");
  EXPECT_EQ(described.http_status, 200);
  EXPECT_EQ(described.body, R"({"LimitBytes":1048576,"Policy":"REJECT","UsedBytes":)" +
                                std::to_string(memory.used_bytes) +
                                R"(,"RejectedWrites":0,"Tables":[{"TableName":"Tbl","Bytes":)" +
                                std::to_string(memory.tables.at(0).bytes) +
                                R"(,"EvictedItems":0,"EvictedCollections":0,"ExpiredItems":0}]})");
  EXPECT_EQ(Call("Partstore.DescribeMemory", "[]").http_status, 400);
}

TEST_F(MemoryJsonTest, ARefusedWriteIsMemoryLimitExceededException) {
  const std::string payload = partstore::testing::Filler(4000);
  Response put;
  for (int i = 0; i < 1000; ++i) {
    put = Call("PutItem", R"({"TableName":"Tbl","Item":{"pk":{"S":"k)" + std::to_string(i) +
                              R"("},"v":{"S":")" + payload + R"("}}})");
    if (put.http_status != 200) break;
  }
  EXPECT_EQ(put.http_status, 400);
  EXPECT_NE(put.body.find(R"("__type":"com.partstore#MemoryLimitExceededException")"),
            std::string::npos)
      << put.body;
  EXPECT_NE(put.body.find("Memory limit exceeded"), std::string::npos) << put.body;
}

}  // namespace
}  // namespace partstore::protocol
