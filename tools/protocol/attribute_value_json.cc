// AttributeValue JSON, the reading half (the writers are in attribute_value_json_writer.cc): see
// attribute_value_json.h for the contract.
//
// Messages and their evidence
// ---------------------------
// [live]   = architect/dynalite test/*.js @ 6caa634 (helpers.js assertType tables for the
//            SerializationExceptions; batchWriteItem.js / putItem.js for the validations). These
//            tests run against live DynamoDB (REMOTE=1), so their texts are DynamoDB's.
// [conf]   = nubo-db/dynamodb-conformance: tests/tier3 and captures/2026-06-09, 2026-08-12
//            (multi-region captures of live DynamoDB).
// [local]  = DynamoDB Local's shared validation layer (decompiled ErrorFactory, InputConverter,
//            LocalDBInputConverter): AWS's own code, used where no live capture exists.
//
//   {} / unknown type keys only        "Supplied AttributeValue is empty, must contain exactly one
//                                      of the supported datatypes"                [live][local]
//   two or more types                  "Supplied AttributeValue has more than one datatypes set,
//                                      must contain exactly one of the supported datatypes"
//   NULL false                         "One or more parameter values were invalid: Null attribute
//                                      value types must have the value of true"   [live][conf]
//   SS / NS / BS empty                 messages::kEmpty{String,Number,Binary}Set  [live][conf]
//   SS duplicates                      "One or more parameter values were invalid: Input
//                                      collection [a, a] contains duplicates."    [live][conf]
//   NS duplicates (numeric equality)   "Input collection contains duplicates"     [live]
//   BS duplicates                      "One or more parameter values were invalid: Input
//                                      collection [Yg==, Yg==]of type BS contains duplicates."
//                                      (sic: no space before "of")                [live][conf]
//   null value in a map / item         "The supplied Item contains a null AttributeValue: a is
//                                      null"; null list element or BS element: without the
//                                      suffix                                     [local]
//   null SS element                    "One or more parameter values were invalid: An string set
//                                      may not have a null string as a member"    [local] (and
//                                      AWS's DAX client RequestValidator)
//   bad N                              Number::Parse's message                    (number.cc)
//   nesting beyond 32 levels           messages::kNestingTooDeep                  [conf][local]
//   empty / too long attribute name    messages::kEmptyAttributeName / kAttributeNameTooLarge
//                                                                                 [local]
// SerializationException (JSON key "Message" on the wire; the message text only here):
//   AttributeValue not an object       "Unexpected value type in payload" (scalar),
//                                      "Unrecognized collection type class
//                                      com.amazonaws.dynamodb.v20120810.AttributeValue" (array)
//   S / N / SS,NS element not string   "TRUE_VALUE cannot be converted to String", FALSE_VALUE,
//                                      NUMBER_VALUE (integer), DECIMAL_VALUE (fraction or
//                                      exponent), "Unrecognized collection type class
//                                      java.lang.String" (array), "Start of structure or map
//                                      found where not expected" (object)
//   B / BS element not a string        "only base-64-encoded strings are convertible to bytes",
//                                      "Unrecognized collection type class java.nio.ByteBuffer"
//   bad base64                         "Base64 encoded length is expected a multiple of 4 bytes
//                                      but found: 5" (length in UTF-16 units, as Java counts),
//                                      "Invalid last non-pad Base64 character dectected" (sic)
//   BOOL / NULL not a boolean          "Unexpected token received from parser" (string),
//                                      "NUMBER_VALUE cannot be converted to Boolean",
//                                      DECIMAL_VALUE, "Unrecognized collection type class
//                                      java.lang.Boolean"
//   SS / NS / BS / L not an array      "Unexpected field type"; an object: "Start of structure or
//                                      map found where not expected"
//   M / item not an object             "Unexpected field type"; an array: "Unrecognized
//                                      collection type java.util.Map<java.lang.String,
//                                      com.amazonaws.dynamodb.v20120810.AttributeValue>"
//   malformed JSON                     no message (dynalite index.js)
//
// Decisions where the evidence is thin
// ------------------------------------
// - Wording generation. In 2026 DynamoDB began rewording validation errors region by region
//   [conf]: the new form prefixes "1 validation error detected: ", quotes SS elements
//   (["a", "a"]) and renders BS as ["",""]of type BS, and accepts {"NULL": false} as NULL. As of
//   the 2026-08-12 capture most regions (ap-*, us-east-2, us-west-*, eu-west-1, ...) still give
//   the long-standing wording, which is what every SDK user and emulator knows; partstore follows
//   it. The rewording is a known divergence in the regions that have it.
// - A base64 character outside the alphabet: no current capture; the message is the one DynamoDB
//   gave before it dropped the "'<value>' can not be converted to a Blob: " prefix from the other
//   two base64 messages: "Invalid Base64 character: '!'".
// - BOOL / NULL given a string: '23' is rejected [live]; {"NULL": "no"} reaches validation
//   [live], and DynamoDB was observed converting true/false/yes/no/1/0 (dynalite
//   validations/index.js), so those strings (any case) are read as booleans.
// - A JSON integer literal beyond 64 bits is reported as DECIMAL_VALUE (RapidJSON keeps it as a
//   double); Java would say NUMBER_VALUE.
// - Order of NS checks: empty, then each element's number check in order, then duplicates
//   (dynalite). SS and BS: empty, duplicates, then null members (DynamoDB Local).
#include "tools/protocol/attribute_value_json.h"

#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

#include <algorithm>
#include <array>
#include <boost/container/small_vector.hpp>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "core/utf8.h"
#include "tools/protocol/base64.h"

namespace partstore::protocol {

std::string_view StringOf(const rapidjson::Value& value) {
  return {value.GetString(), value.GetStringLength()};
}

// The strings DynamoDB converts to a Boolean (any case): true/false, yes/no, 1/0 (dynalite
// validations/index.js, observed against DynamoDB).
std::optional<bool> BooleanFromString(std::string_view s) {
  auto equals = [s](std::string_view word) {
    return s.size() == word.size() && std::equal(s.begin(), s.end(), word.begin(),
                                                 [](char a, char b) { return (a | 0x20) == b; });
  };
  if (equals("true") || equals("yes") || s == "1") return true;
  if (equals("false") || equals("no") || s == "0") return false;
  return std::nullopt;
}

bool BooleanOf(const rapidjson::Value& value) {
  if (value.IsBool()) return value.GetBool();
  if (value.IsString()) return BooleanFromString(StringOf(value)).value_or(false);
  return false;
}

// The type a member name denotes, or nullopt (unknown members are ignored). Case-sensitive.
std::optional<Type> TypeOfMember(const rapidjson::Value& name) {
  const char* s = name.GetString();
  switch (name.GetStringLength()) {
    case 1:
      if (s[0] == 'S') return Type::kS;
      if (s[0] == 'N') return Type::kN;
      if (s[0] == 'B') return Type::kB;
      if (s[0] == 'M') return Type::kM;
      if (s[0] == 'L') return Type::kL;
      return std::nullopt;
    case 2:
      if (s[1] != 'S') return std::nullopt;
      if (s[0] == 'S') return Type::kSS;
      if (s[0] == 'N') return Type::kNS;
      if (s[0] == 'B') return Type::kBS;
      return std::nullopt;
    case 4:
      if (std::string_view(s, 4) == "BOOL") return Type::kBool;
      if (std::string_view(s, 4) == "NULL") return Type::kNull;
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

namespace {

using JsonValue = rapidjson::Value;

// ---- Messages ------------------------------------------------------------------------------

constexpr std::string_view kEmptyAttributeValue =
    "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes";
constexpr std::string_view kMultipleDatatypes =
    "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the "
    "supported datatypes";
constexpr std::string_view kNullNotTrue =
    "One or more parameter values were invalid: Null attribute value types must have the value "
    "of true";
constexpr std::string_view kNullAttributeValue = "The supplied Item contains a null AttributeValue";
constexpr std::string_view kNullStringSetMember =
    "One or more parameter values were invalid: An string set may not have a null string as a "
    "member";
constexpr std::string_view kInvalidParameterPrefix = "One or more parameter values were invalid: ";
constexpr std::string_view kNumberSetDuplicates = "Input collection contains duplicates";

// (kUnexpectedValueType, kUnexpectedFieldType, kStructureNotExpected: attribute_value_json.h.)
constexpr std::string_view kAttributeValueCollection =
    "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.AttributeValue";
constexpr std::string_view kMapCollection =
    "Unrecognized collection type java.util.Map<java.lang.String, "
    "com.amazonaws.dynamodb.v20120810.AttributeValue>";
constexpr std::string_view kStringCollection =
    "Unrecognized collection type class java.lang.String";
constexpr std::string_view kBooleanCollection =
    "Unrecognized collection type class java.lang.Boolean";
constexpr std::string_view kBlobCollection =
    "Unrecognized collection type class java.nio.ByteBuffer";
constexpr std::string_view kBlobNotString = "only base-64-encoded strings are convertible to bytes";
constexpr std::string_view kBooleanToken = "Unexpected token received from parser";
constexpr std::string_view kBase64Length =
    "Base64 encoded length is expected a multiple of 4 bytes but found: ";
constexpr std::string_view kBase64LastCharacter = "Invalid last non-pad Base64 character dectected";
constexpr std::string_view kBase64Character = "Invalid Base64 character: '";

[[gnu::cold]] Status Serialization(std::string_view message) {
  return Status::Serialization(std::string(message));
}
[[gnu::cold]] Status Validation(std::string_view message) {
  return Status::Validation(std::string(message));
}

// ---- Type members ----------------------------------------------------------------------------

// The type members in the order DynamoDB checks them (DynamoDB Local's InputConverter).
constexpr std::array<Type, 10> kCheckOrder = {Type::kS,    Type::kSS,  Type::kN, Type::kNS,
                                              Type::kB,    Type::kBS,  Type::kM, Type::kL,
                                              Type::kBool, Type::kNull};

// ---- Step 1: shape -------------------------------------------------------------------------

Status CheckStringValue(const JsonValue& v) {
  if (v.IsString()) return Status::Ok();
  if (v.IsTrue()) return Serialization("TRUE_VALUE cannot be converted to String");
  if (v.IsFalse()) return Serialization("FALSE_VALUE cannot be converted to String");
  if (v.IsNumber()) {
    return Serialization(std::string(NumberToken(v)) + " cannot be converted to String");
  }
  if (v.IsArray()) return Serialization(kStringCollection);
  return Serialization(kStructureNotExpected);  // An object.
}

[[gnu::cold]] Status Base64Error(std::string_view text, const base64::DecodeError& error) {
  switch (error.kind) {
    case base64::DecodeError::Kind::kLength:
      return Serialization(std::string(kBase64Length) + std::to_string(Utf16Length(text)));
    case base64::DecodeError::Kind::kNonZeroTrailingBits:
      return Serialization(kBase64LastCharacter);
    default: {
      // The whole UTF-8 sequence at the position: Java reports a character, not a byte.
      size_t length = 1;
      auto lead = static_cast<unsigned char>(text[error.position]);
      if (lead >= 0xF0)
        length = 4;
      else if (lead >= 0xE0)
        length = 3;
      else if (lead >= 0xC0)
        length = 2;
      length = std::min(length, text.size() - error.position);
      std::string message(kBase64Character);
      message.append(text.substr(error.position, length)).push_back('\'');
      return Status::Serialization(std::move(message));
    }
  }
}

Status CheckBlob(const JsonValue& v) {
  if (v.IsString()) {
    base64::DecodeError error = base64::Validate(StringOf(v));
    if (error.kind == base64::DecodeError::Kind::kNone) return Status::Ok();
    return Base64Error(StringOf(v), error);
  }
  if (v.IsBool() || v.IsNumber()) return Serialization(kBlobNotString);
  if (v.IsArray()) return Serialization(kBlobCollection);
  return Serialization(kStructureNotExpected);
}

Status CheckBooleanValue(const JsonValue& v) {
  if (v.IsBool()) return Status::Ok();
  if (v.IsString()) {
    return BooleanFromString(StringOf(v)) ? Status::Ok() : Serialization(kBooleanToken);
  }
  if (v.IsNumber()) {
    return Serialization(std::string(NumberToken(v)) + " cannot be converted to Boolean");
  }
  if (v.IsArray()) return Serialization(kBooleanCollection);
  return Serialization(kStructureNotExpected);
}

// What a JSON value stands for in the wire model, which fixes the checks it gets.
enum class Role : uint8_t {
  kItem,            // An object of name -> AttributeValue (an item, or the value of "M").
  kAttributeValue,  // One AttributeValue object.
  kValueList,       // The value of "L": an array of AttributeValues.
  kStringList,      // The value of "SS" or "NS".
  kBlobList,        // The value of "BS".
};

struct Frame {
  const JsonValue* node;  // An object (kItem, kAttributeValue) or an array (the lists).
  Role role;
  uint32_t next;  // Index of the next member or element to visit.
};

// Checks `v` in `role`; containers to descend into are pushed on *stack.
Status Visit(const JsonValue& v, Role role, std::vector<Frame>* stack) {
  if (v.IsNull()) return Status::Ok();  // Absent; step 2 decides whether that is allowed.
  switch (role) {
    case Role::kItem:
      if (v.IsObject()) break;
      return Serialization(v.IsArray() ? kMapCollection : kUnexpectedFieldType);
    case Role::kAttributeValue:
      if (v.IsObject()) break;
      return Serialization(v.IsArray() ? kAttributeValueCollection : kUnexpectedValueType);
    case Role::kValueList:
    case Role::kStringList:
    case Role::kBlobList:
      if (v.IsArray()) break;
      return Serialization(v.IsObject() ? kStructureNotExpected : kUnexpectedFieldType);
  }
  stack->push_back({&v, role, 0});
  return Status::Ok();
}

// A member of an AttributeValue object.
Status VisitTypeMember(const JsonValue& name, const JsonValue& v, std::vector<Frame>* stack) {
  std::optional<Type> type = TypeOfMember(name);
  if (!type || v.IsNull()) return Status::Ok();
  switch (*type) {
    case Type::kS:
    case Type::kN:
      return CheckStringValue(v);
    case Type::kB:
      return CheckBlob(v);
    case Type::kBool:
    case Type::kNull:
      return CheckBooleanValue(v);
    case Type::kSS:
    case Type::kNS:
      return Visit(v, Role::kStringList, stack);
    case Type::kBS:
      return Visit(v, Role::kBlobList, stack);
    case Type::kL:
      return Visit(v, Role::kValueList, stack);
    case Type::kM:
      return Visit(v, Role::kItem, stack);
  }
  return Status::Ok();
}

// The first SerializationException in `root` (read in `role`), in document order. Iterative:
// the explicit stack grows with the input's depth, the call stack does not.
Status CheckValueShape(const JsonValue& root, Role role) {
  std::vector<Frame> stack;
  PARTSTORE_RETURN_IF_ERROR(Visit(root, role, &stack));
  while (!stack.empty()) {
    Frame& frame = stack.back();
    const JsonValue& node = *frame.node;
    const Role frame_role = frame.role;
    if (node.IsObject()) {
      if (frame.next == node.MemberCount()) {
        stack.pop_back();
        continue;
      }
      const auto& member = node.MemberBegin()[frame.next++];
      // `frame` may dangle after a push below; only copies are used from here on.
      if (frame_role == Role::kItem) {
        PARTSTORE_RETURN_IF_ERROR(Visit(member.value, Role::kAttributeValue, &stack));
      } else {
        PARTSTORE_RETURN_IF_ERROR(VisitTypeMember(member.name, member.value, &stack));
      }
      continue;
    }
    if (frame.next == node.Size()) {
      stack.pop_back();
      continue;
    }
    const JsonValue& element = node[frame.next++];
    switch (frame_role) {
      case Role::kValueList:
        PARTSTORE_RETURN_IF_ERROR(Visit(element, Role::kAttributeValue, &stack));
        break;
      case Role::kStringList:
        if (!element.IsNull()) PARTSTORE_RETURN_IF_ERROR(CheckStringValue(element));
        break;
      case Role::kBlobList:
        if (!element.IsNull()) PARTSTORE_RETURN_IF_ERROR(CheckBlob(element));
        break;
      default:
        break;
    }
  }
  return Status::Ok();
}

// ---- Step 2: validate and build ------------------------------------------------------------
//
// Runs only on JSON that passed CheckValueShape, so the JSON types are known; recursion stops at
// the nesting limit.

// "[a, b]": the input collection as Java's List.toString() renders it (null as "null").
std::string RenderCollection(const JsonValue& array, std::string_view separator) {
  std::string out = "[";
  bool first = true;
  for (const JsonValue& element : array.GetArray()) {
    if (!first) out.append(separator);
    first = false;
    if (element.IsNull()) {
      out.append("null");
    } else {
      out.append(StringOf(element));
    }
  }
  out.push_back(']');
  return out;
}

[[gnu::cold]] Status StringSetDuplicates(const JsonValue& array) {
  std::string message(kInvalidParameterPrefix);
  message.append("Input collection ").append(RenderCollection(array, ", "));
  message.append(" contains duplicates.");
  return Status::Validation(std::move(message));
}

[[gnu::cold]] Status BinarySetDuplicates(const JsonValue& array) {
  std::string message(kInvalidParameterPrefix);
  message.append("Input collection ").append(RenderCollection(array, ", "));
  message.append("of type BS contains duplicates.");
  return Status::Validation(std::move(message));
}

[[gnu::cold]] Status NullMapValue(std::string_view name) {
  std::string message(kNullAttributeValue);
  message.append(": ").append(name).append(" is null");
  return Status::Validation(std::move(message));
}

Status DecodeValue(const JsonValue& json, int depth, Value* out);

// Decodes the members of a name -> AttributeValue object into *out; the values stand at
// `value_depth`. Duplicate names keep the last occurrence; survivors are validated in document
// order and stored in name order without re-sorting Values.
Status DecodeMembers(const JsonValue& object, int value_depth, AttributeMap* out) {
  const uint32_t count = object.MemberCount();
  if (count == 0) return Status::Ok();
  const auto* members = &*object.MemberBegin();
  struct Entry {
    std::string_view name;
    uint32_t position;
  };
  boost::container::small_vector<Entry, 16> sorted(count);
  for (uint32_t i = 0; i < count; ++i) sorted[i] = {StringOf(members[i].name), i};
  std::sort(sorted.begin(), sorted.end(), [](const Entry& a, const Entry& b) {
    return a.name != b.name ? a.name < b.name : a.position < b.position;
  });
  // slot[position]: where the member goes in the sorted output, or kDropped if a later member
  // has the same name.
  constexpr uint32_t kDropped = UINT32_MAX;
  boost::container::small_vector<uint32_t, 16> slot(count, kDropped);
  uint32_t survivors = 0;
  for (uint32_t i = 0; i < count; ++i) {
    if (i + 1 < count && sorted[i + 1].name == sorted[i].name) continue;
    slot[sorted[i].position] = survivors++;
  }
  AttributeMap::sequence_type sequence(survivors);
  for (uint32_t i = 0; i < count; ++i) {
    if (slot[i] == kDropped) continue;
    const std::string_view name = StringOf(members[i].name);
    const JsonValue& json = members[i].value;
    if (json.IsNull()) return NullMapValue(name);
    auto& entry = sequence[slot[i]];
    PARTSTORE_RETURN_IF_ERROR(DecodeValue(json, value_depth, &entry.second));
    PARTSTORE_RETURN_IF_ERROR(CheckAttributeName(name));
    entry.first.assign(name);
  }
  out->adopt_sequence(boost::container::ordered_unique_range, std::move(sequence));
  return Status::Ok();
}

Status DecodeStringSet(const JsonValue& array, Value* out) {
  if (array.Empty()) return Validation(messages::kEmptyStringSet);
  std::vector<std::string> elements;
  elements.reserve(array.Size());
  int nulls = 0;
  for (const JsonValue& element : array.GetArray()) {
    if (element.IsNull()) {
      ++nulls;
    } else {
      elements.emplace_back(StringOf(element));
    }
  }
  if (nulls > 1) return StringSetDuplicates(array);
  std::optional<StringSet> set = StringSet::FromUnique(std::move(elements));
  if (!set) return StringSetDuplicates(array);
  if (nulls > 0) return Validation(kNullStringSetMember);
  *out = Value(std::move(*set));
  return Status::Ok();
}

Status DecodeNumberSet(const JsonValue& array, Value* out) {
  if (array.Empty()) return Validation(messages::kEmptyNumberSet);
  std::vector<Number> elements;
  elements.reserve(array.Size());
  for (const JsonValue& element : array.GetArray()) {
    // A null member is read as empty text: "The parameter cannot be converted to a numeric value".
    Result<Number> number = Number::Parse(element.IsNull() ? "" : StringOf(element));
    if (!number.ok()) return number.error();
    elements.push_back(*number);
  }
  std::optional<NumberSet> set = NumberSet::FromUnique(std::move(elements));
  if (!set) return Validation(kNumberSetDuplicates);
  *out = Value(std::move(*set));
  return Status::Ok();
}

// REQUIRES: `json` passed CheckBlob.
void DecodeBlob(const JsonValue& json, std::string* bytes) {
  base64::DecodeError unused;
  base64::Decode(StringOf(json), bytes, &unused);
}

Status DecodeBinarySet(const JsonValue& array, Value* out) {
  if (array.Empty()) return Validation(messages::kEmptyBinarySet);
  std::vector<Bytes> elements;
  elements.reserve(array.Size());
  int nulls = 0;
  for (const JsonValue& element : array.GetArray()) {
    if (element.IsNull()) {
      ++nulls;
      continue;
    }
    DecodeBlob(element, &elements.emplace_back().data);
  }
  if (nulls > 1) return BinarySetDuplicates(array);
  std::optional<BinarySet> set = BinarySet::FromUnique(std::move(elements));
  if (!set) return BinarySetDuplicates(array);
  if (nulls > 0) return Validation(kNullAttributeValue);
  *out = Value(std::move(*set));
  return Status::Ok();
}

// One type member's value, already known to be present (not null) and of the right JSON type.
Status DecodeTyped(Type type, const JsonValue& json, int depth, Value* out) {
  switch (type) {
    case Type::kS:
      *out = Value(std::string(StringOf(json)));
      return Status::Ok();
    case Type::kN: {
      Result<Number> number = Number::Parse(StringOf(json));
      if (!number.ok()) return number.error();
      *out = Value(*number);
      return Status::Ok();
    }
    case Type::kB: {
      Bytes bytes;
      DecodeBlob(json, &bytes.data);
      *out = Value(std::move(bytes));
      return Status::Ok();
    }
    case Type::kBool:
      *out = Value(BooleanOf(json));
      return Status::Ok();
    case Type::kNull:
      if (!BooleanOf(json)) return Validation(kNullNotTrue);
      *out = Value(Null{});
      return Status::Ok();
    case Type::kSS:
      return DecodeStringSet(json, out);
    case Type::kNS:
      return DecodeNumberSet(json, out);
    case Type::kBS:
      return DecodeBinarySet(json, out);
    case Type::kM: {
      // Only maps and lists make levels; one standing beyond level 32 is too deep.
      if (depth > kMaxNestingDepth) return Validation(messages::kNestingTooDeep);
      AttributeMap map;
      PARTSTORE_RETURN_IF_ERROR(DecodeMembers(json, depth + 1, &map));
      *out = Value(std::move(map));
      return Status::Ok();
    }
    case Type::kL: {
      if (depth > kMaxNestingDepth) return Validation(messages::kNestingTooDeep);
      ValueList list(json.Size());
      for (uint32_t i = 0; i < json.Size(); ++i) {
        PARTSTORE_RETURN_IF_ERROR(DecodeValue(json[i], depth + 1, &list[i]));
      }
      *out = Value(std::move(list));
      return Status::Ok();
    }
  }
  return Status::Ok();
}

Status DecodeValue(const JsonValue& json, int depth, Value* out) {
  if (json.IsNull()) return Validation(kNullAttributeValue);
  // The present type members; a repeated member keeps its last occurrence.
  std::array<const JsonValue*, 10> present{};
  for (const auto& member : json.GetObject()) {
    if (member.value.IsNull()) continue;
    if (std::optional<Type> type = TypeOfMember(member.name)) {
      present[static_cast<size_t>(*type)] = &member.value;
    }
  }
  int types = 0;
  for (Type type : kCheckOrder) {
    const JsonValue* member = present[static_cast<size_t>(type)];
    if (member == nullptr) continue;
    ++types;
    PARTSTORE_RETURN_IF_ERROR(DecodeTyped(type, *member, depth, out));
  }
  if (types == 1) return Status::Ok();
  return Validation(types == 0 ? kEmptyAttributeValue : kMultipleDatatypes);
}

// JSON nesting deeper than this fails the parse (a SerializationException, like malformed JSON).
// The deepest legal request nests about 75 levels (a 32-level item is 64 JSON levels, plus the
// request around it); 1000 is also Jackson's default limit. Without a limit a 16 MB body of '['
// would cost the parser ~40 bytes of heap per byte of input.
constexpr int kMaxJsonDepth = 1000;

// Whether a decoded string holds a UTF-16 surrogate (ED A0..BF xx in UTF-8). Raw input bytes are
// validated by RapidJSON, but a lone "\udc00" escape decodes to such a sequence, which is not
// valid UTF-8; such text is malformed JSON here.
bool HasSurrogate(const char* s, rapidjson::SizeType n) {
  const char* end = s + n;
  for (const char* p = s; (p = static_cast<const char*>(std::memchr(p, '\xED', end - p)));) {
    if (++p < end && static_cast<unsigned char>(*p) >= 0xA0) return true;
  }
  return false;
}

// Forwards RapidJSON's SAX events to a document, failing past kMaxJsonDepth and, when the text
// has a \u escape (`escapes`), on strings that decode to a surrogate.
template <typename Document>
class DepthLimitedHandler {
 public:
  using Ch = char;
  DepthLimitedHandler(Document& document, bool escapes) : document_(document), escapes_(escapes) {}

  bool Null() { return document_.Null(); }
  bool Bool(bool b) { return document_.Bool(b); }
  bool Int(int i) { return document_.Int(i); }
  bool Uint(unsigned u) { return document_.Uint(u); }
  bool Int64(int64_t i) { return document_.Int64(i); }
  bool Uint64(uint64_t u) { return document_.Uint64(u); }
  bool Double(double d) { return document_.Double(d); }
  bool RawNumber(const Ch* s, rapidjson::SizeType n, bool copy) {
    return document_.RawNumber(s, n, copy);
  }
  bool String(const Ch* s, rapidjson::SizeType n, bool copy) {
    return !(escapes_ && HasSurrogate(s, n)) && document_.String(s, n, copy);
  }
  bool Key(const Ch* s, rapidjson::SizeType n, bool copy) {
    return !(escapes_ && HasSurrogate(s, n)) && document_.Key(s, n, copy);
  }
  bool StartObject() { return ++depth_ <= kMaxJsonDepth && document_.StartObject(); }
  bool EndObject(rapidjson::SizeType members) {
    --depth_;
    return document_.EndObject(members);
  }
  bool StartArray() { return ++depth_ <= kMaxJsonDepth && document_.StartArray(); }
  bool EndArray(rapidjson::SizeType elements) {
    --depth_;
    return document_.EndArray(elements);
  }

 private:
  Document& document_;
  const bool escapes_;
  int depth_ = 0;
};

// The RapidJSON parse flags for request bodies: iterative (the call stack stays flat however deep
// the input nests). The text's encoding is checked whole before the parse (IsValidUtf8), which is
// faster than RapidJSON's check of each string's bytes (kParseValidateEncodingFlag) and refuses
// the same bodies: a byte that is not valid UTF-8 outside a string is a syntax error either way.
// Only ParseStreamInto parses with them: it makes that check first.
constexpr unsigned kJsonParseFlags = rapidjson::kParseIterativeFlag;

// Parses `text`, whose bytes `input` (a RapidJSON stream) reads, into *document with
// kJsonParseFlags | extra flags, depth-limited, after the checks of the whole text (no raw NUL,
// valid UTF-8). The reader's own stack comes from *reader_allocator (nullptr: the heap).
template <unsigned kExtraFlags, typename Document, typename Stream, typename ReaderAllocator>
Status ParseStreamInto(std::string_view text, Stream& input, Document* document,
                       ReaderAllocator* reader_allocator) {
  // RapidJSON's streams report a raw NUL byte as the end of the input, so "{}\0junk" would parse;
  // a raw NUL is never valid JSON.
  if (text.find('\0') != std::string_view::npos || !IsValidUtf8(text)) {
    document->SetNull();
    return Status::Serialization("");
  }
  // Raw bytes are valid UTF-8 now; only a \u escape can decode to a surrogate.
  const bool escapes = text.find("\\u") != std::string_view::npos;
  rapidjson::ParseResult result;
  auto generator = [&](Document& target) {
    DepthLimitedHandler<Document> handler(target, escapes);
    rapidjson::GenericReader<rapidjson::UTF8<>, rapidjson::UTF8<>, ReaderAllocator> reader(
        reader_allocator, 256);
    result = reader.template Parse<kJsonParseFlags | kExtraFlags>(input, handler);
    return !result.IsError();
  };
  document->Populate(generator);
  if (!result.IsError()) return Status::Ok();
  document->SetNull();
  return Status::Serialization("");
}

// Reads a byte string for rapidjson::UTF8<>::Validate, with NUL past its end (never a
// continuation byte, so a truncated sequence fails), and discards what it is given back.
struct BoundedBytes {
  using Ch = char;
  const char* p;
  const char* end;
  Ch Take() { return p < end ? *p++ : '\0'; }
  void Put(Ch) {}
};

}  // namespace

bool IsValidUtf8(std::string_view text) {
  const char* p = text.data();
  const char* const end = p + text.size();
  while (p < end) {
    for (uint64_t word; end - p >= 8; p += 8) {
      std::memcpy(&word, p, 8);
      if ((word & 0x8080808080808080u) != 0) break;
    }
    while (p < end && static_cast<unsigned char>(*p) < 0x80) ++p;
    if (p == end) break;
    BoundedBytes bytes{p, end};
    if (!rapidjson::UTF8<>::Validate(bytes, bytes)) return false;
    p = bytes.p;
  }
  return true;
}

Status ParseJson(std::string_view text, rapidjson::Document* document) {
  // A plain MemoryStream, not RapidJSON's EncodedInputStream (which drops any of the bytes
  // EF BB BF at the start, even alone), so both parsers see exactly the same text.
  rapidjson::MemoryStream input(text.data(), text.size());
  return ParseStreamInto<0>(text, input, document, static_cast<rapidjson::CrtAllocator*>(nullptr));
}

InsituJson::InsituJson()
    : value_allocator_(value_buffer_, sizeof(value_buffer_)),
      stack_allocator_(stack_buffer_, sizeof(stack_buffer_)),
      document_(&value_allocator_, /*stackCapacity=*/1024, &stack_allocator_) {}

InsituJson::~InsituJson() = default;

Status InsituJson::Parse(std::string_view text) {
  // The last document's values point into the text and the pool: let them go first.
  document_.SetNull();
  value_allocator_.Clear();
  large_text_.reset();
  char* copy = small_text_;
  if (text.size() >= sizeof(small_text_)) {
    large_text_.reset(new char[text.size() + 1]);
    copy = large_text_.get();
  }
  std::memcpy(copy, text.data(), text.size());
  copy[text.size()] = '\0';
  rapidjson::InsituStringStream input(copy);
  return ParseStreamInto<rapidjson::kParseInsituFlag>(text, input, &document_, &stack_allocator_);
}

Status CheckItemJson(const rapidjson::Value& json) { return CheckValueShape(json, Role::kItem); }

Status CheckAttributeValueJson(const rapidjson::Value& json) {
  return CheckValueShape(json, Role::kAttributeValue);
}

Result<Value> DecodeAttributeValue(const rapidjson::Value& json, int depth) {
  PARTSTORE_RETURN_IF_ERROR(CheckValueShape(json, Role::kAttributeValue));
  Value value;
  PARTSTORE_RETURN_IF_ERROR(DecodeValue(json, depth, &value));
  return value;
}

Result<Item> DecodeItem(const rapidjson::Value& json) {
  PARTSTORE_RETURN_IF_ERROR(CheckValueShape(json, Role::kItem));
  if (json.IsNull()) return Validation(kNullAttributeValue);
  Item item;
  PARTSTORE_RETURN_IF_ERROR(DecodeMembers(json, kAttributeValueDepth, &item));
  return item;
}

Result<Item> ParseItemJson(std::string_view text) {
  InsituJson json;
  PARTSTORE_RETURN_IF_ERROR(json.Parse(text));
  return DecodeItem(json.root());
}

}  // namespace partstore::protocol
