// The control plane: CreateTable validation, DescribeTable, ListTables paging, UpdateTable,
// DeleteTable.
#include <gtest/gtest.h>

#include "shard/database_state.h"
#include "tests/shard/database_testutil.h"

namespace partstore {
namespace {

using testing::ErrorText;
using testing::StringKeys;

CreateTableRequest Provisioned(std::string name, int64_t rcu, int64_t wcu) {
  CreateTableRequest request = SimpleTable(std::move(name), StringKeys());
  request.billing_mode = BillingMode::kProvisioned;
  request.provisioned_throughput = ProvisionedThroughput{rcu, wcu};
  return request;
}

TEST(TableOpsTest, CreateDescribeDelete) {
  Database db;
  auto created = db.CreateTable(SimpleTable("Orders", StringKeys()));
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  EXPECT_EQ(created->table_description.table_status, TableStatus::kCreating);
  EXPECT_EQ(created->table_description.table_arn,
            "arn:aws:dynamodb:us-east-1:000000000000:table/Orders");
  EXPECT_EQ(created->table_description.table_id.size(), 36u);
  EXPECT_EQ(created->table_description.billing_mode, BillingMode::kPayPerRequest);

  testing::MustPut(db, "Orders", {{"PK", "a"}, {"SK", "1"}, {"x", "12345"}});
  auto described = db.DescribeTable({"Orders"});
  ASSERT_TRUE(described.ok());
  EXPECT_EQ(described->table.table_status, TableStatus::kActive);
  EXPECT_EQ(described->table.item_count, 1);
  EXPECT_EQ(described->table.table_size_bytes, 2 + 1 + 2 + 1 + 1 + 5);
  ASSERT_EQ(described->table.key_schema.size(), 2u);
  EXPECT_EQ(described->table.key_schema[1].key_type, KeyRoleName::kRange);

  auto again = db.CreateTable(SimpleTable("Orders", StringKeys()));
  EXPECT_EQ(again.error().code(), Code::kResourceInUse);
  EXPECT_EQ(ErrorText(again), "Table already exists: Orders");

  auto deleted = db.DeleteTable({"Orders"});
  ASSERT_TRUE(deleted.ok());
  EXPECT_EQ(deleted->table_description.table_status, TableStatus::kDeleting);
  auto gone = db.DescribeTable({"Orders"});
  EXPECT_EQ(gone.error().code(), Code::kResourceNotFound);
  EXPECT_EQ(ErrorText(gone), "Requested resource not found: Table: Orders not found");
  EXPECT_EQ(ErrorText(db.DeleteTable({"Orders"})),
            "Requested resource not found: Table: Orders not found");

  GetItemRequest get;
  get.table_name = "Orders";
  get.key = {{"PK", "a"}, {"SK", "1"}};
  EXPECT_EQ(ErrorText(db.GetItem(get)), "Requested resource not found");
}

TEST(TableOpsTest, CreateTableValidation) {
  Database db;
  EXPECT_EQ(ErrorText(db.CreateTable(SimpleTable("ab", StringKeys()))),
            "1 validation error detected: Value 'ab' at 'tableName' failed to satisfy constraint: "
            "Member must have length greater than or equal to 3");
  EXPECT_EQ(ErrorText(db.CreateTable(SimpleTable("", StringKeys()))),
            "1 validation error detected: Value '' at 'tableName' failed to satisfy constraint: "
            "Member must have length greater than or equal to 3");

  CreateTableRequest no_throughput = SimpleTable("Table1", StringKeys());
  no_throughput.billing_mode.reset();
  EXPECT_EQ(ErrorText(db.CreateTable(no_throughput)),
            "One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits "
            "must both be specified when BillingMode is PROVISIONED");
  CreateTableRequest both = Provisioned("Table1", 5, 5);
  both.billing_mode = BillingMode::kPayPerRequest;
  EXPECT_EQ(ErrorText(db.CreateTable(both)),
            "One or more parameter values were invalid: Neither ReadCapacityUnits nor "
            "WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
  EXPECT_EQ(ErrorText(db.CreateTable(Provisioned("Table1", 0, 5))),
            "1 validation error detected: Value '0' at 'provisionedThroughput.readCapacityUnits' "
            "failed to satisfy constraint: Member must have value greater than or equal to 1");

  CreateTableRequest range_first = SimpleTable("Table1", StringKeys());
  std::swap(range_first.key_schema[0], range_first.key_schema[1]);
  EXPECT_EQ(ErrorText(db.CreateTable(range_first)),
            "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
  CreateTableRequest two_hash = SimpleTable("Table1", StringKeys());
  two_hash.key_schema[1].key_type = KeyRoleName::kHash;
  EXPECT_EQ(ErrorText(db.CreateTable(two_hash)),
            "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type");

  CreateTableRequest undefined = SimpleTable("Table1", StringKeys(false));
  undefined.attribute_definitions[0].attribute_name = "created_at";
  EXPECT_EQ(ErrorText(db.CreateTable(undefined)),
            "One or more parameter values were invalid: Some index key attributes are not defined "
            "in AttributeDefinitions. Keys: [PK], AttributeDefinitions: [created_at]");
  CreateTableRequest undefined_range = SimpleTable("Table1", StringKeys());
  undefined_range.attribute_definitions.pop_back();
  EXPECT_EQ(ErrorText(db.CreateTable(undefined_range)),
            "Invalid KeySchema: Some index key attribute have no definition");
  CreateTableRequest extra = SimpleTable("Table1", StringKeys(false));
  extra.attribute_definitions.push_back({"other", KeyType::kNumber});
  EXPECT_EQ(ErrorText(db.CreateTable(extra)),
            "One or more parameter values were invalid: Number of attributes in KeySchema does not "
            "exactly match number of attributes defined in AttributeDefinitions");
  CreateTableRequest duplicated = SimpleTable("Table1", StringKeys(false));
  duplicated.attribute_definitions.push_back({"PK", KeyType::kNumber});
  EXPECT_EQ(ErrorText(db.CreateTable(duplicated)), "Attribute Name is duplicated: PK");

  CreateTableRequest no_keys = SimpleTable("Table1", StringKeys());
  no_keys.key_schema.clear();
  EXPECT_EQ(ErrorText(db.CreateTable(no_keys)),
            "1 validation error detected: Value '[0 elements]' at 'keySchema' failed to satisfy "
            "constraint: Member must have length greater than or equal to 1");

  // Nothing was created by the failures.
  auto list = db.ListTables({});
  ASSERT_TRUE(list.ok());
  EXPECT_TRUE(list->table_names.empty());
}

TEST(TableOpsTest, ListTablesPagesInNameOrder) {
  Database db;
  for (const char* name : {"delta", "alpha", "charlie", "bravo", "echo"}) {
    testing::MustCreate(db, name, StringKeys());
  }
  ListTablesRequest request;
  request.limit = 2;
  std::vector<std::string> all;
  for (int page = 0; page < 10; ++page) {
    auto result = db.ListTables(request);
    ASSERT_TRUE(result.ok());
    all.insert(all.end(), result->table_names.begin(), result->table_names.end());
    if (!result->last_evaluated_table_name) break;
    EXPECT_EQ(*result->last_evaluated_table_name, result->table_names.back());
    request.exclusive_start_table_name = result->last_evaluated_table_name;
  }
  EXPECT_EQ(all, (std::vector<std::string>{"alpha", "bravo", "charlie", "delta", "echo"}));

  ListTablesRequest bad;
  bad.limit = 0;
  EXPECT_EQ(ErrorText(db.ListTables(bad)),
            "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: "
            "Member must have value greater than or equal to 1");
  bad.limit = 101;
  EXPECT_EQ(ErrorText(db.ListTables(bad)),
            "1 validation error detected: Value '101' at 'limit' failed to satisfy constraint: "
            "Member must have value less than or equal to 100");
}

TEST(TableOpsTest, UpdateTableThroughputAndBillingMode) {
  Database db;
  ASSERT_TRUE(db.CreateTable(Provisioned("Orders", 5, 5)).ok());
  auto table = internal::GetTable(db, "Orders");
  ASSERT_TRUE(table.ok());
  EXPECT_EQ((*table)->partition_count(), 1);

  UpdateTableRequest same{.table_name = "Orders",
                          .provisioned_throughput = ProvisionedThroughput{5, 5}};
  EXPECT_EQ(ErrorText(db.UpdateTable(same)),
            "The provisioned throughput for the table will not change. The requested value equals "
            "the current value. Current ReadCapacityUnits provisioned for the table: 5. Requested "
            "ReadCapacityUnits: 5. Current WriteCapacityUnits provisioned for the table: 5. "
            "Requested WriteCapacityUnits: 5. Refer to the Amazon DynamoDB Developer Guide for "
            "current limits and how to request higher limits.");

  UpdateTableRequest nothing{.table_name = "Orders"};
  EXPECT_TRUE(
      ErrorText(db.UpdateTable(nothing)).starts_with("At least one of ProvisionedThroughput"));

  UpdateTableRequest up{.table_name = "Orders",
                        .provisioned_throughput = ProvisionedThroughput{6000, 1000}};
  auto updated = db.UpdateTable(up);
  ASSERT_TRUE(updated.ok()) << updated.status().ToString();
  EXPECT_EQ(updated->table_description.provisioned_throughput.read_capacity_units, 6000);
  EXPECT_EQ(updated->table_description.table_status, TableStatus::kUpdating);
  EXPECT_EQ(db.DescribeTable({"Orders"})->table.table_status, TableStatus::kActive);
  EXPECT_TRUE(updated->table_description.provisioned_throughput.last_increase_date_time);
  EXPECT_EQ((*table)->partition_count(), 3);  // ceil(6000 / 3000 + 1000 / 1000)

  UpdateTableRequest down{.table_name = "Orders",
                          .provisioned_throughput = ProvisionedThroughput{1, 1}};
  auto lowered = db.UpdateTable(down);
  ASSERT_TRUE(lowered.ok());
  EXPECT_EQ(lowered->table_description.provisioned_throughput.number_of_decreases_today, 1);

  UpdateTableRequest on_demand{.table_name = "Orders", .billing_mode = BillingMode::kPayPerRequest};
  auto switched = db.UpdateTable(on_demand);
  ASSERT_TRUE(switched.ok());
  EXPECT_EQ(switched->table_description.billing_mode, BillingMode::kPayPerRequest);
  EXPECT_EQ(switched->table_description.provisioned_throughput.read_capacity_units, 0);
  EXPECT_TRUE(switched->table_description.last_update_to_pay_per_request_date_time);
  EXPECT_EQ((*table)->partition_count(), 4);

  UpdateTableRequest throughput_on_demand{.table_name = "Orders",
                                          .provisioned_throughput = ProvisionedThroughput{5, 5}};
  EXPECT_EQ(ErrorText(db.UpdateTable(throughput_on_demand)),
            "One or more parameter values were invalid: Neither ReadCapacityUnits nor "
            "WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
  UpdateTableRequest provisioned_bare{.table_name = "Orders",
                                      .billing_mode = BillingMode::kProvisioned};
  EXPECT_EQ(ErrorText(db.UpdateTable(provisioned_bare)),
            "One or more parameter values were invalid: ProvisionedThroughput must be specified "
            "when BillingMode is PROVISIONED");
  UpdateTableRequest missing{.table_name = "Nope", .billing_mode = BillingMode::kPayPerRequest};
  EXPECT_EQ(ErrorText(db.UpdateTable(missing)),
            "Requested resource not found: Table: Nope not found");
}

TEST(TableOpsTest, DeletedTableKeepsServingHolders) {
  Database db;
  testing::MustCreate(db, "Orders", StringKeys());
  auto table = internal::GetTable(db, "Orders");
  ASSERT_TRUE(table.ok());
  ASSERT_TRUE(db.DeleteTable({"Orders"}).ok());
  PutItemRequest put;
  put.item = {{"PK", "a"}, {"SK", "b"}};
  EXPECT_TRUE((*table)->PutItem(put).ok());
  EXPECT_EQ((*table)->item_count(), 1);
  // A new table of the same name starts empty.
  testing::MustCreate(db, "Orders", StringKeys());
  EXPECT_EQ(db.DescribeTable({"Orders"})->table.item_count, 0);
}

}  // namespace
}  // namespace partstore
