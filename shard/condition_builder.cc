#include "partstore/condition_builder.h"

#include <utility>

#include "shard/expression_placeholders.h"

namespace partstore {

Condition Condition::Exists(std::string name) { return {Op::kExists, std::move(name), {}}; }
Condition Condition::NotExists(std::string name) { return {Op::kNotExists, std::move(name), {}}; }
Condition Condition::Eq(std::string name, Value value) {
  return {Op::kEq, std::move(name), {std::move(value)}};
}
Condition Condition::Ne(std::string name, Value value) {
  return {Op::kNe, std::move(name), {std::move(value)}};
}
Condition Condition::Lt(std::string name, Value value) {
  return {Op::kLt, std::move(name), {std::move(value)}};
}
Condition Condition::Le(std::string name, Value value) {
  return {Op::kLe, std::move(name), {std::move(value)}};
}
Condition Condition::Gt(std::string name, Value value) {
  return {Op::kGt, std::move(name), {std::move(value)}};
}
Condition Condition::Ge(std::string name, Value value) {
  return {Op::kGe, std::move(name), {std::move(value)}};
}
Condition Condition::Between(std::string name, Value low, Value high) {
  return {Op::kBetween, std::move(name), {std::move(low), std::move(high)}};
}
Condition Condition::In(std::string name, std::vector<Value> values) {
  return {Op::kIn, std::move(name), std::move(values)};
}
Condition Condition::BeginsWith(std::string name, Value prefix) {
  return {Op::kBeginsWith, std::move(name), {std::move(prefix)}};
}
Condition Condition::Contains(std::string name, Value operand) {
  return {Op::kContains, std::move(name), {std::move(operand)}};
}
Condition Condition::HasType(std::string name, Type type) {
  return {Op::kType, std::move(name), {Value(std::string(TypeName(type)))}};
}

Condition Condition::Join(Op op, Condition a, Condition b) {
  Condition c(op, {}, {});
  c.terms_.push_back(std::move(a));
  c.terms_.push_back(std::move(b));
  return c;
}

Condition operator!(Condition a) {
  Condition c(Condition::Op::kNot, {}, {});
  c.terms_.push_back(std::move(a));
  return c;
}

std::string Condition::Render(builder_internal::Placeholders& p) const {
  auto compare = [&](const char* op) {
    const std::string name = p.Name(name_);
    return name + " " + op + " " + p.Value(values_[0]);
  };
  auto function = [&](const char* f) {
    const std::string name = p.Name(name_);
    return std::string(f) + "(" + name + ", " + p.Value(values_[0]) + ")";
  };
  switch (op_) {
    case Op::kExists:
      return "attribute_exists(" + p.Name(name_) + ")";
    case Op::kNotExists:
      return "attribute_not_exists(" + p.Name(name_) + ")";
    case Op::kEq:
      return compare("=");
    case Op::kNe:
      return compare("<>");
    case Op::kLt:
      return compare("<");
    case Op::kLe:
      return compare("<=");
    case Op::kGt:
      return compare(">");
    case Op::kGe:
      return compare(">=");
    case Op::kBetween: {
      const std::string name = p.Name(name_);
      const std::string low = p.Value(values_[0]);
      return name + " BETWEEN " + low + " AND " + p.Value(values_[1]);
    }
    case Op::kIn: {
      std::string out = p.Name(name_) + " IN (";
      for (size_t i = 0; i < values_.size(); ++i) {
        if (i > 0) out += ", ";
        out += p.Value(values_[i]);
      }
      return out + ")";
    }
    case Op::kBeginsWith:
      return function("begins_with");
    case Op::kContains:
      return function("contains");
    case Op::kType:
      return function("attribute_type");
    case Op::kAnd:
    case Op::kOr: {
      const std::string left = terms_[0].Render(p);
      return "(" + left + (op_ == Op::kAnd ? ") AND (" : ") OR (") + terms_[1].Render(p) + ")";
    }
    case Op::kNot:
      return "NOT (" + terms_[0].Render(p) + ")";
  }
  return {};
}

std::string Condition::Expression(const std::string& prefix) const {
  builder_internal::Placeholders p(prefix);
  return Render(p);
}

Status Condition::Write(const char* prefix, const char* what, std::optional<std::string>* field,
                        std::optional<expr::NameMap>* names,
                        std::optional<AttributeMap>* values) const {
  builder_internal::Placeholders p(prefix);
  std::string expression = Render(p);
  return p.WriteInto(std::move(expression), what, field, names, values);
}

}  // namespace partstore
