// The PartiQL parser (see parser.h): recursive descent over the lexer's tokens, depth-limited.
#include "core/partiql/parser.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "core/partiql/lexer.h"
#include "partstore/number.h"

namespace partstore::partiql {
namespace {

// Words that are never a bare name (quote them: "value").
constexpr std::array<std::string_view, 26> kReserved = {
    "SELECT", "FROM",    "WHERE",     "AND",    "OR",     "NOT",    "BETWEEN", "IN",   "IS",
    "SET",    "REMOVE",  "RETURNING", "ORDER",  "BY",     "VALUE",  "INTO",    "TRUE", "FALSE",
    "NULL",   "MISSING", "INSERT",    "UPDATE", "DELETE", "EXISTS", "ASC",     "DESC"};

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool IsReserved(std::string_view word) {
  const std::string upper = Upper(word);
  return std::find(kReserved.begin(), kReserved.end(), upper) != kReserved.end();
}

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : tokens_(std::move(tokens)) {}

  Result<Statement> Parse() {
    Statement statement;
    if (PeekKeyword("SELECT")) {
      PARTSTORE_ASSIGN_OR_RETURN(SelectStatement select, Select());
      statement.body = std::move(select);
    } else if (AcceptKeyword("INSERT")) {
      PARTSTORE_ASSIGN_OR_RETURN(InsertStatement insert, Insert());
      statement.body = std::move(insert);
    } else if (AcceptKeyword("UPDATE")) {
      PARTSTORE_ASSIGN_OR_RETURN(UpdateStatement update, Update());
      statement.body = std::move(update);
    } else if (AcceptKeyword("DELETE")) {
      PARTSTORE_ASSIGN_OR_RETURN(DeleteStatement del, Delete());
      statement.body = std::move(del);
    } else if (AcceptKeyword("EXISTS")) {
      PARTSTORE_RETURN_IF_ERROR(ExpectPunct("("));
      if (!PeekKeyword("SELECT")) return Unexpected();
      PARTSTORE_ASSIGN_OR_RETURN(SelectStatement select, Select());
      PARTSTORE_RETURN_IF_ERROR(ExpectPunct(")"));
      statement.body = ExistsStatement{.select = std::move(select)};
    } else {
      return MalformedStatement("Expected data manipulation");
    }
    AcceptPunct(";");
    if (Peek().kind != Token::Kind::kEnd) return Unexpected();
    statement.parameter_count = parameters_;
    return statement;
  }

 private:
  const Token& Peek(size_t ahead = 0) const {
    return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)];
  }
  void Advance() {
    if (pos_ + 1 < tokens_.size()) ++pos_;
  }
  bool PeekKeyword(std::string_view word, size_t ahead = 0) const {
    const Token& t = Peek(ahead);
    return t.kind == Token::Kind::kIdentifier && Upper(t.text) == word;
  }
  bool AcceptKeyword(std::string_view word) {
    if (!PeekKeyword(word)) return false;
    Advance();
    return true;
  }
  bool PeekPunct(std::string_view punct, size_t ahead = 0) const {
    const Token& t = Peek(ahead);
    return t.kind == Token::Kind::kPunct && t.text == punct;
  }
  bool AcceptPunct(std::string_view punct) {
    if (!PeekPunct(punct)) return false;
    Advance();
    return true;
  }
  Status ExpectKeyword(std::string_view word) {
    return AcceptKeyword(word) ? Status::Ok() : Unexpected();
  }
  Status ExpectPunct(std::string_view punct) {
    return AcceptPunct(punct) ? Status::Ok() : Unexpected();
  }
  // DynamoDB's details for the token where parsing stopped.
  Status Unexpected() const {
    const Token& t = Peek();
    switch (t.kind) {
      case Token::Kind::kEnd:
        return MalformedStatement("Unexpected end of statement");
      case Token::Kind::kIdentifier:
        if (IsReserved(t.text)) return MalformedStatement("Unexpected keyword");
        return MalformedStatement("Unexpected identifier");
      default:
        return MalformedStatement("Unexpected token");
    }
  }
  Status Deeper() {
    if (++depth_ > kMaxDepth) return MalformedStatement("Statement is nested too deeply");
    return Status::Ok();
  }

  // A table, index or attribute name: a bare word that is not reserved, or a quoted one.
  Result<std::string> Name() {
    const Token& t = Peek();
    if (t.kind == Token::Kind::kQuotedIdentifier ||
        (t.kind == Token::Kind::kIdentifier && !IsReserved(t.text))) {
      std::string name = t.text;
      Advance();
      return name;
    }
    return Unexpected();
  }

  Result<Path> ParsePath() {
    Path path;
    PARTSTORE_ASSIGN_OR_RETURN(std::string first, Name());
    path.elements.push_back(PathElement{.name = std::move(first)});
    while (true) {
      if (PeekPunct(".") && Peek(1).kind != Token::Kind::kNumber) {
        Advance();
        PARTSTORE_ASSIGN_OR_RETURN(std::string name, Name());
        path.elements.push_back(PathElement{.name = std::move(name)});
      } else if (AcceptPunct("[")) {
        const Token& t = Peek();
        if (t.kind != Token::Kind::kNumber ||
            !std::all_of(t.text.begin(), t.text.end(),
                         [](char c) { return c >= '0' && c <= '9'; }) ||
            t.text.size() > 9) {
          return MalformedStatement("Invalid list index");
        }
        path.elements.push_back(PathElement{.index = std::stoll(t.text)});
        Advance();
        PARTSTORE_RETURN_IF_ERROR(ExpectPunct("]"));
      } else {
        return path;
      }
    }
  }

  Result<TableRef> Table() {
    TableRef ref;
    PARTSTORE_ASSIGN_OR_RETURN(ref.table, Name());
    if (AcceptPunct(".")) {
      PARTSTORE_ASSIGN_OR_RETURN(std::string index, Name());
      ref.index = std::move(index);
    }
    return ref;
  }

  Result<SelectStatement> Select() {
    PARTSTORE_RETURN_IF_ERROR(ExpectKeyword("SELECT"));
    SelectStatement select;
    if (!AcceptPunct("*")) {
      do {
        PARTSTORE_ASSIGN_OR_RETURN(Path path, ParsePath());
        select.projection.push_back(std::move(path));
      } while (AcceptPunct(","));
    }
    PARTSTORE_RETURN_IF_ERROR(ExpectKeyword("FROM"));
    PARTSTORE_ASSIGN_OR_RETURN(select.from, Table());
    if (AcceptKeyword("WHERE")) {
      PARTSTORE_ASSIGN_OR_RETURN(Expr where, Condition());
      select.where = std::move(where);
    }
    if (AcceptKeyword("ORDER")) {
      PARTSTORE_RETURN_IF_ERROR(ExpectKeyword("BY"));
      OrderBy order;
      PARTSTORE_ASSIGN_OR_RETURN(order.attribute, Name());
      if (AcceptKeyword("DESC")) {
        order.ascending = false;
      } else {
        AcceptKeyword("ASC");
      }
      select.order_by = std::move(order);
    }
    return select;
  }

  Result<InsertStatement> Insert() {
    InsertStatement insert;
    PARTSTORE_RETURN_IF_ERROR(ExpectKeyword("INTO"));
    PARTSTORE_ASSIGN_OR_RETURN(insert.table, Name());
    if (PeekPunct(".")) {
      return Status::Validation(
          "FROM clause may only contain a single table name in data manipulation statements");
    }
    if (PeekKeyword("VALUES")) {
      return Status::Validation(
          "Unsupported operation: Inserting multiple items in a single statement is not "
          "supported, use \"INSERT INTO tableName VALUE item\" instead");
    }
    PARTSTORE_RETURN_IF_ERROR(ExpectKeyword("VALUE"));
    PARTSTORE_ASSIGN_OR_RETURN(insert.item, ParseLiteral());
    if (insert.item.kind != Literal::Kind::kMap && insert.item.kind != Literal::Kind::kParameter) {
      return Status::Validation(
          "Unsupported format in item expression. Please use struct format {...} to express item "
          "values for insert statement.");
    }
    if (PeekKeyword("RETURNING")) return Status::Validation("RETURNING is not supported in INSERT");
    return insert;
  }

  Result<Returning> ParseReturning() {
    if (!AcceptKeyword("RETURNING")) return Returning::kNone;
    bool all;
    if (AcceptKeyword("ALL")) {
      all = true;
    } else if (AcceptKeyword("MODIFIED")) {
      all = false;
    } else {
      return Unexpected();
    }
    bool old;
    if (AcceptKeyword("OLD")) {
      old = true;
    } else if (AcceptKeyword("NEW")) {
      old = false;
    } else {
      return Unexpected();
    }
    if (!AcceptPunct("*")) {
      return Status::Validation(
          "Expected '*' after ( MODIFIED | ALL ) ( NEW | OLD ) in RETURNING clause");
    }
    if (all) return old ? Returning::kAllOld : Returning::kAllNew;
    return old ? Returning::kModifiedOld : Returning::kModifiedNew;
  }

  Result<UpdateStatement> Update() {
    UpdateStatement update;
    PARTSTORE_ASSIGN_OR_RETURN(update.table, Name());
    if (PeekPunct(".")) {
      return Status::Validation(
          "FROM clause may only contain a single table name in data manipulation statements");
    }
    while (true) {
      if (AcceptKeyword("SET")) {
        do {
          UpdateAction action;
          PARTSTORE_ASSIGN_OR_RETURN(action.path, ParsePath());
          PARTSTORE_RETURN_IF_ERROR(ExpectPunct("="));
          PARTSTORE_ASSIGN_OR_RETURN(action.value, Additive());
          update.actions.push_back(std::move(action));
        } while (AcceptPunct(","));
      } else if (AcceptKeyword("REMOVE")) {
        do {
          UpdateAction action{.kind = UpdateAction::Kind::kRemove};
          PARTSTORE_ASSIGN_OR_RETURN(action.path, ParsePath());
          update.actions.push_back(std::move(action));
        } while (AcceptPunct(","));
      } else {
        break;
      }
    }
    if (update.actions.empty()) return Unexpected();
    if (!AcceptKeyword("WHERE")) {
      if (Peek().kind == Token::Kind::kEnd) {
        return Status::Validation(
            "Where clause does not contain a mandatory equality on all key attributes");
      }
      return Unexpected();
    }
    PARTSTORE_ASSIGN_OR_RETURN(update.where, Condition());
    PARTSTORE_ASSIGN_OR_RETURN(update.returning, ParseReturning());
    return update;
  }

  Result<DeleteStatement> Delete() {
    DeleteStatement del;
    PARTSTORE_RETURN_IF_ERROR(ExpectKeyword("FROM"));
    PARTSTORE_ASSIGN_OR_RETURN(del.table, Name());
    if (PeekPunct(".")) {
      return Status::Validation(
          "FROM clause may only contain a single table name in data manipulation statements");
    }
    if (!AcceptKeyword("WHERE")) {
      if (Peek().kind == Token::Kind::kEnd) {
        return Status::Validation(
            "Where clause does not contain a mandatory equality on all key attributes");
      }
      return Unexpected();
    }
    PARTSTORE_ASSIGN_OR_RETURN(del.where, Condition());
    PARTSTORE_ASSIGN_OR_RETURN(del.returning, ParseReturning());
    if (del.returning != Returning::kNone && del.returning != Returning::kAllOld) {
      static constexpr std::string_view kNames[] = {"", "ALL OLD *", "MODIFIED OLD *", "ALL NEW *",
                                                    "MODIFIED NEW *"};
      return Status::Validation("Invalid returning clause: RETURNING " +
                                std::string(kNames[static_cast<int>(del.returning)]) +
                                ". Only RETURNING ALL OLD * is allowed in DELETE statements.");
    }
    return del;
  }

  // ---- Literals ----

  Result<Literal> ParseLiteral() {
    PARTSTORE_RETURN_IF_ERROR(Deeper());
    Result<Literal> result = LiteralBody();
    --depth_;
    return result;
  }

  Result<Literal> LiteralBody() {
    const Token t = Peek();
    Literal lit;
    if (t.kind == Token::Kind::kString) {
      Advance();
      lit.value = Value(t.text);
      return lit;
    }
    if (t.kind == Token::Kind::kNumber ||
        (PeekPunct("-") && Peek(1).kind == Token::Kind::kNumber) ||
        (PeekPunct("+") && Peek(1).kind == Token::Kind::kNumber)) {
      std::string text;
      if (t.kind == Token::Kind::kPunct) {
        if (t.text == "-") text = "-";
        Advance();
      }
      text += Peek().text;
      Advance();
      Result<Number> number = Number::Parse(text);
      if (!number.ok()) return Status::Validation(std::string(number.error().message()));
      lit.value = Value(std::move(*number));
      return lit;
    }
    if (t.kind == Token::Kind::kIdentifier) {
      const std::string word = Upper(t.text);
      if (word == "TRUE" || word == "FALSE") {
        Advance();
        lit.value = Value::Bool(word == "TRUE");
        return lit;
      }
      if (word == "NULL") {
        Advance();
        lit.value = Value::Nil();
        return lit;
      }
      if (word == "MISSING")
        return Status::Validation("MISSING must be compared using IS operator");
      return Unexpected();
    }
    if (AcceptPunct("?")) {
      lit.kind = Literal::Kind::kParameter;
      lit.parameter = parameters_++;
      return lit;
    }
    if (AcceptPunct("[")) {
      lit.kind = Literal::Kind::kList;
      if (AcceptPunct("]")) return lit;
      do {
        PARTSTORE_ASSIGN_OR_RETURN(Literal element, ParseLiteral());
        lit.elements.push_back(std::move(element));
      } while (AcceptPunct(","));
      PARTSTORE_RETURN_IF_ERROR(ExpectPunct("]"));
      return lit;
    }
    if (AcceptPunct("<<")) {
      lit.kind = Literal::Kind::kSet;
      if (AcceptPunct(">>")) return Status::Validation("Empty bags are not supported");
      do {
        PARTSTORE_ASSIGN_OR_RETURN(Literal element, ParseLiteral());
        lit.elements.push_back(std::move(element));
      } while (AcceptPunct(","));
      PARTSTORE_RETURN_IF_ERROR(ExpectPunct(">>"));
      return lit;
    }
    if (AcceptPunct("{")) {
      lit.kind = Literal::Kind::kMap;
      if (AcceptPunct("}")) return lit;
      do {
        const Token key = Peek();
        if (key.kind != Token::Kind::kString) {
          if (key.kind == Token::Kind::kIdentifier || key.kind == Token::Kind::kQuotedIdentifier ||
              key.kind == Token::Kind::kNumber) {
            return Status::Validation("Tuple keys must be of type String");
          }
          return Unexpected();
        }
        Advance();
        PARTSTORE_RETURN_IF_ERROR(ExpectPunct(":"));
        PARTSTORE_ASSIGN_OR_RETURN(Literal value, ParseLiteral());
        for (const auto& [name, unused] : lit.members) {
          if (name == key.text) {
            return Status::Validation("Duplicate keys in tuple. Key: " + key.text);
          }
        }
        lit.members.emplace_back(key.text, std::move(value));
      } while (AcceptPunct(","));
      PARTSTORE_RETURN_IF_ERROR(ExpectPunct("}"));
      return lit;
    }
    return Unexpected();
  }

  // ---- Expressions ----

  bool StartsLiteral() const {
    const Token& t = Peek();
    if (t.kind == Token::Kind::kString || t.kind == Token::Kind::kNumber) return true;
    if (t.kind == Token::Kind::kPunct) {
      return t.text == "?" || t.text == "[" || t.text == "{" || t.text == "<<" ||
             ((t.text == "-" || t.text == "+") && Peek(1).kind == Token::Kind::kNumber);
    }
    if (t.kind == Token::Kind::kIdentifier) {
      const std::string word = Upper(t.text);
      return word == "TRUE" || word == "FALSE" || word == "NULL" || word == "MISSING";
    }
    return false;
  }

  Result<Expr> Condition() {
    PARTSTORE_RETURN_IF_ERROR(Deeper());
    Result<Expr> result = Or();
    --depth_;
    return result;
  }

  Result<Expr> Or() {
    PARTSTORE_ASSIGN_OR_RETURN(Expr left, And());
    while (AcceptKeyword("OR")) {
      PARTSTORE_ASSIGN_OR_RETURN(Expr right, And());
      Expr e{.kind = Expr::Kind::kOr};
      e.args.push_back(std::move(left));
      e.args.push_back(std::move(right));
      left = std::move(e);
    }
    return left;
  }

  Result<Expr> And() {
    PARTSTORE_ASSIGN_OR_RETURN(Expr left, Not());
    while (AcceptKeyword("AND")) {
      PARTSTORE_ASSIGN_OR_RETURN(Expr right, Not());
      Expr e{.kind = Expr::Kind::kAnd};
      e.args.push_back(std::move(left));
      e.args.push_back(std::move(right));
      left = std::move(e);
    }
    return left;
  }

  Result<Expr> Not() {
    if (AcceptKeyword("NOT")) {
      PARTSTORE_RETURN_IF_ERROR(Deeper());
      Result<Expr> inner = Not();
      --depth_;
      if (!inner.ok()) return inner;
      Expr e{.kind = Expr::Kind::kNot};
      e.args.push_back(std::move(*inner));
      return e;
    }
    return Predicate();
  }

  Result<Expr> Predicate() {
    PARTSTORE_ASSIGN_OR_RETURN(Expr left, Additive());
    const Token& t = Peek();
    if (t.kind == Token::Kind::kPunct &&
        (t.text == "=" || t.text == "<>" || t.text == "!=" || t.text == "<" || t.text == "<=" ||
         t.text == ">" || t.text == ">=")) {
      Expr e{.kind = Expr::Kind::kCompare, .op = t.text == "!=" ? "<>" : t.text};
      Advance();
      PARTSTORE_ASSIGN_OR_RETURN(Expr right, Additive());
      e.args.push_back(std::move(left));
      e.args.push_back(std::move(right));
      return e;
    }
    bool negated = false;
    if (PeekKeyword("NOT") && (PeekKeyword("BETWEEN", 1) || PeekKeyword("IN", 1))) {
      Advance();
      negated = true;
    }
    Expr e;
    if (AcceptKeyword("BETWEEN")) {
      e.kind = Expr::Kind::kBetween;
      e.args.push_back(std::move(left));
      PARTSTORE_ASSIGN_OR_RETURN(Expr low, Additive());
      PARTSTORE_RETURN_IF_ERROR(ExpectKeyword("AND"));
      PARTSTORE_ASSIGN_OR_RETURN(Expr high, Additive());
      e.args.push_back(std::move(low));
      e.args.push_back(std::move(high));
    } else if (AcceptKeyword("IN")) {
      e.kind = Expr::Kind::kIn;
      e.args.push_back(std::move(left));
      std::string close;
      if (AcceptPunct("[")) {
        close = "]";
      } else if (AcceptPunct("(")) {
        close = ")";
      } else {
        return Status::Validation(
            "IN operator must have a left hand argument of type Variable Reference and right "
            "hand argument of type Seq with at least one member");
      }
      do {
        PARTSTORE_ASSIGN_OR_RETURN(Expr element, Additive());
        e.args.push_back(std::move(element));
      } while (AcceptPunct(","));
      PARTSTORE_RETURN_IF_ERROR(ExpectPunct(close));
    } else if (AcceptKeyword("IS")) {
      e.kind = Expr::Kind::kIs;
      e.negated = AcceptKeyword("NOT");
      const Token& type = Peek();
      if (type.kind != Token::Kind::kIdentifier) return Unexpected();
      e.op = Upper(type.text);
      static constexpr std::string_view kTypes[] = {
          "MISSING", "NULL", "BOOLEAN", "BLOB", "STRING", "NUMERIC", "STRUCT", "TUPLE", "LIST"};
      if (std::find(std::begin(kTypes), std::end(kTypes), e.op) == std::end(kTypes)) {
        return Status::Validation("Unsupported data type for IS operator: " + e.op +
                                  ". Supported data types are [MISSING, NULL, BOOLEAN, BLOB, "
                                  "STRING, NUMERIC, STRUCT, TUPLE, LIST]");
      }
      Advance();
      e.args.push_back(std::move(left));
      return e;
    } else {
      if (negated) return Unexpected();
      return left;
    }
    if (!negated) return e;
    Expr n{.kind = Expr::Kind::kNot};
    n.args.push_back(std::move(e));
    return n;
  }

  Result<Expr> Additive() {
    PARTSTORE_ASSIGN_OR_RETURN(Expr left, Primary());
    while (PeekPunct("+") || PeekPunct("-")) {
      Expr e{.kind = Expr::Kind::kArith, .op = Peek().text};
      Advance();
      PARTSTORE_ASSIGN_OR_RETURN(Expr right, Primary());
      e.args.push_back(std::move(left));
      e.args.push_back(std::move(right));
      left = std::move(e);
    }
    return left;
  }

  Result<Expr> Primary() {
    if (PeekPunct("(")) {
      Advance();
      PARTSTORE_ASSIGN_OR_RETURN(Expr inner, Condition());
      PARTSTORE_RETURN_IF_ERROR(ExpectPunct(")"));
      return inner;
    }
    if (StartsLiteral()) {
      Expr e{.kind = Expr::Kind::kLiteral};
      PARTSTORE_ASSIGN_OR_RETURN(e.literal, ParseLiteral());
      return e;
    }
    if (Peek().kind == Token::Kind::kIdentifier && PeekPunct("(", 1) && !IsReserved(Peek().text)) {
      Expr e{.kind = Expr::Kind::kCall, .op = Lower(Peek().text)};
      Advance();
      Advance();
      PARTSTORE_RETURN_IF_ERROR(Deeper());
      if (!PeekPunct(")")) {
        do {
          Result<Expr> arg = Additive();
          if (!arg.ok()) {
            --depth_;
            return arg;
          }
          e.args.push_back(std::move(*arg));
        } while (AcceptPunct(","));
      }
      --depth_;
      PARTSTORE_RETURN_IF_ERROR(ExpectPunct(")"));
      return e;
    }
    Expr e{.kind = Expr::Kind::kPath};
    PARTSTORE_ASSIGN_OR_RETURN(e.path, ParsePath());
    return e;
  }

  std::vector<Token> tokens_;
  size_t pos_ = 0;
  int depth_ = 0;
  int parameters_ = 0;
};

}  // namespace

Result<Statement> ParseStatement(std::string_view text) {
  PARTSTORE_ASSIGN_OR_RETURN(std::vector<Token> tokens, Tokenize(text));
  return Parser(std::move(tokens)).Parse();
}

}  // namespace partstore::partiql
