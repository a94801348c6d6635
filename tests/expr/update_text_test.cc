// ApplyUpdate from expression text: ParseUpdate -> Resolver -> ApplyUpdate, with the expressions
// of Scylla's test_update_expression.py and test_returnvalues.py verbatim (written to pass
// against DynamoDB).
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "core/expr/ast.h"
#include "core/expr/parser.h"
#include "core/expr/resolve.h"
#include "core/expr/update.h"
#include "tests/expr/update_testutil.h"

namespace partstore::expr {
namespace {

using ::partstore::expr::testing::kMissing;
using ::partstore::expr::testing::kPathInvalid;
using ::partstore::expr::testing::kSchema;
using ::partstore::expr::testing::kWrongType;
using ::partstore::expr::testing::L;
using ::partstore::expr::testing::M;
using ::partstore::expr::testing::Show;
using ::partstore::expr::testing::SS;

// ---- From text: ParseUpdate -> Resolver -> ApplyUpdate, with Scylla's expressions verbatim --

struct TextCase {
  std::string name;
  std::optional<Item> before;
  std::string text;
  AttributeMap values;
  NameMap names;
  std::string error;  // non-empty: the exact message expected
  std::optional<Item> after;
  Item updated_old;
  Item updated_new;
};

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
std::vector<TextCase> TextCases() {
  const Item nested{{"p", "k"},
                    {"a", M({{"x", 3}, {"y", 4}, {"c", M({{"y", 3}})}})},
                    {"b", M({{"x", 1}, {"y", 2}})}};
  return {
      {"set",
       Item{{"p", "k"}},
       "SET b = :val1",
       {{":val1", 4}},
       {},
       "",
       Item{{"p", "k"}, {"b", 4}},
       {},
       Item{{"b", 4}}},
      {"set_multi",
       std::nullopt,
       "SET x = :val1, y = :val1",
       {{":val1", 4}},
       {},
       "",
       Item{{"x", 4}, {"y", 4}},
       {},
       Item{{"x", 4}, {"y", 4}}},
      {"set_lowercase_keyword",
       Item{{"b", 3}},
       "  set   b=:val1  ",
       {{":val1", 5}},
       {},
       "",
       Item{{"b", 5}},
       Item{{"b", 3}},
       Item{{"b", 5}}},
      {"copy",
       Item{{"a", "hello"}},
       "SET b = a",
       {},
       {},
       "",
       Item{{"a", "hello"}, {"b", "hello"}},
       {},
       Item{{"b", "hello"}}},
      {"copy_missing", Item{{"a", "hello"}}, "SET c = z", {}, {}, kMissing},
      {"copy_reads_old",
       Item{{"a", "hello"}},
       "SET x = :val1, y = x",
       {{":val1", 4}},
       {},
       kMissing},
      {"names",
       Item{{"a", "hello"}},
       "SET #one = #two",
       {},
       {{"#one", "c"}, {"#two", "a"}},
       "",
       Item{{"a", "hello"}, {"c", "hello"}},
       {},
       Item{{"c", "hello"}}},
      {"dot_in_name",
       std::nullopt,
       "SET #a = :val1",
       {{":val1", 3}},
       {{"#a", "a.b"}},
       "",
       Item{{"a.b", 3}},
       {},
       Item{{"a.b", 3}}},
      {"minus_names",
       Item{{"n", 2}},
       "SET #nn = :seven - #n",
       {{":seven", 7}},
       {{"#nn", "nn"}, {"#n", "n"}},
       "",
       Item{{"n", 2}, {"nn", 5}},
       {},
       Item{{"nn", 5}}},
      {"prepend",
       Item{{"nnn", L({2, 4})}},
       "SET #nnnn = list_append(:val1, #nnn)",
       {{":val1", L({1, 3})}},
       {{"#nnnn", "nnnn"}, {"#nnn", "nnn"}},
       "",
       Item{{"nnn", L({2, 4})}, {"nnnn", L({1, 3, 2, 4})}},
       {},
       Item{{"nnnn", L({1, 3, 2, 4})}}},
      {"remove_then_set",
       Item{{"a", 1}, {"b", 2}},
       "REMOVE a SET b = :val2",
       {{":val2", 3}},
       {},
       "",
       Item{{"b", 3}},
       Item{{"a", 1}, {"b", 2}},
       Item{{"b", 3}}},
      {"set_then_remove",
       Item{{"b", 3}},
       "SET c = :val2 REMOVE b",
       {{":val2", 3}},
       {},
       "",
       Item{{"c", 3}},
       Item{{"b", 3}},
       Item{{"c", 3}}},
      {"remove_then_copy",
       Item{{"a", "hello"}},
       "REMOVE a SET b = a",
       {},
       {},
       "",
       Item{{"b", "hello"}},
       Item{{"a", "hello"}},
       Item{{"b", "hello"}}},
      {"multi_nested",
       nested,
       "SET a.b = :val1, a.c.d = :val2, b.x = :val3 REMOVE a.x, b.y",
       {{":val1", 10}, {":val2", "dog"}, {":val3", 17}},
       {},
       "",
       Item{{"p", "k"},
            {"a", M({{"y", 4}, {"b", 10}, {"c", M({{"y", 3}, {"d", "dog"}})}})},
            {"b", M({{"x", 17}})}},
       Item{{"a", M({{"x", 3}})}, {"b", M({{"x", 1}, {"y", 2}})}},
       Item{{"a", M({{"b", 10}, {"c", M({{"d", "dog"}})}})}, {"b", M({{"x", 17}})}}},
      {"plus_rmw",
       Item{{"a", 9}, {"b", 10}},
       "SET a = b + a",
       {},
       {},
       "",
       Item{{"a", 19}, {"b", 10}},
       Item{{"a", 9}},
       Item{{"a", 19}}},
      {"plus_value_first",
       Item{{"a", 5}},
       "SET a = :val1 + a",
       {{":val1", 4}},
       {},
       "",
       Item{{"a", 9}},
       Item{{"a", 5}},
       Item{{"a", 9}}},
      {"if_not_exists_plus",
       std::nullopt,
       "SET b = if_not_exists(b, :val1)+:val2",
       {{":val1", 2}, {":val2", 3}},
       {},
       "",
       Item{{"b", 5}},
       {},
       Item{{"b", 5}}},
      {"list_append",
       Item{{"a", L({"hi", 2})}},
       "SET a = list_append(a, :val1)",
       {{":val1", L({4, "hello"})}},
       {},
       "",
       Item{{"a", L({"hi", 2, 4, "hello"})}},
       Item{{"a", L({"hi", 2})}},
       Item{{"a", L({"hi", 2, 4, "hello"})}}},
      {"list_append_missing",
       Item{{"a", 2}},
       "SET a = list_append(b, :val1)",
       {{":val1", L({"hi", 2})}},
       {},
       kMissing},
      {"list_append_not_list",
       Item{{"b", 7}},
       "SET a = list_append(:val1, b)",
       {{":val1", L({"hi", 2})}},
       {},
       kWrongType},
      {"add_number",
       Item{{"a", 3}, {"b", "hi"}},
       "ADD a :val1",
       {{":val1", 4}},
       {},
       "",
       Item{{"a", 7}, {"b", "hi"}},
       Item{{"a", 3}},
       Item{{"a", 7}}},
      {"add_to_string", Item{{"a", 3}, {"b", "hi"}}, "ADD b :val1", {{":val1", 1}}, {}, kWrongType},
      {"add_set",
       Item{{"a", SS({"dog", "cat", "mouse"})}},
       "ADD a :val1",
       {{":val1", SS({"pig"})}},
       {},
       "",
       Item{{"a", SS({"dog", "cat", "mouse", "pig"})}},
       Item{{"a", SS({"dog", "cat", "mouse"})}},
       Item{{"a", SS({"dog", "cat", "mouse", "pig"})}}},
      {"delete_set",
       Item{{"a", SS({"dog", "cat", "mouse"})}, {"b", "hi"}},
       "DELETE a :val1",
       {{":val1", SS({"cat", "mouse"})}},
       {},
       "",
       Item{{"a", SS({"dog"})}, {"b", "hi"}},
       Item{{"a", SS({"dog", "cat", "mouse"})}},
       Item{{"a", SS({"dog"})}}},
      {"deep_with_name",
       Item{{"a", M({{"b", 3}, {"c", L({"hi", M({{"x", M({{"y", L({3, 5, 7})}})}})})}})}},
       "SET a.c[1].#name.y[1] = :val1",
       {{":val1", 9}},
       {{"#name", "x"}},
       "",
       Item{{"a", M({{"b", 3}, {"c", L({"hi", M({{"x", M({{"y", L({3, 9, 7})}})}})})}})}},
       Item{{"a", M({{"c", L({M({{"x", M({{"y", L({5})}})}})})}})}},
       Item{{"a", M({{"c", L({M({{"x", M({{"y", L({9})}})}})})}})}}},
      {"remove_original_numbering",
       Item{{"a", L({2, 3, 4, 5, 6, 7})}},
       "REMOVE a[1] SET a[3] = :val",
       {{":val", 17}},
       {},
       "",
       Item{{"a", L({2, 4, 17, 6, 7})}},
       Item{{"a", L({3, 5})}},
       Item{{"a", L({4, 6})}}},
      {"set_original_numbering",
       Item{{"a", L({2, 3, 4, 5, 6, 7})}},
       "SET a[3] = :val REMOVE a[1]",
       {{":val", 17}},
       {},
       "",
       Item{{"a", L({2, 4, 17, 6, 7})}},
       Item{{"a", L({3, 5})}},
       Item{{"a", L({4, 6})}}},
      {"appends_in_index_order",
       Item{{"a", L({"one", "two", "three", "hello"})}},
       "SET a[84] = :val1, a[37] = :val2, a[17] = :val3, a[50] = :val4",
       {{":val1", "a1"}, {":val2", "a2"}, {":val3", "a3"}, {":val4", "a4"}},
       {},
       "",
       Item{{"a", L({"one", "two", "three", "hello", "a3", "a2", "a4", "a1"})}},
       {},
       {}},
      {"bad_path",
       Item{{"a", "hello"}, {"b", L({"hi"})}},
       "SET b.c = :val1",
       {{":val1", 7}},
       {},
       kPathInvalid},
      {"remove_missing_item_nested", std::nullopt, "REMOVE x.y", {}, {}, "", std::nullopt},
      {"returnvalues_remove_absent_index",
       Item{{"a", M({{"b", "dog"}, {"c", L({1, 3, 3})}})}},
       "REMOVE a.c[1], a.c[3]",
       {},
       {},
       "",
       Item{{"a", M({{"b", "dog"}, {"c", L({1, 3})}})}},
       Item{{"a", M({{"c", L({3})}})}},
       Item{{"a", M({{"c", L({3})}})}}},
      {"add_nested",
       Item{{"a", M({{"d", L({"e", SS({"g"})})}, {"i", SS({"j"})}})}},
       "ADD a.d[1] :val1, a.i :val2",
       {{":val1", SS({"l"})}, {":val2", SS({"n"})}},
       {},
       "",
       Item{{"a", M({{"d", L({"e", SS({"g", "l"})})}, {"i", SS({"j", "n"})}})}},
       Item{{"a", M({{"d", L({SS({"g"})})}, {"i", SS({"j"})}})}},
       Item{{"a", M({{"d", L({SS({"g", "l"})})}, {"i", SS({"j", "n"})}})}}},
      {"key",
       Item{{"pk", "k"}},
       "SET pk = :val1",
       {{":val1", 4}},
       {},
       "One or more parameter values were invalid: Cannot update attribute pk. This attribute is "
       "part of the key"},
  };
}
#pragma GCC diagnostic pop

class UpdateTextTest : public ::testing::TestWithParam<TextCase> {};

TEST_P(UpdateTextTest, ParsesResolvesApplies) {
  const TextCase& tc = GetParam();
  Result<UpdateExpression> parsed = ParseUpdate(tc.text);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  Resolver resolver(tc.names.empty() ? nullptr : &tc.names,
                    tc.values.empty() ? nullptr : &tc.values);
  Result<UpdateExpression> resolved = resolver.Resolve(*parsed);
  ASSERT_TRUE(resolved.ok()) << resolved.status().ToString();
  ASSERT_TRUE(resolver.CheckAllUsed().ok());
  const Item* before = tc.before ? &*tc.before : nullptr;
  for (UpdatedAttributes wanted :
       {UpdatedAttributes::kUpdatedOld, UpdatedAttributes::kUpdatedNew}) {
    Result<UpdateOutcome> r = ApplyUpdate(*resolved, before, kSchema, wanted);
    if (!tc.error.empty()) {
      ASSERT_FALSE(r.ok());
      EXPECT_EQ(r.error().message(), tc.error);
      continue;
    }
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->exists, tc.after.has_value());
    if (tc.after) {
      EXPECT_EQ(r->item, *tc.after) << Show(r->item);
    }
    const Item& want = wanted == UpdatedAttributes::kUpdatedOld ? tc.updated_old : tc.updated_new;
    EXPECT_EQ(r->attributes, want) << Show(r->attributes);
  }
}

INSTANTIATE_TEST_SUITE_P(Scylla, UpdateTextTest, ::testing::ValuesIn(TextCases()),
                         [](const ::testing::TestParamInfo<TextCase>& info) {
                           return std::to_string(info.index) + "_" + info.param.name;
                         });
}  // namespace
}  // namespace partstore::expr
