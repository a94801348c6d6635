// CompactKey<N>: a byte string of N bytes holding up to N - 1 bytes inline; a longer one is one
// heap block of exactly its length. PartitionKeyBytes (32 bytes, up to 31 inline) is a stripe's
// encoded partition key (shard/stripe.h). (A collection element's key was a CompactKey<24>
// until it became a CollectionKey, shard/collection_key.h, that reads a table's sort key from
// its item.)
//
// Why not std::string: libstdc++'s is 32 bytes and keeps 15 inline.
//   - A partition key of 16 to 31 bytes (`PRODUCT#00000123`, YCSB's `user` and 19-20 digits) was
//     a pointer to a heap block: every lookup of it compared the key there, a second cache miss
//     after the map's slot. A PartitionKeyBytes is the same 32 bytes with the key in the slot.
//
// Layout: raw_[N - 1] is the tag: the inline length (0..N - 1), or kHeap. A heap key keeps its
// pointer in raw_[0..8) and its length in raw_[8..12).
//
// Thread safety: a value type; const methods may run concurrently.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <utility>

namespace partstore {

template <size_t N>
class CompactKey {
 public:
  static_assert(N >= 16 && N - 1 <= 0xFE, "room for the heap form; the tag below kHeap");
  static constexpr size_t kInline = N - 1;

  CompactKey() noexcept { raw_[kInline] = 0; }
  explicit CompactKey(std::string_view bytes) {
    if (bytes.size() <= kInline) {
      if (!bytes.empty()) std::memcpy(raw_, bytes.data(), bytes.size());
      raw_[kInline] = static_cast<char>(bytes.size());
      return;
    }
    char* data = new char[bytes.size()];
    std::memcpy(data, bytes.data(), bytes.size());
    const auto size = static_cast<uint32_t>(bytes.size());
    std::memcpy(raw_, &data, sizeof data);
    std::memcpy(raw_ + sizeof data, &size, sizeof size);
    raw_[kInline] = static_cast<char>(kHeap);
  }
  CompactKey(const CompactKey& other) : CompactKey(other.view()) {}
  CompactKey(CompactKey&& other) noexcept {
    std::memcpy(raw_, other.raw_, sizeof raw_);
    other.raw_[kInline] = 0;
  }
  CompactKey& operator=(const CompactKey& other) {
    if (this != &other) {
      CompactKey copy(other);
      swap(copy);
    }
    return *this;
  }
  CompactKey& operator=(CompactKey&& other) noexcept {
    if (this != &other) {
      Release();
      std::memcpy(raw_, other.raw_, sizeof raw_);
      other.raw_[kInline] = 0;
    }
    return *this;
  }
  ~CompactKey() { Release(); }

  void swap(CompactKey& other) noexcept {
    char t[sizeof raw_];
    std::memcpy(t, raw_, sizeof raw_);
    std::memcpy(raw_, other.raw_, sizeof raw_);
    std::memcpy(other.raw_, t, sizeof raw_);
  }

  std::string_view view() const {
    if (!on_heap()) return {raw_, static_cast<size_t>(raw_[kInline])};
    return {heap_data(), heap_size()};
  }
  operator std::string_view() const { return view(); }  // NOLINT: a key reads as its bytes
  size_t size() const { return on_heap() ? heap_size() : static_cast<size_t>(raw_[kInline]); }
  bool on_heap() const { return static_cast<uint8_t>(raw_[kInline]) == kHeap; }

  // The heap block a key of `length` bytes takes (before the allocator's rounding).
  static size_t HeapLength(size_t length) { return length > kInline ? length : 0; }

 private:
  static constexpr uint8_t kHeap = 0xFF;

  const char* heap_data() const {
    const char* data;
    std::memcpy(&data, raw_, sizeof data);
    return data;
  }
  size_t heap_size() const {
    uint32_t size;
    std::memcpy(&size, raw_ + sizeof(char*), sizeof size);
    return size;
  }
  void Release() {
    if (on_heap()) delete[] heap_data();
  }

  alignas(8) char raw_[N];
};

using PartitionKeyBytes = CompactKey<32>;
static_assert(sizeof(PartitionKeyBytes) == 32);

}  // namespace partstore
