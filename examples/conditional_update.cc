// A conditional update on a typed item, the way PutItem / UpdateItem use expressions: parse
// (cached), resolve the request's placeholders, evaluate the condition, apply the update.
// Built and run by the test suite, so this example cannot rot.
#include <iostream>

#include "core/expr/cache.h"
#include "core/expr/evaluate.h"
#include "core/expr/resolve.h"
#include "core/expr/update.h"
#include "core/item.h"

using partstore::AttributeMap;
using partstore::Item;
using partstore::expr::ExpressionKind;

int main() {
  const partstore::KeySchema key{{"PK", partstore::KeyType::kString},
                                 {{"SK", partstore::KeyType::kString}}};
  Item order = {{"PK", "ORDER#ORD001"}, {"SK", "ORDER#ORD001"}, {"status", "pending"},
                {"total", partstore::Number::Parse("199.99").value()}};

  // One cache per process; safe for concurrent use.
  partstore::expr::ExpressionCache cache(1024);
  auto condition = cache.GetCondition("#s = :pending", ExpressionKind::kCondition);
  auto update = cache.GetUpdate("SET #s = :shipped, #t = #t + :fee");
  if (!condition.ok() || !update.ok()) {
    std::cout << condition.status().ToString() << " " << update.status().ToString() << "\n";
    return 1;
  }

  // The request's ExpressionAttributeNames and ExpressionAttributeValues.
  const partstore::expr::NameMap names{{"#s", "status"}, {"#t", "total"}};  // both reserved words
  const AttributeMap values{{":pending", "pending"}, {":shipped", "shipped"},
                            {":fee", partstore::Number::Parse("4.50").value()}};
  partstore::expr::Resolver resolver(&names, &values);
  auto resolved_update = resolver.Resolve(**update);
  auto resolved_condition = resolver.Resolve(**condition, ExpressionKind::kCondition);
  const partstore::Status used = resolver.CheckAllUsed();
  if (!resolved_update.ok() || !resolved_condition.ok() || !used.ok()) {
    std::cout << resolved_update.status().ToString() << " / "
              << resolved_condition.status().ToString() << " / " << used.ToString() << "\n";
    return 1;
  }

  if (!partstore::expr::Evaluate(*resolved_condition, &order)) {
    std::cout << "ConditionalCheckFailedException: The conditional request failed\n";
    return 1;
  }
  auto outcome = partstore::expr::ApplyUpdate(*resolved_update, &order, key,
                                              partstore::expr::UpdatedAttributes::kUpdatedNew);
  if (!outcome.ok()) {
    std::cout << outcome.status().ToString() << "\n";
    return 1;
  }
  std::cout << "UPDATED_NEW: " << partstore::DebugString(partstore::Value(outcome->attributes))
            << "\n";
  // A second attempt fails its condition: the order is no longer pending.
  std::cout << "condition holds again: " << std::boolalpha
            << partstore::expr::Evaluate(*resolved_condition, &outcome->item) << "\n";
  return 0;
}
