// The seed articles' single-table design through the C++ API: create a table, write a customer
// and their orders, read one item, query the customer's orders newest first with paging, and
// handle a failed condition — all as typed values, with DynamoDB's errors returned as values.
// Built and run by the test suite, so this example cannot rot.
#include <partstore/error_detail.h>
#include <partstore/store.h>

#include <iostream>

#include "example_store.h"

using partstore::AttributeMap;
using partstore::Item;

int main(int argc, char** argv) {
  std::unique_ptr<partstore::Store> store =
      example::OpenStore(argc, argv);  // safe for concurrent use
  if (store == nullptr) return 2;
  partstore::Store& db = *store;
  const partstore::KeySchema key{{"PK", partstore::KeyType::kString},
                                 {{"SK", partstore::KeyType::kString}}};
  if (auto created = db.CreateTable(partstore::SimpleTable("EcommerceData", key)); !created.ok()) {
    std::cout << created.status().ToString() << "\n";
    return 1;
  }

  // A customer and three orders: one item collection under PK = USER#12345.
  const Item user = {{"PK", "USER#12345"}, {"SK", "USER#12345"}, {"name", "John Doe"}};
  if (!db.PutItem({.table_name = "EcommerceData", .item = user}).ok()) return 1;
  for (const char* date : {"2024-01-15", "2024-01-20", "2024-02-03"}) {
    Item order = {{"PK", "USER#12345"}, {"SK", std::string("ORDER#") + date}, {"status", "placed"}};
    if (!db.PutItem({.table_name = "EcommerceData", .item = std::move(order)}).ok()) return 1;
  }

  // GetItem: the profile.
  auto profile = db.GetItem(
      {.table_name = "EcommerceData", .key = {{"PK", "USER#12345"}, {"SK", "USER#12345"}}});
  if (!profile.ok() || !profile->item) return 1;
  std::cout << "profile: " << profile->item->at("name").as_string() << "\n";

  // Query: the customer's orders, newest first, two per page.
  partstore::QueryRequest orders{
      .table_name = "EcommerceData",
      .key_condition_expression = "PK = :pk AND begins_with(SK, :order)",
      .expression_attribute_values = AttributeMap{{":pk", "USER#12345"}, {":order", "ORDER#"}},
      .limit = 2,
      .scan_index_forward = false,
  };
  int seen = 0;
  for (int page = 1;; ++page) {
    auto result = db.Query(orders);
    if (!result.ok()) {
      std::cout << result.status().ToString() << "\n";
      return 1;
    }
    for (const Item& order : result->items) {
      std::cout << "page " << page << ": " << order.at("SK").as_string() << "\n";
      ++seen;
    }
    if (!result->last_evaluated_key) break;
    orders.exclusive_start_key = result->last_evaluated_key;
  }

  // A conditional write that fails: the old item comes back with the error.
  auto again = db.PutItem({.table_name = "EcommerceData",
                           .item = user,
                           .condition_expression = "attribute_not_exists(PK)",
                           .return_values_on_condition_check_failure =
                               partstore::ReturnValuesOnConditionCheckFailure::kAllOld});
  if (again.ok() || again.error().code() != partstore::Code::kConditionalCheckFailed) return 1;
  std::cout << again.error().ToString() << " (existing item has "
            << again.error().detail()->item->size() << " attributes)\n";
  return seen == 3 ? 0 : 1;
}
