// For the fuzz targets of block files (snapshot_load_fuzz, wal_replay_fuzz, backup_load_fuzz): a
// file whose blocks' checksums are recomputed, so that mutations reach the decoders behind the
// checksums.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "shard/persist/block_file.h"
#include "shard/persist/byte_codec.h"

namespace partstore::persist {

// `bytes` with every whole block's checksum recomputed, from `header` bytes on (a block cut short
// keeps what it has).
inline std::string RepairChecksums(std::string bytes, size_t header) {
  size_t at = header;
  while (at + 5 <= bytes.size()) {
    const auto kind = static_cast<uint8_t>(bytes[at]);
    uint32_t length = 0;
    ByteReader(std::string_view(bytes).substr(at + 1, 4)).Fixed32(&length);
    const size_t payload = at + 5;
    if (length > bytes.size() - payload || bytes.size() - payload - length < 8) break;
    std::string checksum;
    ByteWriter(&checksum).Fixed64(
        BlockChecksum(kind, length, std::string_view(bytes).substr(payload, length)));
    bytes.replace(payload + length, 8, checksum);
    at = payload + length + 8;
  }
  return bytes;
}

}  // namespace partstore::persist
