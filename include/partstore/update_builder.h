// Update: an UpdateItem's update expression built from typed values.
//
//   UpdateItemRequest request{.table_name = "Orders", .key = key};
//   Status s =
//       Update().Set("status", "shipped").Add("version", 1).Remove("cart").ApplyTo(&request);
//
// Written into the request as the text it stands for ("SET #u0 = :u0 REMOVE #u2 ADD #u1 :u1",
// with its ExpressionAttributeNames and Values), so a typed update and a string one are the same
// request: one parser, one evaluator, DynamoDB's errors (two actions on one attribute are the
// engine's "Two document paths overlap" ValidationException; ADD to a string is its type error).
// Attribute names are top-level names, always written as placeholders; a nested path needs the
// string form. Combine with Condition for a conditional update (its "c" placeholders are apart
// from Update's "u" ones). ApplyTo works on UpdateItem and on a transaction's Update. A value
// type; not synchronized.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "partstore/expression_parameters.h"
#include "partstore/status.h"
#include "partstore/value.h"

namespace partstore {

class Update {
 public:
  // SET name = value.
  Update& Set(std::string name, Value value);
  // SET name = if_not_exists(name, value): only when the attribute is missing.
  Update& SetIfNotExists(std::string name, Value value);
  // SET name = list_append(name, list): `list` (an L) appended to the list attribute.
  Update& Append(std::string name, Value list);
  // ADD name value: adds a number (a missing attribute counts as 0) or the elements of a set.
  Update& Add(std::string name, Value value);
  // REMOVE name.
  Update& Remove(std::string name);
  // DELETE name subset: removes the elements of `subset` (a set) from the set attribute.
  Update& Delete(std::string name, Value subset);

  bool empty() const { return actions_.empty(); }

  // Into request.update_expression (and its names and values). ValidationException, request
  // unchanged, when the update is empty, the request already has an update expression (or legacy
  // AttributeUpdates), or a "u<n>" placeholder is taken.
  template <typename Request>
  Status ApplyTo(Request* request) const {
    if (request->attribute_updates) {
      return Status::Validation("the request already has AttributeUpdates");
    }
    return Write(&request->update_expression, &request->expression_attribute_names,
                 &request->expression_attribute_values);
  }

  // The expression text ApplyTo writes.
  std::string Expression() const;

 private:
  enum class Kind { kSet, kSetIfNotExists, kAppend, kAdd, kRemove, kDelete };
  struct Action {
    Kind kind;
    std::string name;
    std::optional<Value> value;
  };
  Update& Push(Kind kind, std::string name, std::optional<Value> value);
  Status Write(std::optional<std::string>* field, std::optional<expr::NameMap>* names,
               std::optional<AttributeMap>* values) const;

  std::vector<Action> actions_;
};

}  // namespace partstore
