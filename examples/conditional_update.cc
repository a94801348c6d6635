// A conditional update through the public API: ship an order only while it is pending, add a fee
// to its total, and get the updated attributes back. The attribute names are DynamoDB reserved
// words, so the expressions use ExpressionAttributeNames; the values are typed. A second attempt
// fails its condition and returns DynamoDB's ConditionalCheckFailedException as a value.
// Built and run by the test suite, so this example cannot rot.
#include <partstore/store.h>

#include <iostream>

#include "example_store.h"

using partstore::AttributeMap;
using partstore::Item;
using partstore::Number;

int main(int argc, char** argv) {
  std::unique_ptr<partstore::Store> store = example::OpenStore(argc, argv);
  if (store == nullptr) return 2;
  partstore::Store& db = *store;
  const partstore::KeySchema key{{"PK", partstore::KeyType::kString},
                                 {{"SK", partstore::KeyType::kString}}};
  if (!db.CreateTable(partstore::SimpleTable("Orders", key)).ok()) return 1;
  const Item order = {{"PK", "ORDER#ORD001"},
                      {"SK", "ORDER#ORD001"},
                      {"status", "pending"},
                      {"total", Number::Parse("199.99").value()}};
  if (!db.PutItem({.table_name = "Orders", .item = order}).ok()) return 1;

  const partstore::UpdateItemRequest ship{
      .table_name = "Orders",
      .key = {{"PK", "ORDER#ORD001"}, {"SK", "ORDER#ORD001"}},
      .update_expression = "SET #s = :shipped, #t = #t + :fee",
      .condition_expression = "#s = :pending",
      .expression_attribute_names = partstore::expr::NameMap{{"#s", "status"}, {"#t", "total"}},
      .expression_attribute_values = AttributeMap{{":pending", "pending"},
                                                  {":shipped", "shipped"},
                                                  {":fee", Number::Parse("4.50").value()}},
      .return_values = partstore::ReturnValue::kUpdatedNew,
  };
  auto shipped = db.UpdateItem(ship);
  if (!shipped.ok() || !shipped->attributes) {
    std::cout << shipped.status().ToString() << "\n";
    return 1;
  }
  const Item& updated = *shipped->attributes;
  std::cout << "UPDATED_NEW: " << partstore::DebugString(partstore::Value(updated)) << "\n";
  if (updated.at("status").as_string() != "shipped" ||
      updated.at("total") != partstore::Value(Number::Parse("204.49").value())) {
    return 1;
  }

  // The order is no longer pending: the same request now fails its condition, as a value.
  auto again = db.UpdateItem(ship);
  std::cout << "again: " << again.status().ToString() << "\n";
  if (again.status().code() != partstore::Code::kConditionalCheckFailed) return 1;
  return 0;
}
