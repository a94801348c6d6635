// The IDs DynamoDB gives exports, imports and backups: "<14 digits>-<8 hex>", the milliseconds
// since the epoch and a random tag (e.g. 01700000000000-1a2b3c4d).
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <random>
#include <string>

namespace partstore {

inline std::string NewResourceId(double epoch_seconds) {
  static thread_local std::mt19937 random{std::random_device{}()};
  return fmt::format("{:014d}-{:08x}", static_cast<int64_t>(epoch_seconds * 1000),
                     static_cast<uint32_t>(random()));
}

}  // namespace partstore
