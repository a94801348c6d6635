// Microbenchmark of UpdateItem's core: applying a resolved UpdateExpression to an item.
//   BM_Expr_ApplyUpdateFourActions/updated_new:0   ReturnValues NONE
//   BM_Expr_ApplyUpdateFourActions/updated_new:1   ReturnValues UPDATED_NEW
// The update is the counter-and-append shape typical of real tables:
//   SET a = a + :one, b = list_append(b, :l) REMOVE c ADD tags :s
// on a 10-attribute item. The cost includes building the new item (a copy of the untouched
// attributes), which UpdateItem needs anyway.
#include <benchmark/benchmark.h>

#include <string>
#include <utility>
#include <vector>

#include "core/expr/ast.h"
#include "core/expr/update.h"

namespace partstore::expr {
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

  for (auto _ : state) {
    Result<UpdateOutcome> outcome = ApplyUpdate(update, &item, schema, wanted);
    if (!outcome.ok()) state.SkipWithError("update failed");
    benchmark::DoNotOptimize(outcome);
  }
}
BENCHMARK(BM_Expr_ApplyUpdateFourActions)->ArgName("updated_new")->Arg(0)->Arg(1);

}  // namespace
}  // namespace partstore::expr
