// The client's one reader of response bodies: a server's JSON, read member by member into a
// typed result. Every result decoder (client_data_json.h, client_control_json.h) is written with
// it, so that all of them treat an untrusted body the same way:
//   - a body that is not an object, a member of the wrong JSON type, a number the struct cannot
//     hold or an enum spelling it has no value for is Code::kInternal
//     "malformed <Op> response: <path> is not <what>", the path as
//     "TableDescription.GlobalSecondaryIndexes[0].IndexName" ("the body" for the body itself);
//   - unknown members are ignored (DynamoDB adds members over time); a null member is absent and
//     leaves the struct's default; a repeated member counts by its last occurrence;
//   - items and keys go through DecodeItem: "is not an item" for a non-object, "is not a valid
//     item: <DecodeItem's message>" for one it refuses;
//   - the first error recorded wins; reading on after it is harmless and is cut short at arrays
//     and maps, so no input costs more than a constant times its size.
//
// Thread safety: a ResponseObject and the error it records into belong to one thread.
#pragma once

#include <rapidjson/document.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "partstore/item.h"
#include "partstore/status.h"

namespace partstore::protocol {

// Where a response member stands: the operation at the root, then member names and array
// indexes. Nodes live on the reader's stack; the text is built only for an error.
struct PathNode {
  const PathNode* parent = nullptr;
  std::string_view name{};  // a member's name (the operation's, at the root)
  int64_t index = -1;       // >= 0: element `index` of the parent array
};

// "malformed <Op> response: <path>.<member> is not <what>" (no member: the path alone; at the
// root with no member: "the body").
Status Malformed(const PathNode& at, std::string_view member, std::string_view what);

// One JSON object of a response (REQUIRES: value.IsObject()), read member by member into a
// result. Each reader leaves *out unchanged when the member is absent (missing or null); a member
// of the wrong JSON type records Malformed in the error the whole body's readers share.
class ResponseObject {
 public:
  ResponseObject(const rapidjson::Value& value, const PathNode& at, Status* error)
      : value_(value), at_(at), error_(error) {}

  // The member's value (its last occurrence), or null when absent.
  const rapidjson::Value* Find(std::string_view member) const;
  // Records Malformed(this object, member, what) / `status`, unless an error is recorded already.
  // An empty member names this object itself.
  void Fail(std::string_view member, std::string_view what) const;
  void Fail(Status status) const;
  bool failed() const { return !error_->ok(); }

  void String(std::string_view member, std::string* out) const;
  void String(std::string_view member, std::optional<std::string>* out) const;
  void Int32(std::string_view member, int32_t* out) const;
  void Int64(std::string_view member, int64_t* out) const;
  void Int64(std::string_view member, std::optional<int64_t>* out) const;
  void Double(std::string_view member, double* out) const;  // any JSON number
  void Double(std::string_view member, std::optional<double>* out) const;
  void Bool(std::string_view member, bool* out) const;
  void StringList(std::string_view member, std::vector<std::string>* out) const;
  void StringList(std::string_view member, std::optional<std::vector<std::string>>* out) const;
  // An item or key ({"name": AttributeValue, ...}) through DecodeItem.
  void Item(std::string_view member, partstore::Item* out) const;
  void Item(std::string_view member, std::optional<partstore::Item>* out) const;
  // An array of items; `*present` (if given) tells whether the member was there.
  void Items(std::string_view member, std::vector<partstore::Item>* out,
             bool* present = nullptr) const;

  // An enum spelled as name_of(E(i)) for some i < count; another string is malformed.
  template <typename E>
  void Enum(std::string_view member, std::string_view (*name_of)(E), int count, E* out) const;
  template <typename E>
  void Enum(std::string_view member, std::string_view (*name_of)(E), int count,
            std::optional<E>* out) const;

  // An object member: read(const ResponseObject&), not called when absent.
  template <typename F>
  void Object(std::string_view member, F&& read) const;
  // An array: read(const rapidjson::Value& element, const PathNode& element_path) for each
  // element in order, until an error.
  template <typename F>
  void Elements(std::string_view member, F&& read) const;
  // An array of objects: read(const ResponseObject&) for each element in order, until an error.
  template <typename F>
  void Objects(std::string_view member, F&& read) const;
  // An object whose member names are data (tables, indexes, placeholders): read(name, map) for
  // each non-null member in order, until an error; `map` is that object, to read the member from.
  template <typename F>
  void Map(std::string_view member, F&& read) const;

  // `object` (an element an Elements reader was handed) as a ResponseObject recording into this
  // one's error; Malformed "an object" recorded, and nullopt, when it is not an object.
  std::optional<ResponseObject> At(const rapidjson::Value& object, const PathNode& at) const;

 private:
  // Fail: "<member> is not a known value (\"<text>\")".
  void UnknownEnum(std::string_view member, std::string_view text) const;

  const rapidjson::Value& value_;
  const PathNode& at_;
  Status* error_;
};

// Reads a whole response body into a T: Malformed unless it is an object, else
// read(const ResponseObject& root, T& out) and the first error it recorded, if any.
template <typename T, typename F>
Result<T> ReadBody(const rapidjson::Value& body, std::string_view operation, F&& read) {
  const PathNode root{.name = operation};
  if (!body.IsObject()) return Malformed(root, "", "an object");
  Status error;
  T out{};
  read(ResponseObject(body, root, &error), out);
  if (!error.ok()) return error;
  return out;
}

// ---- Template definitions ----

template <typename E>
void ResponseObject::Enum(std::string_view member, std::string_view (*name_of)(E), int count,
                          E* out) const {
  const rapidjson::Value* value = Find(member);
  if (value == nullptr) return;
  if (!value->IsString()) return Fail(member, "a string");
  const std::string_view text(value->GetString(), value->GetStringLength());
  for (int i = 0; i < count; ++i) {
    if (name_of(static_cast<E>(i)) == text) {
      *out = static_cast<E>(i);
      return;
    }
  }
  UnknownEnum(member, text);
}

template <typename E>
void ResponseObject::Enum(std::string_view member, std::string_view (*name_of)(E), int count,
                          std::optional<E>* out) const {
  if (Find(member) == nullptr) return;
  E value{};
  Enum(member, name_of, count, &value);
  if (!failed()) *out = value;
}

template <typename F>
void ResponseObject::Object(std::string_view member, F&& read) const {
  const rapidjson::Value* value = Find(member);
  if (value == nullptr) return;
  const PathNode node{.parent = &at_, .name = member};
  if (!value->IsObject()) return Fail(Malformed(node, "", "an object"));
  read(ResponseObject(*value, node, error_));
}

template <typename F>
void ResponseObject::Elements(std::string_view member, F&& read) const {
  const rapidjson::Value* value = Find(member);
  if (value == nullptr) return;
  const PathNode list{.parent = &at_, .name = member};
  if (!value->IsArray()) return Fail(Malformed(list, "", "an array"));
  int64_t index = 0;
  for (const rapidjson::Value& element : value->GetArray()) {
    if (failed()) return;
    const PathNode node{.parent = &list, .index = index++};
    read(element, node);
  }
}

template <typename F>
void ResponseObject::Objects(std::string_view member, F&& read) const {
  Elements(member, [&](const rapidjson::Value& element, const PathNode& node) {
    if (std::optional<ResponseObject> object = At(element, node)) read(*object);
  });
}

template <typename F>
void ResponseObject::Map(std::string_view member, F&& read) const {
  Object(member, [&](const ResponseObject& map) {
    for (const auto& m : map.value_.GetObject()) {
      if (failed()) return;
      if (m.value.IsNull()) continue;
      read(std::string_view(m.name.GetString(), m.name.GetStringLength()), map);
    }
  });
}

}  // namespace partstore::protocol
