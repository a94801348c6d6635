// The client's response reader (response_reader.h).
#include "tools/protocol/response_reader.h"

#include <string>
#include <string_view>

#include "tools/protocol/attribute_value_json.h"

namespace partstore::protocol {
namespace {

// At most this many bytes of a server's text are quoted in a message.
constexpr size_t kMaxQuoted = 64;

void AppendPath(const PathNode& node, std::string* out) {
  if (node.parent == nullptr) return;  // the root: the operation
  AppendPath(*node.parent, out);
  if (node.index >= 0) {
    *out += "[" + std::to_string(node.index) + "]";
  } else {
    if (node.parent->parent != nullptr) *out += ".";
    *out += node.name;
  }
}

std::string_view OperationOf(const PathNode& node) {
  const PathNode* root = &node;
  while (root->parent != nullptr) root = root->parent;
  return root->name;
}

}  // namespace

Status Malformed(const PathNode& at, std::string_view member, std::string_view what) {
  std::string path;
  AppendPath(at, &path);
  if (!member.empty()) {
    if (!path.empty()) path += ".";
    path += member;
  }
  if (path.empty()) path = "the body";
  std::string message = "malformed ";
  message += OperationOf(at);
  message += " response: ";
  message += path;
  message += " is not ";
  message += what;
  return Status(Code::kInternal, std::move(message));
}

const rapidjson::Value* ResponseObject::Find(std::string_view member) const {
  const rapidjson::Value* found = nullptr;
  for (const auto& m : value_.GetObject()) {
    if (std::string_view(m.name.GetString(), m.name.GetStringLength()) == member) {
      found = m.value.IsNull() ? nullptr : &m.value;
    }
  }
  return found;
}

void ResponseObject::Fail(std::string_view member, std::string_view what) const {
  if (!failed()) *error_ = Malformed(at_, member, what);
}

void ResponseObject::Fail(Status status) const {
  if (!failed()) *error_ = std::move(status);
}

void ResponseObject::UnknownEnum(std::string_view member, std::string_view text) const {
  std::string what = "a known value (\"";
  what += text.substr(0, kMaxQuoted);
  if (text.size() > kMaxQuoted) what += "...";
  what += "\")";
  Fail(member, what);
}

void ResponseObject::String(std::string_view member, std::string* out) const {
  const rapidjson::Value* value = Find(member);
  if (value == nullptr) return;
  if (!value->IsString()) return Fail(member, "a string");
  out->assign(value->GetString(), value->GetStringLength());
}

void ResponseObject::String(std::string_view member, std::optional<std::string>* out) const {
  const rapidjson::Value* value = Find(member);
  if (value == nullptr) return;
  if (!value->IsString()) return Fail(member, "a string");
  out->emplace(value->GetString(), value->GetStringLength());
}

void ResponseObject::Int32(std::string_view member, int32_t* out) const {
  const rapidjson::Value* value = Find(member);
  if (value == nullptr) return;
  if (!value->IsInt()) return Fail(member, "a 32-bit integer");
  *out = value->GetInt();
}

void ResponseObject::Int64(std::string_view member, int64_t* out) const {
  const rapidjson::Value* value = Find(member);
  if (value == nullptr) return;
  if (!value->IsInt64()) return Fail(member, "an integer");
  *out = value->GetInt64();
}

void ResponseObject::Int64(std::string_view member, std::optional<int64_t>* out) const {
  const rapidjson::Value* value = Find(member);
  if (value == nullptr) return;
  if (!value->IsInt64()) return Fail(member, "an integer");
  *out = value->GetInt64();
}

void ResponseObject::Double(std::string_view member, double* out) const {
  const rapidjson::Value* value = Find(member);
  if (value == nullptr) return;
  if (!value->IsNumber()) return Fail(member, "a number");
  *out = value->GetDouble();
}

void ResponseObject::Double(std::string_view member, std::optional<double>* out) const {
  const rapidjson::Value* value = Find(member);
  if (value == nullptr) return;
  if (!value->IsNumber()) return Fail(member, "a number");
  *out = value->GetDouble();
}

void ResponseObject::Bool(std::string_view member, bool* out) const {
  const rapidjson::Value* value = Find(member);
  if (value == nullptr) return;
  if (!value->IsBool()) return Fail(member, "a boolean");
  *out = value->GetBool();
}

void ResponseObject::StringList(std::string_view member, std::vector<std::string>* out) const {
  const rapidjson::Value* value = Find(member);
  if (value == nullptr) return;
  if (!value->IsArray()) return Fail(member, "an array of strings");
  std::vector<std::string> list;
  list.reserve(value->Size());
  for (const rapidjson::Value& element : value->GetArray()) {
    if (!element.IsString()) return Fail(member, "an array of strings");
    list.emplace_back(element.GetString(), element.GetStringLength());
  }
  *out = std::move(list);
}

void ResponseObject::StringList(std::string_view member,
                                std::optional<std::vector<std::string>>* out) const {
  if (Find(member) == nullptr) return;
  std::vector<std::string> list;
  StringList(member, &list);
  if (!failed()) *out = std::move(list);
}

namespace {

// One item at `at`: DecodeItem's, or Malformed.
Result<Item> ReadItem(const rapidjson::Value& value, const PathNode& at) {
  if (!value.IsObject()) return Malformed(at, "", "an item");
  Result<Item> item = DecodeItem(value);
  if (!item.ok()) {
    std::string what = "a valid item: ";
    what += item.error().message();
    return Malformed(at, "", what);
  }
  return item;
}

}  // namespace

void ResponseObject::Item(std::string_view member, partstore::Item* out) const {
  const rapidjson::Value* value = Find(member);
  if (value == nullptr) return;
  Result<partstore::Item> item = ReadItem(*value, PathNode{.parent = &at_, .name = member});
  if (!item.ok()) return Fail(item.error());
  *out = std::move(item).value();
}

void ResponseObject::Item(std::string_view member, std::optional<partstore::Item>* out) const {
  if (Find(member) == nullptr) return;
  partstore::Item item;
  Item(member, &item);
  if (!failed()) *out = std::move(item);
}

void ResponseObject::Items(std::string_view member, std::vector<partstore::Item>* out,
                           bool* present) const {
  const rapidjson::Value* value = Find(member);
  if (present != nullptr) *present = value != nullptr;
  if (value == nullptr) return;
  std::vector<partstore::Item> items;
  if (value->IsArray()) items.reserve(value->Size());
  Elements(member, [&](const rapidjson::Value& element, const PathNode& at) {
    Result<partstore::Item> item = ReadItem(element, at);
    if (!item.ok()) return Fail(item.error());
    items.push_back(std::move(item).value());
  });
  if (!failed()) *out = std::move(items);
}

std::optional<ResponseObject> ResponseObject::At(const rapidjson::Value& object,
                                                 const PathNode& at) const {
  if (!object.IsObject()) {
    Fail(Malformed(at, "", "an object"));
    return std::nullopt;
  }
  return ResponseObject(object, at, error_);
}

}  // namespace partstore::protocol
