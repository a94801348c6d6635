// DynamoDB's AttributeValue JSON <-> typed Values and Items.
//
// Wire form (DynamoDB JSON 1.0): an AttributeValue is an object with exactly one type member,
//   {"S": "text"} {"N": "12.5"} {"B": "<base64>"} {"BOOL": true} {"NULL": true}
//   {"M": {"name": <AttributeValue>, ...}} {"L": [<AttributeValue>, ...]}
//   {"SS": ["a", ...]} {"NS": ["1", ...]} {"BS": ["<base64>", ...]}
// and an item is an object of attribute name -> AttributeValue.
//
// Decoding reproduces DynamoDB's checks and messages, in DynamoDB's order:
//   1. The shape of the whole JSON value is checked first (DynamoDB deserializes the request
//      before it validates anything): the first member, in document order, whose JSON type does
//      not fit its place is a SerializationException ("NUMBER_VALUE cannot be converted to
//      String", "Base64 encoded length is expected a multiple of 4 bytes but found: 5", ...).
//      Members with unknown names are ignored, and a member whose value is null is absent, as in
//      DynamoDB.
//   2. Then values are validated and built, depth first in document order, stopping at the first
//      ValidationException: within one AttributeValue the type members are checked in the fixed
//      order S, SS, N, NS, B, BS, M, L, BOOL, NULL (DynamoDB Local's InputConverter), then "empty"
//      / "more than one datatypes"; within a map each value is checked before its name.
// Every message, its evidence and the decisions on uncertain cases are listed in
// attribute_value_json.cc. Item size and key rules are not checked here (ValidateItem, key.h).
//
// Duplicate member names keep the last occurrence (as a Java map does); earlier occurrences are
// still shape-checked but never validated.
//
// Robustness: parsing is iterative (kParseIterativeFlag) and stops at 1000 JSON levels, the shape
// check uses an explicit stack, and the value builder recurses only down to the nesting limit, so
// no input can exhaust the call stack (nor, through depth, the heap); malformed input of any kind
// is a Status, never an exception or an abort.
//
// Encoding writes canonical JSON: numbers in canonical form (Number::AppendTo), B/BS as padded
// base64, set elements in their stored (sorted) order, map members in name order. Encoding never
// fails; an encoded value decodes to an equal value (for values that satisfy ValidateValue).
//
// Thread safety: free functions; thread-safe for distinct arguments (a JsonWriter and an InsituJson
// are not: one per thread, or per request).
#pragma once

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstddef>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "partstore/item.h"
#include "partstore/status.h"
#include "partstore/stored_item.h"
#include "partstore/value.h"

namespace partstore::protocol {

// RapidJSON's Writer into a StringBuffer, plus RawJson: a value already encoded as JSON, copied
// with one memcpy (the Writer's own RawValue copies a byte at a time: 5% of a GetItem answer).
class JsonWriter : public rapidjson::Writer<rapidjson::StringBuffer> {
 public:
  using rapidjson::Writer<rapidjson::StringBuffer>::Writer;
  // REQUIRES: `json` is one complete JSON value of `type`.
  void RawJson(std::string_view json, rapidjson::Type type) {
    Prefix(type);
    std::memcpy(os_->Push(json.size()), json.data(), json.size());
    EndValue(true);
  }
};

// `key` as an object member's name, `value` as a JSON string.
inline void Key(JsonWriter& w, std::string_view key) {
  w.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
}
inline void String(JsonWriter& w, std::string_view value) {
  w.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
}
// The member `key` with `value` as a JSON string.
inline void Key(JsonWriter& w, const char* key, std::string_view value) {
  w.Key(key);
  w.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
}
// The JSON text written into `buffer`.
inline std::string Finish(const rapidjson::StringBuffer& buffer) {
  return {buffer.GetString(), buffer.GetSize()};
}

// A JSON string's text. REQUIRES: value.IsString().
std::string_view StringOf(const rapidjson::Value& value);
// The same, copied. REQUIRES: value != nullptr && value->IsString().
inline std::string Str(const rapidjson::Value* value) { return std::string(StringOf(*value)); }
// The strings DynamoDB converts to a Boolean (any case): true/false, yes/no, 1/0.
std::optional<bool> BooleanFromString(std::string_view s);
// A Boolean member: JSON true/false, or a string DynamoDB converts; false for anything else.
bool BooleanOf(const rapidjson::Value& value);

// SerializationException texts the AttributeValue shape check shares with the request decoders
// (request_json.cc).
inline constexpr std::string_view kUnexpectedValueType = "Unexpected value type in payload";
inline constexpr std::string_view kUnexpectedFieldType = "Unexpected field type";
inline constexpr std::string_view kStructureNotExpected =
    "Start of structure or map found where not expected";

// Java's view of a JSON number: an integer literal is a NUMBER_VALUE, anything with a fraction or
// an exponent a DECIMAL_VALUE.
inline std::string_view NumberToken(const rapidjson::Value& v) {
  return v.IsDouble() ? "DECIMAL_VALUE" : "NUMBER_VALUE";
}

// Whether `text` is valid UTF-8 as RapidJSON's strict validator (rapidjson::UTF8<>::Validate)
// takes it: no overlong forms, no surrogates, nothing past U+10FFFF, no truncated sequence.
// Runs of ASCII are checked 8 bytes at a time; every other sequence goes through RapidJSON's.
bool IsValidUtf8(std::string_view text);

// The level a top-level attribute value stands at: the item is level 1 (see kMaxNestingDepth).
inline constexpr int kAttributeValueDepth = 2;

// Parses a whole JSON document. Malformed JSON (syntax, invalid UTF-8, a lone \udc00-style
// surrogate escape, a raw NUL byte, a byte order mark, trailing content, or nesting deeper than
// 1000 JSON levels, which bounds the parser's memory) is a SerializationException with an empty
// message, as DynamoDB sends it.
Status ParseJson(std::string_view text, rapidjson::Document* document);

// A JSON text parsed as ParseJson parses it (the same errors), in place: the text is copied into
// the object (inline below 4 KB) and its strings are decoded where they stand; the values live in
// an inline pool of 8 KB and the parse stacks in one of 2 KB, with heap chunks past either. So a
// small request body is parsed without copying a string, and mostly without the heap. The server
// parses every request body so. Its values point into the object: it is neither copied nor moved,
// and root() lives as long as it does, or until the next Parse.
class InsituJson {
 public:
  InsituJson();
  ~InsituJson();
  InsituJson(const InsituJson&) = delete;
  InsituJson& operator=(const InsituJson&) = delete;

  // Parses `text`, discarding the document of any earlier Parse.
  Status Parse(std::string_view text);
  // The document's root (null before a successful Parse).
  const rapidjson::Value& root() const { return document_; }

 private:
  using PooledDocument =
      rapidjson::GenericDocument<rapidjson::UTF8<>, rapidjson::MemoryPoolAllocator<>,
                                 rapidjson::MemoryPoolAllocator<>>;
  char small_text_[4096];
  std::unique_ptr<char[]> large_text_;
  // The pools write their chunk headers (pointers) at the start of these buffers.
  alignas(std::max_align_t) char value_buffer_[8192];
  alignas(std::max_align_t) char stack_buffer_[2048];
  rapidjson::MemoryPoolAllocator<> value_allocator_;
  rapidjson::MemoryPoolAllocator<> stack_allocator_;
  PooledDocument document_;
};

// Step 1 alone: the first SerializationException in `json` read as an item / an AttributeValue,
// or OK. Request parsers call these for every AttributeValue-bearing member of a request before
// decoding any of them, so that a type error anywhere wins over a validation error anywhere.
Status CheckItemJson(const rapidjson::Value& json);
Status CheckAttributeValueJson(const rapidjson::Value& json);

// One AttributeValue, e.g. {"S": "x"}. `depth` is the level the value stands at (2 for an item
// attribute or an expression attribute value), for the nesting limit.
Result<Value> DecodeAttributeValue(const rapidjson::Value& json, int depth = kAttributeValueDepth);

// An item (or a key): {"name": {"S": "x"}, ...}. Attribute names must be non-empty and at most
// kMaxAttributeNameSize bytes, at the top level and in nested maps.
Result<Item> DecodeItem(const rapidjson::Value& json);

// An item's JSON encoded straight into the engine's form, with no tree between
// (tools/protocol/stored_item_from_json.cc): the bytes and size of StoredItem::Encode(
// *DecodeItem(json)). nullopt when it declines: for every item DecodeItem refuses, and for a few
// valid but unusual forms (a name or a type member given twice, BOOL or NULL as a string). The
// caller then runs DecodeItem, which gives DynamoDB's error. It does not check the
// 400 KB limit (Database::PutStoredItem does, after the key, as PutItem orders its errors).
std::optional<StoredItem> EncodeItemJson(const rapidjson::Value& json);

// The type an AttributeValue member name denotes ("S", "NS", "BOOL", ...), or nullopt for any
// other name (ignored: DynamoDB ignores unknown members). Case-sensitive.
std::optional<Type> TypeOfMember(const rapidjson::Value& name);

// ParseJson + DecodeItem on a document whose root is the item (parsed in situ in a private copy:
// faster than ParseJson, same results).
Result<Item> ParseItemJson(std::string_view text);

// Canonical JSON writers. WriteAttributeValue writes one AttributeValue object, WriteItem one
// item object, each as a single JSON value at the writer's current position. ValueToJson and
// ItemToJson produce the same bytes as a string. All of them encode without RapidJSON's Writer
// (about 2.5x faster), escaping as it does.
void WriteAttributeValue(const Value& value, JsonWriter& writer);
void WriteItem(const Item& item, JsonWriter& writer);
std::string ValueToJson(const Value& value);
std::string ItemToJson(const Item& item);
// The same bytes written straight from a stored item's encoding, with no tree in between.
// REQUIRES: !item.empty() (a handle that holds an item).
void WriteAttributeValue(const ValueView& value, JsonWriter& writer);
void WriteItem(const StoredItem& item, JsonWriter& writer);
std::string ValueToJson(const ValueView& value);
std::string ItemToJson(const StoredItem& item);

}  // namespace partstore::protocol
