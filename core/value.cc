#include "partstore/value.h"

#include <array>

namespace partstore {
namespace {

constexpr std::array<std::string_view, 10> kTypeNames = {"S", "N", "B",  "BOOL", "NULL",
                                                         "M", "L", "SS", "NS",   "BS"};

void AppendQuoted(std::string_view s, std::string* out) {
  out->push_back('"');
  for (char c : s) {
    if (c == '"' || c == '\\') out->push_back('\\');
    out->push_back(c);
  }
  out->push_back('"');
}

void AppendHex(std::string_view bytes, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->append("0x");
  for (unsigned char c : bytes) {
    out->push_back(kHex[c >> 4]);
    out->push_back(kHex[c & 15]);
  }
}

void AppendDebug(const Value& value, std::string* out) {
  out->append("{\"");
  out->append(TypeName(value.type()));
  out->append("\":");
  switch (value.type()) {
    case Type::kS:
      AppendQuoted(value.as_string(), out);
      break;
    case Type::kN:
      out->push_back('"');
      value.as_number().AppendTo(out);
      out->push_back('"');
      break;
    case Type::kB:
      AppendHex(value.as_binary(), out);
      break;
    case Type::kBool:
      out->append(value.as_bool() ? "true" : "false");
      break;
    case Type::kNull:
      out->append("true");
      break;
    case Type::kM: {
      out->push_back('{');
      bool first = true;
      for (const auto& [name, element] : value.as_map()) {
        if (!first) out->push_back(',');
        first = false;
        AppendQuoted(name, out);
        out->push_back(':');
        AppendDebug(element, out);
      }
      out->push_back('}');
      break;
    }
    case Type::kL: {
      out->push_back('[');
      bool first = true;
      for (const Value& element : value.as_list()) {
        if (!first) out->push_back(',');
        first = false;
        AppendDebug(element, out);
      }
      out->push_back(']');
      break;
    }
    case Type::kSS:
    case Type::kNS:
    case Type::kBS: {
      out->push_back('[');
      bool first = true;
      auto separator = [&] {
        if (!first) out->push_back(',');
        first = false;
      };
      if (value.type() == Type::kSS) {
        for (const auto& s : value.as_string_set()) separator(), AppendQuoted(s, out);
      } else if (value.type() == Type::kNS) {
        for (const auto& n : value.as_number_set()) {
          separator();
          out->push_back('"');
          n.AppendTo(out);
          out->push_back('"');
        }
      } else {
        for (const auto& b : value.as_binary_set()) separator(), AppendHex(b.data, out);
      }
      out->push_back(']');
      break;
    }
  }
  out->push_back('}');
}

}  // namespace

std::string_view TypeName(Type type) { return kTypeNames[static_cast<size_t>(type)]; }

std::optional<Type> TypeFromName(std::string_view name) {
  for (size_t i = 0; i < kTypeNames.size(); ++i) {
    if (kTypeNames[i] == name) return static_cast<Type>(i);
  }
  return std::nullopt;
}

std::partial_ordering Compare(const Value& a, const Value& b) {
  if (a.type() != b.type()) return std::partial_ordering::unordered;
  switch (a.type()) {
    case Type::kS:
      return a.as_string() <=> b.as_string();  // std::string compares as unsigned bytes
    case Type::kN:
      return a.as_number() <=> b.as_number();
    case Type::kB:
      return a.as_binary() <=> b.as_binary();
    default:
      return std::partial_ordering::unordered;
  }
}

std::string DebugString(const Value& value) {
  std::string out;
  AppendDebug(value, &out);
  return out;
}

}  // namespace partstore
