#include "tools/bench/dynamodb_response.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <climits>

#include "tools/protocol/attribute_value_json.h"
#include "tools/protocol/errors.h"

namespace partstore::bench {
namespace {

// A member's string value, or "".
std::string_view Text(const rapidjson::Value& object, const char* key) {
  auto it = object.FindMember(key);
  return it != object.MemberEnd() && it->value.IsString()
             ? std::string_view(it->value.GetString(), it->value.GetStringLength())
             : std::string_view();
}

// The SAX handler of CountReadResponse. depth_ is the number of open containers (1 inside the
// response object); a value "at depth d" stands in a container opened at depth d. The member of
// the response being read is section_: in kItem the item is the value at depth 1, in kItems the
// items are the values at depth 2; either way an item's attribute values stand at item_depth_
// and their type members' values (the scalars counted) at item_depth_ + 1. In kLastKey the
// attributes stand at depth 2, their single type member's value at depth 3.
class ReadCounter : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, ReadCounter> {
 public:
  ReadCounter(ReadOutcome* outcome, std::vector<KeyPart>* last_key)
      : outcome_(*outcome), last_key_(*last_key) {}

  const char* error() const { return error_; }

  bool Default() { return Value(kScalar); }
  bool Null() { return Value(kNull); }
  bool String(const char* s, rapidjson::SizeType n, bool) {
    if (!Value(kString)) return false;
    if (depth_ == item_depth_ + 1 && scalar_) {
      outcome_.bytes += n;
      if (collect_) outcome_.values->emplace_back(s, n);
    } else if (section_ == kLastKey && depth_ == 3) {
      last_key_.back().value.assign(s, n);
    }
    return true;
  }
  bool StartObject() { return Value(kObject) && Open(); }
  bool StartArray() { return Value(kArray) && Open(); }
  bool EndObject(rapidjson::SizeType) {
    if (section_ == kLastKey && depth_ == 3 && !type_seen_) {
      return Fail("a LastEvaluatedKey attribute has no type");
    }
    return Close();
  }
  bool EndArray(rapidjson::SizeType) { return Close(); }
  bool Key(const char* s, rapidjson::SizeType n, bool) {
    const std::string_view key(s, n);
    if (depth_ == 1) {
      section_ = key == "Item"               ? kItem
                 : key == "Items"            ? kItems
                 : key == "LastEvaluatedKey" ? kLastKey
                                             : kOther;
      item_depth_ = section_ == kItem ? 2 : section_ == kItems ? 3 : kNone;
    } else if (depth_ == item_depth_) {
      outcome_.bytes += n;  // an attribute's name
      collected_name_ = outcome_.values != nullptr && key == outcome_.collect;
      collect_ = false;
    } else if (depth_ == item_depth_ + 1) {
      scalar_ = key == "S" || key == "N" || key == "B";
      collect_ = collected_name_ && key == "S";
    } else if (section_ == kLastKey && depth_ == 2) {
      if (last_key_.size() == kMaxKeyParts) {
        return Fail("LastEvaluatedKey has too many attributes");
      }
      last_key_.push_back({std::string(key), "", ""});
      type_seen_ = false;
    } else if (section_ == kLastKey && depth_ == 3) {
      if (type_seen_) return Fail("a LastEvaluatedKey attribute has more than one type");
      if (key.empty()) return Fail("a LastEvaluatedKey attribute has an empty type");
      last_key_.back().type.assign(key);
      type_seen_ = true;
    }
    return true;
  }

 private:
  enum Kind { kScalar, kNull, kString, kObject, kArray };
  enum Section { kOther, kItem, kItems, kLastKey };
  static constexpr int kNone = -10;  // item_depth_ outside Item / Items: matches no depth

  bool Fail(const char* why) {
    error_ = why;
    return false;
  }
  bool Open() {
    if (depth_ == kMaxResponseDepth) return Fail("nested too deep");
    ++depth_;
    return true;
  }
  bool Close() {
    --depth_;
    return true;
  }
  bool CountItem() {
    if (outcome_.items == INT_MAX) return Fail("too many items");
    ++outcome_.items;
    return true;
  }

  // Checks a value of `kind` about to be read at depth_ against the shape expected there.
  bool Value(Kind kind) {
    if (depth_ == 0) return kind == kObject || Fail("not a JSON object");
    if (depth_ == 1) {
      if (kind == kNull) return true;  // null: absent
      switch (section_) {
        case kItem:
          return kind == kObject ? CountItem() : Fail("\"Item\" is not an object");
        case kItems:
          return kind == kArray || Fail("\"Items\" is not an array");
        case kLastKey:
          if (kind != kObject) return Fail("\"LastEvaluatedKey\" is not an object");
          last_key_.clear();  // a repeated member replaces the first
          return true;
        case kOther:
          return true;
      }
    }
    switch (section_) {
      case kItems:
        if (depth_ == 2) {
          return kind == kObject ? CountItem() : Fail("an element of \"Items\" is not an object");
        }
        [[fallthrough]];
      case kItem:
        return depth_ != item_depth_ || kind == kObject ||
               Fail("an item's attribute value is not an object");
      case kLastKey:
        if (depth_ == 2) {
          return kind == kObject || Fail("a LastEvaluatedKey attribute is not an object");
        }
        return kind == kString || Fail("a LastEvaluatedKey attribute's value is not a string");
      case kOther:
        return true;
    }
    return true;
  }

  ReadOutcome& outcome_;
  std::vector<KeyPart>& last_key_;
  const char* error_ = nullptr;
  int depth_ = 0;
  Section section_ = kOther;
  int item_depth_ = kNone;
  bool scalar_ = false;          // the current type member is S, N or B
  bool collected_name_ = false;  // the current attribute is the one ReadOutcome::collect names
  bool collect_ = false;         // ... and its current type member is S: keep the value
  bool type_seen_ = false;       // the current LastEvaluatedKey attribute has its type member
};

}  // namespace

Status CountReadResponse(std::string_view body, ReadOutcome* outcome,
                         std::vector<KeyPart>* last_key) {
  last_key->clear();
  // RapidJSON's MemoryStream reads a NUL byte as the end of the input: "{}\0x" would be accepted.
  if (body.find('\0') != std::string_view::npos) return Status::Internal("a NUL byte in JSON");
  // One reader per thread: its stack (strings are decoded into it) is kept between responses.
  thread_local rapidjson::Reader reader;
  ReadCounter counter(outcome, last_key);
  rapidjson::MemoryStream in(body.data(), body.size());
  const rapidjson::ParseResult result = reader.Parse<rapidjson::kParseIterativeFlag>(in, counter);
  if (result) return Status::Ok();
  last_key->clear();
  if (counter.error() != nullptr) {
    std::string why = counter.error();
    if (why == "nested too deep") why += " (over " + std::to_string(kMaxResponseDepth) + " levels)";
    return Status::Internal(why + " at offset " + std::to_string(result.Offset()));
  }
  return Status::Internal(std::string("not JSON: ") + rapidjson::GetParseError_En(result.Code()) +
                          " at offset " + std::to_string(result.Offset()));
}

Status ErrorStatus(int http_status, std::string_view body) {
  std::string name, message;
  if (body.size() <= kMaxErrorBodyBytes) {
    rapidjson::Document doc;
    if (protocol::ParseJson(body, &doc).ok() && doc.IsObject()) {
      name = Text(doc, "__type");
      name.erase(0, name.find('#') + 1);  // npos + 1 == 0: nothing
      message = Text(doc, "message");
      if (message.empty()) message = Text(doc, "Message");
    }
  }
  if (name.empty()) {
    name = "HTTP " + std::to_string(http_status);
    message.assign(body.substr(0, 200));
  }
  name.resize(std::min(name.size(), kMaxErrorNameBytes));
  message.resize(std::min(message.size(), kMaxErrorMessageBytes));
  Code code = http_status >= 500 ? Code::kInternal : Code::kValidation;
  for (int c = 1; c <= static_cast<int>(Code::kInternal); ++c) {
    if (protocol::ExceptionName(static_cast<Code>(c)) == name) code = static_cast<Code>(c);
  }
  return Status(code, name + ": " + message);
}

Result<TableState> ParseDescribeTable(std::string_view body) {
  rapidjson::Document doc;
  const rapidjson::Value* table = nullptr;
  if (protocol::ParseJson(body, &doc).ok() && doc.IsObject()) {
    auto it = doc.FindMember("Table");
    if (it != doc.MemberEnd() && it->value.IsObject()) table = &it->value;
  }
  if (table == nullptr) return Status::Internal("not a JSON object with a \"Table\" object");
  TableState state;
  auto gsis = table->FindMember("GlobalSecondaryIndexes");
  if (gsis != table->MemberEnd() && gsis->value.IsArray()) {
    for (const auto& index : gsis->value.GetArray()) {
      if (!index.IsObject() || Text(index, "IndexStatus") != "ACTIVE") state.gsi_active = false;
    }
  }
  const std::string_view status = Text(*table, "TableStatus");
  state.status = status.empty() ? "ACTIVE" : status;
  return state;
}

Status ParseBatchWriteResponse(std::string_view body, std::string* unprocessed) {
  unprocessed->clear();
  rapidjson::Document doc;
  if (!protocol::ParseJson(body, &doc).ok() || !doc.IsObject()) {
    return Status::Internal("not a JSON object");
  }
  auto it = doc.FindMember("UnprocessedItems");
  if (it == doc.MemberEnd() || !it->value.IsObject() || it->value.MemberCount() == 0) {
    return Status::Ok();
  }
  rapidjson::StringBuffer out;
  rapidjson::Writer<rapidjson::StringBuffer> writer(out);
  it->value.Accept(writer);
  unprocessed->assign(out.GetString(), out.GetSize());
  return Status::Ok();
}

}  // namespace partstore::bench
