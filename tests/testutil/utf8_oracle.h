// RapidJSON's own check of bytes as UTF-8 (its kParseValidateEncodingFlag), the check
// protocol::IsValidUtf8 stands in for: the oracle of tests/protocol/attribute_value_json_test.cc
// and of the JSON fuzz target.
#pragma once

#include <rapidjson/document.h>

#include <string>

namespace partstore::testing {

// Whether RapidJSON's strict parse takes `bytes` as the text of a JSON string. The ASCII bytes a
// string cannot hold raw (quote, backslash, controls) are replaced by 'a' first, which changes no
// sequence's validity.
inline bool RapidJsonTakesAsUtf8(std::string bytes) {
  for (char& c : bytes) {
    if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20) c = 'a';
  }
  const std::string text = "\"" + bytes + "\"";
  rapidjson::Document document;
  document.Parse<rapidjson::kParseValidateEncodingFlag>(text.data(), text.size());
  return !document.HasParseError();
}

}  // namespace partstore::testing
