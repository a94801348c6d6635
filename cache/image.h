// Image: what the cache knows of one item after (or before) a write: nothing, that there is no
// item, or the item.
//
// Thread safety: a value type.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>

#include "partstore/item.h"

namespace partstore::cache {

struct Image {
  enum class Kind : uint8_t { kUnknown, kAbsent, kItem };
  Kind kind = Kind::kUnknown;
  Item item{};

  static Image Unknown() { return {}; }
  static Image Absent() { return {Kind::kAbsent, {}}; }
  static Image Of(Item item) { return {Kind::kItem, std::move(item)}; }
  static Image FromOptional(std::optional<Item> item) {
    return item ? Of(std::move(*item)) : Absent();
  }
};

}  // namespace partstore::cache
