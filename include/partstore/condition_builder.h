// Condition: a condition or filter expression built from typed values.
//
//   PutItemRequest put{.table_name = "Orders", .item = order};
//   Status s = Condition::NotExists("PK").ApplyTo(&put);            // create only
//
//   UpdateItemRequest close{...};
//   s = (Condition::Eq("status", "open") && Condition::Lt("attempts", 3)).ApplyTo(&close);
//
//   QueryRequest query{...};
//   s = (Condition::Ge("rating", 4) || Condition::Exists("featured")).ApplyFilterTo(&query);
//
// A condition is written into the request as the text it stands for ("(#c0 = :c0) AND (#c1 <
// :c1)", with its ExpressionAttributeNames and Values), so a typed condition and a string one are
// the same request: one parser, one evaluator, DynamoDB's semantics and errors (an IN with more
// than 100 values, for instance, is the engine's ValidationException). Attribute names are
// top-level attribute names, always written as placeholders (reserved words and names with dots
// need no escaping); a nested path needs the string form.
//
// ApplyTo works on every request with a ConditionExpression (PutItem, UpdateItem, DeleteItem and
// the transaction's Put / Update / Delete / ConditionCheck); ApplyFilterTo on Query and Scan. The
// placeholders begin with "c" (conditions) or "f" (filters), apart from KeyCondition's "kc" and
// Update's "u"; the request's own names and values are kept. A value type; not synchronized.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "partstore/expression_parameters.h"
#include "partstore/status.h"
#include "partstore/value.h"

namespace partstore {

namespace builder_internal {
class Placeholders;
}  // namespace builder_internal

class Condition {
 public:
  static Condition Exists(std::string name);     // attribute_exists
  static Condition NotExists(std::string name);  // attribute_not_exists
  static Condition Eq(std::string name, Value value);
  static Condition Ne(std::string name, Value value);
  static Condition Lt(std::string name, Value value);
  static Condition Le(std::string name, Value value);
  static Condition Gt(std::string name, Value value);
  static Condition Ge(std::string name, Value value);
  static Condition Between(std::string name, Value low, Value high);
  static Condition In(std::string name, std::vector<Value> values);  // 1 to 100 values
  static Condition BeginsWith(std::string name, Value prefix);
  static Condition Contains(std::string name, Value operand);  // substring or set/list member
  static Condition HasType(std::string name, Type type);       // attribute_type

  friend Condition operator&&(Condition a, Condition b) {
    return Join(Op::kAnd, std::move(a), std::move(b));
  }
  friend Condition operator||(Condition a, Condition b) {
    return Join(Op::kOr, std::move(a), std::move(b));
  }
  friend Condition operator!(Condition a);

  // Into request.condition_expression (and its names and values). ValidationException, request
  // unchanged, when it already has a condition expression or uses a "c<n>" placeholder.
  template <typename Request>
  Status ApplyTo(Request* request) const {
    return Write("c", "condition expression", &request->condition_expression,
                 &request->expression_attribute_names, &request->expression_attribute_values);
  }
  // Into request.filter_expression (Query, Scan); as ApplyTo, with "f<n>" placeholders.
  template <typename Request>
  Status ApplyFilterTo(Request* request) const {
    return Write("f", "filter expression", &request->filter_expression,
                 &request->expression_attribute_names, &request->expression_attribute_values);
  }

  // The expression text with `prefix`'s placeholders (what ApplyTo writes with "c").
  std::string Expression(const std::string& prefix = "c") const;

 private:
  enum class Op {
    kExists,
    kNotExists,
    kEq,
    kNe,
    kLt,
    kLe,
    kGt,
    kGe,
    kBetween,
    kIn,
    kBeginsWith,
    kContains,
    kType,
    kAnd,
    kOr,
    kNot
  };
  Condition(Op op, std::string name, std::vector<Value> values)
      : op_(op), name_(std::move(name)), values_(std::move(values)) {}
  static Condition Join(Op op, Condition a, Condition b);
  std::string Render(builder_internal::Placeholders& p) const;
  Status Write(const char* prefix, const char* what, std::optional<std::string>* field,
               std::optional<expr::NameMap>* names, std::optional<AttributeMap>* values) const;

  Op op_;
  std::string name_;              // the attribute (leaves)
  std::vector<Value> values_;     // the operands (leaves)
  std::vector<Condition> terms_;  // kAnd / kOr: two; kNot: one
};

}  // namespace partstore
