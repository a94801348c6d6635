// Helpers for the request-decoder tests: decode a JSON text with one decoder, and show a result's
// error as "Code: message".
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "tools/protocol/attribute_value_json.h"

namespace partstore::protocol {

template <typename Decoder>
auto Decode(Decoder decoder, std::string_view json) -> decltype(decoder(rapidjson::Value())) {
  rapidjson::Document document;
  Status parsed = ParseJson(json, &document);
  EXPECT_TRUE(parsed.ok()) << json;
  return decoder(document);
}

template <typename R>
std::string ErrorOf(const R& result) {
  if (result.ok()) return "OK";
  return std::string(CodeName(result.error().code())) + ": " +
         std::string(result.error().message());
}

inline Value S(std::string s) { return Value(std::move(s)); }

}  // namespace partstore::protocol
