// Evaluate / FindPath: table-driven semantics (Scylla test_condition_expression.py and
// test_filter_expression.py, which pass against DynamoDB, and DynamoDB's executor), then a
// randomized comparison with a deliberately naive reference evaluator.
#include "core/expr/evaluate.h"

#include <gtest/gtest.h>

#include <deque>
#include <random>
#include <string>
#include <vector>

#include "tests/expr/condition_builders.h"
#include "tests/testutil/random_values.h"

namespace partstore::expr {
namespace {

using namespace builders;  // NOLINT

Item TestItem() {
  Item item;
  item.insert_or_assign("s", Str("hello"));
  item.insert_or_assign("s2", Str("hello"));
  item.insert_or_assign("uni", Str("\xc3\xa9\xf0\x9d\x84\x9e"));  // "é𝄞": 1 + 2 UTF-16 units
  item.insert_or_assign("empty", Str(""));
  item.insert_or_assign("n", Num("5"));
  item.insert_or_assign("n2", Num("5.0"));
  item.insert_or_assign("big", Num("1E+100"));
  item.insert_or_assign("b", Bin(std::string("\x01\x02\x03", 3)));
  item.insert_or_assign("t", Value(true));
  item.insert_or_assign("nul", Value::Nil());
  item.insert_or_assign("l", L({Num("1"), Str("two"), M({{"x", Num("1")}}), L({Num("2")})}));
  item.insert_or_assign(
      "m", M({{"a", Num("1")}, {"b", L({Num("10"), Num("20")})}, {"c", M({{"d", Str("deep")}})}}));
  item.insert_or_assign("ss", SS({"a", "bc"}));
  item.insert_or_assign("ns", NS({"1", "2.5"}));
  item.insert_or_assign("bs", BS({"\x01", "\x02\x03"}));
  return item;
}

struct Case {
  const char* label;
  Condition condition;
  bool expected;
};

std::vector<Case> Cases(Constants& c) {
  std::vector<Case> cases;
  auto add = [&](const char* label, Condition cond, bool expected) {
    cases.push_back({label, std::move(cond), expected});
  };
  // = and <>: deep equality; different types are unequal, not an error.
  add("= string", Cmp(PathOp("s"), "=", c(Str("hello"))), true);
  add("= two attributes", Cmp(PathOp("s"), "=", PathOp("s2")), true);
  add("= number by value", Cmp(PathOp("n"), "=", c(Num("5.00"))), true);
  add("= numbers of two spellings", Cmp(PathOp("n"), "=", PathOp("n2")), true);
  add("= different types", Cmp(PathOp("n"), "=", c(Str("5"))), false);
  add("= set in another order", Cmp(PathOp("ss"), "=", c(SS({"bc", "a"}))), true);
  add("= list (order matters)", Cmp(PathOp("m.b"), "=", c(L({Num("20"), Num("10")}))), false);
  add("= list", Cmp(PathOp("m.b"), "=", c(L({Num("10"), Num("20.0")}))), true);
  add("= map", Cmp(PathOp("m.c"), "=", c(M({{"d", Str("deep")}}))), true);
  add("= null", Cmp(PathOp("nul"), "=", c(Value::Nil())), true);
  add("= bool", Cmp(PathOp("t"), "=", c(Value(true))), true);
  add("= missing", Cmp(PathOp("q"), "=", c(Num("5"))), false);
  add("= two missing", Cmp(PathOp("q"), "=", PathOp("z")), false);  // Scylla #8511
  add("<> missing", Cmp(PathOp("q"), "<>", c(Num("5"))), true);
  add("<> two missing", Cmp(PathOp("q"), "<>", PathOp("z")), true);
  add("<> different types", Cmp(PathOp("n"), "<>", c(Str("1"))), true);
  add("<> equal", Cmp(PathOp("n"), "<>", c(Num("5"))), false);

  // Ordering: S / N / B only, same type, missing or mismatched is false.
  add("< number", Cmp(PathOp("n"), "<", c(Num("5.0000001"))), true);
  add("< number equal", Cmp(PathOp("n"), "<", c(Num("5"))), false);
  add("<= number equal", Cmp(PathOp("n"), "<=", c(Num("5"))), true);
  add("> huge", Cmp(PathOp("big"), ">", c(Num("9.99E+99"))), true);
  add(">= negative", Cmp(PathOp("n"), ">=", c(Num("-1E+120"))), true);
  add("< string bytes", Cmp(PathOp("s"), "<", c(Str("help"))), true);
  add("< string prefix", Cmp(PathOp("s"), ">", c(Str("hell"))), true);
  add("< utf-8 bytes", Cmp(PathOp("s"), "<", c(Str("\xc2\xbf"))), true);  // ¿ > z
  add("< binary unsigned", Cmp(PathOp("b"), "<", c(Bin("\x80"))), true);
  add("< different types", Cmp(PathOp("n"), "<", c(Str("9"))), false);
  add("< missing", Cmp(PathOp("q"), "<", c(Str("17"))), false);
  add("< missing on the right", Cmp(c(Str("17")), "<", PathOp("q")), false);
  add("< two missing", Cmp(PathOp("q"), "<", PathOp("z")), false);
  add("< of a list attribute", Cmp(PathOp("l"), "<", c(Num("1"))), false);
  add("<= bool attribute", Cmp(PathOp("t"), "<=", PathOp("t")), false);

  // BETWEEN (inclusive).
  add("BETWEEN inclusive low", Between(PathOp("n"), c(Num("5")), c(Num("6"))), true);
  add("BETWEEN inclusive high", Between(PathOp("n"), c(Num("4")), c(Num("5"))), true);
  add("BETWEEN outside", Between(PathOp("n"), c(Num("6")), c(Num("7"))), false);
  add("BETWEEN strings", Between(PathOp("s"), c(Str("a")), c(Str("i"))), true);
  add("BETWEEN mixed", Between(PathOp("s"), c(Num("1")), c(Num("9"))), false);
  add("BETWEEN missing", Between(PathOp("q"), c(Num("1")), c(Num("9"))), false);
  add("BETWEEN reversed item bounds", Between(PathOp("n"), PathOp("big"), c(Num("1"))), false);
  add("BETWEEN two missing bounds", Between(PathOp("n"), PathOp("q"), PathOp("z")), false);

  // IN.
  add("IN hit", In(PathOp("n"), {c(Str("5")), c(Num("5.0"))}), true);
  add("IN miss", In(PathOp("n"), {c(Str("5")), c(Num("6"))}), false);
  add("IN attribute", In(PathOp("s"), {c(Num("1")), PathOp("s2")}), true);
  add("IN missing", In(PathOp("q"), {c(Num("1")), PathOp("z")}), false);
  add("IN list value", In(PathOp("m.b"), {c(L({Num("10"), Num("20")}))}), true);

  // attribute_exists / attribute_not_exists on nested paths.
  add("exists top", Fn("attribute_exists", {PathOp("s")}), true);
  add("exists null-valued", Fn("attribute_exists", {PathOp("nul")}), true);
  add("exists nested", Fn("attribute_exists", {PathOp("m.c.d")}), true);
  add("exists list element", Fn("attribute_exists", {PathOp("m.b[1]")}), true);
  add("exists beyond the end", Fn("attribute_exists", {PathOp("m.b[2]")}), false);
  add("exists index on a map", Fn("attribute_exists", {PathOp("m[0]")}), false);
  add("exists member of a list", Fn("attribute_exists", {PathOp("l.x")}), false);
  add("exists member of a string", Fn("attribute_exists", {PathOp("s.x")}), false);
  add("exists in a list's map", Fn("attribute_exists", {PathOp("l[2].x")}), true);
  add("not_exists", Fn("attribute_not_exists", {PathOp("q")}), true);
  add("not_exists nested present", Fn("attribute_not_exists", {PathOp("m.a")}), false);
  add("not_exists under a missing parent", Fn("attribute_not_exists", {PathOp("q.r[3]")}), true);

  // attribute_type.
  add("type S", Fn("attribute_type", {PathOp("s"), c(Str("S"))}), true);
  add("type N", Fn("attribute_type", {PathOp("n"), c(Str("N"))}), true);
  add("type not S", Fn("attribute_type", {PathOp("n"), c(Str("S"))}), false);
  add("type BOOL", Fn("attribute_type", {PathOp("t"), c(Str("BOOL"))}), true);
  add("type NULL", Fn("attribute_type", {PathOp("nul"), c(Str("NULL"))}), true);
  add("type L nested", Fn("attribute_type", {PathOp("m.b"), c(Str("L"))}), true);
  add("type M", Fn("attribute_type", {PathOp("m"), c(Str("M"))}), true);
  add("type SS", Fn("attribute_type", {PathOp("ss"), c(Str("SS"))}), true);
  add("type NS", Fn("attribute_type", {PathOp("ns"), c(Str("NS"))}), true);
  add("type BS", Fn("attribute_type", {PathOp("bs"), c(Str("BS"))}), true);
  add("type B", Fn("attribute_type", {PathOp("b"), c(Str("B"))}), true);
  add("type of missing", Fn("attribute_type", {PathOp("q"), c(Str("NULL"))}), false);

  // begins_with: S or B of the same type.
  add("begins_with", Fn("begins_with", {PathOp("s"), c(Str("he"))}), true);
  add("begins_with whole", Fn("begins_with", {PathOp("s"), c(Str("hello"))}), true);
  add("begins_with empty", Fn("begins_with", {PathOp("s"), c(Str(""))}), true);
  add("begins_with longer", Fn("begins_with", {PathOp("s"), c(Str("hello!"))}), false);
  add("begins_with no", Fn("begins_with", {PathOp("s"), c(Str("el"))}), false);
  add("begins_with binary", Fn("begins_with", {PathOp("b"), c(Bin("\x01\x02"))}), true);
  add("begins_with binary vs string", Fn("begins_with", {PathOp("b"), c(Str("\x01"))}), false);
  add("begins_with number attribute", Fn("begins_with", {PathOp("n"), PathOp("n")}), false);
  add("begins_with missing", Fn("begins_with", {PathOp("q"), c(Str("h"))}), false);
  add("begins_with a set", Fn("begins_with", {PathOp("ss"), c(Str("a"))}), false);

  // contains.
  add("contains substring", Fn("contains", {PathOp("s"), c(Str("ell"))}), true);
  add("contains empty substring", Fn("contains", {PathOp("s"), c(Str(""))}), true);
  add("contains substring miss", Fn("contains", {PathOp("s"), c(Str("elo"))}), false);
  add("contains string vs number", Fn("contains", {PathOp("s"), c(Num("1"))}), false);
  add("contains bytes", Fn("contains", {PathOp("b"), c(Bin("\x02\x03"))}), true);
  add("contains bytes vs string", Fn("contains", {PathOp("b"), c(Str("\x02"))}), false);
  add("contains SS element", Fn("contains", {PathOp("ss"), c(Str("bc"))}), true);
  add("contains SS not a substring", Fn("contains", {PathOp("ss"), c(Str("b"))}), false);
  add("contains SS wrong type", Fn("contains", {PathOp("ss"), c(Num("1"))}), false);
  add("contains NS by value", Fn("contains", {PathOp("ns"), c(Num("2.50"))}), true);
  add("contains NS string", Fn("contains", {PathOp("ns"), c(Str("1"))}), false);
  add("contains BS", Fn("contains", {PathOp("bs"), c(Bin("\x02\x03"))}), true);
  add("contains BS miss", Fn("contains", {PathOp("bs"), c(Bin("\x02"))}), false);
  add("contains list element", Fn("contains", {PathOp("l"), c(Str("two"))}), true);
  add("contains list number by value", Fn("contains", {PathOp("l"), c(Num("1.0"))}), true);
  add("contains list map (deep)", Fn("contains", {PathOp("l"), c(M({{"x", Num("1")}}))}), true);
  add("contains list of list", Fn("contains", {PathOp("l"), c(L({Num("2")}))}), true);
  add("contains list partial", Fn("contains", {PathOp("l"), c(Str("tw"))}), false);
  add("contains map", Fn("contains", {PathOp("m"), c(Str("a"))}), false);
  add("contains number", Fn("contains", {PathOp("n"), c(Num("5"))}), false);
  add("contains missing", Fn("contains", {PathOp("q"), c(Str("a"))}), false);
  add("contains attribute operand", Fn("contains", {PathOp("l"), PathOp("m.a")}), true);

  // size(): S in UTF-16 code units, B in bytes, collections in elements.
  add("size S", Cmp(SizeOp(PathOp("s")), "=", c(Num("5"))), true);
  add("size S UTF-16 units (é𝄞 = 3)", Cmp(SizeOp(PathOp("uni")), "=", c(Num("3"))), true);
  add("size S not bytes", Cmp(SizeOp(PathOp("uni")), "=", c(Num("6"))), false);
  add("size empty S", Cmp(SizeOp(PathOp("empty")), "=", c(Num("0"))), true);
  add("size B", Cmp(SizeOp(PathOp("b")), "=", c(Num("3"))), true);
  add("size L", Cmp(SizeOp(PathOp("l")), "=", c(Num("4"))), true);
  add("size M", Cmp(SizeOp(PathOp("m")), "=", c(Num("3"))), true);
  add("size SS", Cmp(SizeOp(PathOp("ss")), "=", c(Num("2"))), true);
  add("size NS", Cmp(SizeOp(PathOp("ns")), "<", c(Num("3"))), true);
  add("size BS", Cmp(SizeOp(PathOp("bs")), ">=", c(Num("2"))), true);
  add("size nested", Cmp(SizeOp(PathOp("m.b")), "=", c(Num("2"))), true);
  add("size of a constant", Cmp(SizeOp(c(Str("abc"))), "=", c(Num("3"))), true);
  add("size N is missing", Cmp(SizeOp(PathOp("n")), "=", c(Num("1"))), false);
  add("size N is missing for <>", Cmp(SizeOp(PathOp("n")), "<>", c(Num("1"))), true);
  add("size BOOL <", Cmp(SizeOp(PathOp("t")), "<", c(Num("100"))), false);
  add("size missing", Cmp(SizeOp(PathOp("q")), ">=", c(Num("0"))), false);
  add("size = size", Cmp(SizeOp(PathOp("ss")), "=", SizeOp(PathOp("m.b"))), true);
  add("size BETWEEN", Between(SizeOp(PathOp("s")), c(Num("1")), c(Num("5"))), true);
  add("size IN", In(SizeOp(PathOp("l")), {c(Num("3")), SizeOp(PathOp("l"))}), true);

  // Boolean structure.
  add("AND", And(Cmp(PathOp("n"), "=", c(Num("5"))), Fn("attribute_exists", {PathOp("q")})), false);
  add("OR", Or(Cmp(PathOp("n"), "=", c(Num("4"))), Fn("attribute_not_exists", {PathOp("q")})),
      true);
  add("NOT", Not(Fn("attribute_exists", {PathOp("q")})), true);
  add("NOT of a type mismatch", Not(Cmp(PathOp("n"), "<", c(Str("x")))), true);
  return cases;
}

TEST(EvaluateTest, Cases) {
  Constants constants;
  const Item item = TestItem();
  const StoredItem stored = StoredItem::Encode(item);  // the same rules read from the encoding
  for (const Case& c : Cases(constants)) {
    SCOPED_TRACE(c.label);
    EXPECT_EQ(Evaluate(c.condition, &item), c.expected);
    EXPECT_EQ(Evaluate(c.condition, &stored), c.expected) << "stored";
  }
}

TEST(EvaluateTest, NoItem) {
  Constants c;
  // Every path is missing: only <> and attribute_not_exists (and NOTs) hold.
  EXPECT_FALSE(Evaluate(Cmp(PathOp("a"), "=", c(Num("1"))), nullptr));
  EXPECT_TRUE(Evaluate(Cmp(PathOp("a"), "<>", c(Num("1"))), nullptr));
  EXPECT_TRUE(Evaluate(Fn("attribute_not_exists", {PathOp("pk")}), nullptr));
  EXPECT_FALSE(Evaluate(Fn("attribute_exists", {PathOp("pk")}), nullptr));
  EXPECT_FALSE(Evaluate(Cmp(SizeOp(PathOp("a")), "<", c(Num("1"))), nullptr));
  EXPECT_TRUE(Evaluate(Cmp(c(Num("1")), "<", c(Num("2"))), nullptr));
  const Item empty;
  EXPECT_TRUE(Evaluate(Fn("attribute_not_exists", {PathOp("pk")}), &empty));
  const StoredItem* no_stored = nullptr;
  EXPECT_TRUE(Evaluate(Cmp(PathOp("a"), "<>", c(Num("1"))), no_stored));
  EXPECT_FALSE(Evaluate(Fn("attribute_exists", {PathOp("pk")}), no_stored));
  const StoredItem stored_empty = StoredItem::Encode(empty);
  EXPECT_TRUE(Evaluate(Fn("attribute_not_exists", {PathOp("pk")}), &stored_empty));
}

TEST(EvaluateTest, FindPath) {
  const Item item = TestItem();
  EXPECT_EQ(FindPath(item, P("m.c.d")),
            &item.find("m")->second.as_map().find("c")->second.as_map().find("d")->second);
  ASSERT_NE(FindPath(item, P("l[3][0]")), nullptr);
  EXPECT_EQ(*FindPath(item, P("l[3][0]")), Num("2"));
  EXPECT_EQ(FindPath(item, P("l[4]")), nullptr);
  EXPECT_EQ(FindPath(item, P("l[3][1]")), nullptr);
  EXPECT_EQ(FindPath(item, P("m.b.c")), nullptr);
  EXPECT_EQ(FindPath(item, P("n[0]")), nullptr);
  EXPECT_EQ(FindPath(item, P("missing")), nullptr);
  EXPECT_EQ(FindPath(item, Path{}), nullptr);

  // The same paths in the encoding.
  const StoredItem stored = StoredItem::Encode(item);
  for (std::string_view path : {"m.c.d", "l[3][0]", "l[0]", "m", "n", "s"}) {
    std::optional<ValueView> found = FindPath(stored, P(std::string(path)));
    ASSERT_TRUE(found.has_value()) << path;
    EXPECT_TRUE(*found == *FindPath(item, P(std::string(path)))) << path;
  }
  for (std::string_view path : {"l[4]", "l[3][1]", "m.b.c", "n[0]", "missing"}) {
    EXPECT_FALSE(FindPath(stored, P(std::string(path))).has_value()) << path;
  }
  EXPECT_FALSE(FindPath(stored, Path{}).has_value());
}

// ---- Randomized comparison with a reference evaluator ----------------------------------------
//
// The reference shares nothing with evaluate.cc but Compare() (the one ordering): it walks maps
// linearly, decides equality by DebugString (canonical: sets sorted, numbers normalized, maps
// sorted), reads types from DebugString's {"T":...} prefix, and decodes UTF-8 by hand for size().

std::string RefType(const Value& v) {
  std::string d = DebugString(v);
  return d.substr(2, d.find('"', 2) - 2);
}

const Value* RefFind(const Item& item, const Path& path) {
  const Value* current = nullptr;
  for (size_t i = 0; i < path.elements.size(); ++i) {
    const PathElement& e = path.elements[i];
    const AttributeMap* map = i == 0 ? &item : nullptr;
    if (i > 0) {
      if (e.is_index()) {
        if (RefType(*current) != "L") return nullptr;
        const ValueList& list = current->as_list();
        if (e.index >= static_cast<int64_t>(list.size())) return nullptr;
        current = &list[static_cast<size_t>(e.index)];
        continue;
      }
      if (RefType(*current) != "M") return nullptr;
      map = &current->as_map();
    }
    if (e.is_index()) return nullptr;
    const Value* found = nullptr;
    for (const auto& [name, value] : *map) {
      if (name == e.name) found = &value;
    }
    if (found == nullptr) return nullptr;
    current = found;
  }
  return current;
}

struct RefOperand {
  bool present = false;
  Value value;
};

RefOperand RefEval(const Operand& o, const Item* item) {
  RefOperand out;
  if (o.kind == OperandKind::kValue) {
    out.present = true;
    out.value = *o.value;
  } else if (o.kind == OperandKind::kPath) {
    const Value* v = item ? RefFind(*item, o.path) : nullptr;
    if (v) out.present = true, out.value = *v;
  } else if (o.kind == OperandKind::kSize) {
    RefOperand arg = RefEval(o.args[0], item);
    if (!arg.present) return out;
    const std::string t = RefType(arg.value);
    int64_t n = -1;
    if (t == "S") {
      // Decode code points; supplementary ones are two UTF-16 units.
      const std::string& s = arg.value.as_string();
      n = 0;
      for (size_t i = 0; i < s.size();) {
        unsigned char b = s[i];
        size_t len = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
        n += len == 4 ? 2 : 1;
        i += len;
      }
    } else if (t == "B") {
      n = static_cast<int64_t>(arg.value.as_binary().size());
    } else if (t == "L") {
      n = static_cast<int64_t>(arg.value.as_list().size());
    } else if (t == "M") {
      n = static_cast<int64_t>(arg.value.as_map().size());
    } else if (t == "SS") {
      n = static_cast<int64_t>(arg.value.as_string_set().elements().size());
    } else if (t == "NS") {
      n = static_cast<int64_t>(arg.value.as_number_set().elements().size());
    } else if (t == "BS") {
      n = static_cast<int64_t>(arg.value.as_binary_set().elements().size());
    }
    if (n >= 0) out.present = true, out.value = Value(Number::FromInt64(n));
  }
  return out;
}

bool RefEqual(const RefOperand& a, const RefOperand& b) {
  return a.present && b.present && DebugString(a.value) == DebugString(b.value);
}

int RefOrder(const RefOperand& a, const RefOperand& b) {  // -2: unordered
  if (!a.present || !b.present) return -2;
  const std::string t = RefType(a.value);
  if (t != RefType(b.value) || (t != "S" && t != "N" && t != "B")) return -2;
  auto o = Compare(a.value, b.value);
  return o < 0 ? -1 : o > 0 ? 1 : 0;
}

bool RefEvaluate(const Condition& c, const Item* item) {
  switch (c.kind) {
    case ConditionKind::kAnd: {
      bool l = RefEvaluate(c.children[0], item), r = RefEvaluate(c.children[1], item);
      return l && r;
    }
    case ConditionKind::kOr: {
      bool l = RefEvaluate(c.children[0], item), r = RefEvaluate(c.children[1], item);
      return l || r;
    }
    case ConditionKind::kNot:
      return !RefEvaluate(c.children[0], item);
    case ConditionKind::kCompare: {
      RefOperand a = RefEval(c.operands[0], item), b = RefEval(c.operands[1], item);
      int o = RefOrder(a, b);
      switch (c.comparator) {
        case Comparator::kEq:
          return RefEqual(a, b);
        case Comparator::kNe:
          return !RefEqual(a, b);
        case Comparator::kLt:
          return o == -1;
        case Comparator::kLe:
          return o == -1 || o == 0;
        case Comparator::kGt:
          return o == 1;
        case Comparator::kGe:
          return o == 1 || o == 0;
      }
      return false;
    }
    case ConditionKind::kBetween: {
      RefOperand a = RefEval(c.operands[0], item), lo = RefEval(c.operands[1], item),
                 hi = RefEval(c.operands[2], item);
      int x = RefOrder(a, lo), y = RefOrder(a, hi);
      return (x == 0 || x == 1) && (y == 0 || y == -1);
    }
    case ConditionKind::kIn: {
      RefOperand a = RefEval(c.operands[0], item);
      bool any = false;
      for (size_t i = 1; i < c.operands.size(); ++i)
        any |= RefEqual(a, RefEval(c.operands[i], item));
      return any;
    }
    case ConditionKind::kAttributeExists:
      return item != nullptr && RefFind(*item, c.operands[0].path) != nullptr;
    case ConditionKind::kAttributeNotExists:
      return item == nullptr || RefFind(*item, c.operands[0].path) == nullptr;
    case ConditionKind::kAttributeType: {
      RefOperand a = RefEval(c.operands[0], item), t = RefEval(c.operands[1], item);
      return a.present && RefType(a.value) == t.value.as_string();
    }
    case ConditionKind::kBeginsWith: {
      RefOperand a = RefEval(c.operands[0], item), b = RefEval(c.operands[1], item);
      if (!a.present || !b.present) return false;
      const std::string t = RefType(a.value);
      if (t != RefType(b.value)) return false;
      if (t == "S")
        return a.value.as_string().substr(0, b.value.as_string().size()) == b.value.as_string();
      if (t == "B")
        return a.value.as_binary().substr(0, b.value.as_binary().size()) == b.value.as_binary();
      return false;
    }
    case ConditionKind::kContains: {
      RefOperand a = RefEval(c.operands[0], item), b = RefEval(c.operands[1], item);
      if (!a.present || !b.present) return false;
      const std::string ta = RefType(a.value), tb = RefType(b.value);
      if (ta == "S" || ta == "B") {
        if (ta != tb) return false;
        const std::string& hay = ta == "S" ? a.value.as_string() : a.value.as_binary();
        const std::string& needle = tb == "S" ? b.value.as_string() : b.value.as_binary();
        for (size_t i = 0; i + needle.size() <= hay.size(); ++i) {
          if (hay.compare(i, needle.size(), needle) == 0) return true;
        }
        return false;
      }
      const std::string needle = DebugString(b.value);
      if (ta == "L") {
        for (const Value& e : a.value.as_list()) {
          if (DebugString(e) == needle) return true;
        }
        return false;
      }
      if (ta == "SS" && tb == "S") {
        for (const std::string& e : a.value.as_string_set())
          if (e == b.value.as_string()) return true;
      }
      if (ta == "NS" && tb == "N") {
        for (const Number& e : a.value.as_number_set())
          if (DebugString(Value(e)) == needle) return true;
      }
      if (ta == "BS" && tb == "B") {
        for (const Bytes& e : a.value.as_binary_set())
          if (e.data == b.value.as_binary()) return true;
      }
      return false;
    }
  }
  return false;
}

// Random items over a small name pool, so that random paths often resolve, and random conditions
// whose constants are often drawn from other random items (so equality sometimes holds).
class RandomConditions {
 public:
  explicit RandomConditions(uint64_t seed) : rng_(seed) {
    options_.max_collection_size = 3;
    options_.max_string_length = 4;
    options_.max_binary_length = 3;
  }

  Item RandomItem() {
    Item item;
    for (const char* name : kNames) {
      if (::partstore::testing::RandomChance(rng_, 0.7)) item.insert_or_assign(name, RandomValueWithNames(2));
    }
    return item;
  }

  Condition RandomCondition(int depth) {
    int pick = ::partstore::testing::RandomInt(rng_, 0, depth > 0 ? 12 : 9);
    switch (pick) {
      case 0:
      case 1: {
        static const char* const kComparators[] = {"=", "<>", "<", "<=", ">", ">="};
        return Cmp(RandomOperand(), kComparators[::partstore::testing::RandomInt(rng_, 0, 5)], RandomOperand());
      }
      case 2:
        return Between(RandomOperand(), RandomOperand(), RandomOperand());
      case 3: {
        std::vector<Operand> list;
        int n = ::partstore::testing::RandomInt(rng_, 1, 4);
        for (int i = 0; i < n; ++i) list.push_back(RandomOperand());
        return In(RandomOperand(), std::move(list));
      }
      case 4:
        return Fn("attribute_exists", {PathOp(RandomPathText())});
      case 5:
        return Fn("attribute_not_exists", {PathOp(RandomPathText())});
      case 6: {
        static const char* const kTypes[] = {"S", "N", "B",  "BOOL", "NULL",
                                             "M", "L", "SS", "NS",   "BS"};
        return Fn("attribute_type",
                  {PathOp(RandomPathText()), Const(Str(kTypes[::partstore::testing::RandomInt(rng_, 0, 9)]))});
      }
      case 7:
        return Fn("begins_with", {RandomOperand(), RandomOperand()});
      case 8:
        return Fn("contains", {RandomOperand(), RandomOperand()});
      case 9:
        return Cmp(SizeOp(RandomOperand()), RandomChance() ? "=" : "<", RandomOperand());
      case 10:
        return And(RandomCondition(depth - 1), RandomCondition(depth - 1));
      case 11:
        return Or(RandomCondition(depth - 1), RandomCondition(depth - 1));
      default:
        return Not(RandomCondition(depth - 1));
    }
  }

 private:
  static constexpr const char* kNames[] = {"a", "b", "c", "d"};

  bool RandomChance() { return ::partstore::testing::RandomChance(rng_, 0.5); }

  Value RandomValueWithNames(int depth) {
    // Maps keyed by the name pool (so nested paths hit), lists short, scalars from the generator.
    int pick = ::partstore::testing::RandomInt(rng_, 0, 9);
    if (depth > 0 && pick == 0) {
      AttributeMap map;
      for (const char* name : kNames) {
        if (::partstore::testing::RandomChance(rng_, 0.5))
          map.insert_or_assign(name, RandomValueWithNames(depth - 1));
      }
      return Value(std::move(map));
    }
    if (depth > 0 && pick == 1) {
      ValueList list;
      int n = ::partstore::testing::RandomInt(rng_, 0, 3);
      for (int i = 0; i < n; ++i) list.push_back(RandomValueWithNames(depth - 1));
      return Value(std::move(list));
    }
    if (pick <= 4) {
      // Small numbers and short strings collide often.
      if (RandomChance()) return Value(Number::FromInt64(::partstore::testing::RandomInt(rng_, -2, 3)));
      static const char* const kStrings[] = {"",  "a", "ab", "b", "\xc3\xa9", "\xf0\x9d\x84\x9e",
                                             "ba"};
      return Str(kStrings[::partstore::testing::RandomInt(rng_, 0, 6)]);
    }
    return ::partstore::testing::RandomValue(rng_, 0, options_);
  }

  std::string RandomPathText() {
    std::string path = kNames[::partstore::testing::RandomInt(rng_, 0, 3)];
    int extra = ::partstore::testing::RandomInt(rng_, 0, 2);
    for (int i = 0; i < extra; ++i) {
      if (RandomChance()) {
        path += '.';
        path += kNames[::partstore::testing::RandomInt(rng_, 0, 3)];
      } else {
        path += "[" + std::to_string(::partstore::testing::RandomInt(rng_, 0, 2)) + "]";
      }
    }
    return path;
  }

  Operand Const(Value v) {
    constants_.push_back(std::move(v));
    return ValOp(":c", &constants_.back());
  }

  Operand RandomOperand() {
    int pick = ::partstore::testing::RandomInt(rng_, 0, 9);
    if (pick < 5) return PathOp(RandomPathText());
    if (pick == 5) return SizeOp(PathOp(RandomPathText()));
    if (pick == 6) {
      // A value that some item has.
      Item other = RandomItem();
      if (!other.empty()) return Const(other.begin()->second);
    }
    return Const(RandomValueWithNames(1));
  }

  std::mt19937_64 rng_;
  ::partstore::testing::RandomValueOptions options_;
  std::deque<Value> constants_;
};

TEST(EvaluateTest, RandomizedAgainstReference) {
  for (uint64_t seed : {1u, 2u, 3u, 42u, 2026u}) {
    RandomConditions gen(seed);
    std::mt19937_64 pick(seed);
    int true_count = 0, total = 0, stored_total = 0;
    for (int i = 0; i < 2000; ++i) {
      Condition condition = gen.RandomCondition(2);
      for (int j = 0; j < 4; ++j) {
        Item item = gen.RandomItem();
        const Item* item_ptr = j == 3 && ::partstore::testing::RandomChance(pick, 0.3) ? nullptr : &item;
        bool expected = RefEvaluate(condition, item_ptr);
        bool actual = Evaluate(condition, item_ptr);
        ++total;
        true_count += actual;
        if (expected != actual) {
          ADD_FAILURE() << "seed " << seed << " case " << i << ": expected " << expected
                        << ", item " << (item_ptr ? DebugString(Value(item)) : "none");
          return;
        }
        // The same condition on the item's encoding (items DynamoDB would store).
        if (item_ptr != nullptr && ValidateItem(item).ok()) {
          const StoredItem stored = StoredItem::Encode(item);
          ++stored_total;
          if (Evaluate(condition, &stored) != expected) {
            ADD_FAILURE() << "seed " << seed << " case " << i << " (stored): expected " << expected
                          << ", item " << DebugString(Value(item));
            return;
          }
        }
      }
    }
    // Both outcomes are well represented, and most items were checked stored too.
    EXPECT_GT(stored_total, total / 2) << "seed " << seed;
    EXPECT_GT(true_count, total / 10) << "seed " << seed;
    EXPECT_LT(true_count, total * 9 / 10) << "seed " << seed;
  }
}

}  // namespace
}  // namespace partstore::expr
