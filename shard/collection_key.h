// CollectionKey: the key of an ItemCollection element (shard/item_collection.h) in 8 bytes. Its
// bytes are held in one of three ways:
//   - borrowed: they are the stored item's own, the value of its sort key attribute (an S or a
//     B) inside the item's buffer. The element's handle keeps that buffer alive, and no write
//     changes a key attribute's bytes in place, so the key costs nothing beyond this word. A
//     table's items are stored so (Table::StoredSortKey);
//   - inline: up to kInline (6) bytes in the word itself (a short number's encoding);
//   - owned: a heap block of exactly the key's length (an index entry key, a number of 7 bytes
//     or more, a key whose item has no buffer).
// The constructor chooses: bytes that lie inside the item's encoding are borrowed. So a caller
// lends a key only by passing a view of the item's own key attribute; any other view is copied.
//
// Why: an element was a 24-byte key (up to 23 bytes inline) and an 8-byte handle. A table's sort
// key is also in the item, and an index entry key is usually past 23 bytes (two or three key
// components). A 16-byte element saves 16 bytes an item, and the key's bytes cost a cache miss to
// compare where they used to sit in the array (bench/README.md, "Keys read from the items").
//
// Layout, a uint64_t: bits 0..47 an address (the inline bytes, little-endian, for an inline
// key), bits 48..61 the length (14 bits), bits 62..63 the kind. An owned key of more than 16,383
// bytes (no DynamoDB key is: an entry key is at most about 7,200) keeps its length in its block.
// User-space addresses have at most 47 bits on x86-64 and 48 on arm64 (Linux hands out higher
// ones only to a mapping that asks for them). Bytes at a higher address are copied, not borrowed;
// an owned block there is a broken assumption (asserted).
//
// Thread safety: a value type; const methods may run concurrently.
#pragma once

#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <utility>

#include "partstore/stored_item.h"

namespace partstore {

class CollectionKey {
 public:
  static constexpr size_t kInline = 6;
  static constexpr size_t kMaxShortLength = (size_t{1} << 14) - 1;

  CollectionKey() noexcept : word_(Word(kInlineKind, 0, 0)) {}
  // `bytes` borrowed from `item` when they lie inside its encoding (see above), else copied.
  CollectionKey(std::string_view bytes, const StoredItem& item) {
    if (Borrowable(bytes, item)) {
      word_ = Word(kBorrowed, bytes.size(), reinterpret_cast<uintptr_t>(bytes.data()));
    } else {
      word_ = CollectionKey(bytes).release();
    }
  }
  // A copy of `bytes` (inline or owned).
  explicit CollectionKey(std::string_view bytes) {
    if (bytes.size() <= kInline) {
      uint64_t inline_bytes = 0;
      if (!bytes.empty()) std::memcpy(&inline_bytes, bytes.data(), bytes.size());
      word_ = Word(kInlineKind, bytes.size(), inline_bytes);
      return;
    }
    const bool long_key = bytes.size() > kMaxShortLength;
    char* block = new char[HeapLength(bytes.size())];
    char* data = block;
    if (long_key) {
      const uint64_t size = bytes.size();
      std::memcpy(block, &size, sizeof size);
      data += sizeof size;
    }
    std::memcpy(data, bytes.data(), bytes.size());
    word_ = Word(long_key ? kOwnedLong : kOwned, long_key ? 0 : bytes.size(),
                 reinterpret_cast<uintptr_t>(block));
  }
  CollectionKey(const CollectionKey& other)
      : word_(other.owned() ? CollectionKey(other.view()).release() : other.word_) {}
  CollectionKey(CollectionKey&& other) noexcept : word_(other.release()) {}
  CollectionKey& operator=(const CollectionKey& other) {
    if (this != &other) CollectionKey(other).swap(*this);
    return *this;
  }
  CollectionKey& operator=(CollectionKey&& other) noexcept {
    CollectionKey(std::move(other)).swap(*this);
    return *this;
  }
  ~CollectionKey() {
    if (owned()) delete[] address();
  }
  void swap(CollectionKey& other) noexcept { std::swap(word_, other.word_); }

  std::string_view view() const {
    const auto length = static_cast<size_t>((word_ >> kLengthShift) & kMaxShortLength);
    switch (kind()) {
      case kInlineKind:
        return {reinterpret_cast<const char*>(&word_), length};
      case kOwnedLong: {
        uint64_t size;
        std::memcpy(&size, address(), sizeof size);
        return {address() + sizeof size, static_cast<size_t>(size)};
      }
      default:
        return {address(), length};
    }
  }
  operator std::string_view() const { return view(); }  // NOLINT: a key reads as its bytes

  // Asks the cache for the first line of the key's bytes when they are not in this word: a
  // binary search over keys held elsewhere issues these ahead of its comparisons.
  void Prefetch() const {
    if (kind() != kInlineKind) __builtin_prefetch(address());
  }

  bool borrowed() const { return kind() == kBorrowed; }
  bool owned() const { return kind() == kOwned || kind() == kOwnedLong; }

  // Whether a key of `bytes` for `item` is borrowed (see above).
  static bool Borrowable(std::string_view bytes, const StoredItem& item) {
    if (bytes.size() <= kInline || bytes.size() > kMaxShortLength || item.empty()) return false;
    const std::string_view encoding = item.encoding();
    const auto begin = reinterpret_cast<uintptr_t>(encoding.data());
    const auto at = reinterpret_cast<uintptr_t>(bytes.data());
    return at >= begin && at + bytes.size() <= begin + encoding.size() && at <= kAddressMask;
  }
  // The heap block an owned key of `length` bytes takes (before the allocator's rounding).
  static size_t HeapLength(size_t length) {
    return length <= kInline ? 0 : length > kMaxShortLength ? length + sizeof(uint64_t) : length;
  }
  // The same for the key CollectionKey(bytes, item) makes.
  static size_t HeapLength(std::string_view bytes, const StoredItem& item) {
    return Borrowable(bytes, item) ? 0 : HeapLength(bytes.size());
  }

 private:
  static_assert(std::endian::native == std::endian::little,
                "inline bytes are the word's low bytes");
  enum Kind : uint64_t { kInlineKind = 0, kBorrowed = 1, kOwned = 2, kOwnedLong = 3 };
  static constexpr int kLengthShift = 48;
  static constexpr int kKindShift = 62;
  static constexpr uint64_t kAddressMask = (uint64_t{1} << kLengthShift) - 1;

  static uint64_t Word(Kind kind, size_t length, uint64_t low) {
    assert(low <= kAddressMask && length <= kMaxShortLength);
    return (uint64_t{kind} << kKindShift) | (static_cast<uint64_t>(length) << kLengthShift) | low;
  }
  Kind kind() const { return static_cast<Kind>(word_ >> kKindShift); }
  const char* address() const { return reinterpret_cast<const char*>(word_ & kAddressMask); }
  uint64_t release() { return std::exchange(word_, Word(kInlineKind, 0, 0)); }

  uint64_t word_;
};

static_assert(sizeof(CollectionKey) == 8);

}  // namespace partstore
