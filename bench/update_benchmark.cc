// Microbenchmark of UpdateItem's core: applying a resolved UpdateExpression to an item.
//   BM_Expr_ApplyUpdateFourActions/updated_new:0   ReturnValues NONE
//   BM_Expr_ApplyUpdateFourActions/updated_new:1   ReturnValues UPDATED_NEW
// The update is the counter-and-append shape typical of real tables:
//   SET a = a + :one, b = list_append(b, :l) REMOVE c ADD tags :s
// on a 10-attribute item. The cost includes building the new item (a copy of the untouched
// attributes), which UpdateItem needs anyway.
//
//   BM_Expr_UpdateStoredItem/in_place:0|1/shape:0|1   the new version of a stored item:
//     in_place:0  the tree path UpdateItem took before issue 51: decode, ApplyUpdate,
//                 ValidateItem, encode the whole item again
//     in_place:1  ApplyUpdateToStored (core/expr/update_stored.h): what UpdateItem does now
//     shape:0     YCSB's update, SET field3 = :v (100 B), on a record of 10 fields of 100 B
//     shape:1     the four actions above on that record, with a, b, c and tags added
#include <benchmark/benchmark.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/expr/ast.h"
#include "core/expr/update.h"
#include "core/expr/update_stored.h"
#include "partstore/stored_item.h"

namespace partstore::expr::update_benchmark {
namespace {

Path Attr(std::string name) {
  Path p;
  p.elements.push_back(PathElement{std::move(name), -1});
  return p;
}

Operand PathOf(std::string name) {
  Operand op;
  op.kind = OperandKind::kPath;
  op.path = Attr(std::move(name));
  return op;
}

Operand ValueOf(const Value& v) {
  Operand op;
  op.kind = OperandKind::kValue;
  op.value = &v;
  return op;
}

Operand Call(OperandKind kind, Operand a, Operand b) {
  Operand op;
  op.kind = kind;
  op.args = {std::move(a), std::move(b)};
  return op;
}

// SET a = a + :one, b = list_append(b, :l) REMOVE c ADD tags :s, bound to `values` (which holds
// :one, :l and :s and outlives the update).
UpdateExpression FourActions(const AttributeMap& values) {
  UpdateExpression update;
  update.actions.push_back(
      UpdateAction{UpdateActionKind::kSet, Attr("a"),
                   Call(OperandKind::kPlus, PathOf("a"), ValueOf(values.at(":one")))});
  update.actions.push_back(
      UpdateAction{UpdateActionKind::kSet, Attr("b"),
                   Call(OperandKind::kListAppend, PathOf("b"), ValueOf(values.at(":l")))});
  update.actions.push_back(UpdateAction{UpdateActionKind::kRemove, Attr("c"), {}});
  update.actions.push_back(
      UpdateAction{UpdateActionKind::kAdd, Attr("tags"), ValueOf(values.at(":s"))});
  return update;
}

void BM_Expr_ApplyUpdateFourActions(benchmark::State& state) {
  const UpdatedAttributes wanted =
      state.range(0) != 0 ? UpdatedAttributes::kUpdatedNew : UpdatedAttributes::kNone;
  const KeySchema schema{KeyAttribute{"pk", KeyType::kString},
                         KeyAttribute{"sk", KeyType::kString}};
  const Item item{{"pk", "USER#1234"},
                  {"sk", "PROFILE"},
                  {"a", 41},
                  {"b", Value::List({"created", "paid", "packed"})},
                  {"c", "obsolete"},
                  {"tags", StringSet{"audio", "wireless"}},
                  {"name", "Jane Doe"},
                  {"email", "jane@example.com"},
                  {"age", 42},
                  {"active", true}};
  const AttributeMap values{
      {":one", 1}, {":l", Value::List({"shipped"})}, {":s", StringSet{"premium"}}};

  const UpdateExpression update = FourActions(values);

  for (auto _ : state) {
    Result<UpdateOutcome> outcome = ApplyUpdate(update, &item, schema, wanted);
    if (!outcome.ok()) state.SkipWithError("update failed");
    benchmark::DoNotOptimize(outcome);
  }
}
BENCHMARK(BM_Expr_ApplyUpdateFourActions)->ArgName("updated_new")->Arg(0)->Arg(1);

void BM_Expr_UpdateStoredItem(benchmark::State& state) {
  const bool in_place = state.range(0) != 0;
  const bool four_actions = state.range(1) != 0;
  const KeySchema schema{KeyAttribute{"pk", KeyType::kString}, std::nullopt};
  Item record{{"pk", "user6284781860667377211"}};
  for (int i = 0; i < 10; ++i) {
    std::string field(100, static_cast<char>('a' + i));
    field[99] = '.';  // not a run of one byte
    record.emplace("field" + std::to_string(i), std::move(field));
  }
  if (four_actions) {
    record.emplace("a", 41);
    record.emplace("b", Value::List({"created", "paid", "packed"}));
    record.emplace("c", "obsolete");
    record.emplace("tags", StringSet{"audio", "wireless"});
  }
  const StoredItem stored = StoredItem::Encode(record);
  const AttributeMap values{{":v", std::string(99, 'z') + "!"},
                            {":one", 1},
                            {":l", Value::List({"shipped"})},
                            {":s", StringSet{"premium"}}};
  UpdateExpression update;
  if (four_actions) {
    update = FourActions(values);
  } else {
    update.actions.push_back(
        UpdateAction{UpdateActionKind::kSet, Attr("field3"), ValueOf(values.at(":v"))});
  }

  for (auto _ : state) {
    StoredItem next;
    if (in_place) {
      Result<StoredUpdateOutcome> outcome =
          ApplyUpdateToStored(update, stored, schema, UpdatedAttributes::kNone);
      if (!outcome.ok()) state.SkipWithError("update failed");
      next = std::move(outcome->item);
    } else {
      const Item tree = stored.ToItem();
      Result<UpdateOutcome> outcome = ApplyUpdate(update, &tree, schema, UpdatedAttributes::kNone);
      if (!outcome.ok() || !ValidateItem(outcome->item).ok()) state.SkipWithError("update failed");
      next = StoredItem::Encode(outcome->item);
    }
    benchmark::DoNotOptimize(next);
  }
}
BENCHMARK(BM_Expr_UpdateStoredItem)
    ->ArgNames({"in_place", "shape"})
    ->Args({0, 0})
    ->Args({1, 0})
    ->Args({0, 1})
    ->Args({1, 1});

}  // namespace
}  // namespace partstore::expr::update_benchmark
