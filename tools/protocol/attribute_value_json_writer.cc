// AttributeValue JSON, the writing half: see attribute_value_json.h for the contract.
//
// One Encoder decides what is written (type keys, canonical numbers, padded base64, set elements
// in stored order, map members in name order); StringSink appends the JSON tokens to a
// std::string through a raw cursor, escaping exactly as RapidJSON's Writer does (the tests check
// the Writer gives identical bytes for the same document) and copying unescaped runs with memcpy,
// about 2.5x faster than the Writer. A caller's JsonWriter receives the encoded value as one raw
// value (the GetItem profile of issue 24: the Writer's per-token work was 8% of the server's CPU).
#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <string_view>

#include "tools/protocol/attribute_value_json.h"
#include "tools/protocol/base64.h"

namespace partstore::protocol {
namespace {

// RapidJSON's escape table: short escapes for \b \t \n \f \r, \u00XX for other controls, and
// '"' and '\\'. Everything else, UTF-8 included, is copied as is.
constexpr std::array<char, 256> MakeEscapes() {
  std::array<char, 256> e{};
  for (int c = 0; c < 0x20; ++c) e[c] = 'u';
  e['\b'] = 'b';
  e['\t'] = 't';
  e['\n'] = 'n';
  e['\f'] = 'f';
  e['\r'] = 'r';
  e['"'] = '"';
  e['\\'] = '\\';
  return e;
}
constexpr std::array<char, 256> kEscapes = MakeEscapes();

// Writes into a std::string through a raw cursor: the string's size is its capacity while
// writing (grown by doubling) and is cut to the written length by Finish().
class StringSink {
 public:
  explicit StringSink(std::string* out) : out_(*out), pos_(out->size()) {}
  void Finish() { out_.resize(pos_); }

  void StartObject() { Open('{'); }
  void EndObject() { Close('}'); }
  void StartArray() { Open('['); }
  void EndArray() { Close(']'); }
  void Key(std::string_view s) {
    char* d = Reserve(s.size() * 6 + 4);
    if (need_comma_) *d++ = ',';
    d = Quote(s, d);
    *d++ = ':';
    Commit(d);
    need_comma_ = false;
  }
  void String(std::string_view s) {
    char* d = Reserve(s.size() * 6 + 3);
    if (need_comma_) *d++ = ',';
    Commit(Quote(s, d));
    need_comma_ = true;
  }
  void Bool(bool b) {
    char* d = Reserve(6);
    if (need_comma_) *d++ = ',';
    std::string_view text = b ? "true" : "false";
    std::memcpy(d, text.data(), text.size());
    Commit(d + text.size());
    need_comma_ = true;
  }
  void Number(const partstore::Number& n) {
    scratch_.clear();
    n.AppendTo(&scratch_);
    NumberText(scratch_);
  }
  void NumberText(std::string_view text) {
    char* d = Reserve(text.size() + 3);
    if (need_comma_) *d++ = ',';
    *d++ = '"';
    std::memcpy(d, text.data(), text.size());
    d += text.size();
    *d++ = '"';
    Commit(d);
    need_comma_ = true;
  }
  void Binary(std::string_view bytes) {
    const size_t size = base64::EncodedSize(bytes.size());
    char* d = Reserve(size + 3);
    if (need_comma_) *d++ = ',';
    *d++ = '"';
    base64::EncodeTo(bytes, d);
    d += size;
    *d++ = '"';
    Commit(d);
    need_comma_ = true;
  }

 private:
  // A pointer to at least n writable bytes at the cursor.
  char* Reserve(size_t n) {
    if (out_.size() - pos_ < n) Grow(n);
    return out_.data() + pos_;
  }
  [[gnu::noinline]] void Grow(size_t n) { out_.resize(std::max(out_.size() * 2, pos_ + n + 256)); }
  void Commit(char* end) { pos_ = static_cast<size_t>(end - out_.data()); }
  void Open(char c) {
    char* d = Reserve(2);
    if (need_comma_) *d++ = ',';
    *d++ = c;
    Commit(d);
    need_comma_ = false;
  }
  void Close(char c) {
    *Reserve(1) = c;
    ++pos_;
    need_comma_ = true;
  }
  // Writes `s` quoted and escaped at d (room for 6 bytes per byte + 2); returns the new end.
  static char* Quote(std::string_view s, char* d) {
    *d++ = '"';
    const char* run = s.data();  // Start of the pending unescaped run.
    const char* end = s.data() + s.size();
    for (const char* p = run; p < end; ++p) {
      const char escape = kEscapes[static_cast<unsigned char>(*p)];
      if (escape == 0) continue;
      std::memcpy(d, run, static_cast<size_t>(p - run));
      d += p - run;
      *d++ = '\\';
      *d++ = escape;
      if (escape == 'u') {
        static constexpr char kHex[] = "0123456789ABCDEF";
        const auto c = static_cast<unsigned char>(*p);
        *d++ = '0';
        *d++ = '0';
        *d++ = kHex[c >> 4];
        *d++ = kHex[c & 15];
      }
      run = p + 1;
    }
    std::memcpy(d, run, static_cast<size_t>(end - run));
    d += end - run;
    *d++ = '"';
    return d;
  }

  std::string& out_;
  size_t pos_;
  bool need_comma_ = false;
  std::string scratch_;  // Reused for every number.
};

template <typename Sink>
class Encoder {
 public:
  explicit Encoder(Sink& sink) : sink_(sink) {}

  // One AttributeValue, from a tree (Value) or from a stored item's encoding (ValueView): the
  // same JSON; the encoding's numbers are already canonical text, its sets and maps already in
  // the order written here.
  template <typename V>
  void Write(const V& value) {
    sink_.StartObject();
    sink_.Key(TypeName(value.type()));
    switch (value.type()) {
      case Type::kS:
        sink_.String(value.as_string());
        break;
      case Type::kN:
        WriteNumber(value);
        break;
      case Type::kB:
        sink_.Binary(value.as_binary());
        break;
      case Type::kBool:
        sink_.Bool(value.as_bool());
        break;
      case Type::kNull:
        sink_.Bool(true);
        break;
      case Type::kM:
        WriteMap(value.as_map());
        break;
      case Type::kL:
        sink_.StartArray();
        for (const auto& element : value.as_list()) Write(element);
        sink_.EndArray();
        break;
      case Type::kSS:
      case Type::kNS:
      case Type::kBS:
        sink_.StartArray();
        WriteSetElements(value);
        sink_.EndArray();
        break;
    }
    sink_.EndObject();
  }

  void WriteMap(const AttributeMap& map) {
    sink_.StartObject();
    for (const auto& [name, element] : map) {
      sink_.Key(name);
      Write(element);
    }
    sink_.EndObject();
  }
  void WriteMap(const MapView& map) {
    sink_.StartObject();
    for (const MapView::Entry& entry : map) {
      sink_.Key(entry.name);
      Write(entry.value);
    }
    sink_.EndObject();
  }

 private:
  void WriteNumber(const Value& value) { sink_.Number(value.as_number()); }
  void WriteNumber(const ValueView& value) { sink_.NumberText(value.number_text()); }

  void WriteSetElements(const Value& value) {
    switch (value.type()) {
      case Type::kSS:
        for (const std::string& s : value.as_string_set()) sink_.String(s);
        break;
      case Type::kNS:
        for (const Number& n : value.as_number_set()) sink_.Number(n);
        break;
      default:
        for (const Bytes& b : value.as_binary_set()) sink_.Binary(b.data);
        break;
    }
  }
  void WriteSetElements(const ValueView& value) {
    for (std::string_view element : value.as_set()) {
      switch (value.type()) {
        case Type::kSS:
          sink_.String(element);
          break;
        case Type::kNS:
          sink_.NumberText(element);
          break;
        default:
          sink_.Binary(element);
          break;
      }
    }
  }

  Sink& sink_;
};

// A value encoded by StringSink, then handed to the caller's Writer as one raw JSON value (the
// Writer adds the comma or colon before it). A thread's scratch string is reused.
template <typename Write>
void WriteThroughStringSink(JsonWriter& writer, rapidjson::Type type, Write write) {
  thread_local std::string scratch;
  scratch.clear();
  StringSink sink(&scratch);
  Encoder<StringSink> encoder(sink);
  write(encoder);
  sink.Finish();
  writer.RawJson(scratch, type);
}

}  // namespace

void WriteAttributeValue(const Value& value, JsonWriter& writer) {
  WriteThroughStringSink(writer, rapidjson::kObjectType,
                         [&](Encoder<StringSink>& e) { e.Write(value); });
}

void WriteItem(const Item& item, JsonWriter& writer) {
  WriteThroughStringSink(writer, rapidjson::kObjectType,
                         [&](Encoder<StringSink>& e) { e.WriteMap(item); });
}

std::string ValueToJson(const Value& value) {
  std::string out;
  StringSink sink(&out);
  Encoder<StringSink>(sink).Write(value);
  sink.Finish();
  return out;
}

void WriteAttributeValue(const ValueView& value, JsonWriter& writer) {
  WriteThroughStringSink(writer, rapidjson::kObjectType,
                         [&](Encoder<StringSink>& e) { e.Write(value); });
}

void WriteItem(const StoredItem& item, JsonWriter& writer) {
  WriteThroughStringSink(writer, rapidjson::kObjectType,
                         [&](Encoder<StringSink>& e) { e.WriteMap(item.attributes()); });
}

std::string ValueToJson(const ValueView& value) {
  std::string out;
  StringSink sink(&out);
  Encoder<StringSink>(sink).Write(value);
  sink.Finish();
  return out;
}

std::string ItemToJson(const StoredItem& item) {
  std::string out;
  StringSink sink(&out);
  Encoder<StringSink>(sink).WriteMap(item.attributes());
  sink.Finish();
  return out;
}

std::string ItemToJson(const Item& item) {
  std::string out;
  StringSink sink(&out);
  Encoder<StringSink>(sink).WriteMap(item);
  sink.Finish();
  return out;
}

}  // namespace partstore::protocol
