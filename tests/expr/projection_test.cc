// Project: hierarchy kept, list indexes gathered in index order, absent paths omitted (Scylla
// test_projection_expression.py; conformance/dynoxide findings confirmed against DynamoDB), plus
// a randomized check against a naive model built path by path.
#include "core/expr/projection.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/expr/evaluate.h"
#include "tests/expr/condition_builders.h"
#include "tests/testutil/random_values.h"

namespace partstore::expr {
namespace {

using namespace builders;  // NOLINT

Item ProjectionTestItem() {
  Item item;
  item.insert_or_assign(
      "a",
      M({{"b", L({Num("0"), Num("1"), M({{"c", Str("x")}, {"d", Str("y")}})})}, {"e", Str("e")}}));
  item.insert_or_assign("l", L({Str("l0"), Str("l1"), Str("l2")}));
  item.insert_or_assign("lm", L({M({{"a", Num("1")}, {"b", Num("2")}, {"c", Num("3")}})}));
  item.insert_or_assign("s", Str("top"));
  item.insert_or_assign("n", Num("7"));
  return item;
}

std::string D(const Item& item) { return DebugString(Value(item)); }

TEST(ProjectionTest, Cases) {
  const Item item = ProjectionTestItem();
  struct Case {
    ProjectionExpression projection;
    Item expected;
  };
  Case cases[] = {
      {Projection({"s"}), Item{{"s", Str("top")}}},
      {Projection({"s", "n"}), Item{{"s", Str("top")}, {"n", Num("7")}}},
      {Projection({"missing"}), Item{}},
      {Projection({"s", "missing"}), Item{{"s", Str("top")}}},
      // The hierarchy is kept: a.b[2].c -> {a: {b: [{c}]}}.
      {Projection({"a.b[2].c"}), Item{{"a", M({{"b", L({M({{"c", Str("x")}})})}})}}},
      {Projection({"a.e", "a.b[0]"}), Item{{"a", M({{"b", L({Num("0")})}, {"e", Str("e")}})}}},
      // Several indexes of one list: ascending index order, compacted (live, dynoxide#126 notes).
      {Projection({"l[2]", "l[0]"}), Item{{"l", L({Str("l0"), Str("l2")})}}},
      {Projection({"l[1]", "l[5]"}), Item{{"l", L({Str("l1")})}}},
      {Projection({"l[5]"}), Item{}},
      // Several members below one index merge into that element.
      {Projection({"lm[0].a", "lm[0].c"}),
       Item{{"lm", L({M({{"a", Num("1")}, {"c", Num("3")}})})}}},
      // Paths through the wrong type, or that do not resolve, are omitted (and so are their
      // parents when nothing below them is left).
      {Projection({"s.x"}), Item{}},
      {Projection({"l.x"}), Item{}},
      {Projection({"a[0]"}), Item{}},
      {Projection({"a.b[2].zz", "n"}), Item{{"n", Num("7")}}},
      {Projection({"a.b[9].c"}), Item{}},
      // Whole containers.
      {Projection({"l"}), Item{{"l", L({Str("l0"), Str("l1"), Str("l2")})}}},
      {Projection({"a.b"}),
       Item{{"a", M({{"b", item.find("a")->second.as_map().find("b")->second}})}}},
  };
  const StoredItem stored = StoredItem::Encode(item);
  for (const Case& c : cases) {
    EXPECT_EQ(D(Project(c.projection, item)), D(c.expected));
    EXPECT_EQ(D(Project(c.projection, stored)), D(c.expected)) << "stored";
  }
}

TEST(ProjectionTest, EmptyItemProjectsToEmpty) {
  EXPECT_TRUE(Project(Projection({"a", "b.c"}), Item{}).empty());
}

// Model: project each path on its own (a chain of single-child maps / lists keyed by the
// original list indexes), merge the chains, then compact lists in index order.
struct ModelNode {
  bool leaf = false;
  Value value;  // when leaf
  bool is_list = false;
  std::map<std::string, ModelNode> members;  // map children
  std::map<int64_t, ModelNode> elements;     // list children
};

std::optional<ModelNode> Single(const Value& source, const Path& path, size_t depth) {
  ModelNode node;
  if (depth == path.elements.size()) {
    node.leaf = true;
    node.value = source;
    return node;
  }
  const PathElement& e = path.elements[depth];
  if (e.is_index()) {
    if (!source.is(Type::kL) || e.index >= static_cast<int64_t>(source.as_list().size())) {
      return std::nullopt;
    }
    std::optional<ModelNode> child = Single(source.as_list()[size_t(e.index)], path, depth + 1);
    if (!child) return std::nullopt;
    node.is_list = true;
    node.elements[e.index] = *child;
    return node;
  }
  if (!source.is(Type::kM)) return std::nullopt;
  auto it = source.as_map().find(e.name);
  if (it == source.as_map().end()) return std::nullopt;
  std::optional<ModelNode> child = Single(it->second, path, depth + 1);
  if (!child) return std::nullopt;
  node.members[e.name] = *child;
  return node;
}

void Merge(ModelNode* into, const ModelNode& from) {
  if (from.leaf) {
    *into = from;
    return;
  }
  into->is_list = into->is_list || from.is_list;
  for (const auto& [k, v] : from.members) Merge(&into->members[k], v);
  for (const auto& [k, v] : from.elements) Merge(&into->elements[k], v);
}

Value ModelValue(const ModelNode& node) {
  if (node.leaf) return node.value;
  if (node.is_list) {
    ValueList list;
    for (const auto& [index, child] : node.elements) list.push_back(ModelValue(child));
    return Value(std::move(list));
  }
  AttributeMap map;
  for (const auto& [name, child] : node.members) map.insert_or_assign(name, ModelValue(child));
  return Value(std::move(map));
}

TEST(ProjectionTest, RandomizedAgainstModel) {
  const char* const names[] = {"a", "b", "c"};
  for (uint64_t seed : {7u, 8u, 9u}) {
    std::mt19937_64 rng(seed);
    ::partstore::testing::RandomValueOptions options;
    options.max_collection_size = 3;
    for (int round = 0; round < 1500; ++round) {
      // Items over a small name pool, nested maps keyed by the same names.
      std::function<Value(int)> random_value = [&](int depth) -> Value {
        int pick = ::partstore::testing::RandomInt(rng, 0, 5);
        if (depth > 0 && pick == 0) {
          AttributeMap m;
          for (const char* n : names) {
            if (::partstore::testing::RandomChance(rng, 0.6))
              m.insert_or_assign(n, random_value(depth - 1));
          }
          return Value(std::move(m));
        }
        if (depth > 0 && pick == 1) {
          ValueList l;
          int n = ::partstore::testing::RandomInt(rng, 0, 3);
          for (int i = 0; i < n; ++i) l.push_back(random_value(depth - 1));
          return Value(std::move(l));
        }
        return ::partstore::testing::RandomValue(rng, 0, options);
      };
      Item item;
      for (const char* n : names) {
        if (::partstore::testing::RandomChance(rng, 0.8)) item.insert_or_assign(n, random_value(3));
      }
      // Random non-overlapping paths: distinct leaves of a random trie.
      ProjectionExpression projection;
      int count = ::partstore::testing::RandomInt(rng, 1, 4);
      for (int i = 0; i < count; ++i) {
        Path p;
        p.elements.push_back(PathElement{names[::partstore::testing::RandomInt(rng, 0, 2)], -1});
        int extra = ::partstore::testing::RandomInt(rng, 0, 3);
        for (int k = 0; k < extra; ++k) {
          if (::partstore::testing::RandomChance(rng, 0.5)) {
            p.elements.push_back(
                PathElement{names[::partstore::testing::RandomInt(rng, 0, 2)], -1});
          } else {
            p.elements.push_back(PathElement{"", ::partstore::testing::RandomInt(rng, 0, 3)});
          }
        }
        // Keep it only if it neither overlaps nor conflicts with the ones kept so far.
        bool ok = true;
        for (const Path& q : projection.paths) {
          size_t n = std::min(p.elements.size(), q.elements.size());
          size_t k = 0;
          while (k < n && p.elements[k] == q.elements[k]) ++k;
          if (k == n)
            ok = false;  // prefix: overlap
          else if (p.elements[k].is_index() != q.elements[k].is_index())
            ok = false;  // conflict
        }
        if (ok) projection.paths.push_back(std::move(p));
      }
      std::map<std::string, ModelNode> root;
      for (const Path& p : projection.paths) {
        auto it = item.find(p.elements[0].name);
        if (it == item.end()) continue;
        if (std::optional<ModelNode> single = Single(it->second, p, 1)) {
          Merge(&root[p.elements[0].name], *single);
        }
      }
      AttributeMap expected;
      for (const auto& [name, node] : root) expected.insert_or_assign(name, ModelValue(node));
      Item actual = Project(projection, item);
      ASSERT_EQ(D(actual), D(expected))
          << "seed " << seed << " round " << round << " item " << D(item);
      if (ValidateItem(item).ok()) {
        ASSERT_EQ(D(Project(projection, StoredItem::Encode(item))), D(expected))
            << "stored: seed " << seed << " round " << round << " item " << D(item);
      }
      // Every projected path resolves to the same value in both.
      for (const Path& p : projection.paths) {
        const Value* in_item = FindPath(item, p);
        if (in_item == nullptr) continue;
        // Projected lists are compacted, so only map-only paths keep their address.
        bool maps_only = std::none_of(p.elements.begin(), p.elements.end(),
                                      [](const PathElement& e) { return e.is_index(); });
        if (maps_only) {
          const Value* projected = FindPath(actual, p);
          ASSERT_NE(projected, nullptr);
          EXPECT_EQ(*projected, *in_item);
        }
      }
    }
  }
}

}  // namespace
}  // namespace partstore::expr
