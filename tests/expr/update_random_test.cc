// ApplyUpdate, randomized against simple models: numeric ADD / SET +/- sequences against an exact
// scaled integer, top-level SET / REMOVE / ADD / DELETE against a std::map, and REMOVE / SET index
// sets on lists. Fixed seeds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/expr/ast.h"
#include "core/expr/update.h"
#include "tests/expr/update_testutil.h"

namespace partstore::expr {
namespace {

using ::partstore::expr::testing::Add;
using ::partstore::expr::testing::Bind;
using ::partstore::expr::testing::Delete;
using ::partstore::expr::testing::IfNotExists;
using ::partstore::expr::testing::kMissing;
using ::partstore::expr::testing::kPathInvalid;
using ::partstore::expr::testing::kSchema;
using ::partstore::expr::testing::kWrongType;
using ::partstore::expr::testing::Minus;
using ::partstore::expr::testing::Num;
using ::partstore::expr::testing::Plus;
using ::partstore::expr::testing::Ref;
using ::partstore::expr::testing::Remove;
using ::partstore::expr::testing::Set;
using ::partstore::expr::testing::Show;
using ::partstore::expr::testing::SS;
using ::partstore::expr::testing::Val;

// ---- Randomized: numeric sequences against an exact scaled-integer model ---------------------

// Values are multiples of 10^-6 below 10^15 in magnitude, so every sum in a short sequence stays
// well inside 38 digits and the model (an __int128 count of millionths) is exact.
using Scaled = __int128;
constexpr int kScale = 6;

std::string ScaledText(Scaled v) {
  bool negative = v < 0;
  unsigned __int128 m =
      negative ? static_cast<unsigned __int128>(-v) : static_cast<unsigned __int128>(v);
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(m % 10)));
    m /= 10;
  } while (m != 0);
  while (digits.size() <= kScale) digits.insert(digits.begin(), '0');
  std::string text;
  if (negative) text.push_back('-');
  text.append(digits, 0, digits.size() - kScale);
  text.push_back('.');
  text.append(digits, digits.size() - kScale, kScale);
  return text;
}

TEST(UpdateRandomTest, NumericSequencesMatchModel) {
  std::mt19937_64 rng(20240611);
  for (int round = 0; round < 300; ++round) {
    const bool nested = round % 3 == 0;
    const std::string target = nested ? "m.n" : "n";
    std::optional<Item> item;  // nullopt: no item yet
    if (round % 2 == 0) item = Item{{"pk", "k"}, {"m", Value::Map({})}};
    std::optional<Scaled> model;  // the attribute's value; nullopt: absent
    for (int step = 0; step < 40; ++step) {
      const int64_t mantissa =
          std::uniform_int_distribution<int64_t>(-999999999999LL, 999999999999LL)(rng);
      const int scale = std::uniform_int_distribution<int>(0, kScale)(rng);
      Scaled x = mantissa;
      for (int i = scale; i < kScale; ++i) x *= 10;
      AttributeMap values{{":x", Num(ScaledText(x))}, {":zero", 0}};
      std::vector<UpdateAction> actions;
      std::optional<Scaled> expect;
      std::string expect_error;
      const int op = std::uniform_int_distribution<int>(0, 4)(rng);
      switch (op) {
        case 0:  // ADD n :x
          actions.push_back(Add(target, ":x"));
          expect = model.value_or(0) + x;
          break;
        case 1:  // SET n = n + :x
          actions.push_back(Set(target, Plus(Ref(target), Val(":x"))));
          if (model)
            expect = *model + x;
          else
            expect_error = kMissing;
          break;
        case 2:  // SET n = :x - n
          actions.push_back(Set(target, Minus(Val(":x"), Ref(target))));
          if (model)
            expect = x - *model;
          else
            expect_error = kMissing;
          break;
        case 3:  // SET n = if_not_exists(n, :zero) - :x
          actions.push_back(Set(target, Minus(IfNotExists(Ref(target), Val(":zero")), Val(":x"))));
          expect = model.value_or(0) - x;
          break;
        case 4:  // SET n = :x
          actions.push_back(Set(target, Val(":x")));
          expect = x;
          break;
      }
      // Without an item there is no map m: operands are evaluated first (ops 1 and 2 fail on the
      // missing operand), then the target path is found invalid.
      if (nested && !item && op != 1 && op != 2) expect_error = kPathInvalid;
      UpdateExpression update = Bind(actions, values);
      Result<UpdateOutcome> r =
          ApplyUpdate(update, item ? &*item : nullptr, kSchema, UpdatedAttributes::kUpdatedNew);
      if (!expect_error.empty()) {
        ASSERT_FALSE(r.ok()) << "round " << round << " step " << step;
        ASSERT_EQ(r.error().message(), expect_error);
        continue;
      }
      ASSERT_TRUE(r.ok()) << r.status().ToString() << " round " << round << " step " << step;
      item = r->item;
      model = expect;
      const Value want = Num(ScaledText(*model));
      const Value* got = nested ? &item->at("m").as_map().at("n") : &item->at("n");
      ASSERT_EQ(*got, want) << "round " << round << " step " << step << " op " << op << ": got "
                            << DebugString(*got) << " want " << ScaledText(*model);
      const Item want_new = nested ? Item{{"m", Value::Map({{"n", want}})}} : Item{{"n", want}};
      ASSERT_EQ(r->attributes, want_new);
    }
  }
}

// ---- Randomized: top-level SET / REMOVE / ADD / DELETE on random items against a std::map ----

TEST(UpdateRandomTest, TopLevelActionsMatchModel) {
  std::mt19937_64 rng(4242);
  auto name_of = [](int k) { return std::string(1, static_cast<char>('a' + k)); };
  for (int round = 0; round < 3000; ++round) {
    std::map<std::string, Value> model;
    std::optional<Item> before;
    if (round % 5 != 0) {
      before = Item{};
      for (int k = 0; k < 12; ++k) {
        if (!std::bernoulli_distribution(0.5)(rng)) continue;
        Value v = std::bernoulli_distribution(0.5)(rng) ? Value(k) : Value(SS({name_of(k), "x"}));
        before->emplace(name_of(k), v);
        model.emplace(name_of(k), v);
      }
    }
    AttributeMap values;
    std::vector<UpdateAction> actions;
    std::set<std::string> touched;
    bool creates = before.has_value();
    std::string expect_error;
    for (int n = std::uniform_int_distribution<int>(0, 6)(rng); n > 0; --n) {
      const std::string name = name_of(std::uniform_int_distribution<int>(0, 12)(rng));
      if (!touched.insert(name).second) continue;
      const std::string placeholder = ":" + name;
      auto it = model.find(name);
      switch (std::uniform_int_distribution<int>(0, 3)(rng)) {
        case 0:
          values.emplace(placeholder, Value("s" + name));
          actions.push_back(Set(name, Val(placeholder)));
          model[name] = Value("s" + name);
          creates = true;
          break;
        case 1:
          actions.push_back(Remove(name));
          if (it != model.end()) model.erase(it);
          break;
        case 2:  // ADD a string set
          values.emplace(placeholder, SS({"y"}));
          actions.push_back(Add(name, placeholder));
          creates = true;
          if (it == model.end()) {
            model[name] = SS({"y"});
          } else if (it->second.is(Type::kSS)) {
            it->second.as_string_set().insert("y");
          } else if (expect_error.empty()) {
            expect_error = kWrongType;
          }
          break;
        case 3:  // DELETE from a string set
          values.emplace(placeholder, SS({"x"}));
          actions.push_back(Delete(name, placeholder));
          if (it != model.end()) {
            if (!it->second.is(Type::kSS)) {
              if (expect_error.empty()) expect_error = kWrongType;
            } else {
              it->second.as_string_set().erase("x");
              if (it->second.as_string_set().empty()) model.erase(it);
            }
          }
          break;
      }
    }
    UpdateExpression update = Bind(actions, values);
    Result<UpdateOutcome> r =
        ApplyUpdate(update, before ? &*before : nullptr, kSchema, UpdatedAttributes::kUpdatedNew);
    if (!expect_error.empty()) {
      ASSERT_FALSE(r.ok()) << "round " << round;
      ASSERT_EQ(r.error().message(), expect_error);
      continue;
    }
    ASSERT_TRUE(r.ok()) << r.status().ToString() << " round " << round;
    ASSERT_EQ(r->exists, creates || actions.empty());
    if (!r->exists) continue;
    const Item want(model.begin(), model.end());
    ASSERT_EQ(r->item, want) << "round " << round << " got " << Show(r->item) << " want "
                             << Show(want);
    Item want_new;
    for (const std::string& name : touched) {
      if (auto it = model.find(name); it != model.end()) want_new.emplace(name, it->second);
    }
    ASSERT_EQ(r->attributes, want_new) << "round " << round;
  }
}

// ---- Randomized: index REMOVE / SET sets on a list against a model ---------------------------

TEST(UpdateRandomTest, ListIndexActionsMatchModel) {
  std::mt19937_64 rng(77);
  for (int round = 0; round < 2000; ++round) {
    const bool nested = round % 2 == 1;
    const std::string list_path = nested ? "m.l" : "l";
    const int size = std::uniform_int_distribution<int>(0, 10)(rng);
    ValueList elements;
    for (int i = 0; i < size; ++i) elements.push_back(Value(100 + i));
    Item before = nested ? Item{{"m", Value::Map({{"l", Value::List(elements)}})}, {"x", 1}}
                         : Item{{"l", Value::List(elements)}, {"x", 1}};

    // Distinct indexes (DynamoDB rejects two actions on one path), each removed or set.
    std::set<int> used;
    std::map<int, bool> removes;  // index -> true
    std::map<int, int> sets;      // index -> new value
    const int actions_count = std::uniform_int_distribution<int>(1, 6)(rng);
    std::vector<UpdateAction> actions;
    AttributeMap values;
    for (int k = 0; k < actions_count; ++k) {
      int index = std::uniform_int_distribution<int>(0, 14)(rng);
      if (!used.insert(index).second) continue;
      const std::string path = list_path + "[" + std::to_string(index) + "]";
      if (std::bernoulli_distribution(0.5)(rng)) {
        removes[index] = true;
        actions.push_back(Remove(path));
      } else {
        const std::string placeholder = ":v" + std::to_string(index);
        values.emplace(placeholder, 1000 + index);
        sets[index] = 1000 + index;
        actions.push_back(Set(path, Val(placeholder)));
      }
    }
    std::shuffle(actions.begin(), actions.end(), rng);

    // Model: replacements and removals address the old positions; SETs beyond the end append in
    // index order.
    ValueList expected;
    for (int i = 0; i < size; ++i) {
      if (removes.count(i)) continue;
      expected.push_back(sets.count(i) ? Value(sets[i]) : elements[i]);
    }
    for (const auto& [index, v] : sets) {
      if (index >= size) expected.push_back(Value(v));
    }
    ValueList expect_old, expect_new;
    for (int index : used) {
      if (index < size) expect_old.push_back(elements[index]);
      if (index < static_cast<int>(expected.size())) expect_new.push_back(expected[index]);
    }
    auto wrap = [&](ValueList list) -> Item {
      if (list.empty()) return Item{};
      return nested ? Item{{"m", Value::Map({{"l", Value::List(std::move(list))}})}}
                    : Item{{"l", Value::List(std::move(list))}};
    };

    UpdateExpression update = Bind(actions, values);
    Result<UpdateOutcome> r_old =
        ApplyUpdate(update, &before, kSchema, UpdatedAttributes::kUpdatedOld);
    Result<UpdateOutcome> r_new =
        ApplyUpdate(update, &before, kSchema, UpdatedAttributes::kUpdatedNew);
    ASSERT_TRUE(r_old.ok() && r_new.ok()) << r_old.status().ToString();
    const Value& got = nested ? r_new->item.at("m").as_map().at("l") : r_new->item.at("l");
    ASSERT_EQ(got, Value::List(expected)) << "round " << round << " got " << DebugString(got)
                                          << " want " << DebugString(Value::List(expected));
    ASSERT_EQ(r_old->item, r_new->item);
    ASSERT_EQ(r_old->attributes, wrap(expect_old)) << "round " << round;
    ASSERT_EQ(r_new->attributes, wrap(expect_new))
        << "round " << round << " got " << Show(r_new->attributes);
    ASSERT_EQ(r_new->item.at("x"), Value(1));
  }
}

}  // namespace
}  // namespace partstore::expr
