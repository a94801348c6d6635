// EncodeItemJson: an item's DynamoDB JSON encoded straight into a StoredItem, with no tree between
// (attribute_value_json.h). The server's PutItem takes its item this way (item_json.cc).
//
// The tree path decodes the JSON into an Item (a map of Values: a heap block for each name, each
// string longer than 15 bytes, each map and list), and StoredItem::Encode then sizes that tree and
// writes it; the tree is freed. Here two passes run over the JSON itself, in the shape of Encode's
// own (core/stored_item_codec.h):
//   1. the sizing pass walks the item in name order, checks each value, and records what the
//      writing pass needs in pre-order: each composite's body length, each map's members in name
//      order, each value's type member, numbers' canonical texts and binaries' bytes, each set's
//      elements sorted (its duplicates refused; a binary set through the tree's set type);
//   2. the writing pass writes those records into the item's one buffer, with Encode's writer.
//
// The encoder takes only items the tree path accepts, and declines everything else (nullopt)
// without saying why: a value object with more than one type member, a null, a JSON type that is
// not the member's, a malformed number or base64 text, an empty or oversized name, a name twice in
// one map, a set the tree's decoder refuses, a map or list too deep. The caller then decodes the
// item as a tree, which gives DynamoDB's error (or decodes it, for the few valid forms declined
// here: a name or a type member given twice, BOOL or NULL as a string). So errors
// have one source, DecodeItem, and the encoding is Encode(DecodeItem(json)) byte for byte
// (tests/protocol/stored_item_json_test.cc and the fuzz target attribute_value_json_fuzz check it).
//
// Top-level names are numbered (core/attribute_name_table.h) only once the whole item has passed
// the sizing pass and is within DynamoDB's 400 KB: an item declined adds no name to the table.
// PutItem encodes its item where DynamoDB checks it, before the request's other members
// (item_json.cc), and before the engine has looked the table and the key up: a request refused
// after that (a bad Expected or expression value, no such table, a key missing or of the wrong
// type, a failed condition) may have numbered names. The tree path numbers them later, when the
// engine encodes, after the table and key checks but before the condition. The table's bound
// (kMaxNames) holds either way; a name numbered for a refused item only takes a number a later
// item might have used.
#include <algorithm>
#include <boost/container/small_vector.hpp>
#include <string>
#include <vector>

#include "core/stored_item_codec.h"
#include "tools/protocol/attribute_value_json.h"
#include "tools/protocol/base64.h"

namespace partstore::protocol {
namespace {

using JsonValue = rapidjson::Value;
using JsonMember = rapidjson::Value::Member;

class ItemJsonEncoder {
 public:
  // The sizing pass over the item `json` (an object of name -> AttributeValue). False: declined.
  bool Size(const JsonValue& json) {
    if (!json.IsObject()) return false;
    size_t item_size = 0;
    if (!SizeMap(json, kAttributeValueDepth, /*top=*/true, &length_, &item_size)) return false;
    item_size_ = item_size;
    return true;
  }

  // The writing pass. REQUIRES: Size returned true.
  StoredItem Write() {
    return Codec::Build(length_, item_size_, [this](char* bytes) {
      writer_ = Codec::Writer{bytes, bodies_.data(), heads_.data()};
      WriteMap(slots_[0].count, /*top=*/true);
      assert(writer_.d == bytes + length_);
    });
  }

 private:
  // One value (or the item itself, slot 0), in pre-order: its type, its type member's JSON, and
  // for a map or list its member or element count.
  struct Slot {
    const JsonValue* json;
    uint32_t count;
    Type type;
  };

  // A map's members (the item's when `top`) in name order, their values standing at
  // `value_depth`: adds the encoded length of its body (header included) to *length and its
  // DynamoDB size (without a map's own 3 bytes) to *size.
  bool SizeMap(const JsonValue& object, int value_depth, bool top, size_t* length, size_t* size) {
    const uint32_t count = object.MemberCount();
    if (top) slots_.push_back({&object, count, Type::kM});
    const size_t body = bodies_.size();
    bodies_.push_back(0);
    boost::container::small_vector<const JsonMember*, 16> members;
    members.reserve(count);
    for (const JsonMember& member : object.GetObject()) members.push_back(&member);
    std::sort(members.begin(), members.end(), [](const JsonMember* a, const JsonMember* b) {
      return StringOf(a->name) < StringOf(b->name);
    });
    size_t n = 0;
    for (uint32_t i = 0; i < count; ++i) {
      const std::string_view name = StringOf(members[i]->name);
      if (i + 1 < count && StringOf(members[i + 1]->name) == name) return false;  // repeated
      if (!CheckAttributeName(name).ok()) return false;
      names_.push_back(name);
      if (top) {
        top_names_.push_back(name);
      } else {
        n += Codec::NameLength(name, Codec::WrittenOutHead(name));
      }
      *size += (top ? 0 : 1) + name.size();
      if (!SizeValue(members[i]->value, value_depth, &n, size)) return false;
    }
    if (top) {
      // Over DynamoDB's item size, the item is refused (by the table, through the tree path):
      // declined here, before any of its names is numbered.
      if (*size > kMaxItemSize) return false;
      // The whole item has passed: its names may now be numbered.
      for (const std::string_view name : top_names_) {
        const uint32_t head = Codec::NameHead(name);
        heads_.push_back(head);
        n += Codec::NameLength(name, head);
      }
    }
    bodies_[body] = static_cast<uint32_t>(n);
    *length += Codec::IndexedLength(/*is_map=*/true, count, n);
    return true;
  }

  // One AttributeValue object standing at `depth`.
  bool SizeValue(const JsonValue& object, int depth, size_t* length, size_t* size) {
    if (!object.IsObject()) return false;
    const JsonValue* typed = nullptr;
    Type type = Type::kNull;
    for (const JsonMember& member : object.GetObject()) {
      if (member.value.IsNull()) continue;
      const std::optional<Type> member_type = TypeOfMember(member.name);
      if (!member_type) continue;  // unknown members are ignored, as DecodeItem ignores them
      if (typed != nullptr) return false;
      typed = &member.value;
      type = *member_type;
    }
    if (typed == nullptr) return false;
    const JsonValue& json = *typed;
    const size_t slot = slots_.size();
    slots_.push_back({typed, 0, type});
    switch (type) {
      case Type::kS: {
        if (!json.IsString()) return false;
        const std::string_view text = StringOf(json);
        *length += Codec::ScalarLength(Type::kS, text);
        *size += text.size();
        return true;
      }
      case Type::kN: {
        if (!json.IsString()) return false;
        Result<partstore::Number> number = partstore::Number::Parse(StringOf(json));
        if (!number.ok()) return false;
        number->AppendTo(&texts_);
        *length += Codec::NotRunLength(Type::kN, EndText());
        *size += number->StorageSize();
        return true;
      }
      case Type::kB: {
        if (!json.IsString()) return false;
        base64::DecodeError error;
        if (!base64::Decode(StringOf(json), &texts_, &error)) return false;
        const size_t bytes = EndText();
        *length += Codec::NotRunLength(Type::kB, bytes);
        *size += bytes;
        return true;
      }
      case Type::kBool:
        if (!json.IsBool()) return false;
        *length += 2;
        *size += 1;
        return true;
      case Type::kNull:
        if (!json.IsTrue()) return false;
        *length += 1;
        *size += 1;
        return true;
      case Type::kSS:
      case Type::kNS:
        return SizeSet(json, type, slot, length, size);
      case Type::kBS: {
        // Binary sets through the tree's set type (which sorts the decoded bytes and finds
        // duplicates): one value, costing what the tree path pays for it.
        Result<Value> set = DecodeAttributeValue(object, depth);
        if (!set.ok()) return false;
        Codec::Sizer sizer;
        *length += sizer.Value(*set);
        bodies_.push_back(sizer.bodies[0]);
        *size += ValueSize(*set);
        sets_.push_back(std::move(*set));
        return true;
      }
      case Type::kM: {
        if (!json.IsObject() || depth > kMaxNestingDepth) return false;
        slots_[slot].count = json.MemberCount();
        *length += 1;
        *size += 3;
        return SizeMap(json, depth + 1, /*top=*/false, length, size);
      }
      case Type::kL: {
        if (!json.IsArray() || depth > kMaxNestingDepth) return false;
        const uint32_t count = json.Size();
        slots_[slot].count = count;
        const size_t body = bodies_.size();
        bodies_.push_back(0);
        size_t n = 0;
        for (const JsonValue& element : json.GetArray()) {
          *size += 1;
          if (!SizeValue(element, depth + 1, &n, size)) return false;
        }
        bodies_[body] = static_cast<uint32_t>(n);
        *length += 1 + Codec::IndexedLength(/*is_map=*/false, count, n);
        *size += 3;
        return true;
      }
    }
    return false;
  }

  // A string or number set (its type member's array, `json`), whose slot is `slot`. The tree's
  // rules: not empty, no null element, no duplicate (numbers compared by value); elements sorted
  // (strings by unsigned bytes, numbers numerically).
  bool SizeSet(const JsonValue& json, Type type, size_t slot, size_t* length, size_t* size) {
    if (!json.IsArray() || json.Empty()) return false;
    const uint32_t count = json.Size();
    slots_[slot].count = count;
    size_t n = 0;
    if (type == Type::kSS) {
      boost::container::small_vector<std::string_view, 8> elements;
      for (const JsonValue& element : json.GetArray()) {
        if (!element.IsString()) return false;
        elements.push_back(StringOf(element));
      }
      std::sort(elements.begin(), elements.end());
      if (std::adjacent_find(elements.begin(), elements.end()) != elements.end()) return false;
      for (const std::string_view element : elements) {
        strings_.push_back(element);
        n += Codec::BytesLength(element.size());
        *size += element.size();
      }
    } else {
      boost::container::small_vector<partstore::Number, 8> elements;
      for (const JsonValue& element : json.GetArray()) {
        if (!element.IsString()) return false;
        Result<partstore::Number> number = partstore::Number::Parse(StringOf(element));
        if (!number.ok()) return false;
        elements.push_back(*number);
      }
      std::sort(elements.begin(), elements.end());
      if (std::adjacent_find(elements.begin(), elements.end()) != elements.end()) return false;
      for (const partstore::Number& element : elements) {
        element.AppendTo(&texts_);
        n += Codec::BytesLength(EndText());
        *size += element.StorageSize();
      }
    }
    bodies_.push_back(static_cast<uint32_t>(n));
    *length += 1 + Codec::VarintLength(count) + Codec::BytesLength(n);
    return true;
  }

  // Ends the text just appended to texts_; returns its length.
  size_t EndText() {
    const size_t start = text_ends_.size() == 0 ? 0 : text_ends_[text_ends_.size() - 1];
    text_ends_.push_back(static_cast<uint32_t>(texts_.size()));
    return texts_.size() - start;
  }
  // The writing pass's next text.
  std::string_view NextText() {
    const size_t start = next_text_ == 0 ? 0 : text_ends_[next_text_ - 1];
    const size_t end = text_ends_[next_text_++];
    return {texts_.data() + start, end - start};
  }

  void WriteMap(uint32_t count, bool top) {
    uint8_t width;
    char* start;
    char* offsets = writer_.Indexed(/*is_map=*/true, count, &start, &width);
    for (uint32_t i = 0; i < count; ++i) {
      Codec::Writer::Offset(offsets, static_cast<size_t>(writer_.d - start), width);
      const std::string_view name = names_[next_name_++];
      writer_.Name(name, top ? *writer_.head++ : Codec::WrittenOutHead(name));
      WriteValue();
    }
  }

  void WriteValue() {
    const Slot& slot = slots_[next_slot_++];
    switch (slot.type) {
      case Type::kS:
        writer_.Scalar(Type::kS, StringOf(*slot.json));
        return;
      case Type::kN:
      case Type::kB:
        writer_.Scalar(slot.type, NextText());
        return;
      case Type::kBool:
        *writer_.d++ = static_cast<char>(Type::kBool);
        *writer_.d++ = slot.json->GetBool() ? 1 : 0;
        return;
      case Type::kNull:
        *writer_.d++ = static_cast<char>(Type::kNull);
        return;
      case Type::kSS:
      case Type::kNS:
        *writer_.d++ = static_cast<char>(slot.type);
        writer_.Varint(slot.count);
        writer_.Varint(*writer_.body++);
        for (uint32_t i = 0; i < slot.count; ++i) {
          writer_.Bytes(slot.type == Type::kSS ? strings_[next_string_++] : NextText());
        }
        return;
      case Type::kBS:
        writer_.Value(sets_[next_set_++]);
        return;
      case Type::kM:
        *writer_.d++ = static_cast<char>(Type::kM);
        WriteMap(slot.count, /*top=*/false);
        return;
      case Type::kL: {
        *writer_.d++ = static_cast<char>(Type::kL);
        uint8_t width;
        char* start;
        char* offsets = writer_.Indexed(/*is_map=*/false, slot.count, &start, &width);
        for (uint32_t i = 0; i < slot.count; ++i) {
          Codec::Writer::Offset(offsets, static_cast<size_t>(writer_.d - start), width);
          WriteValue();
        }
        return;
      }
    }
  }

  // The sizing pass's records, read back in the same pre-order by the writing pass.
  InlineList<uint32_t, 8> bodies_;              // each composite's body length (a set's too)
  InlineList<uint32_t, 16> heads_;              // the top-level names' heads
  InlineList<std::string_view, 32> names_;      // each map's names, in name order
  InlineList<std::string_view, 16> top_names_;  // the item's own, in name order
  InlineList<Slot, 32> slots_;                  // the item (slot 0), then each value
  // Numbers' canonical texts and binaries' bytes (number sets' elements too), end to end, and
  // where each ends.
  std::string texts_;
  InlineList<uint32_t, 32> text_ends_;
  InlineList<std::string_view, 16> strings_;  // string sets' elements, each set sorted
  std::vector<Value> sets_;                   // binary sets
  size_t length_ = 0;
  size_t item_size_ = 0;

  Codec::Writer writer_{nullptr, nullptr};
  size_t next_name_ = 0;
  size_t next_slot_ = 1;
  size_t next_text_ = 0;
  size_t next_string_ = 0;
  size_t next_set_ = 0;
};

}  // namespace

std::optional<StoredItem> EncodeItemJson(const rapidjson::Value& json) {
  ItemJsonEncoder encoder;
  if (!encoder.Size(json)) return std::nullopt;
  return encoder.Write();
}

}  // namespace partstore::protocol
