// The padding attribute's bytes (kPaddingAttribute, workload.h): what fills an item to the size
// its operation drew.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace partstore::sim {

enum class Padding : uint8_t {
  // One byte repeated ('x'). The engine stores such a string by its length and the byte (a run,
  // core/stored_item_format.h), so an item costs its keys and a few bytes of memory; it reads,
  // sizes and bills as the full item. The default.
  kRepeated,
  // Text that varies, stored byte for byte, as a real item's bytes would be: for a cache's memory
  // limit (CacheSpec::memory_mb), and for SimulateOptions::full_items.
  kFull,
};

// `out` becomes n bytes of padding.
void FillPadding(Padding padding, size_t n, std::string& out);

}  // namespace partstore::sim
