// PatchStoredItem, PlanInPlacePatch and PatchStoredItemInPlace (core/stored_item_patch.h): an
// item's new version written from the old one's bytes, and a change written into the old one's
// own buffer.
#include "core/stored_item_patch.h"

#include <boost/container/small_vector.hpp>
#include <cassert>
#include <cstring>
#include <optional>
#include <span>

#include "core/stored_item_codec.h"

namespace partstore {

StoredItem StoredItemCodec::Patch(const StoredItem& source,
                                  std::span<const AttributeChange> changes) {
  // The source's entries are found through its offsets (a binary search per change; a small map's
  // entries are walked once), and the runs of entries between changes are copied whole.
  const Entries entries{ReadIndexed(source.bytes())};
  const Indexed& m = entries.m;
  auto offset = [&](size_t i) { return entries.offset(i); };
  auto name_at = [&](size_t i) { return entries.name_at(i); };
  // What the new item holds, in order: runs of source entries [first, last), or a change's new
  // entry. The sizer takes the new values' composite lengths in the order the writer writes them.
  struct Piece {
    uint32_t first;
    uint32_t last;
    const AttributeChange* change;  // null: a run of source entries
  };
  boost::container::small_vector<Piece, 8> pieces;
  // While every change replaces an entry with one of the same encoded length, the new item is
  // the source's bytes with those entries overwritten: no offset moves. `replaced` holds where
  // each such entry starts in the body, in the changes' order.
  bool same_layout = true;
  boost::container::small_vector<uint32_t, 4> replaced;
  Sizer sizer;
  size_t count = 0;
  size_t n = 0;
  size_t item_size = source.item_size();
  size_t next = 0;  // the first source entry not yet placed
  auto keep = [&](size_t last) {
    if (last == next) return;
    pieces.push_back({static_cast<uint32_t>(next), static_cast<uint32_t>(last), nullptr});
    count += last - next;
    n += offset(last) - offset(next);
    next = last;
  };
  for (const AttributeChange& change : changes) {
    const size_t lo = entries.LowerBound(next, change.name);
    keep(lo);
    size_t old_length = 0;  // the replaced entry's encoded bytes (0: none)
    if (lo < m.count && name_at(lo) == change.name) {  // replaced or removed
      const char* p = m.body.data() + offset(lo);
      const MapEntry entry = stored_item_internal::ReadEntry(p);
      item_size -= entry.name.size() + entry.value.Size();
      old_length = offset(lo + 1) - offset(lo);
      next = lo + 1;
    }
    if (change.value != nullptr) {
      pieces.push_back({0, 0, &change});
      ++count;
      const size_t new_length = NameLength(change.name) + sizer.Value(*change.value);
      n += new_length;
      item_size += AttributeSize(change.name, *change.value);
      same_layout = same_layout && new_length == old_length;
      if (same_layout) replaced.push_back(static_cast<uint32_t>(offset(lo)));
    } else {
      same_layout = false;
    }
  }
  keep(m.count);

  if (same_layout) {
    // Same count and body length, so the same header and offsets: copy the whole encoding and
    // write each change over the entry it replaces (its name included, which is unchanged).
    const std::string_view bytes = source.encoding();
    StoredItem::Rep* rep = StoredItem::Allocate(bytes.size(), item_size);
    std::memcpy(rep->bytes(), bytes.data(), bytes.size());
    const auto body_start = static_cast<size_t>(m.body.data() - bytes.data());
    Writer writer{rep->bytes(), sizer.bodies.data(), sizer.heads.data()};
    size_t i = 0;
    for (const AttributeChange& change : changes) {
      writer.d = rep->bytes() + body_start + replaced[i++];
      writer.Name(change.name);
      writer.Value(*change.value);
      assert(i == replaced.size() || writer.d <= rep->bytes() + body_start + replaced[i]);
    }
    return StoredItem(rep);
  }

  const size_t length = IndexedLength(/*is_map=*/true, count, n);
  StoredItem::Rep* rep = StoredItem::Allocate(length, item_size);
  Writer writer{rep->bytes(), sizer.bodies.data(), sizer.heads.data()};
  const uint8_t width = WidthOf(/*is_map=*/true, count, n);
  char* offsets;
  char* const start = MapHeader(writer, count, n, &offsets);
  for (const Piece& piece : pieces) {
    const auto at = static_cast<size_t>(writer.d - start);
    if (piece.change != nullptr) {
      Writer::Offset(offsets, at, width);
      writer.Name(piece.change->name);
      writer.Value(*piece.change->value);
      continue;
    }
    const size_t from = offset(piece.first);
    for (size_t i = piece.first; i < piece.last; ++i) {
      Writer::Offset(offsets, offset(i) - from + at, width);
    }
    const size_t size = offset(piece.last) - from;
    std::memcpy(writer.d, m.body.data() + from, size);
    writer.d += size;
  }
  assert(writer.d == rep->bytes() + length);
  return StoredItem(rep);
}

StoredItem PatchStoredItem(const StoredItem& source, std::span<const AttributeChange> changes) {
  return StoredItemCodec::Patch(source, changes);
}

std::optional<InPlacePatch> StoredItemCodec::PlanInPlace(const StoredItem& item,
                                                         std::span<const AttributeChange> changes) {
  // Acquire: a reader that dropped its reference (a release, in Unref) has finished reading.
  if (item.rep_ == nullptr || item.sized() ||
      item.rep_->refs.load(std::memory_order_acquire) != 1) {
    return std::nullopt;
  }
  const Entries entries{ReadIndexed(item.rep_->bytes())};
  const auto body_start = static_cast<size_t>(entries.m.body.data() - item.rep_->bytes());
  std::optional<InPlacePatch> plan(std::in_place);  // built in place: returned with no move
  size_t next = 0;
  for (const AttributeChange& change : changes) {
    if (change.value == nullptr) return std::nullopt;  // a removal moves the entries after it
    const size_t i = entries.LowerBound(next, change.name);
    if (i == entries.m.count || entries.name_at(i) != change.name) return std::nullopt;
    Sizer sizer;
    const size_t new_length = NameLength(change.name) + sizer.Value(*change.value);
    if (new_length != entries.offset(i + 1) - entries.offset(i)) return std::nullopt;
    const char* p = entries.m.body.data() + entries.offset(i);
    const MapEntry entry = stored_item_internal::ReadEntry(p);
    if (entry.value.Size() != ValueSize(*change.value)) return std::nullopt;  // the item's size
    plan->at.push_back(static_cast<uint32_t>(body_start + entries.offset(i)));
    next = i + 1;
  }
  return plan;
}

void StoredItemCodec::PatchInPlace(StoredItem& item, std::span<const AttributeChange> changes,
                                   const InPlacePatch& plan) {
  assert(item.rep_ != nullptr && item.rep_->refs.load(std::memory_order_relaxed) == 1);
  assert(plan.at.size() == changes.size());
  for (size_t i = 0; i < changes.size(); ++i) {
    Sizer sizer;  // the new value's composite lengths, which the writer takes in the same order
    sizer.Value(*changes[i].value);
    Writer writer{item.rep_->bytes() + plan.at[i], sizer.bodies.data(), sizer.heads.data()};
    writer.Name(changes[i].name);
    writer.Value(*changes[i].value);
  }
}

std::optional<InPlacePatch> PlanInPlacePatch(const StoredItem& item,
                                             std::span<const AttributeChange> changes) {
  return StoredItemCodec::PlanInPlace(item, changes);
}

void PatchStoredItemInPlace(StoredItem& item, std::span<const AttributeChange> changes,
                            const InPlacePatch& plan) {
  StoredItemCodec::PatchInPlace(item, changes, plan);
}

}  // namespace partstore
