// DynamoDB's model-constraint errors: the "1 validation error detected: Value 'ab' at 'tableName'
// failed to satisfy constraint: Member must have length greater than or equal to 3" family, which
// DynamoDB's request layer (Coral) reports for every member that breaks its API model (lengths,
// patterns, numeric ranges, enum value sets, required members), all violations of a request in
// one message:
//   "2 validation errors detected: Value ... ; Value ..."   (joined with "; ")
//
// Each rule is written once, here; two layers apply some of them, for a reason each. The engine
// checks the constraints a C++ caller can break (names, Limit, Segment, list sizes). The JSON
// protocol checks those too, together with the ones only JSON can break (enum spellings, nulls,
// required members), because DynamoDB reports all of a request's violations in one message and
// before it reads any AttributeValue (tests/protocol/request_decode_test.cc
// ConstraintsTest.WinOverValueErrors); on that path the engine's second pass finds nothing.
// The same holds for the expression / legacy mixing rule (expr::CheckParameterMixing: the wire
// applies it before decoding values, ValuesTest.MixingRuleWinsOverValueErrors).
//
// Thread safety: a value type; not thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "partstore/status.h"

namespace partstore {

class ConstraintViolations {
 public:
  // A violation's full text, "Value '...' at '...' failed to satisfy constraint: ...".
  void Add(std::string text) { violations_.push_back(std::move(text)); }

  // "Value null at 'member' failed to satisfy constraint: Member must not be null".
  void NotNull(std::string_view member);
  // Table and index names: length 3..255, pattern [a-zA-Z0-9_.-]+ (length reported first).
  void Name(std::string_view value, std::string_view member);
  // Table names: one violation at most, the first of: "length greater than or equal to 1" for an
  // empty name (the TableName member also takes a table ARN, whose model minimum is 1; CreateTable,
  // which takes only a short name, passes `min_empty` 3), then length 3..255, then the pattern.
  void TableName(std::string_view value, std::string_view member = "tableName",
                 size_t min_empty = 1);
  // String length bounds ("Member must have length greater than or equal to 1" / "less than or
  // equal to 255").
  void Length(std::string_view value, size_t min, size_t max, std::string_view member);
  // Collection size bounds, e.g. BatchWriteItem's 25: the value is shown as DynamoDB's Java
  // toString of the collection is unknowable here, so callers pass `shown` (its text).
  void CollectionLength(std::string_view shown, size_t size, size_t min, size_t max,
                        std::string_view member);
  // Numeric bounds ("Member must have value greater than or equal to 1").
  void Range(int64_t value, int64_t min, int64_t max, std::string_view member);
  // "Member must satisfy enum value set: [INDEXES, TOTAL, NONE]".
  void Enum(std::string_view value, std::string_view set, std::string_view member);

  // BatchGetItem's and BatchWriteItem's RequestItems, a map from table names to their keys or
  // write requests (`tables`: each table's name and how many it holds, in the request's order).
  // DynamoDB reports the map once per broken rule, echoed as Java prints it:
  // "{<table>=[<n> <element>s], ...}" (the elements counted: how DynamoDB prints one is not
  // known here). RequestItemsNames: a table name that breaks the name rules ("Map keys must
  // satisfy constraint"); RequestItemsWriteLists: a list of write requests outside 1..25 ("Map
  // value must satisfy constraint").
  struct RequestItemsEntry {
    std::string_view table;
    size_t size = 0;
  };
  void RequestItemsNames(std::span<const RequestItemsEntry> tables, std::string_view element);
  void RequestItemsWriteLists(std::span<const RequestItemsEntry> tables, size_t max);

  bool empty() const { return violations_.empty(); }
  size_t size() const { return violations_.size(); }
  // OK when empty, else the ValidationException with every violation.
  Status ToStatus() const;

 private:
  std::vector<std::string> violations_;
};

// Whether `name` is a valid table or index name (3..255 characters of [a-zA-Z0-9_.-]).
bool IsValidName(std::string_view name);

// A table name's constraints alone, as a request carrying only a name reports them.
inline Status CheckTableName(std::string_view name) {
  if (IsValidName(name)) return Status::Ok();  // every request's check: no violation list built
  ConstraintViolations violations;
  violations.TableName(name);
  return violations.ToStatus();
}

// The prefix of DynamoDB's "parameter values were invalid" ValidationExceptions (CreateTable,
// UpdateTable, the index definitions), and the "[a, b]" list of names they print.
inline constexpr std::string_view kInvalidParameterValues =
    "One or more parameter values were invalid: ";
inline std::string NameList(const std::vector<std::string>& names) {
  std::string out = "[";
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += ", ";
    out += names[i];
  }
  return out + "]";
}

}  // namespace partstore
