// The portable encoding (StoredItem::PortableEncoding, StoredItem::Decode): the item's encoding
// with every map entry's name written out, as files hold items; and the translation between it
// and the process's encoding, whose names may be numbers of the attribute-name table
// (core/attribute_name_table.h; the layout: core/stored_item_format.h).
//
// A translation walks the item twice, as the encoder does: the sizing pass computes every map's
// and list's new body length in pre-order, and the writing pass writes the new bytes, taking them
// in the same order. To the process's form, the checking decoder is the sizing pass
// (core/stored_item_decode.cc). Scalars, sets and runs are copied as they are; only names, and the
// lengths, offsets and widths of the composites that hold them, change.
#include <cassert>
#include <cstring>
#include <string>
#include <string_view>

#include "core/stored_item_codec.h"

namespace partstore {
namespace {

enum class Names {
  kWrittenOut,  // varint(length) and the bytes: the portable form
  kNumbered,    // a name head (Codec::NameHead): the process's form
};

template <Names kFrom, Names kTo>
class Translation {
 public:
  // To the portable form: sizes the translation itself (Size, then Write). To the process's:
  // writes one the checking decoder sized.
  Translation() : sizes_(&own_) {}
  explicit Translation(const Codec::PortableSizes& sizes) : sizes_(&sizes) {}

  // The translated length of the map-body at `item` (a whole item). Call once, before Write.
  size_t Size(const char* item) requires(kTo == Names::kWrittenOut) {
    return SizeIndexed(item, /*is_map=*/true);
  }
  // Writes the translation of `item` to `out`, which has `length` bytes (Size(item)'s, or the
  // sizes' given).
  void Write(const char* item, char* out, size_t length) {
    Codec::Writer writer{out, sizes_->bodies.data(), sizes_->heads.data()};
    WriteIndexed(item, /*is_map=*/true, /*top=*/true, writer);
    assert(writer.d == out + length);
    (void)length;
  }

 private:
  static void ReadName(const char*& p, std::string_view& name) {
    if constexpr (kFrom == Names::kWrittenOut) {
      stored_item_internal::ReadBytesInto(p, name);
    } else {
      stored_item_internal::ReadNameInto(p, name);
    }
  }
  // Nested maps' names are written out in both forms; only top-level ones (`top`) may be numbered.
  static void WriteName(Codec::Writer& writer, std::string_view name, bool top) {
    if constexpr (kTo == Names::kWrittenOut) {
      writer.Bytes(name);
    } else {
      writer.Name(name, top ? *writer.head++ : Codec::WrittenOutHead(name));
    }
  }
  static bool IsIndexed(char tag) {
    return tag == static_cast<char>(Type::kM) || tag == static_cast<char>(Type::kL);
  }

  // The portable form's sizing: every name written out.
  size_t SizeIndexed(const char* p, bool is_map) {
    const Codec::Indexed source = Codec::ReadIndexed(p);
    const size_t slot = own_.Open();
    size_t n = 0;
    const char* q = source.body.data();
    for (uint32_t i = 0; i < source.count; ++i) {
      if (is_map) {
        std::string_view name;
        ReadName(q, name);
        n += Codec::BytesLength(name.size());
      }
      n += SizeValue(q);
    }
    return own_.Close(slot, is_map, source.count, n);
  }
  // The translated length of the value at q; moves q past it.
  size_t SizeValue(const char*& q) {
    const char* start = q;
    if (IsIndexed(*q)) {
      const size_t length = 1 + SizeIndexed(q + 1, *q == static_cast<char>(Type::kM));
      Codec::ReadValue(q);
      return length;
    }
    Codec::ReadValue(q);
    return static_cast<size_t>(q - start);
  }

  static void WriteIndexed(const char* p, bool is_map, bool top, Codec::Writer& writer) {
    const Codec::Indexed source = Codec::ReadIndexed(p);
    uint8_t width;
    char* start;
    char* offsets = writer.Indexed(is_map, source.count, &start, &width);
    const char* q = source.body.data();
    for (uint32_t i = 0; i < source.count; ++i) {
      Codec::Writer::Offset(offsets, static_cast<size_t>(writer.d - start), width);
      if (is_map) {
        std::string_view name;
        ReadName(q, name);
        WriteName(writer, name, top);
      }
      WriteValue(q, writer);
    }
  }
  static void WriteValue(const char*& q, Codec::Writer& writer) {
    const char* start = q;
    if (IsIndexed(*q)) {
      *writer.d++ = *q;
      WriteIndexed(q + 1, *q == static_cast<char>(Type::kM), /*top=*/false, writer);
      Codec::ReadValue(q);
      return;
    }
    Codec::ReadValue(q);
    const auto length = static_cast<size_t>(q - start);
    std::memcpy(writer.d, start, length);
    writer.d += length;
  }

  Codec::PortableSizes own_;  // the sizing pass's
  const Codec::PortableSizes* sizes_;
};

}  // namespace

StoredItem StoredItemCodec::Numbered(std::string_view portable, size_t item_size,
                                     const PortableSizes& sizes, size_t length) {
  Translation<Names::kWrittenOut, Names::kNumbered> translation(sizes);
  StoredItem::Rep* rep = StoredItem::Allocate(length, item_size);
  translation.Write(portable.data(), rep->bytes(), length);
  return StoredItem(rep);
}

std::string StoredItem::PortableEncoding() const {
  Translation<Names::kNumbered, Names::kWrittenOut> translation;
  const char* item = bytes();
  std::string out(translation.Size(item), '\0');
  translation.Write(item, out.data(), out.size());
  return out;
}

}  // namespace partstore
