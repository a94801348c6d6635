// PartiQL -> the engine's requests (see partiql_compile.h).
#include "shard/partiql_compile.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "core/expr/evaluate.h"

namespace partstore::internal::partiql {
namespace {

using ::partstore::partiql::DeleteStatement;
using ::partstore::partiql::ExistsStatement;
using ::partstore::partiql::Expr;
using ::partstore::partiql::InsertStatement;
using ::partstore::partiql::Literal;
using ::partstore::partiql::Path;
using ::partstore::partiql::PathElement;
using ::partstore::partiql::Returning;
using ::partstore::partiql::SelectStatement;
using ::partstore::partiql::Statement;
using ::partstore::partiql::UpdateAction;
using ::partstore::partiql::UpdateStatement;

constexpr std::string_view kIncompleteKey =
    "Where clause does not contain a mandatory equality on all key attributes";

struct KeyNames {
  std::string partition;
  std::optional<std::string> sort;
  bool Contains(std::string_view name) const {
    return name == partition || (sort && *sort == name);
  }
};

KeyNames KeysOf(const std::vector<KeySchemaElement>& schema) {
  KeyNames keys;
  for (const KeySchemaElement& e : schema) {
    if (e.key_type == KeyRoleName::kHash) {
      keys.partition = e.attribute_name;
    } else {
      keys.sort = e.attribute_name;
    }
  }
  return keys;
}

// ---- Binding literals ----

Result<Value> Bind(const Literal& literal, const std::vector<Value>& parameters) {
  switch (literal.kind) {
    case Literal::Kind::kValue:
      return literal.value;
    case Literal::Kind::kParameter:
      if (literal.parameter < 0 || static_cast<size_t>(literal.parameter) >= parameters.size()) {
        return Status::Validation("Number of parameters in request and statement don't match.");
      }
      return parameters[static_cast<size_t>(literal.parameter)];
    case Literal::Kind::kList: {
      ValueList list;
      for (const Literal& element : literal.elements) {
        PARTSTORE_ASSIGN_OR_RETURN(Value v, Bind(element, parameters));
        list.push_back(std::move(v));
      }
      return Value::List(std::move(list));
    }
    case Literal::Kind::kMap: {
      AttributeMap map;
      for (const auto& [name, element] : literal.members) {
        PARTSTORE_ASSIGN_OR_RETURN(Value v, Bind(element, parameters));
        map.insert_or_assign(name, std::move(v));
      }
      return Value::Map(std::move(map));
    }
    case Literal::Kind::kSet: {
      std::vector<std::string> strings;
      std::vector<Number> numbers;
      std::vector<Bytes> binaries;
      for (const Literal& element : literal.elements) {
        PARTSTORE_ASSIGN_OR_RETURN(Value v, Bind(element, parameters));
        if (const std::string* s = v.if_string()) {
          strings.push_back(*s);
        } else if (const Number* n = v.if_number()) {
          numbers.push_back(*n);
        } else if (v.is(Type::kB)) {
          binaries.push_back(Bytes{v.as_binary()});
        } else {
          return Status::Validation(
              "Unsupported data type in Bag. DynamoDB only supports either numbers or strings in "
              "bags");
        }
      }
      const size_t kinds = !strings.empty() + !numbers.empty() + !binaries.empty();
      if (kinds > 1) {
        return Status::Validation(
            "Unsupported data type in Bag. DynamoDB only supports either numbers or strings in "
            "bags");
      }
      if (!strings.empty()) return Value(StringSet(std::move(strings)));
      if (!numbers.empty()) return Value(NumberSet(std::move(numbers)));
      return Value(BinarySet(std::move(binaries)));
    }
  }
  return Status::Internal("unknown literal kind");
}

// ---- Placeholders and rendering ----

class Renderer {
 public:
  explicit Renderer(const std::vector<Value>& parameters) : parameters_(parameters) {}

  std::string Name(const std::string& name) {
    auto it = placeholder_of_.find(name);
    if (it != placeholder_of_.end()) return it->second;
    std::string placeholder = "#n" + std::to_string(placeholder_of_.size());
    placeholder_of_.emplace(name, placeholder);
    names_.emplace(placeholder, name);
    return placeholder;
  }
  std::string ValuePlaceholder(Value value) {
    std::string placeholder = ":v" + std::to_string(values_.size());
    values_.insert_or_assign(placeholder, std::move(value));
    return placeholder;
  }
  // A placeholder of our own choosing (the partition value of a Query, ":p").
  void SetValue(const std::string& placeholder, Value value) {
    values_.insert_or_assign(placeholder, std::move(value));
  }

  std::string RenderPath(const Path& path) {
    std::string out;
    for (const auto& element : path.elements) {
      if (element.index) {
        out += "[" + std::to_string(*element.index) + "]";
      } else {
        if (!out.empty()) out += ".";
        out += Name(element.name);
      }
    }
    return out;
  }

  // An operand: a path, a literal, a call (size, list_append, if_not_exists, ...), `+` / `-`.
  Result<std::string> Operand(const Expr& e) {
    switch (e.kind) {
      case Expr::Kind::kPath:
        return RenderPath(e.path);
      case Expr::Kind::kLiteral: {
        PARTSTORE_ASSIGN_OR_RETURN(Value v, Bind(e.literal, parameters_));
        return ValuePlaceholder(std::move(v));
      }
      case Expr::Kind::kCall:
        return Call(e);
      case Expr::Kind::kArith: {
        PARTSTORE_ASSIGN_OR_RETURN(std::string left, Operand(e.args[0]));
        PARTSTORE_ASSIGN_OR_RETURN(std::string right, Operand(e.args[1]));
        return left + " " + e.op + " " + right;
      }
      default:
        return Status::Validation(
            "WHERE clause must contain an expression that resolves to a boolean");
    }
  }

  Result<std::string> Call(const Expr& e) {
    static constexpr std::string_view kFunctions[] = {"attribute_exists", "attribute_not_exists",
                                                      "attribute_type",   "begins_with",
                                                      "contains",         "size",
                                                      "list_append",      "if_not_exists"};
    if (std::find(std::begin(kFunctions), std::end(kFunctions), e.op) == std::end(kFunctions)) {
      return Status::Validation("Unrecognized function: " + e.op);
    }
    std::string out = e.op + "(";
    for (size_t i = 0; i < e.args.size(); ++i) {
      PARTSTORE_ASSIGN_OR_RETURN(std::string arg, Operand(e.args[i]));
      out += (i ? ", " : "") + arg;
    }
    return out + ")";
  }

  static void Flatten(const Expr& e, Expr::Kind kind, std::vector<const Expr*>& out) {
    if (e.kind != kind) {
      out.push_back(&e);
      return;
    }
    Flatten(e.args[0], kind, out);
    Flatten(e.args[1], kind, out);
  }

  // A condition, as DynamoDB's condition-expression syntax.
  Result<std::string> Condition(const Expr& e) {
    switch (e.kind) {
      case Expr::Kind::kAnd:
      case Expr::Kind::kOr: {
        // A chain of one operator as one flat list: "(a) AND (b) AND (c)", so that the
        // expression's nesting stays that of the statement's parentheses.
        std::vector<const Expr*> operands;
        Flatten(e, e.kind, operands);
        std::string out;
        for (const Expr* operand : operands) {
          PARTSTORE_ASSIGN_OR_RETURN(std::string rendered, Condition(*operand));
          if (!out.empty()) out += e.kind == Expr::Kind::kAnd ? " AND " : " OR ";
          out += "(" + rendered + ")";
        }
        return out;
      }
      case Expr::Kind::kNot: {
        PARTSTORE_ASSIGN_OR_RETURN(std::string inner, Condition(e.args[0]));
        return "NOT (" + inner + ")";
      }
      case Expr::Kind::kCompare: {
        PARTSTORE_ASSIGN_OR_RETURN(std::string left, Operand(e.args[0]));
        PARTSTORE_ASSIGN_OR_RETURN(std::string right, Operand(e.args[1]));
        return left + " " + e.op + " " + right;
      }
      case Expr::Kind::kBetween: {
        PARTSTORE_ASSIGN_OR_RETURN(std::string value, Operand(e.args[0]));
        PARTSTORE_ASSIGN_OR_RETURN(std::string low, Operand(e.args[1]));
        PARTSTORE_ASSIGN_OR_RETURN(std::string high, Operand(e.args[2]));
        return value + " BETWEEN " + low + " AND " + high;
      }
      case Expr::Kind::kIn: {
        if (e.args[0].kind != Expr::Kind::kPath) {
          return Status::Validation(
              "IN operator must have a left hand argument of type Variable Reference and right "
              "hand argument of type Seq with at least one member");
        }
        PARTSTORE_ASSIGN_OR_RETURN(std::string out, Operand(e.args[0]));
        out += " IN (";
        for (size_t i = 1; i < e.args.size(); ++i) {
          PARTSTORE_ASSIGN_OR_RETURN(std::string element, Operand(e.args[i]));
          out += (i > 1 ? ", " : "") + element;
        }
        return out + ")";
      }
      case Expr::Kind::kIs:
        return Is(e);
      case Expr::Kind::kCall:
        if (e.op == "size" || e.op == "list_append" || e.op == "if_not_exists") break;
        return Call(e);
      default:
        break;
    }
    return Status::Validation("WHERE clause must contain an expression that resolves to a boolean");
  }

  // IS [NOT] MISSING: attribute_not_exists / attribute_exists. IS [NOT] <type>: attribute_type.
  Result<std::string> Is(const Expr& e) {
    const Expr& operand = e.args[0];
    if (operand.kind != Expr::Kind::kPath) {
      return Status::Validation(
          "The left hand side argument to IS must be a Variable Reference, Literal, or Path");
    }
    const std::string path = RenderPath(operand.path);
    if (e.op == "MISSING") {
      return (e.negated ? "attribute_exists(" : "attribute_not_exists(") + path + ")";
    }
    static const std::map<std::string, std::string, std::less<>> kTypes = {
        {"NULL", "NULL"}, {"BOOLEAN", "BOOL"}, {"BLOB", "B"},  {"STRING", "S"},
        {"NUMERIC", "N"}, {"STRUCT", "M"},     {"TUPLE", "M"}, {"LIST", "L"}};
    auto it = kTypes.find(e.op);
    if (it == kTypes.end()) return Status::Validation("Unsupported data type for IS operator");
    std::string out = "attribute_type(" + path + ", " + ValuePlaceholder(Value(it->second)) + ")";
    return e.negated ? "NOT " + out : out;
  }

  const std::vector<Value>& parameters() const { return parameters_; }

  std::optional<expr::NameMap> TakeNames() {
    if (names_.empty()) return std::nullopt;
    return std::move(names_);
  }
  std::optional<AttributeMap> TakeValues() {
    if (values_.empty()) return std::nullopt;
    return std::move(values_);
  }

 private:
  const std::vector<Value>& parameters_;
  std::map<std::string, std::string, std::less<>> placeholder_of_;
  expr::NameMap names_;
  AttributeMap values_;
};

// ---- WHERE analysis ----

void Conjuncts(const Expr& e, std::vector<const Expr*>& out) {
  if (e.kind == Expr::Kind::kAnd) {
    Conjuncts(e.args[0], out);
    Conjuncts(e.args[1], out);
  } else {
    out.push_back(&e);
  }
}

bool IsAttribute(const Expr& e, std::string_view name) {
  return e.kind == Expr::Kind::kPath && e.path.elements.size() == 1 &&
         e.path.elements[0].name == name;
}

// `name = literal` or `literal = name`: the literal.
const Literal* EqualityOn(const Expr& e, std::string_view name) {
  if (e.kind != Expr::Kind::kCompare || e.op != "=") return nullptr;
  if (IsAttribute(e.args[0], name) && e.args[1].kind == Expr::Kind::kLiteral) {
    return &e.args[1].literal;
  }
  if (IsAttribute(e.args[1], name) && e.args[0].kind == Expr::Kind::kLiteral) {
    return &e.args[0].literal;
  }
  return nullptr;
}

// Whether `e` names attribute `name` anywhere (as a path's first element).
bool References(const Expr& e, std::string_view name) {
  if (e.kind == Expr::Kind::kPath) {
    return !e.path.elements.empty() && e.path.elements[0].name == name;
  }
  for (const Expr& arg : e.args) {
    if (References(arg, name)) return true;
  }
  return false;
}

// The key of one item named by equalities in `conjuncts` (each key attribute's first equality);
// the conjuncts left over go to `rest`.
Result<Item> FullKey(const std::vector<const Expr*>& conjuncts, const KeyNames& keys,
                     const std::vector<Value>& parameters, std::vector<const Expr*>& rest) {
  Item key;
  for (const Expr* c : conjuncts) {
    const Literal* literal = nullptr;
    std::string name;
    if (!key.contains(keys.partition) && (literal = EqualityOn(*c, keys.partition))) {
      name = keys.partition;
    } else if (keys.sort && !key.contains(*keys.sort) && (literal = EqualityOn(*c, *keys.sort))) {
      name = *keys.sort;
    }
    if (literal == nullptr) {
      rest.push_back(c);
      continue;
    }
    PARTSTORE_ASSIGN_OR_RETURN(Value v, Bind(*literal, parameters));
    key.insert_or_assign(name, std::move(v));
  }
  if (!key.contains(keys.partition) || (keys.sort && !key.contains(*keys.sort))) {
    return Status::Validation(std::string(kIncompleteKey));
  }
  return key;
}

// `rest` joined with AND, rendered; nullopt when empty.
Result<std::optional<std::string>> JoinConditions(const std::vector<const Expr*>& rest,
                                                  Renderer& r) {
  if (rest.empty()) return std::optional<std::string>();
  std::string out;
  for (const Expr* c : rest) {
    PARTSTORE_ASSIGN_OR_RETURN(std::string rendered, r.Condition(*c));
    out += out.empty() ? "(" + rendered + ")" : " AND (" + rendered + ")";
  }
  return std::optional<std::string>(std::move(out));
}

// The read's ProjectionExpression: none when every attribute is selected or when `selected` picks
// nested values out of the whole item (a projection would renumber list elements: `a[2]` projects
// to a one-element list).
std::optional<std::string> Projection(const std::vector<Path>& projection,
                                      const std::vector<CompiledStatement::Selected>& selected,
                                      Renderer& r) {
  if (projection.empty() || !selected.empty()) return std::nullopt;
  std::string out;
  for (const Path& path : projection) out += (out.empty() ? "" : ", ") + r.RenderPath(path);
  return out;
}

// CompiledStatement::selected: each path with the name DynamoDB gives its value, when some path is
// nested. A path's name is its last element as written, with the list indexes that follow the last
// name (`a.b[0]` gives `b[0]`): what DynamoDB names a path ending in an index has not been seen in
// a capture from the live service (docs/reference.md, "PartiQL").
std::vector<CompiledStatement::Selected> SelectedPaths(const std::vector<Path>& projection) {
  std::vector<CompiledStatement::Selected> out;
  bool nested = false;
  for (const Path& path : projection) {
    CompiledStatement::Selected selected;
    for (const PathElement& element : path.elements) {
      selected.path.elements.push_back(
          {.name = element.name, .index = element.index ? *element.index : -1});
      if (element.index) {
        selected.name += fmt::format("[{}]", *element.index);
      } else {
        selected.name = element.name;
      }
    }
    nested = nested || path.elements.size() > 1;
    out.push_back(std::move(selected));
  }
  if (!nested) out.clear();
  return out;
}

// Whether a sort-key conjunct can be part of a key condition: sk op literal, BETWEEN literals,
// begins_with(sk, literal).
bool IsSortKeyCondition(const Expr& e, std::string_view sort) {
  if (e.kind == Expr::Kind::kCompare && e.op != "<>") {
    return (IsAttribute(e.args[0], sort) && e.args[1].kind == Expr::Kind::kLiteral) ||
           (IsAttribute(e.args[1], sort) && e.args[0].kind == Expr::Kind::kLiteral);
  }
  if (e.kind == Expr::Kind::kBetween) {
    return IsAttribute(e.args[0], sort) && e.args[1].kind == Expr::Kind::kLiteral &&
           e.args[2].kind == Expr::Kind::kLiteral;
  }
  if (e.kind == Expr::Kind::kCall && e.op == "begins_with" && e.args.size() == 2) {
    return IsAttribute(e.args[0], sort) && e.args[1].kind == Expr::Kind::kLiteral;
  }
  return false;
}

Status CheckParameters(const Statement& statement, const std::vector<Value>& parameters) {
  if (static_cast<size_t>(statement.parameter_count) != parameters.size()) {
    return Status::Validation("Number of parameters in request and statement don't match.");
  }
  return Status::Ok();
}

ReturnValue ReturnValueOf(Returning returning) {
  switch (returning) {
    case Returning::kNone:
      return ReturnValue::kNone;
    case Returning::kAllOld:
      return ReturnValue::kAllOld;
    case Returning::kModifiedOld:
      return ReturnValue::kUpdatedOld;
    case Returning::kAllNew:
      return ReturnValue::kAllNew;
    case Returning::kModifiedNew:
      return ReturnValue::kUpdatedNew;
  }
  return ReturnValue::kNone;
}

// ---- Statements ----

Result<CompiledStatement> CompileSelect(const SelectStatement& s, const std::vector<Value>& params,
                                        const TableDescription& table, Context context) {
  CompiledStatement out;
  out.table_name = s.from.table;
  out.selected = SelectedPaths(s.projection);
  Renderer r(params);
  std::vector<const Expr*> conjuncts;
  if (s.where) Conjuncts(*s.where, conjuncts);

  if (context != Context::kSingle) {
    if (s.from.index) {
      return Status::Validation(context == Context::kTransaction
                                    ? "Reads on indices are not supported within transactions."
                                    : "This operation is not supported on an index");
    }
    if (s.order_by) return Status::Validation("Unsupported clause: ORDER BY");
    std::vector<const Expr*> rest;
    Result<Item> key = FullKey(conjuncts, KeysOf(table.key_schema), params, rest);
    if (!key.ok() || !rest.empty()) {
      return Status::Validation(
          context == Context::kTransaction
              ? "Select statements within ExecuteTransaction must specify the primary key in the "
                "where clause."
              : std::string(kIncompleteKey));
    }
    out.kind = CompiledStatement::Kind::kGet;
    out.get.table_name = s.from.table;
    out.get.key = std::move(*key);
    out.get.projection_expression = Projection(s.projection, out.selected, r);
    out.get.expression_attribute_names = r.TakeNames();
    return out;
  }

  // The key schema the Query would use: the index's, or the table's.
  std::optional<KeyNames> keys;
  if (!s.from.index) {
    keys = KeysOf(table.key_schema);
  } else {
    for (const auto& gsi : table.global_secondary_indexes) {
      if (gsi.index_name == *s.from.index) keys = KeysOf(gsi.key_schema);
    }
    for (const auto& lsi : table.local_secondary_indexes) {
      if (lsi.index_name == *s.from.index) keys = KeysOf(lsi.key_schema);
    }
  }

  // The partition-key equality (or IN) and one sort-key condition.
  const Expr* partition = nullptr;
  const Expr* sort = nullptr;
  std::vector<const Expr*> rest;
  if (keys) {
    for (const Expr* c : conjuncts) {
      if (partition == nullptr &&
          (EqualityOn(*c, keys->partition) ||
           (c->kind == Expr::Kind::kIn && IsAttribute(c->args[0], keys->partition) &&
            std::all_of(c->args.begin() + 1, c->args.end(),
                        [](const Expr& a) { return a.kind == Expr::Kind::kLiteral; })))) {
        partition = c;
      } else if (sort == nullptr && keys->sort && IsSortKeyCondition(*c, *keys->sort)) {
        sort = c;
      } else {
        rest.push_back(c);
      }
    }
    // A Query's filter may not name a key attribute: such a WHERE is read by a Scan.
    for (const Expr* c : rest) {
      if (References(*c, keys->partition) || (keys->sort && References(*c, *keys->sort))) {
        partition = nullptr;
      }
    }
  }

  if (s.order_by) {
    if (!s.where) {
      return Status::Validation(
          "Must have WHERE clause in the statement when using ORDER BY clause.");
    }
    if (partition == nullptr) {
      return Status::Validation(
          "Must have at least one non-optional hash key condition in WHERE clause when using "
          "ORDER BY clause.");
    }
    if (!keys->Contains(s.order_by->attribute)) {
      return Status::Validation("Variable reference " + s.order_by->attribute +
                                " in ORDER BY clause must be part of the primary key");
    }
  }

  if (partition == nullptr) {
    out.kind = CompiledStatement::Kind::kScan;
    out.scan.table_name = s.from.table;
    out.scan.index_name = s.from.index;
    out.scan.projection_expression = Projection(s.projection, out.selected, r);
    if (s.where) {
      PARTSTORE_ASSIGN_OR_RETURN(std::string filter, r.Condition(*s.where));
      out.scan.filter_expression = std::move(filter);
    }
    out.scan.expression_attribute_names = r.TakeNames();
    out.scan.expression_attribute_values = r.TakeValues();
    return out;
  }

  out.kind = CompiledStatement::Kind::kQuery;
  if (partition->kind == Expr::Kind::kIn) {
    for (size_t i = 1; i < partition->args.size(); ++i) {
      PARTSTORE_ASSIGN_OR_RETURN(Value v, Bind(partition->args[i].literal, params));
      if (std::find(out.partition_values.begin(), out.partition_values.end(), v) ==
          out.partition_values.end()) {
        out.partition_values.push_back(std::move(v));
      }
    }
  } else {
    PARTSTORE_ASSIGN_OR_RETURN(Value v, Bind(*EqualityOn(*partition, keys->partition), params));
    out.partition_values.push_back(std::move(v));
  }
  if (s.order_by && out.partition_values.size() > 1) {
    // Several partitions: ordered by the partition key, each partition's items by the sort key.
    if (s.order_by->attribute != keys->partition) {
      return Status::Validation(
          "Must have hash key in ORDER BY clause when more than one hash key condition specified "
          "in WHERE clause.");
    }
    std::stable_sort(out.partition_values.begin(), out.partition_values.end(),
                     [ascending = s.order_by->ascending](const Value& a, const Value& b) {
                       return ascending ? Compare(a, b) < 0 : Compare(b, a) < 0;
                     });
  }
  std::string key_condition = r.Name(keys->partition) + " = :p";
  r.SetValue(":p", out.partition_values.front());
  if (sort != nullptr) {
    PARTSTORE_ASSIGN_OR_RETURN(std::string rendered, r.Condition(*sort));
    key_condition += " AND " + rendered;
  }
  QueryRequest& q = out.query;
  q.table_name = s.from.table;
  q.index_name = s.from.index;
  q.key_condition_expression = std::move(key_condition);
  PARTSTORE_ASSIGN_OR_RETURN(q.filter_expression, JoinConditions(rest, r));
  q.projection_expression = Projection(s.projection, out.selected, r);
  if (s.order_by && keys->sort && s.order_by->attribute == *keys->sort) {
    q.scan_index_forward = s.order_by->ascending;
  }
  q.expression_attribute_names = r.TakeNames();
  q.expression_attribute_values = r.TakeValues();
  return out;
}

Result<CompiledStatement> CompileInsert(const InsertStatement& s, const std::vector<Value>& params,
                                        const TableDescription& table) {
  PARTSTORE_ASSIGN_OR_RETURN(Value item, Bind(s.item, params));
  if (!item.is(Type::kM)) {
    return Status::Validation(
        "Unsupported format in item expression. Please use struct format {...} to express item "
        "values for insert statement.");
  }
  const KeyNames keys = KeysOf(table.key_schema);
  for (const std::string* name : {&keys.partition, keys.sort ? &*keys.sort : nullptr}) {
    if (name != nullptr && !item.as_map().contains(*name)) {
      return Status::Validation("Key attribute should be present in the item: Key " + *name);
    }
  }
  CompiledStatement out;
  out.kind = CompiledStatement::Kind::kPut;
  out.table_name = s.table;
  out.put.table_name = s.table;
  out.put.item = std::move(item.as_map());
  out.put.condition_expression = "attribute_not_exists(#n0)";
  out.put.expression_attribute_names = expr::NameMap{{"#n0", keys.partition}};
  return out;
}

// The SET / REMOVE actions as one update expression.
Result<std::string> UpdateExpression(const std::vector<UpdateAction>& actions, Renderer& r) {
  std::string set, add, del, remove;
  auto append = [](std::string& clause, const std::string& part) {
    clause += (clause.empty() ? "" : ", ") + part;
  };
  for (const UpdateAction& action : actions) {
    const std::string path = r.RenderPath(action.path);
    if (action.kind == UpdateAction::Kind::kRemove) {
      append(remove, path);
      continue;
    }
    const Expr& value = action.value;
    if (value.kind == Expr::Kind::kCall && (value.op == "set_add" || value.op == "set_delete")) {
      const std::string upper = value.op == "set_add" ? "ADD" : "DELETE";
      if (value.args.size() != 2) {
        return Status::Validation("SET_" + upper + " must have exactly two arguments");
      }
      if (value.args[0].kind != Expr::Kind::kPath || r.RenderPath(value.args[0].path) != path) {
        return Status::Validation("The first argument to SET_" + upper +
                                  " must equal the assignment value");
      }
      Result<Value> set = value.args[1].kind == Expr::Kind::kLiteral
                              ? Bind(value.args[1].literal, r.parameters())
                              : Result<Value>(Status::Validation(""));
      if (!set.ok() || !set->is_set()) {
        return Status::Validation("The second argument to SET_" + upper +
                                  " must be a value with type SET");
      }
      append(value.op == "set_add" ? add : del, path + " " + r.ValuePlaceholder(std::move(*set)));
      continue;
    }
    PARTSTORE_ASSIGN_OR_RETURN(std::string operand, r.Operand(value));
    append(set, path + " = " + operand);
  }
  std::string out;
  if (!set.empty()) out += "SET " + set;
  if (!add.empty()) out += (out.empty() ? "" : " ") + std::string("ADD ") + add;
  if (!del.empty()) out += (out.empty() ? "" : " ") + std::string("DELETE ") + del;
  if (!remove.empty()) out += (out.empty() ? "" : " ") + std::string("REMOVE ") + remove;
  return out;
}

Result<CompiledStatement> CompileUpdate(const UpdateStatement& s, const std::vector<Value>& params,
                                        const TableDescription& table) {
  const KeyNames keys = KeysOf(table.key_schema);
  std::vector<const Expr*> conjuncts, rest;
  Conjuncts(s.where, conjuncts);
  PARTSTORE_ASSIGN_OR_RETURN(Item key, FullKey(conjuncts, keys, params, rest));
  Renderer r(params);
  CompiledStatement out;
  out.kind = CompiledStatement::Kind::kUpdate;
  out.table_name = s.table;
  UpdateItemRequest& u = out.update;
  u.table_name = s.table;
  u.key = std::move(key);
  PARTSTORE_ASSIGN_OR_RETURN(std::string update, UpdateExpression(s.actions, r));
  u.update_expression = std::move(update);
  // UPDATE changes an existing item only.
  std::string condition = "attribute_exists(" + r.Name(keys.partition) + ")";
  PARTSTORE_ASSIGN_OR_RETURN(std::optional<std::string> extra, JoinConditions(rest, r));
  if (extra) condition += " AND " + *extra;
  u.condition_expression = std::move(condition);
  u.expression_attribute_names = r.TakeNames();
  u.expression_attribute_values = r.TakeValues();
  u.return_values = ReturnValueOf(s.returning);
  return out;
}

Result<CompiledStatement> CompileDelete(const DeleteStatement& s, const std::vector<Value>& params,
                                        const TableDescription& table) {
  std::vector<const Expr*> conjuncts, rest;
  Conjuncts(s.where, conjuncts);
  PARTSTORE_ASSIGN_OR_RETURN(Item key, FullKey(conjuncts, KeysOf(table.key_schema), params, rest));
  Renderer r(params);
  CompiledStatement out;
  out.kind = CompiledStatement::Kind::kDelete;
  out.table_name = s.table;
  DeleteItemRequest& d = out.del;
  d.table_name = s.table;
  d.key = std::move(key);
  PARTSTORE_ASSIGN_OR_RETURN(d.condition_expression, JoinConditions(rest, r));
  d.expression_attribute_names = r.TakeNames();
  d.expression_attribute_values = r.TakeValues();
  d.return_values = ReturnValueOf(s.returning);
  return out;
}

Result<CompiledStatement> CompileExists(const ExistsStatement& s, const std::vector<Value>& params,
                                        const TableDescription& table, Context context) {
  if (context != Context::kTransaction) {
    return Status::Validation("EXISTS can only be used in ExecuteTransaction write requests.");
  }
  if (s.select.from.index) {
    return Status::Validation("Operations on indices are not supported in transactions");
  }
  const KeyNames keys = KeysOf(table.key_schema);
  std::vector<const Expr*> conjuncts, rest;
  if (s.select.where) Conjuncts(*s.select.where, conjuncts);
  Result<Item> key = FullKey(conjuncts, keys, params, rest);
  if (!key.ok()) {
    return Status::Validation("EXISTS() must contain a single item read with additional condition");
  }
  Renderer r(params);
  CompiledStatement out;
  out.kind = CompiledStatement::Kind::kConditionCheck;
  out.table_name = s.select.from.table;
  ConditionCheckRequest& c = out.check;
  c.table_name = s.select.from.table;
  c.key = std::move(*key);
  std::string condition = "attribute_exists(" + r.Name(keys.partition) + ")";
  PARTSTORE_ASSIGN_OR_RETURN(std::optional<std::string> extra, JoinConditions(rest, r));
  if (extra) condition += " AND " + *extra;
  c.condition_expression = std::move(condition);
  c.expression_attribute_names = r.TakeNames();
  c.expression_attribute_values = r.TakeValues();
  return out;
}

// ---- NextToken ----

uint64_t Fnv1a(std::string_view text) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

void PutU32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
bool GetU32(std::string_view& in, uint32_t* v) {
  if (in.size() < 4) return false;
  *v = 0;
  for (int i = 0; i < 4; ++i)
    *v |= static_cast<uint32_t>(static_cast<unsigned char>(in[i])) << (8 * i);
  in.remove_prefix(4);
  return true;
}
bool GetBytes(std::string_view& in, std::string* out) {
  uint32_t size;
  if (!GetU32(in, &size) || in.size() < size) return false;
  *out = std::string(in.substr(0, size));
  in.remove_prefix(size);
  return true;
}
void PutBytes(std::string& out, std::string_view bytes) {
  PutU32(out, static_cast<uint32_t>(bytes.size()));
  out += bytes;
}

constexpr std::string_view kHex = "0123456789abcdef";

}  // namespace

const std::string& TableOf(const Statement& statement) {
  struct Visitor {
    const std::string& operator()(const SelectStatement& s) const { return s.from.table; }
    const std::string& operator()(const InsertStatement& s) const { return s.table; }
    const std::string& operator()(const UpdateStatement& s) const { return s.table; }
    const std::string& operator()(const DeleteStatement& s) const { return s.table; }
    const std::string& operator()(const ExistsStatement& s) const { return s.select.from.table; }
  };
  return std::visit(Visitor{}, statement.body);
}

Item SelectedItem(const CompiledStatement& c, Item read) {
  if (c.selected.empty()) return read;
  Item out;
  for (const CompiledStatement::Selected& selected : c.selected) {
    if (const Value* value = expr::FindPath(read, selected.path)) {
      out.insert_or_assign(selected.name, *value);
    }
  }
  return out;
}

Result<CompiledStatement> Compile(const Statement& statement, const std::vector<Value>& parameters,
                                  const TableDescription& table, Context context) {
  PARTSTORE_RETURN_IF_ERROR(CheckParameters(statement, parameters));
  if (const auto* s = std::get_if<SelectStatement>(&statement.body)) {
    return CompileSelect(*s, parameters, table, context);
  }
  if (const auto* s = std::get_if<InsertStatement>(&statement.body)) {
    return CompileInsert(*s, parameters, table);
  }
  if (const auto* s = std::get_if<UpdateStatement>(&statement.body)) {
    return CompileUpdate(*s, parameters, table);
  }
  if (const auto* s = std::get_if<DeleteStatement>(&statement.body)) {
    return CompileDelete(*s, parameters, table);
  }
  return CompileExists(std::get<ExistsStatement>(statement.body), parameters, table, context);
}

// Layout (then hex): "PQ1", the statement's FNV-1a hash (8 bytes), the partition index (u32),
// then per key attribute: name (u32 length + bytes), type 'S' / 'N' / 'B', value (u32 length +
// bytes; N as its canonical text). Little-endian integers.
std::string EncodeNextToken(std::string_view statement, const ContinuationToken& token) {
  std::string raw = "PQ1";
  const uint64_t hash = Fnv1a(statement);
  for (int i = 0; i < 8; ++i) raw.push_back(static_cast<char>((hash >> (8 * i)) & 0xff));
  PutU32(raw, static_cast<uint32_t>(token.partition_index));
  if (token.exclusive_start_key) {
    for (const auto& [name, value] : *token.exclusive_start_key) {
      PutBytes(raw, name);
      if (const std::string* s = value.if_string()) {
        raw.push_back('S');
        PutBytes(raw, *s);
      } else if (const Number* n = value.if_number()) {
        raw.push_back('N');
        PutBytes(raw, n->ToString());
      } else {
        raw.push_back('B');
        PutBytes(raw, value.is(Type::kB) ? value.as_binary() : std::string());
      }
    }
  }
  std::string out;
  out.reserve(raw.size() * 2);
  for (unsigned char c : raw) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 0xf]);
  }
  return out;
}

Result<ContinuationToken> DecodeNextToken(std::string_view statement, std::string_view text) {
  const Status invalid = Status::Validation("Invalid NextToken");
  if (text.size() % 2 != 0) return invalid;
  std::string raw;
  for (size_t i = 0; i < text.size(); i += 2) {
    const size_t hi = kHex.find(text[i]), lo = kHex.find(text[i + 1]);
    if (hi == std::string_view::npos || lo == std::string_view::npos) return invalid;
    raw.push_back(static_cast<char>(hi * 16 + lo));
  }
  std::string_view in(raw);
  if (in.substr(0, 3) != "PQ1" || in.size() < 15) return invalid;
  in.remove_prefix(3);
  uint64_t hash = 0;
  for (int i = 0; i < 8; ++i)
    hash |= static_cast<uint64_t>(static_cast<unsigned char>(in[i])) << (8 * i);
  in.remove_prefix(8);
  if (hash != Fnv1a(statement)) return Status::Validation("NextToken does not match request");
  ContinuationToken token;
  uint32_t index;
  if (!GetU32(in, &index)) return invalid;
  token.partition_index = index;
  if (in.empty()) return token;
  Item key;
  while (!in.empty()) {
    std::string name, value;
    if (!GetBytes(in, &name) || in.empty()) return invalid;
    const char type = in[0];
    in.remove_prefix(1);
    if (!GetBytes(in, &value)) return invalid;
    if (type == 'S') {
      key.insert_or_assign(name, Value(std::move(value)));
    } else if (type == 'N') {
      Result<Number> n = Number::Parse(value);
      if (!n.ok()) return invalid;
      key.insert_or_assign(name, Value(std::move(*n)));
    } else if (type == 'B') {
      key.insert_or_assign(name, Value::Binary(std::move(value)));
    } else {
      return invalid;
    }
  }
  token.exclusive_start_key = std::move(key);
  return token;
}

}  // namespace partstore::internal::partiql
