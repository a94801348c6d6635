// The snapshot file's blocks (framing: shard/persist/block_file.h; what a snapshot keeps:
// partstore/snapshot.h).
//
//   header     "PSTSNAP\n", format version 4 (2, its items without short scalars or unindexed
//              maps, core/stored_item_format.h, and 1, without streams either, are read too; 3
//              is skipped: the header has no checksum, and no single bit flipped in 4 gives a
//              version a reader takes, as one in 3 would give 2 or 1)
//   kDatabase  written at (fixed64, Unix microseconds), tables (varint), items (varint), the
//              write-ahead log segment that continues after this snapshot (varint; 0: none)
//   kTable     one per table, in name order: TableSettings (shard/persist/table_settings.h, with
//              the table's number in the log); the n-th table block defines table n. From version
//              2 its stream specification is not applied: the table's stream block restores it
//   kItems     table number (varint), count (varint), then count items, each its length (varint)
//              and StoredItem::PortableEncoding() bytes; blocks of about kItemBlockBytes
//   kStream    (version 2) one per stream the database keeps, a table's or a deleted table's: the
//              table (varint: 1 + its table number; 0: none), then the StreamImage
//              (shard/persist/stream_image.h); the n-th stream block defines stream n
//   kRecords   (version 2) stream number, the shard's starting sequence number, count (varints),
//              then count StreamRecordImages; blocks of about kItemBlockBytes
//   kEnd       tables (varint), items (varint): what the file holds, as the header said; from
//              version 2 then streams and records (varints)
//
// Blocks come in that order: the database block, every table block, the item blocks (a table's
// items in any number of blocks), the stream blocks, each followed by its record blocks, the end
// block, then nothing.
#pragma once

#include <cstdint>
#include <string_view>

namespace partstore::persist {

inline constexpr std::string_view kSnapshotMagic = "PSTSNAP\n";
inline constexpr uint32_t kSnapshotVersion = 4;

enum class SnapshotBlock : uint8_t {
  kDatabase = 1,
  kTable = 2,
  kItems = 3,
  kEnd = 4,
  kStream = 5,
  kRecords = 6,
};

// Items are cut into blocks of about this many bytes (a damaged block loses its own items only to
// the error message: the whole load is refused).
inline constexpr size_t kItemBlockBytes = 1 << 20;

}  // namespace partstore::persist
