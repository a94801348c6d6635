// The typed request builders on the seed e-commerce model: keys from EntityKey / CompositeKey, a
// create-only put (Condition), a conditional update (Update + Condition), a Query by KeyCondition
// with a filter, read page by page through QueryAll. Each builder writes the expression text it
// stands for into the request, so these are the same requests as the string forms.
// Built and run by the test suite, so this example cannot rot.
#include <partstore/condition_builder.h>
#include <partstore/key_condition.h>
#include <partstore/key_patterns.h>
#include <partstore/store.h>
#include <partstore/update_builder.h>

#include <iostream>

#include "example_store.h"

using namespace partstore;  // NOLINT: an example

// Prints the error and returns false when `status` is not OK.
bool Check(const Status& status, const char* what) {
  if (!status.ok()) std::cout << what << ": " << status.ToString() << "\n";
  return status.ok();
}

int main(int argc, char** argv) {
  std::unique_ptr<Store> store = example::OpenStore(argc, argv);
  if (store == nullptr) return 2;
  Store& db = *store;
  const KeySchema key{{"PK", KeyType::kString}, {{"SK", KeyType::kString}}};
  if (!Check(db.CreateTable(SimpleTable("EcommerceData", key)).status(), "CreateTable")) return 1;

  // Five orders of one customer, each created only if it does not exist yet.
  const std::string customer = EntityKey("USER", "12345");
  for (int day = 1; day <= 5; ++day) {
    PutItemRequest put{.table_name = "EcommerceData",
                       .item = {{"PK", customer},
                                {"SK", CompositeKey({"ORDER", "2024-01-0" + std::to_string(day)})},
                                {"status", day % 2 == 1 ? "open" : "shipped"},
                                {"total", day * 10}}};
    if (!Check(Condition::NotExists("PK").ApplyTo(&put), "condition")) return 1;
    if (!Check(db.PutItem(put).status(), "PutItem")) return 1;
    // The same put again is refused by its condition.
    if (db.PutItem(put).status().code() != Code::kConditionalCheckFailed) return 1;
  }

  // Ship the first order if it is still open, counting the change.
  UpdateItemRequest ship{.table_name = "EcommerceData",
                         .key = {{"PK", customer}, {"SK", "ORDER#2024-01-01"}},
                         .return_values = ReturnValue::kAllNew};
  if (!Check(Update().Set("status", "shipped").Add("version", 1).ApplyTo(&ship), "update") ||
      !Check(Condition::Eq("status", "open").ApplyTo(&ship), "condition")) {
    return 1;
  }
  auto shipped = db.UpdateItem(ship);
  if (!Check(shipped.status(), "UpdateItem")) return 1;
  std::cout << "shipped: " << DebugString(Value(*shipped->attributes)) << "\n";
  if (db.UpdateItem(ship).status().code() != Code::kConditionalCheckFailed) return 1;

  // The customer's open orders of 20 or more, newest first, two items per page.
  QueryRequest open{.table_name = "EcommerceData", .limit = 2, .scan_index_forward = false};
  if (!Check(KeyCondition::Eq("PK", customer).BeginsWith("SK", KeyPrefix("ORDER")).ApplyTo(&open),
             "key condition") ||
      !Check((Condition::Eq("status", "open") && Condition::Ge("total", 20)).ApplyFilterTo(&open),
             "filter")) {
    return 1;
  }
  std::cout << "query: " << *open.key_condition_expression << " / " << *open.filter_expression
            << "\n";
  auto orders = db.QueryAll(open);
  int found = 0;
  for (const StoredItem& order : orders) {
    std::cout << "open order " << order.Find("SK")->as_string() << ", total "
              << order.Find("total")->as_number().ToString() << "\n";
    ++found;
  }
  if (!Check(orders.status(), "QueryAll")) return 1;
  std::cout << found << " open orders in " << orders.pages() << " pages\n";
  return found == 2 ? 0 : 1;  // days 3 and 5 (day 1 was shipped above)
}
