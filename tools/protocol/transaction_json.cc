// TransactWriteItems and TransactGetItems JSON (see transaction_json.h).
//
// Step 1, shapes. The transaction structures are read with request_json.h's rules for a list of
// structures and for structure members (the texts below are the ones request_json.cc gives for
// BatchWriteItem's WriteRequest / PutRequest, its evidence applying alike): TransactItems is a
// List (a scalar: "Unexpected field type", an object: "Start of structure or map found where not
// expected"), each element a ValueStruct<TransactWriteItem> / ValueStruct<TransactGetItem>, each
// action a FieldStruct<Put> (ConditionCheck, Delete, Update, Get); an action's own members are
// checked by ReadMembers with the single-item operations' shapes.
//
// Step 2, model constraints, in this order (partstore's choice: no live listing of several
// transaction violations is known): returnConsumedCapacity, returnItemCollectionMetrics,
// transactItems not null; then action by action, within an action its members in the order
// ConditionCheck, Put, Delete, Update (Get): tableName (not null, name), the enum
// returnValuesOnConditionCheckFailure, key / item, then updateExpression (Update) and
// conditionExpression (ConditionCheck) not null. The member paths are DynamoDB's:
// 'transactItems.<n>.member.<action>.<member>' with n counting from 1, as in
// "Value null at 'transactItems.1.member.update.key' failed to satisfy constraint: Member must
// not be null".
//
// Step 3, values: action by action, Key / Item, then ExpressionAttributeNames, then
// ExpressionAttributeValues.
#include "tools/protocol/transaction_json.h"

#include <rapidjson/stringbuffer.h>

#include <array>
#include <span>
#include <string_view>
#include <type_traits>

#include "tools/protocol/client_data_json.h"
#include "tools/protocol/operations_json.h"
#include "tools/protocol/request_json.h"

namespace partstore::protocol {
namespace {

// ---- The actions ----

// The members of a write action, in one layout for all four (a spec with an empty name is a
// member that action does not have; ReadMembers skips it).
enum ActionMember {
  kActionTableName,
  kActionKeyOrItem,
  kActionUpdateExpression,
  kActionConditionExpression,
  kActionNames,
  kActionValues,
  kActionOnFailure,
  kActionMemberCount,
};
using ActionMembers = std::array<const JsonValue*, kActionMemberCount>;

constexpr MemberSpec kConditionCheckActionMembers[kActionMemberCount] = {
    {"TableName", Shape::kString},
    {"Key", Shape::kItem},
    {"", Shape::kString},
    {"ConditionExpression", Shape::kString},
    {"ExpressionAttributeNames", Shape::kNameMap},
    {"ExpressionAttributeValues", Shape::kItem},
    {"ReturnValuesOnConditionCheckFailure", Shape::kString},
};
constexpr MemberSpec kPutActionMembers[kActionMemberCount] = {
    {"TableName", Shape::kString},
    {"Item", Shape::kItem},
    {"", Shape::kString},
    {"ConditionExpression", Shape::kString},
    {"ExpressionAttributeNames", Shape::kNameMap},
    {"ExpressionAttributeValues", Shape::kItem},
    {"ReturnValuesOnConditionCheckFailure", Shape::kString},
};
constexpr MemberSpec kDeleteActionMembers[kActionMemberCount] = {
    {"TableName", Shape::kString},
    {"Key", Shape::kItem},
    {"", Shape::kString},
    {"ConditionExpression", Shape::kString},
    {"ExpressionAttributeNames", Shape::kNameMap},
    {"ExpressionAttributeValues", Shape::kItem},
    {"ReturnValuesOnConditionCheckFailure", Shape::kString},
};
constexpr MemberSpec kUpdateActionMembers[kActionMemberCount] = {
    {"TableName", Shape::kString},
    {"Key", Shape::kItem},
    {"UpdateExpression", Shape::kString},
    {"ConditionExpression", Shape::kString},
    {"ExpressionAttributeNames", Shape::kNameMap},
    {"ExpressionAttributeValues", Shape::kItem},
    {"ReturnValuesOnConditionCheckFailure", Shape::kString},
};

enum class ActionKind : uint8_t { kConditionCheck, kPut, kDelete, kUpdate };

struct ActionSpec {
  ActionKind kind;
  std::string_view name;  // the wire member and the model structure, e.g. "Put"
  std::string_view path;  // its name in constraint paths, e.g. "put"
  std::span<const MemberSpec> members;
};
constexpr ActionSpec kActions[] = {
    {ActionKind::kConditionCheck, "ConditionCheck", "conditionCheck", kConditionCheckActionMembers},
    {ActionKind::kPut, "Put", "put", kPutActionMembers},
    {ActionKind::kDelete, "Delete", "delete", kDeleteActionMembers},
    {ActionKind::kUpdate, "Update", "update", kUpdateActionMembers},
};

// TransactGetItem's one action, Get.
enum GetActionMember {
  kGetActionTableName,
  kGetActionKey,
  kGetActionProjectionExpression,
  kGetActionNames,
  kGetActionMemberCount
};
using GetActionMembers = std::array<const JsonValue*, kGetActionMemberCount>;
constexpr MemberSpec kGetActionMembers[kGetActionMemberCount] = {
    {"TableName", Shape::kString},
    {"Key", Shape::kItem},
    {"ProjectionExpression", Shape::kString},
    {"ExpressionAttributeNames", Shape::kNameMap},
};

// An action structure (Put, ..., Get) standing as a member of a list element: its outer shape,
// then its members.
Status CheckAction(const JsonValue& action, std::string_view name,
                   std::span<const MemberSpec> members) {
  PARTSTORE_RETURN_IF_ERROR(CheckStructOuter(action, name, false));
  if (action.IsNull()) return Status::Ok();
  std::array<const JsonValue*, kActionMemberCount> scratch;
  return ReadMembers(action, name, members, std::span(scratch.data(), members.size()));
}

Status CheckWriteItem(const JsonValue& element) {
  PARTSTORE_RETURN_IF_ERROR(CheckStructOuter(element, "TransactWriteItem", true));
  if (element.IsNull()) return Status::Ok();
  for (const auto& member : element.GetObject()) {
    const std::string_view name = StringOf(member.name);
    for (const ActionSpec& spec : kActions) {
      if (spec.name == name) {
        PARTSTORE_RETURN_IF_ERROR(CheckAction(member.value, spec.name, spec.members));
      }
    }
  }
  return Status::Ok();
}

Status CheckGetItem(const JsonValue& element) {
  PARTSTORE_RETURN_IF_ERROR(CheckStructOuter(element, "TransactGetItem", true));
  if (element.IsNull()) return Status::Ok();
  for (const auto& member : element.GetObject()) {
    if (StringOf(member.name) == "Get") {
      PARTSTORE_RETURN_IF_ERROR(CheckAction(member.value, "Get", kGetActionMembers));
    }
  }
  return Status::Ok();
}

// Step 1 for a whole transaction body: as ReadMembers, with specs[0] the TransactItems list
// (its spec's shape unused), each element checked by `check_element`.
Status ReadTransactMembers(const JsonValue& body, std::string_view operation,
                           std::span<const MemberSpec> specs, std::span<const JsonValue*> out,
                           Status (*check_element)(const JsonValue&)) {
  if (!body.IsObject()) return ReadMembers(body, operation, {}, {});  // its texts for the body
  for (const JsonValue*& slot : out) slot = nullptr;
  for (const auto& member : body.GetObject()) {
    const std::string_view name = StringOf(member.name);
    for (size_t i = 0; i < specs.size(); ++i) {
      if (specs[i].name != name) continue;
      if (i == 0) {
        PARTSTORE_RETURN_IF_ERROR(CheckListOuter(member.value, /*parameterized=*/false));
        if (member.value.IsArray()) {
          for (const JsonValue& element : member.value.GetArray()) {
            PARTSTORE_RETURN_IF_ERROR(check_element(element));
          }
        }
      } else {
        PARTSTORE_RETURN_IF_ERROR(CheckShape(member.value, specs[i].shape));
      }
      out[i] = member.value.IsNull() ? nullptr : &member.value;
      break;
    }
  }
  return Status::Ok();
}

// The members of an action whose shape passed (null `action`: all absent).
template <size_t N>
std::array<const JsonValue*, N> MembersOf(const JsonValue* action, std::string_view name,
                                          std::span<const MemberSpec> specs) {
  std::array<const JsonValue*, N> m{};
  if (action != nullptr) (void)ReadMembers(*action, name, specs, m);
  return m;
}

std::string TransactItemPath(size_t index) {
  return "transactItems." + std::to_string(index + 1) + ".member.";
}

void TableNameAt(Constraints& c, const JsonValue* name, const std::string& path) {
  c.Required(name, path);
  c.TableName(name, path);
}

void WriteActionConstraints(Constraints& c, const ActionSpec& spec, const ActionMembers& m,
                            const std::string& prefix) {
  TableNameAt(c, m[kActionTableName], prefix + "tableName");
  c.Enum(m[kActionOnFailure], kReturnValuesOnConditionCheckFailureNames,
         kReturnValuesOnConditionCheckFailureSet, prefix + "returnValuesOnConditionCheckFailure");
  c.Required(m[kActionKeyOrItem], prefix + (spec.kind == ActionKind::kPut ? "item" : "key"));
  if (spec.kind == ActionKind::kUpdate) {
    c.Required(m[kActionUpdateExpression], prefix + "updateExpression");
  }
  if (spec.kind == ActionKind::kConditionCheck) {
    c.Required(m[kActionConditionExpression], prefix + "conditionExpression");
  }
}

// The values every write action has, decoded.
struct ActionValues {
  std::string table_name;
  Item key_or_item;
  std::optional<std::string> update_expression;
  std::optional<std::string> condition_expression;
  std::optional<expr::NameMap> names;
  std::optional<AttributeMap> values;
  ReturnValuesOnConditionCheckFailure on_failure = ReturnValuesOnConditionCheckFailure::kNone;
};

Result<ActionValues> DecodeAction(const ActionMembers& m) {
  ActionValues out;
  out.table_name = std::string(StringOf(*m[kActionTableName]));
  PARTSTORE_ASSIGN_OR_RETURN(out.key_or_item, DecodeItem(*m[kActionKeyOrItem]));
  out.update_expression = OptionalString(m[kActionUpdateExpression]);
  out.condition_expression = OptionalString(m[kActionConditionExpression]);
  PARTSTORE_ASSIGN_OR_RETURN(out.names, DecodeNameMap(m[kActionNames]));
  PARTSTORE_ASSIGN_OR_RETURN(out.values, DecodeValueMap(m[kActionValues]));
  out.on_failure = EnumOf(m[kActionOnFailure], kReturnValuesOnConditionCheckFailureNames,
                          ReturnValuesOnConditionCheckFailure::kNone);
  return out;
}

void SetAction(ActionKind kind, ActionValues v, TransactWriteItem& item) {
  switch (kind) {
    case ActionKind::kConditionCheck:
      item.condition_check =
          ConditionCheckRequest{.table_name = std::move(v.table_name),
                                .key = std::move(v.key_or_item),
                                .condition_expression = std::move(v.condition_expression),
                                .expression_attribute_names = std::move(v.names),
                                .expression_attribute_values = std::move(v.values),
                                .return_values_on_condition_check_failure = v.on_failure};
      return;
    case ActionKind::kPut: {
      PutItemRequest put;
      put.table_name = std::move(v.table_name);
      put.item = std::move(v.key_or_item);
      put.condition_expression = std::move(v.condition_expression);
      put.expression_attribute_names = std::move(v.names);
      put.expression_attribute_values = std::move(v.values);
      put.return_values_on_condition_check_failure = v.on_failure;
      item.put = std::move(put);
      return;
    }
    case ActionKind::kDelete: {
      DeleteItemRequest del;
      del.table_name = std::move(v.table_name);
      del.key = std::move(v.key_or_item);
      del.condition_expression = std::move(v.condition_expression);
      del.expression_attribute_names = std::move(v.names);
      del.expression_attribute_values = std::move(v.values);
      del.return_values_on_condition_check_failure = v.on_failure;
      item.del = std::move(del);
      return;
    }
    case ActionKind::kUpdate: {
      UpdateItemRequest update;
      update.table_name = std::move(v.table_name);
      update.key = std::move(v.key_or_item);
      update.update_expression = std::move(v.update_expression);
      update.condition_expression = std::move(v.condition_expression);
      update.expression_attribute_names = std::move(v.names);
      update.expression_attribute_values = std::move(v.values);
      update.return_values_on_condition_check_failure = v.on_failure;
      item.update = std::move(update);
      return;
    }
  }
}

// ---- The requests ----

enum WriteMember {
  kWriteTransactItems,
  kWriteClientRequestToken,
  kWriteReturnConsumedCapacity,
  kWriteReturnItemCollectionMetrics,
  kWriteMemberCount,
};
constexpr MemberSpec kWriteMembers[kWriteMemberCount] = {
    {"TransactItems", Shape::kStringList},  // checked by CheckWriteItem
    {"ClientRequestToken", Shape::kString},
    {"ReturnConsumedCapacity", Shape::kString},
    {"ReturnItemCollectionMetrics", Shape::kString},
};

enum GetRequestMember {
  kGetRequestTransactItems,
  kGetRequestReturnConsumedCapacity,
  kGetRequestMemberCount
};
constexpr MemberSpec kGetRequestMembers[kGetRequestMemberCount] = {
    {"TransactItems", Shape::kStringList},  // checked by CheckGetItem
    {"ReturnConsumedCapacity", Shape::kString},
};

// ---- Encoding ----

// The response members.
constexpr std::string_view kTransactResponses = "Responses";
constexpr std::string_view kResponseItem = "Item";

// One write action's object, its members named by `spec` (an empty name: not the action's).
template <typename Action>
void WriteAction(const ActionSpec& spec, const Action& action, JsonWriter& writer) {
  const auto name = [&spec](ActionMember member) { return spec.members[member].name; };
  MemberWriter w(writer);
  w.Key(spec.name);
  writer.StartObject();
  w.String(name(kActionTableName), action.table_name);
  if constexpr (std::is_same_v<Action, PutItemRequest>) {
    w.Item(name(kActionKeyOrItem), action.item);
  } else {
    w.Item(name(kActionKeyOrItem), action.key);
  }
  if constexpr (std::is_same_v<Action, UpdateItemRequest>) {
    w.OptionalString(name(kActionUpdateExpression), action.update_expression);
  }
  w.OptionalString(name(kActionConditionExpression), action.condition_expression);
  w.NameMap(name(kActionNames), action.expression_attribute_names);
  w.ValueMap(name(kActionValues), action.expression_attribute_values);
  w.Enum(name(kActionOnFailure), action.return_values_on_condition_check_failure,
         kReturnValuesOnConditionCheckFailureNames, ReturnValuesOnConditionCheckFailure::kNone);
  writer.EndObject();
}

const ActionSpec& SpecOf(ActionKind kind) { return kActions[static_cast<size_t>(kind)]; }
static_assert(kActions[0].kind == ActionKind::kConditionCheck &&
              kActions[1].kind == ActionKind::kPut && kActions[2].kind == ActionKind::kDelete &&
              kActions[3].kind == ActionKind::kUpdate);

}  // namespace

Result<TransactWriteItemsRequest> DecodeTransactWriteItemsRequest(const JsonValue& body) {
  std::array<const JsonValue*, kWriteMemberCount> m;
  PARTSTORE_RETURN_IF_ERROR(
      ReadTransactMembers(body, "TransactWriteItems", kWriteMembers, m, CheckWriteItem));
  const JsonValue* items = m[kWriteTransactItems];

  Constraints c;
  c.Enum(m[kWriteReturnConsumedCapacity], kReturnConsumedCapacityNames, kReturnConsumedCapacitySet,
         "returnConsumedCapacity");
  c.Enum(m[kWriteReturnItemCollectionMetrics], kReturnItemCollectionMetricsNames,
         kReturnItemCollectionMetricsSet, "returnItemCollectionMetrics");
  c.Required(items, "transactItems");
  if (items != nullptr) {
    for (size_t i = 0; i < items->Size(); ++i) {
      const JsonValue& element = (*items)[static_cast<rapidjson::SizeType>(i)];
      for (const ActionSpec& spec : kActions) {
        const JsonValue* action = Field(&element, spec.name);
        if (action == nullptr) continue;
        WriteActionConstraints(c, spec,
                               MembersOf<kActionMemberCount>(action, spec.name, spec.members),
                               TransactItemPath(i) + std::string(spec.path) + ".");
      }
    }
  }
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());

  TransactWriteItemsRequest request;
  request.transact_items.reserve(items->Size());
  for (const JsonValue& element : items->GetArray()) {
    TransactWriteItem item;
    for (const ActionSpec& spec : kActions) {
      const JsonValue* action = Field(&element, spec.name);
      if (action == nullptr) continue;
      const ActionMembers members = MembersOf<kActionMemberCount>(action, spec.name, spec.members);
      PARTSTORE_ASSIGN_OR_RETURN(ActionValues values, DecodeAction(members));
      SetAction(spec.kind, std::move(values), item);
    }
    request.transact_items.push_back(std::move(item));
  }
  request.client_request_token = OptionalString(m[kWriteClientRequestToken]);
  request.return_consumed_capacity = EnumOf(
      m[kWriteReturnConsumedCapacity], kReturnConsumedCapacityNames, ReturnConsumedCapacity::kNone);
  request.return_item_collection_metrics =
      EnumOf(m[kWriteReturnItemCollectionMetrics], kReturnItemCollectionMetricsNames,
             ReturnItemCollectionMetrics::kNone);
  return request;
}

std::string EncodeTransactWriteItemsRequest(const TransactWriteItemsRequest& request) {
  JsonBody body;
  JsonWriter& writer = body.writer();
  writer.StartObject();
  MemberWriter w(writer);
  w.Key(kWriteMembers[kWriteTransactItems].name);
  writer.StartArray();
  for (const TransactWriteItem& item : request.transact_items) {
    writer.StartObject();
    // In kActions' order, as the decoder reads them.
    if (item.condition_check) {
      WriteAction(SpecOf(ActionKind::kConditionCheck), *item.condition_check, writer);
    }
    if (item.put) WriteAction(SpecOf(ActionKind::kPut), *item.put, writer);
    if (item.del) WriteAction(SpecOf(ActionKind::kDelete), *item.del, writer);
    if (item.update) WriteAction(SpecOf(ActionKind::kUpdate), *item.update, writer);
    writer.EndObject();
  }
  writer.EndArray();
  w.OptionalString(kWriteMembers[kWriteClientRequestToken].name, request.client_request_token);
  w.Enum(kWriteMembers[kWriteReturnConsumedCapacity].name, request.return_consumed_capacity,
         kReturnConsumedCapacityNames, ReturnConsumedCapacity::kNone);
  w.Enum(kWriteMembers[kWriteReturnItemCollectionMetrics].name,
         request.return_item_collection_metrics, kReturnItemCollectionMetricsNames,
         ReturnItemCollectionMetrics::kNone);
  writer.EndObject();
  return body.Text();
}

Result<TransactGetItemsRequest> DecodeTransactGetItemsRequest(const JsonValue& body) {
  std::array<const JsonValue*, kGetRequestMemberCount> m;
  PARTSTORE_RETURN_IF_ERROR(
      ReadTransactMembers(body, "TransactGetItems", kGetRequestMembers, m, CheckGetItem));
  const JsonValue* items = m[kGetRequestTransactItems];

  Constraints c;
  c.Enum(m[kGetRequestReturnConsumedCapacity], kReturnConsumedCapacityNames,
         kReturnConsumedCapacitySet, "returnConsumedCapacity");
  c.Required(items, "transactItems");
  if (items != nullptr) {
    for (size_t i = 0; i < items->Size(); ++i) {
      const JsonValue* get = Field(&(*items)[static_cast<rapidjson::SizeType>(i)], "Get");
      const std::string prefix = TransactItemPath(i) + "get";
      c.Required(get, prefix);
      if (get == nullptr) continue;
      const GetActionMembers g = MembersOf<kGetActionMemberCount>(get, "Get", kGetActionMembers);
      TableNameAt(c, g[kGetActionTableName], prefix + ".tableName");
      c.Required(g[kGetActionKey], prefix + ".key");
    }
  }
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());

  TransactGetItemsRequest request;
  request.transact_items.reserve(items->Size());
  for (const JsonValue& element : items->GetArray()) {
    const GetActionMembers g =
        MembersOf<kGetActionMemberCount>(Field(&element, "Get"), "Get", kGetActionMembers);
    TransactGetItem item;
    item.get.table_name = std::string(StringOf(*g[kGetActionTableName]));
    PARTSTORE_ASSIGN_OR_RETURN(item.get.key, DecodeItem(*g[kGetActionKey]));
    item.get.projection_expression = OptionalString(g[kGetActionProjectionExpression]);
    PARTSTORE_ASSIGN_OR_RETURN(item.get.expression_attribute_names,
                               DecodeNameMap(g[kGetActionNames]));
    request.transact_items.push_back(std::move(item));
  }
  request.return_consumed_capacity =
      EnumOf(m[kGetRequestReturnConsumedCapacity], kReturnConsumedCapacityNames,
             ReturnConsumedCapacity::kNone);
  return request;
}

std::string EncodeTransactGetItemsRequest(const TransactGetItemsRequest& request) {
  JsonBody body;
  JsonWriter& writer = body.writer();
  writer.StartObject();
  MemberWriter w(writer);
  w.Key(kGetRequestMembers[kGetRequestTransactItems].name);
  writer.StartArray();
  for (const TransactGetItem& item : request.transact_items) {
    writer.StartObject();
    w.Key("Get");
    writer.StartObject();
    w.String(kGetActionMembers[kGetActionTableName].name, item.get.table_name);
    w.Item(kGetActionMembers[kGetActionKey].name, item.get.key);
    w.OptionalString(kGetActionMembers[kGetActionProjectionExpression].name,
                     item.get.projection_expression);
    w.NameMap(kGetActionMembers[kGetActionNames].name, item.get.expression_attribute_names);
    writer.EndObject();
    writer.EndObject();
  }
  writer.EndArray();
  w.Enum(kGetRequestMembers[kGetRequestReturnConsumedCapacity].name,
         request.return_consumed_capacity, kReturnConsumedCapacityNames,
         ReturnConsumedCapacity::kNone);
  writer.EndObject();
  return body.Text();
}

std::string EncodeTransactWriteItemsResult(const TransactWriteItemsResult& result) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteConsumedCapacityList(result.consumed_capacity, w);
  WriteItemCollectionMetricsByTable(result.item_collection_metrics, w);
  w.EndObject();
  return {buffer.GetString(), buffer.GetSize()};
}

std::string EncodeTransactGetItemsResult(const TransactGetItemsResult& result) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  Key(w, kTransactResponses);
  w.StartArray();
  for (const std::optional<Item>& item : result.responses) {
    w.StartObject();
    if (item) {
      Key(w, kResponseItem);
      WriteItem(*item, w);
    }
    w.EndObject();
  }
  w.EndArray();
  WriteConsumedCapacityList(result.consumed_capacity, w);
  w.EndObject();
  return {buffer.GetString(), buffer.GetSize()};
}

Result<TransactWriteItemsResult> DecodeTransactWriteItemsResult(const JsonValue& body) {
  return ReadBody<TransactWriteItemsResult>(
      body, "TransactWriteItems", [](const ResponseObject& o, TransactWriteItemsResult& out) {
        ReadConsumedCapacityList(o, &out.consumed_capacity);
        ReadItemCollectionMetricsByTable(o, &out.item_collection_metrics);
      });
}

Result<TransactGetItemsResult> DecodeTransactGetItemsResult(const JsonValue& body) {
  return ReadBody<TransactGetItemsResult>(
      body, "TransactGetItems", [](const ResponseObject& o, TransactGetItemsResult& out) {
        ReadItemResponses(o, kTransactResponses, &out.responses);
        ReadConsumedCapacityList(o, &out.consumed_capacity);
      });
}

void WriteCancellationReasons(const std::vector<CancellationReason>& reasons, JsonWriter& w) {
  Key(w, "CancellationReasons");
  w.StartArray();
  for (const CancellationReason& reason : reasons) {
    w.StartObject();
    Key(w, "Code");
    w.String(reason.code.data(), static_cast<rapidjson::SizeType>(reason.code.size()));
    if (reason.message && reason.code != "None") {
      Key(w, "Message");
      w.String(reason.message->data(), static_cast<rapidjson::SizeType>(reason.message->size()));
    }
    if (reason.item) {
      Key(w, "Item");
      WriteItem(*reason.item, w);
    }
    w.EndObject();
  }
  w.EndArray();
}

}  // namespace partstore::protocol
