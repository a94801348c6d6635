// ApplyUpdate's UPDATED_OLD / UPDATED_NEW attributes over sequences of updates on one item,
// replayed from Scylla's test_returnvalues.py (written to pass against DynamoDB).
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "core/expr/ast.h"
#include "core/expr/update.h"
#include "tests/expr/update_testutil.h"

namespace partstore::expr {
namespace {

using ::partstore::expr::testing::Bind;
using ::partstore::expr::testing::kSchema;
using ::partstore::expr::testing::L;
using ::partstore::expr::testing::M;
using ::partstore::expr::testing::Remove;
using ::partstore::expr::testing::Set;
using ::partstore::expr::testing::Val;

// ---- ReturnValues on nested updates: test_returnvalues.py::test_update_item_returnvalues_nested,
// replayed step by step on one item. --------------------------------------------------------

TEST(UpdateReturnValuesTest, NestedSequenceFromScylla) {
  Item item{{"pk", "p"}, {"a", M({{"b", "dog"}, {"c", L({1, 2, 3})}})}, {"d", "cat"}};
  auto step = [&](std::vector<UpdateAction> actions, AttributeMap values,
                  UpdatedAttributes wanted) {
    UpdateExpression update = Bind(std::move(actions), values);
    Result<UpdateOutcome> r = ApplyUpdate(update, &item, kSchema, wanted);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    if (!r.ok()) return Item{};
    item = r->item;
    return r->attributes;
  };
  using enum UpdatedAttributes;
  EXPECT_EQ(step({Set("a.b", Val(":v"))}, {{":v", "hi"}}, kUpdatedOld),
            (Item{{"a", M({{"b", "dog"}})}}));
  EXPECT_EQ(step({Set("a.b", Val(":v"))}, {{":v", "yo"}}, kUpdatedOld),
            (Item{{"a", M({{"b", "hi"}})}}));
  EXPECT_EQ(step({Set("a.c[1]", Val(":v"))}, {{":v", 7}}, kUpdatedOld),
            (Item{{"a", M({{"c", L({2})}})}}));
  EXPECT_EQ(step({Set("a.c[1]", Val(":v")), Set("a.b", Val(":w"))}, {{":v", 8}, {":w", "dog"}},
                 kUpdatedOld),
            (Item{{"a", M({{"b", "yo"}, {"c", L({7})}})}}));
  EXPECT_EQ(step({Set("a.b", Val(":v"))}, {{":v", "hello"}}, kUpdatedNew),
            (Item{{"a", M({{"b", "hello"}})}}));
  EXPECT_EQ(step({Set("a.c[1]", Val(":v"))}, {{":v", 4}}, kUpdatedNew),
            (Item{{"a", M({{"c", L({4})}})}}));
  EXPECT_EQ(step({Set("a.c[1]", Val(":v")), Set("a.b", Val(":w"))}, {{":v", 3}, {":w", "dog"}},
                 kUpdatedNew),
            (Item{{"a", M({{"b", "dog"}, {"c", L({3})}})}}));
  EXPECT_EQ(item, (Item{{"pk", "p"}, {"a", M({{"b", "dog"}, {"c", L({1, 3, 3})}})}, {"d", "cat"}}));
  // a.c[3] did not exist: not in UPDATED_OLD.
  EXPECT_EQ(step({Remove("a.c[1]"), Remove("a.c[3]")}, {}, kUpdatedOld),
            (Item{{"a", M({{"c", L({3})}})}}));
  EXPECT_EQ(step({Set("a.x1", Val(":v"))}, {{":v", 8}}, kUpdatedOld), Item{});
  EXPECT_EQ(step({Set("a.x2", Val(":v"))}, {{":v", 8}}, kUpdatedNew),
            (Item{{"a", M({{"x2", 8}})}}));
  // Appending through an index beyond the end is not in UPDATED_NEW.
  EXPECT_EQ(step({Set("a.c[100]", Val(":v"))}, {{":v", 70}}, kUpdatedNew), Item{});
  EXPECT_EQ(item.at("a").as_map().at("c"), L({1, 3, 70}));
  // REMOVE a.c[1] shows the element that shifted into a.c[1].
  EXPECT_EQ(step({Remove("a.c[1]")}, {}, kUpdatedNew), (Item{{"a", M({{"c", L({70})}})}}));
}

TEST(UpdateReturnValuesTest, OverwritesThenRemovesFromScylla) {
  Item item{{"pk", "p"}, {"a", "hi"}, {"b", "dog"}};
  auto old_of = [&](std::vector<UpdateAction> actions, AttributeMap values) {
    UpdateExpression update = Bind(std::move(actions), values);
    Result<UpdateOutcome> r = ApplyUpdate(update, &item, kSchema, UpdatedAttributes::kUpdatedOld);
    EXPECT_TRUE(r.ok());
    item = r->item;
    return r->attributes;
  };
  EXPECT_EQ(old_of({Set("b", Val(":v")), Set("c", Val(":w"))}, {{":v", "cat"}, {":w", "hello"}}),
            (Item{{"b", "dog"}}));
  EXPECT_EQ(old_of({Set("b", Val(":v"))}, {{":v", "cat"}}), (Item{{"b", "cat"}}));
  EXPECT_EQ(old_of({Remove("b")}, {}), (Item{{"b", "cat"}}));
  EXPECT_EQ(old_of({Set("b", Val(":v"))}, {{":v", "cat"}}), Item{});
  EXPECT_EQ(old_of({Set("b", Val(":v")), Set("d", Val(":w"))}, {{":v", "dog"}, {":w", "lion"}}),
            (Item{{"b", "cat"}}));
  EXPECT_EQ(old_of({Set("b", Val(":v")), Set("d", Val(":w"))}, {{":v", "cat"}, {":w", "tiger"}}),
            (Item{{"b", "dog"}, {"d", "lion"}}));
}

}  // namespace
}  // namespace partstore::expr
