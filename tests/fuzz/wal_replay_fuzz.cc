// libFuzzer target for the write-ahead log's replay (shard/persist/write_ahead_log.h): the input
// becomes the only log segment of an empty data directory, which Database::Open replays. Inputs
// whose first byte is odd have their record checksums repaired first, so that mutations reach the
// record decoders. Any input must open or be refused with ValidationException (or the memory
// limit's, ResourceInUse or ResourceNotFound of a replayed step), never crash or hang; what
// opens reopens from the snapshot Open took to the same tables and item counts. Violations abort.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

#include "partstore/database.h"
#include "shard/persist/write_ahead_log.h"
#include "tests/fuzz/block_file_fuzz_util.h"

namespace {

using partstore::Code;
using partstore::Database;

partstore::DatabaseOptions Options(const std::string& dir) {
  partstore::DatabaseOptions options;
  options.memory.limit_bytes = 64 << 20;  // a crafted log may not fill memory
  options.persistence.data_dir = dir;
  return options;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0 || size > (1 << 20)) return 0;
  static const std::string dir = "/tmp/wal_replay_fuzz." + std::to_string(getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] & 1)
    bytes = partstore::persist::RepairChecksums(std::move(bytes),
                                                partstore::persist::kWalMagic.size() + 4);
  {
    std::FILE* file =
        std::fopen(partstore::persist::WriteAheadLog::SegmentPath(dir, 1).c_str(), "wb");
    if (file == nullptr) std::abort();
    std::fwrite(bytes.data(), 1, bytes.size(), file);
    std::fclose(file);
  }
  auto opened = Database::Open(Options(dir));
  if (!opened.ok()) {
    const Code code = opened.status().code();
    if (code != Code::kValidation && code != Code::kMemoryLimitExceeded &&
        code != Code::kResourceInUse && code != Code::kResourceNotFound) {
      std::abort();
    }
    return 0;
  }
  const auto tables = (*opened)->ListTables({})->table_names;
  int64_t items = 0;
  for (const auto& table : tables) items += (*opened)->DescribeTable({table})->table.item_count;
  opened->reset();
  auto again = Database::Open(Options(dir));  // from the snapshot the first Open took
  if (!again.ok()) std::abort();
  if ((*again)->ListTables({})->table_names != tables) std::abort();
  int64_t again_items = 0;
  for (const auto& table : tables)
    again_items += (*again)->DescribeTable({table})->table.item_count;
  if (again_items != items) std::abort();
  return 0;
}
