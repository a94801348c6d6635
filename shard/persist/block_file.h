// Block files: the framing of partstore's files (snapshots; shard/persist/snapshot_format.h says
// what their blocks hold).
//
//   header   magic (8 bytes, the file kind's), format version (fixed32, little-endian)
//   block    kind (1 byte), payload length (fixed32), payload, checksum (fixed64: XXH3-64 of the
//            payload, seeded with the XXH3-64 of the kind and length bytes)
//   ...      blocks until the file kind's end block; nothing may follow it.
//
// BlockFileWriter writes a new file under a temporary name beside the target and, on Commit,
// flushes, fsyncs, renames it over the target and fsyncs the directory: a reader sees the old file
// or the whole new one, never a part, and a crash or an error leaves the old file as it was.
// BlockFileReader checks the framing and every checksum as it reads, and names the file and the
// offset of what it refuses.
//
// Thread safety: a writer or reader belongs to one thread.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "partstore/status.h"

namespace partstore::persist {

// The largest payload a block may have (a reader refuses a longer length before allocating).
inline constexpr uint32_t kMaxBlockPayload = 64u << 20;
// Bytes of a block around its payload: kind, length, checksum.
inline constexpr size_t kBlockOverhead = 1 + 4 + 8;

// A block's checksum (also for tools that repair framing on purpose: the snapshot fuzzer).
uint64_t BlockChecksum(uint8_t kind, uint32_t length, std::string_view payload);

class BlockFileWriter {
 public:
  // Creates the temporary file beside `path` and writes the header. Errors: kInternal naming the
  // file and the system's reason.
  static Result<std::unique_ptr<BlockFileWriter>> Create(std::string path, std::string_view magic,
                                                         uint32_t version);
  ~BlockFileWriter();  // an uncommitted file is removed
  BlockFileWriter(const BlockFileWriter&) = delete;
  BlockFileWriter& operator=(const BlockFileWriter&) = delete;

  // REQUIRES: payload.size() <= kMaxBlockPayload.
  Status Append(uint8_t kind, std::string_view payload);
  // Makes the file durable and puts it in place of `path`.
  Status Commit();
  uint64_t bytes_written() const { return offset_; }

 private:
  BlockFileWriter(std::string path, std::string temp, std::FILE* file)
      : path_(std::move(path)), temp_(std::move(temp)), file_(file) {}
  Status Write(std::string_view bytes);
  Status Error(std::string_view what) const;

  std::string path_;
  std::string temp_;
  std::FILE* file_;
  uint64_t offset_ = 0;
  bool committed_ = false;
};

class BlockFileReader {
 public:
  // Opens `path` and checks its header: the magic, and a version no newer than `max_version`.
  // Errors: kResourceNotFound for a missing file, kInternal for one that cannot be read,
  // kValidation for a file that is not such a file, each naming the file.
  static Result<std::unique_ptr<BlockFileReader>> Open(const std::string& path,
                                                       std::string_view magic,
                                                       uint32_t max_version);
  // The same over an open stream (closed by the reader), `name` naming it in messages.
  static Result<std::unique_ptr<BlockFileReader>> FromStream(std::FILE* file, std::string name,
                                                             std::string_view magic,
                                                             uint32_t max_version);
  ~BlockFileReader();
  BlockFileReader(const BlockFileReader&) = delete;
  BlockFileReader& operator=(const BlockFileReader&) = delete;

  uint32_t version() const { return version_; }
  // Bytes read so far.
  uint64_t offset() const { return offset_; }

  struct Block {
    uint8_t kind = 0;
    std::string_view payload;  // valid until the next call
    uint64_t offset = 0;       // of the block's first byte
  };
  // The next block; kValidation naming the file and offset for a truncated block, a length over
  // kMaxBlockPayload or a checksum mismatch, kInternal for a read error.
  Result<Block> Next();
  // Whether the file ends here (nothing consumed).
  bool AtEnd();
  // After Next failed: whether the failure is a torn last block (cut short, or a checksum
  // mismatch of a block that ends where the file does): what a crash mid-append leaves.
  bool torn() const { return torn_; }
  // After Next failed for the block's content: what is wrong with it, without the file and offset
  // (e.g. "checksum mismatch (the block is damaged)"); empty after a read error.
  const std::string& failure() const { return failure_; }
  // kValidation: "<file>: <what> at offset <offset>".
  Status Corrupt(uint64_t offset, std::string_view what) const;
  const std::string& name() const { return name_; }

 private:
  BlockFileReader(std::FILE* file, std::string name) : file_(file), name_(std::move(name)) {}
  Status ReadHeader(std::string_view magic, uint32_t max_version);
  bool ReadExactly(char* out, size_t size);

  std::FILE* file_;
  std::string name_;
  uint32_t version_ = 0;
  uint64_t offset_ = 0;
  bool torn_ = false;
  std::string failure_;
  std::string buffer_;
};

}  // namespace partstore::persist
