// The attribute-name table: the process's numbers for attribute names, so that a stored item
// (partstore/stored_item.h, core/stored_item_format.h) writes the name of one of its own
// attributes, which it shares with other items, as a number of one or two bytes, not as its
// bytes. Names of nested maps' entries are always written out: maps keyed by data (`{"scores":
// {"user123": ...}}`) would fill the table with names no other item repeats.
//
// Why: the items of a table repeat the same names. The seed model's items spent 27.5 B each on
// them (`follower`, `created_at`, `shipping_address` ...), a fifth of what the engine holds per
// item (bench/README.md, "Where the 274 B go").
//
// What keeps the encoding canonical (items compare by their bytes): a name is in the table from
// the first time an encoder meets it to the end of the process, or never. Every encoder asks for a
// top-level name's number with Intern, which adds the name when it is new and there is room; the
// table only grows, and once it is full it stays full. So every encoding of a top-level name in
// the process is the same: its number, or (a name met when the table was full, or longer than
// kMaxNameLength) its bytes. StoredItem::Decode numbers an item's names only once the whole item
// has passed its checks.
//
// Bounds: at most kMaxNames names of at most kMaxNameLength bytes each, about 2.3 MiB at the very
// most, allocated as names arrive and kept for the process (names live as long as any encoding
// that holds their numbers).
//
// Numbers are the process's own. Whatever leaves the process (snapshots, the write-ahead log,
// backups, stream images) writes names out (StoredItem::PortableEncoding), and StoredItem::Decode
// numbers them again.
//
// Thread safety: Intern may run from any thread. A lookup of a known name reads atomics and takes
// no lock; adding a name takes the table's mutex, a leaf (taken while encoding, under a stripe's
// lock, and never held while taking another). A name's number is published (release) after its
// bytes, and an encoding holding the number is written after that, so a reader of the encoding
// (which it reached through the lock or handle that published the encoding) reads the name
// (stored_item_internal::ReadNameInto) with no lock.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace partstore::attribute_name_table {

// At most this many names: a number below 64 takes one byte in an encoding, below 8,192 two.
inline constexpr uint32_t kMaxNames = 8192;
// Longer names are always written out.
inline constexpr size_t kMaxNameLength = 255;
// Intern's answer for a name that has no number.
inline constexpr uint32_t kNone = UINT32_MAX;

// The name's number, adding the name when it is new and there is room; kNone when it is empty,
// longer than kMaxNameLength, or the table was full when it was first met.
uint32_t Intern(std::string_view name);

// How many names the table holds (for tests and statistics).
uint32_t size();

}  // namespace partstore::attribute_name_table
