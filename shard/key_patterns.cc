#include "partstore/key_patterns.h"

namespace partstore {

std::string EntityKey(std::string_view type, std::string_view id) {
  return CompositeKey({type, id});
}

std::string CompositeKey(std::initializer_list<std::string_view> parts) {
  size_t size = parts.size() > 0 ? parts.size() - 1 : 0;
  for (std::string_view part : parts) size += part.size();
  std::string key;
  key.reserve(size);
  bool first = true;
  for (std::string_view part : parts) {
    if (!first) key += kKeySeparator;
    first = false;
    key += part;
  }
  return key;
}

std::string KeyPrefix(std::string_view type) {
  std::string prefix;
  prefix.reserve(type.size() + 1);
  prefix += type;
  prefix += kKeySeparator;
  return prefix;
}

std::optional<std::string_view> KeyId(std::string_view key, std::string_view type) {
  if (key.size() <= type.size() || !key.starts_with(type) || key[type.size()] != kKeySeparator) {
    return std::nullopt;
  }
  return key.substr(type.size() + 1);
}

Item AdjacencyKey::ToItem(const std::string& pk_name, const std::string& sk_name) const {
  return Item{{pk_name, Value(pk)}, {sk_name, Value(sk)}};
}

AdjacencyKey AdjacencyKeys(std::string_view from, std::string_view to) {
  return {std::string(from), std::string(to)};
}

}  // namespace partstore
