// libFuzzer target for Database::LoadSnapshot, the reader of snapshot files (framing:
// shard/persist/block_file.h; blocks: shard/persist/snapshot_format.h). Inputs whose first byte is
// odd have their block checksums repaired before loading, so that mutations reach the table and
// item decoders behind the checksums. Any input must load or be refused with a ValidationException
// (or the memory limit's, or ResourceInUse), never crash or hang; a refused load leaves no table
// behind, and what loads saves and loads again to the same tables and item counts. Violations
// abort.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "partstore/database.h"
#include "shard/persist/snapshot_format.h"
#include "tests/fuzz/block_file_fuzz_util.h"

namespace {

using partstore::Code;
using partstore::Database;

const std::string& FilePath(const char* suffix) {
  static const std::string base = "/tmp/snapshot_load_fuzz." + std::to_string(getpid());
  static std::string paths[2] = {base + ".in", base + ".out"};
  return paths[suffix[0] == 'o' ? 1 : 0];
}

void Write(const std::string& path, std::string_view bytes) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) std::abort();
  std::fwrite(bytes.data(), 1, bytes.size(), file);
  std::fclose(file);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0 || size > (1 << 20)) return 0;
  std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] & 1)
    bytes = partstore::persist::RepairChecksums(std::move(bytes),
                                                partstore::persist::kSnapshotMagic.size() + 4);
  Write(FilePath("in"), bytes);

  partstore::DatabaseOptions options;
  options.memory.limit_bytes = 64 << 20;  // a crafted file may not fill memory
  Database db(options);
  auto loaded = db.LoadSnapshot(FilePath("in"));
  if (!loaded.ok()) {
    const Code code = loaded.status().code();
    if (code != Code::kValidation && code != Code::kMemoryLimitExceeded &&
        code != Code::kResourceInUse) {
      std::abort();
    }
    if (!db.ListTables({})->table_names.empty()) std::abort();
    return 0;
  }
  auto saved = db.SaveSnapshot(FilePath("out"));
  if (!saved.ok()) std::abort();
  Database again(options);
  auto reloaded = again.LoadSnapshot(FilePath("out"));
  if (!reloaded.ok() || reloaded->tables != loaded->tables || reloaded->items != saved->items) {
    std::abort();
  }
  return 0;
}
