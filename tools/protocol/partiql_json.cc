// PartiQL operations' JSON (see partiql_json.h).
#include "tools/protocol/partiql_json.h"

#include <rapidjson/stringbuffer.h>

#include <array>
#include <limits>
#include <type_traits>

#include "tools/protocol/attribute_value_json.h"
#include "tools/protocol/client_data_json.h"
#include "tools/protocol/operations_json.h"
#include "tools/protocol/request_json.h"

namespace partstore::protocol {
namespace {

// ---- Shapes ----

// A List member (Parameters, Statements, TransactStatements).
Status CheckList(const JsonValue& v) {
  if (v.IsArray() || v.IsNull()) return Status::Ok();
  if (v.IsObject()) {
    return Status::Serialization("Start of structure or map found where not expected");
  }
  return Status::Serialization("Unexpected field type");
}

// Parameters: a list of AttributeValues.
Status CheckParameters(const JsonValue& v) {
  PARTSTORE_RETURN_IF_ERROR(CheckList(v));
  if (!v.IsArray()) return Status::Ok();
  for (const JsonValue& element : v.GetArray()) {
    if (element.IsArray()) {
      return Status::Serialization("Unrecognized collection type class " +
                                   std::string(kModelPackage) + "AttributeValue");
    }
    if (!element.IsObject()) return Status::Serialization("Unexpected value type in payload");
    PARTSTORE_RETURN_IF_ERROR(CheckAttributeValueJson(element));
  }
  return Status::Ok();
}

// The members of a statement (top level of ExecuteStatement, or one element of a batch or a
// transaction); a spec with an empty name is a member that form does not have.
enum StatementMember {
  kStatement,
  kStatementParameters,
  kStatementConsistentRead,
  kStatementNextToken,
  kStatementReturnConsumedCapacity,
  kStatementLimit,
  kStatementOnFailure,
  kStatementMemberCount,
};
using StatementMembers = std::array<const JsonValue*, kStatementMemberCount>;

constexpr MemberSpec kExecuteMembers[kStatementMemberCount] = {
    {"Statement", Shape::kString},
    {"Parameters", Shape::kStringList},  // checked by CheckParameters
    {"ConsistentRead", Shape::kBoolean},
    {"NextToken", Shape::kString},
    {"ReturnConsumedCapacity", Shape::kString},
    {"Limit", Shape::kInteger},
    {"ReturnValuesOnConditionCheckFailure", Shape::kString},
};
constexpr MemberSpec kBatchMembers[kStatementMemberCount] = {
    {"Statement", Shape::kString},
    {"Parameters", Shape::kStringList},
    {"ConsistentRead", Shape::kBoolean},
    {"", Shape::kString},
    {"", Shape::kString},
    {"", Shape::kInteger},
    {"ReturnValuesOnConditionCheckFailure", Shape::kString},
};
constexpr MemberSpec kTransactMembers[kStatementMemberCount] = {
    {"Statement", Shape::kString},
    {"Parameters", Shape::kStringList},
    {"", Shape::kBoolean},
    {"", Shape::kString},
    {"", Shape::kString},
    {"", Shape::kInteger},
    {"ReturnValuesOnConditionCheckFailure", Shape::kString},
};

// BatchExecuteStatement's and ExecuteTransaction's own members.
enum BatchRequestMember { kStatements, kBatchCapacity, kBatchRequestMemberCount };
constexpr MemberSpec kBatchRequestMembers[kBatchRequestMemberCount] = {
    {"Statements", Shape::kStringList},  // checked by CheckBatchList
    {"ReturnConsumedCapacity", Shape::kString},
};
enum TransactRequestMember {
  kTransactStatements,
  kTransactToken,
  kTransactCapacity,
  kTransactRequestMemberCount,
};
constexpr MemberSpec kTransactRequestMembers[kTransactRequestMemberCount] = {
    {"TransactStatements", Shape::kStringList},  // checked by CheckTransactList
    {"ClientRequestToken", Shape::kString},
    {"ReturnConsumedCapacity", Shape::kString},
};

// Step 1 for an object whose members are `specs`; Parameters is checked as a list of
// AttributeValues and the member at `list_index` (if any) with `check_list`.
Status ReadObject(const JsonValue& body, std::string_view structure,
                  std::span<const MemberSpec> specs, std::span<const JsonValue*> out,
                  size_t list_index = SIZE_MAX, Status (*check_list)(const JsonValue&) = nullptr) {
  if (!body.IsObject()) return ReadMembers(body, structure, {}, {});
  for (const JsonValue*& slot : out) slot = nullptr;
  for (const auto& member : body.GetObject()) {
    const std::string_view name = StringOf(member.name);
    for (size_t i = 0; i < specs.size(); ++i) {
      if (specs[i].name.empty() || specs[i].name != name) continue;
      if (i == list_index) {
        PARTSTORE_RETURN_IF_ERROR(check_list(member.value));
      } else if (name == "Parameters") {
        PARTSTORE_RETURN_IF_ERROR(CheckParameters(member.value));
      } else {
        PARTSTORE_RETURN_IF_ERROR(CheckShape(member.value, specs[i].shape));
      }
      out[i] = member.value.IsNull() ? nullptr : &member.value;
      break;
    }
  }
  return Status::Ok();
}

// A list of statement structures named `structure` (BatchStatementRequest,
// ParameterizedStatement).
template <const MemberSpec (&kSpecs)[kStatementMemberCount]>
Status CheckStatementList(const JsonValue& v, std::string_view structure) {
  PARTSTORE_RETURN_IF_ERROR(CheckList(v));
  if (!v.IsArray()) return Status::Ok();
  for (const JsonValue& element : v.GetArray()) {
    if (element.IsNull()) continue;
    if (element.IsArray()) {
      return Status::Serialization("Unrecognized collection type class " +
                                   std::string(kModelPackage) + std::string(structure));
    }
    if (!element.IsObject()) return Status::Serialization("Unexpected value type in payload");
    StatementMembers m;
    PARTSTORE_RETURN_IF_ERROR(ReadObject(element, structure, kSpecs, m));
  }
  return Status::Ok();
}
Status CheckBatchList(const JsonValue& v) {
  return CheckStatementList<kBatchMembers>(v, "BatchStatementRequest");
}
Status CheckTransactList(const JsonValue& v) {
  return CheckStatementList<kTransactMembers>(v, "ParameterizedStatement");
}

// ---- Constraints and values ----

void StatementConstraints(Constraints& c, const StatementMembers& m, const std::string& prefix) {
  c.Required(m[kStatement], prefix + "statement");
  if (m[kStatement] != nullptr && !c.full()) {
    c.violations().Length(StringOf(*m[kStatement]), 1, kMaxStatementLength, prefix + "statement");
  }
  if (m[kStatementParameters] != nullptr && m[kStatementParameters]->Size() == 0 && !c.full()) {
    c.violations().CollectionLength("[]", 0, 1, SIZE_MAX, prefix + "parameters");
  }
  c.Enum(m[kStatementOnFailure], kReturnValuesOnConditionCheckFailureNames,
         kReturnValuesOnConditionCheckFailureSet, prefix + "returnValuesOnConditionCheckFailure");
}

Result<std::optional<std::vector<Value>>> DecodeParameters(const JsonValue* value) {
  if (value == nullptr) return std::optional<std::vector<Value>>();
  std::vector<Value> out;
  for (const JsonValue& element : value->GetArray()) {
    PARTSTORE_ASSIGN_OR_RETURN(Value v, DecodeAttributeValue(element));
    out.push_back(std::move(v));
  }
  return std::optional<std::vector<Value>>(std::move(out));
}

ReturnValuesOnConditionCheckFailure OnFailureOf(const JsonValue* value) {
  return EnumOf(value, kReturnValuesOnConditionCheckFailureNames,
                ReturnValuesOnConditionCheckFailure::kNone);
}

StatementMembers ElementMembers(const JsonValue& element, std::span<const MemberSpec> specs) {
  StatementMembers m{};
  if (element.IsObject()) (void)ReadObject(element, "", specs, m);
  return m;
}

// A statement's members (the top level of ExecuteStatement, an element of a batch or of a
// transaction), in the member table's order.
template <typename Statement>
void WriteStatement(const Statement& statement, const MemberSpec (&specs)[kStatementMemberCount],
                    JsonWriter& writer) {
  MemberWriter w(writer);
  w.String(specs[kStatement].name, statement.statement);
  w.ValueList(specs[kStatementParameters].name, statement.parameters);
  if constexpr (requires { statement.consistent_read; }) {
    w.TrueBool(specs[kStatementConsistentRead].name, statement.consistent_read);
  }
  if constexpr (std::is_same_v<Statement, ExecuteStatementRequest>) {
    w.OptionalString(specs[kStatementNextToken].name, statement.next_token);
    w.Enum(specs[kStatementReturnConsumedCapacity].name, statement.return_consumed_capacity,
           kReturnConsumedCapacityNames, ReturnConsumedCapacity::kNone);
    w.OptionalInt(specs[kStatementLimit].name, statement.limit);
  }
  w.Enum(specs[kStatementOnFailure].name, statement.return_values_on_condition_check_failure,
         kReturnValuesOnConditionCheckFailureNames, ReturnValuesOnConditionCheckFailure::kNone);
}

// The results' members.
constexpr std::string_view kItems = "Items";
constexpr std::string_view kResultNextToken = "NextToken";
constexpr std::string_view kConsumedCapacity = "ConsumedCapacity";
constexpr std::string_view kLastEvaluatedKey = "LastEvaluatedKey";
constexpr std::string_view kResultResponses = "Responses";
constexpr std::string_view kError = "Error";
constexpr std::string_view kErrorCode = "Code";
constexpr std::string_view kErrorMessage = "Message";
constexpr std::string_view kTableName = "TableName";
constexpr std::string_view kItem = "Item";

}  // namespace

Result<ExecuteStatementRequest> DecodeExecuteStatementRequest(const JsonValue& body) {
  StatementMembers m;
  PARTSTORE_RETURN_IF_ERROR(ReadObject(body, "ExecuteStatement", kExecuteMembers, m));
  Constraints c;
  StatementConstraints(c, m, "");
  c.Enum(m[kStatementReturnConsumedCapacity], kReturnConsumedCapacityNames,
         kReturnConsumedCapacitySet, "returnConsumedCapacity");
  c.Range(m[kStatementLimit], 1, kIntMax, "limit");
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());

  ExecuteStatementRequest request;
  request.statement = std::string(StringOf(*m[kStatement]));
  PARTSTORE_ASSIGN_OR_RETURN(request.parameters, DecodeParameters(m[kStatementParameters]));
  request.consistent_read =
      m[kStatementConsistentRead] != nullptr && BooleanOf(*m[kStatementConsistentRead]);
  request.next_token = OptionalString(m[kStatementNextToken]);
  request.return_consumed_capacity = CapacityOf(m[kStatementReturnConsumedCapacity]);
  if (m[kStatementLimit] != nullptr)
    request.limit = static_cast<int32_t>(IntegerOf(*m[kStatementLimit]));
  request.return_values_on_condition_check_failure = OnFailureOf(m[kStatementOnFailure]);
  return request;
}

std::string EncodeExecuteStatementRequest(const ExecuteStatementRequest& request) {
  JsonBody body;
  body.writer().StartObject();
  WriteStatement(request, kExecuteMembers, body.writer());
  body.writer().EndObject();
  return body.Text();
}

Result<BatchExecuteStatementRequest> DecodeBatchExecuteStatementRequest(const JsonValue& body) {
  std::array<const JsonValue*, kBatchRequestMemberCount> m;
  PARTSTORE_RETURN_IF_ERROR(ReadObject(body, "BatchExecuteStatement", kBatchRequestMembers, m,
                                       kStatements, CheckBatchList));
  const JsonValue* statements = m[kStatements];
  Constraints c;
  c.Enum(m[kBatchCapacity], kReturnConsumedCapacityNames, kReturnConsumedCapacitySet,
         "returnConsumedCapacity");
  c.Required(statements, "statements");
  if (statements != nullptr) {
    if (!c.full()) {
      c.violations().CollectionLength("[" + std::to_string(statements->Size()) + " statements]",
                                      statements->Size(), 1, kMaxBatchStatements, "statements");
    }
    for (size_t i = 0; i < statements->Size(); ++i) {
      const JsonValue& element = (*statements)[static_cast<rapidjson::SizeType>(i)];
      const std::string prefix = "statements." + std::to_string(i + 1) + ".member.";
      if (element.IsNull()) {
        c.Required(nullptr, prefix.substr(0, prefix.size() - 1));
        continue;
      }
      StatementConstraints(c, ElementMembers(element, kBatchMembers), prefix);
    }
  }
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());

  BatchExecuteStatementRequest request;
  request.return_consumed_capacity = CapacityOf(m[kBatchCapacity]);
  for (const JsonValue& element : statements->GetArray()) {
    const StatementMembers s = ElementMembers(element, kBatchMembers);
    BatchStatementRequest statement;
    statement.statement = std::string(StringOf(*s[kStatement]));
    PARTSTORE_ASSIGN_OR_RETURN(statement.parameters, DecodeParameters(s[kStatementParameters]));
    statement.consistent_read =
        s[kStatementConsistentRead] != nullptr && BooleanOf(*s[kStatementConsistentRead]);
    statement.return_values_on_condition_check_failure = OnFailureOf(s[kStatementOnFailure]);
    request.statements.push_back(std::move(statement));
  }
  return request;
}

std::string EncodeBatchExecuteStatementRequest(const BatchExecuteStatementRequest& request) {
  JsonBody body;
  JsonWriter& writer = body.writer();
  writer.StartObject();
  MemberWriter w(writer);
  w.Key(kBatchRequestMembers[kStatements].name);
  writer.StartArray();
  for (const BatchStatementRequest& statement : request.statements) {
    writer.StartObject();
    WriteStatement(statement, kBatchMembers, writer);
    writer.EndObject();
  }
  writer.EndArray();
  w.Enum(kBatchRequestMembers[kBatchCapacity].name, request.return_consumed_capacity,
         kReturnConsumedCapacityNames, ReturnConsumedCapacity::kNone);
  writer.EndObject();
  return body.Text();
}

Result<ExecuteTransactionRequest> DecodeExecuteTransactionRequest(const JsonValue& body) {
  std::array<const JsonValue*, kTransactRequestMemberCount> m;
  PARTSTORE_RETURN_IF_ERROR(ReadObject(body, "ExecuteTransaction", kTransactRequestMembers, m,
                                       kTransactStatements, CheckTransactList));
  const JsonValue* statements = m[kTransactStatements];
  Constraints c;
  c.Enum(m[kTransactCapacity], kReturnConsumedCapacityNames, kReturnConsumedCapacitySet,
         "returnConsumedCapacity");
  c.Required(statements, "transactStatements");
  if (statements != nullptr) {
    if (!c.full()) {
      c.violations().CollectionLength("[" + std::to_string(statements->Size()) + " statements]",
                                      statements->Size(), 1, kMaxTransactStatements,
                                      "transactStatements");
    }
    for (size_t i = 0; i < statements->Size(); ++i) {
      const JsonValue& element = (*statements)[static_cast<rapidjson::SizeType>(i)];
      const std::string prefix = "transactStatements." + std::to_string(i + 1) + ".member.";
      if (element.IsNull()) {
        c.Required(nullptr, prefix.substr(0, prefix.size() - 1));
        continue;
      }
      StatementConstraints(c, ElementMembers(element, kTransactMembers), prefix);
    }
  }
  if (m[kTransactToken] != nullptr && !c.full()) {
    c.violations().Length(StringOf(*m[kTransactToken]), 1, 36, "clientRequestToken");
  }
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());

  ExecuteTransactionRequest request;
  request.client_request_token = OptionalString(m[kTransactToken]);
  request.return_consumed_capacity = CapacityOf(m[kTransactCapacity]);
  for (const JsonValue& element : statements->GetArray()) {
    const StatementMembers s = ElementMembers(element, kTransactMembers);
    ParameterizedStatement statement;
    statement.statement = std::string(StringOf(*s[kStatement]));
    PARTSTORE_ASSIGN_OR_RETURN(statement.parameters, DecodeParameters(s[kStatementParameters]));
    statement.return_values_on_condition_check_failure = OnFailureOf(s[kStatementOnFailure]);
    request.transact_statements.push_back(std::move(statement));
  }
  return request;
}

std::string EncodeExecuteTransactionRequest(const ExecuteTransactionRequest& request) {
  JsonBody body;
  JsonWriter& writer = body.writer();
  writer.StartObject();
  MemberWriter w(writer);
  w.Key(kTransactRequestMembers[kTransactStatements].name);
  writer.StartArray();
  for (const ParameterizedStatement& statement : request.transact_statements) {
    writer.StartObject();
    WriteStatement(statement, kTransactMembers, writer);
    writer.EndObject();
  }
  writer.EndArray();
  w.OptionalString(kTransactRequestMembers[kTransactToken].name, request.client_request_token);
  w.Enum(kTransactRequestMembers[kTransactCapacity].name, request.return_consumed_capacity,
         kReturnConsumedCapacityNames, ReturnConsumedCapacity::kNone);
  writer.EndObject();
  return body.Text();
}

std::string EncodeExecuteStatementResult(const ExecuteStatementResult& result) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  Key(w, kItems);
  w.StartArray();
  for (const Item& item : result.items) WriteItem(item, w);
  w.EndArray();
  if (result.next_token) {
    Key(w, kResultNextToken);
    String(w, *result.next_token);
  }
  if (result.consumed_capacity) {
    Key(w, kConsumedCapacity);
    WriteConsumedCapacity(*result.consumed_capacity, w);
  }
  if (result.last_evaluated_key) {
    Key(w, kLastEvaluatedKey);
    WriteItem(*result.last_evaluated_key, w);
  }
  w.EndObject();
  return {buffer.GetString(), buffer.GetSize()};
}

std::string EncodeBatchExecuteStatementResult(const BatchExecuteStatementResult& result) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  Key(w, kResultResponses);
  w.StartArray();
  for (const BatchStatementResponse& response : result.responses) {
    w.StartObject();
    if (response.error) {
      Key(w, kError);
      w.StartObject();
      Key(w, kErrorCode);
      String(w, response.error->code);
      Key(w, kErrorMessage);
      String(w, response.error->message);
      if (response.error->item) {
        Key(w, kItem);
        WriteItem(*response.error->item, w);
      }
      w.EndObject();
    }
    if (response.table_name) {
      Key(w, kTableName);
      String(w, *response.table_name);
    }
    if (response.item) {
      Key(w, kItem);
      WriteItem(*response.item, w);
    }
    w.EndObject();
  }
  w.EndArray();
  WriteConsumedCapacityList(result.consumed_capacity, w);
  w.EndObject();
  return {buffer.GetString(), buffer.GetSize()};
}

std::string EncodeExecuteTransactionResult(const ExecuteTransactionResult& result) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  if (result.responses) {
    Key(w, kResultResponses);
    w.StartArray();
    for (const std::optional<Item>& item : *result.responses) {
      w.StartObject();
      if (item) {
        Key(w, kItem);
        WriteItem(*item, w);
      }
      w.EndObject();
    }
    w.EndArray();
  }
  WriteConsumedCapacityList(result.consumed_capacity, w);
  w.EndObject();
  return {buffer.GetString(), buffer.GetSize()};
}

// ---- Results, read back (client_data_json.h) ----

Result<ExecuteStatementResult> DecodeExecuteStatementResult(const JsonValue& body) {
  return ReadBody<ExecuteStatementResult>(
      body, "ExecuteStatement", [](const ResponseObject& o, ExecuteStatementResult& out) {
        o.Items(kItems, &out.items);
        o.String(kResultNextToken, &out.next_token);
        ReadConsumedCapacity(o, kConsumedCapacity, &out.consumed_capacity);
        o.Item(kLastEvaluatedKey, &out.last_evaluated_key);
      });
}

Result<BatchExecuteStatementResult> DecodeBatchExecuteStatementResult(const JsonValue& body) {
  return ReadBody<BatchExecuteStatementResult>(
      body, "BatchExecuteStatement", [](const ResponseObject& o, BatchExecuteStatementResult& out) {
        o.Objects(kResultResponses, [&](const ResponseObject& entry) {
          BatchStatementResponse& response = out.responses.emplace_back();
          entry.Object(kError, [&](const ResponseObject& e) {
            BatchStatementError& error = response.error.emplace();
            e.String(kErrorCode, &error.code);
            e.String(kErrorMessage, &error.message);
            e.Item(kItem, &error.item);
          });
          entry.String(kTableName, &response.table_name);
          entry.Item(kItem, &response.item);
        });
        ReadConsumedCapacityList(o, &out.consumed_capacity);
      });
}

Result<ExecuteTransactionResult> DecodeExecuteTransactionResult(const JsonValue& body) {
  return ReadBody<ExecuteTransactionResult>(
      body, "ExecuteTransaction", [](const ResponseObject& o, ExecuteTransactionResult& out) {
        if (o.Find(kResultResponses) != nullptr)
          ReadItemResponses(o, kResultResponses, &out.responses.emplace());
        ReadConsumedCapacityList(o, &out.consumed_capacity);
      });
}

}  // namespace partstore::protocol
