// An on-demand backup's file, DIR/backups/<backup id>.backup (what a backup keeps:
// partstore/backups.h; framing: shard/persist/block_file.h, the snapshot's).
//
//   header   "PSTBACK\n", format version 2 (its items may hold short scalars and unindexed maps,
//            core/stored_item_format.h; version 1, without them, is read too)
//   kBackup  the backup: ARN, name (strings), created (double, Unix seconds), size (varint); its
//            source table: name, ID, ARN (strings), created (double), items, size (varints)
//   kTable   TableSettings (shard/persist/table_settings.h): the table a restore creates
//   kItems   count (varint), then count items, each its length (varint) and
//            StoredItem::PortableEncoding() bytes; blocks of about kItemBlockBytes
//   kEnd     items (varint)
//
// Blocks come in that order and nothing follows the end block.
#pragma once

#include <cstdint>
#include <string_view>

namespace partstore::persist {

inline constexpr std::string_view kBackupMagic = "PSTBACK\n";
inline constexpr uint32_t kBackupVersion = 2;

enum class BackupBlock : uint8_t { kBackup = 1, kTable = 2, kItems = 3, kEnd = 4 };

}  // namespace partstore::persist
