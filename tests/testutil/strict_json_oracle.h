// RapidJSON's strict parse as the protocol ran it before the whole-text UTF-8 check (2026-12):
// the oracles of tests/protocol/attribute_value_json_test.cc and of the JSON fuzz target for
// protocol::IsValidUtf8 and protocol::ParseJson / InsituJson; and a comparison of documents.
#pragma once

#include <rapidjson/document.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <string>
#include <string_view>

namespace partstore::testing {

// Whether RapidJSON's strict parse (kParseValidateEncodingFlag) takes `bytes` as the text of a
// JSON string. The ASCII bytes a string cannot hold raw (quote, backslash, controls) are replaced
// by 'a' first, which changes no sequence's validity.
inline bool RapidJsonTakesAsUtf8(std::string bytes) {
  for (char& c : bytes) {
    if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20) c = 'a';
  }
  const std::string text = "\"" + bytes + "\"";
  rapidjson::Document document;
  document.Parse<rapidjson::kParseValidateEncodingFlag>(text.data(), text.size());
  return !document.HasParseError();
}

// Whether the request parse before 2026-12 took `text`: no raw NUL, RapidJSON's iterative parse
// with kParseValidateEncodingFlag checking every string byte, a surrogate decoded from an escape
// refused in every string and name, at most 1000 levels of nesting.
inline bool StrictRapidJsonParseAccepts(std::string_view text) {
  if (text.find('\0') != std::string_view::npos) return false;
  struct Handler : rapidjson::BaseReaderHandler<rapidjson::UTF8<>, Handler> {
    int depth = 0;
    static bool Surrogate(const char* s, rapidjson::SizeType n) {
      for (rapidjson::SizeType i = 0; i + 1 < n; ++i) {
        if (static_cast<unsigned char>(s[i]) == 0xED &&
            static_cast<unsigned char>(s[i + 1]) >= 0xA0)
          return true;
      }
      return false;
    }
    bool String(const char* s, rapidjson::SizeType n, bool) { return !Surrogate(s, n); }
    bool Key(const char* s, rapidjson::SizeType n, bool) { return !Surrogate(s, n); }
    bool StartObject() { return ++depth <= 1000; }
    bool EndObject(rapidjson::SizeType) { return --depth >= 0; }
    bool StartArray() { return ++depth <= 1000; }
    bool EndArray(rapidjson::SizeType) { return --depth >= 0; }
  } handler;
  rapidjson::Reader reader;
  rapidjson::MemoryStream input(text.data(), text.size());
  return !reader
              .Parse<rapidjson::kParseIterativeFlag | rapidjson::kParseValidateEncodingFlag>(
                  input, handler)
              .IsError();
}

// Whether two documents are the same JSON, member order and repeated names included (RapidJSON's
// operator== looks each member up by name, so a repeated name compares its first value with the
// second's): their texts as RapidJSON writes them.
inline std::string JsonText(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  value.Accept(writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}
inline bool SameJson(const rapidjson::Value& a, const rapidjson::Value& b) {
  return JsonText(a) == JsonText(b);
}

}  // namespace partstore::testing
