// Rows of the ApplyUpdate table (Table/UpdateCaseTest, run in update_test.cc) on document paths:
// list indexes (replacing, appending beyond the end, removing by original numbering), nested map
// members and deep paths, and invalid paths (a parent missing or of the wrong type, a missing
// item). They come right after the list_append rows.
#include <optional>
#include <string>
#include <vector>

#include "core/expr/ast.h"
#include "tests/expr/update_testutil.h"

namespace partstore::expr::testing {

// Error cases leave the trailing expectation fields out.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
std::vector<UpdateCase> PathUpdateCases() {
  std::vector<UpdateCase> c;

  // -- list indexes --
  c.push_back({"set_index_replaces",
               Item{{"a", L({"one", "two", "three"})}},
               {Set("a[1]", Val(":v"))},
               {{":v", "hello"}},
               "",
               Item{{"a", L({"one", "hello", "three"})}},
               Item{{"a", L({"two"})}},
               Item{{"a", L({"hello"})}}});
  c.push_back({"set_index_beyond_end_appends",
               Item{{"a", L({"one", "two", "three"})}},
               {Set("a[7]", Val(":v"))},
               {{":v", "hello"}},
               "",
               Item{{"a", L({"one", "two", "three", "hello"})}},
               {},
               {}});
  c.push_back({"set_indexes_beyond_end_in_index_order",
               Item{{"a", L({"one"})}},
               {Set("a[84]", Val(":1")), Set("a[37]", Val(":2")), Set("a[17]", Val(":3")),
                Set("a[50]", Val(":4"))},
               {{":1", "a1"}, {":2", "a2"}, {":3", "a3"}, {":4", "a4"}},
               "",
               Item{{"a", L({"one", "a3", "a2", "a4", "a1"})}},
               {},
               {}});
  c.push_back({"set_index_0_of_empty_list",
               Item{{"a", Value::List({})}},
               {Set("a[0]", Val(":v"))},
               {{":v", "first"}},
               "",
               Item{{"a", L({"first"})}},
               {},
               Item{{"a", L({"first"})}}});
  c.push_back({"remove_index_then_set_original_index",
               Item{{"a", L({2, 3, 4, 5, 6, 7})}},
               {Remove("a[1]"), Set("a[3]", Val(":v"))},
               {{":v", 17}},
               "",
               Item{{"a", L({2, 4, 17, 6, 7})}},
               Item{{"a", L({3, 5})}},
               Item{{"a", L({4, 6})}}});
  c.push_back({"set_original_index_then_remove_index",
               Item{{"a", L({2, 3, 4, 5, 6, 7})}},
               {Set("a[3]", Val(":v")), Remove("a[1]")},
               {{":v", 17}},
               "",
               Item{{"a", L({2, 4, 17, 6, 7})}},
               Item{{"a", L({3, 5})}},
               Item{{"a", L({4, 6})}}});
  c.push_back({"remove_several_indexes",
               Item{{"a", L({0, 1, 2, 3, 4})}},
               {Remove("a[3]"), Remove("a[1]"), Remove("a[9]")},
               {},
               "",
               Item{{"a", L({0, 2, 4})}},
               Item{{"a", L({1, 3})}},
               Item{{"a", L({2})}}});
  c.push_back({"remove_index_beyond_end",
               Item{{"a", L({4, 5, 6})}},
               {Remove("a[17]")},
               {},
               "",
               Item{{"a", L({4, 5, 6})}},
               {},
               {}});
  c.push_back({"remove_only_element",
               Item{{"a", L({1})}},
               {Remove("a[0]")},
               {},
               "",
               Item{{"a", Value::List({})}},
               Item{{"a", L({1})}},
               {}});
  c.push_back({"remove_and_append_same_list",
               Item{{"a", L({0, 1, 2})}},
               {Remove("a[0]"), Remove("a[3]"), Set("a[5]", Val(":v"))},
               {{":v", 9}},
               "",
               Item{{"a", L({1, 2, 9})}},
               Item{{"a", L({0})}},
               Item{{"a", L({1})}}});

  // -- nested paths --
  const Item nested{{"pk", "k"}, {"a", M({{"b", 3}, {"c", 4}})}, {"d", 5}};
  c.push_back({"set_nested_member",
               nested,
               {Set("a.c", Val(":v"))},
               {{":v", 7}},
               "",
               Item{{"pk", "k"}, {"a", M({{"b", 3}, {"c", 7}})}, {"d", 5}},
               Item{{"a", M({{"c", 4}})}},
               Item{{"a", M({{"c", 7}})}}});
  c.push_back({"set_nested_new_member",
               nested,
               {Set("a.e", Val(":v"))},
               {{":v", 3}},
               "",
               Item{{"pk", "k"}, {"a", M({{"b", 3}, {"c", 4}, {"e", 3}})}, {"d", 5}},
               {},
               Item{{"a", M({{"e", 3}})}}});
  c.push_back({"set_nested_changes_type",
               nested,
               {Set("a.c", Val(":v"))},
               {{":v", M({{"x", 1}})}},
               "",
               Item{{"pk", "k"}, {"a", M({{"b", 3}, {"c", M({{"x", 1}})}})}, {"d", 5}},
               Item{{"a", M({{"c", 4}})}},
               Item{{"a", M({{"c", M({{"x", 1}})}})}}});
  const Item deep{{"a", M({{"b", 3}, {"c", L({"hi", M({{"x", M({{"y", L({3, 5, 7})}})}})})}})}};
  c.push_back({"set_deep",
               deep,
               {Set("a.c[1].x.y[1]", Val(":v"))},
               {{":v", 9}},
               "",
               Item{{"a", M({{"b", 3}, {"c", L({"hi", M({{"x", M({{"y", L({3, 9, 7})}})}})})}})}},
               Item{{"a", M({{"c", L({M({{"x", M({{"y", L({5})}})}})})}})}},
               Item{{"a", M({{"c", L({M({{"x", M({{"y", L({9})}})}})})}})}}});
  c.push_back({"set_from_deep_path",
               deep,
               {Set("z", Ref("a.c[1].x.y[2]"))},
               {},
               "",
               [&] {
                 Item i = deep;
                 i.emplace("z", 7);
                 return i;
               }(),
               {},
               Item{{"z", 7}}});
  c.push_back(
      {"remove_deep",
       Item{{"a", M({{"b", 3}, {"c", L({"hi", M({{"x", M({{"y", L({3, 5, 7})}})}, {"q", 2}})})}})}},
       {Remove("a.c[1].x.y[1]"), Remove("a.c[1].q")},
       {},
       "",
       Item{{"a", M({{"b", 3}, {"c", L({"hi", M({{"x", M({{"y", L({3, 7})}})}})})}})}},
       Item{{"a", M({{"c", L({M({{"q", 2}, {"x", M({{"y", L({5})}})}})})}})}},
       Item{{"a", M({{"c", L({M({{"x", M({{"y", L({7})}})}})})}})}}});
  c.push_back(
      {"multi_nested",
       Item{{"a", M({{"x", 3}, {"y", 4}, {"c", M({{"y", 3}})}})}, {"b", M({{"x", 1}, {"y", 2}})}},
       {Set("a.b", Val(":1")), Set("a.c.d", Val(":2")), Set("b.x", Val(":3")), Remove("a.x"),
        Remove("b.y")},
       {{":1", 10}, {":2", "dog"}, {":3", 17}},
       "",
       Item{{"a", M({{"y", 4}, {"b", 10}, {"c", M({{"y", 3}, {"d", "dog"}})}})},
            {"b", M({{"x", 17}})}},
       Item{{"a", M({{"x", 3}})}, {"b", M({{"x", 1}, {"y", 2}})}},
       Item{{"a", M({{"b", 10}, {"c", M({{"d", "dog"}})}})}, {"b", M({{"x", 17}})}}});
  c.push_back({"nested_arithmetic",
               Item{{"m", M({{"counter", 10}})}},
               {Set("m.counter", Plus(Ref("m.counter"), Val(":inc")))},
               {{":inc", 5}},
               "",
               Item{{"m", M({{"counter", 15}})}},
               Item{{"m", M({{"counter", 10}})}},
               Item{{"m", M({{"counter", 15}})}}});
  c.push_back({"remove_only_member_leaves_empty_map",
               Item{{"a", M({{"b", 1}})}},
               {Remove("a.b")},
               {},
               "",
               Item{{"a", Value::Map({})}},
               Item{{"a", M({{"b", 1}})}},
               {}});
  c.push_back({"remove_missing_leaves_are_noops",
               Item{{"a", M({{"x", 3}})}, {"b", L({"hi"})}},
               {Remove("a.y"), Remove("b[7]"), Remove("c")},
               {},
               "",
               Item{{"a", M({{"x", 3}})}, {"b", L({"hi"})}},
               {},
               {}});

  // Bad document paths: the parent is missing or of the wrong type.
  const Item bad{{"a", "hello"}, {"b", L({"hi"})}};
  for (const char* path : {"a.c", "b.c", "c.c", "a[0]", "c[0]", "b[0].x", "b[5].x"}) {
    c.push_back({std::string("set_bad_path_") + path,
                 bad,
                 {Set(path, Val(":v"))},
                 {{":v", 7}},
                 kPathInvalid});
  }
  for (const char* path : {"a.c", "b.c", "c.c", "a[0]", "c[0]", "b[3].x"}) {
    c.push_back({std::string("remove_bad_path_") + path, bad, {Remove(path)}, {}, kPathInvalid});
  }
  c.push_back({"add_bad_path", bad, {Add("a.c", ":v")}, {{":v", 1}}, kPathInvalid});
  c.push_back({"delete_bad_path", bad, {Delete("c.d", ":v")}, {{":v", SS({"x"})}}, kPathInvalid});
  c.push_back({"set_nested_on_missing_item",
               std::nullopt,
               {Set("c.c", Val(":v"))},
               {{":v", 7}},
               kPathInvalid});
  c.push_back({"set_index_on_missing_item",
               std::nullopt,
               {Set("b[0]", Val(":v"))},
               {{":v", 7}},
               kPathInvalid});
  // DynamoDB quirk: REMOVE of any path on a missing item is silently ignored, and creates nothing.
  c.push_back({"remove_nested_on_missing_item",
               std::nullopt,
               {Remove("x.y"), Remove("x[0]")},
               {},
               "",
               std::nullopt});
  c.push_back({"remove_on_missing_item", std::nullopt, {Remove("a")}, {}, "", std::nullopt});
  c.push_back({"remove_with_set_on_missing_item",
               std::nullopt,
               {Remove("x.y"), Set("a", Val(":v"))},
               {{":v", 1}},
               "",
               Item{{"a", 1}},
               {},
               Item{{"a", 1}}});
  return c;
}
#pragma GCC diagnostic pop

}  // namespace partstore::expr::testing
