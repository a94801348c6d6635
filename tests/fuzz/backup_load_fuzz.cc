// libFuzzer target for the reader of backup files (DIR/backups/<id>.backup; blocks:
// shard/persist/backup_format.h), reached as a database opening its data directory reads them.
// Inputs whose first byte is odd have their block checksums repaired, so that mutations reach the
// backup, table and item decoders behind the checksums. Any input must open or be refused with a
// ValidationException, never crash or hang; a backup that opens restores into a new table or is
// refused with a DynamoDB error (a table definition or an item the restored table refuses), never
// an internal one. Violations abort.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

#include "partstore/database.h"
#include "shard/persist/backup_format.h"
#include "tests/fuzz/block_file_fuzz_util.h"

namespace {

using partstore::Code;
using partstore::Database;

const std::string& Directory() {
  static const std::string dir = "/tmp/backup_load_fuzz." + std::to_string(getpid());
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0 || size > (1 << 20)) return 0;
  std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] & 1) {
    bytes = partstore::persist::RepairChecksums(std::move(bytes),
                                                partstore::persist::kBackupMagic.size() + 4);
  }
  std::filesystem::remove_all(Directory());
  std::filesystem::create_directories(Directory() + "/backups");
  {
    std::FILE* file = std::fopen((Directory() + "/backups/fuzz.backup").c_str(), "wb");
    if (file == nullptr) std::abort();
    std::fwrite(bytes.data(), 1, bytes.size(), file);
    std::fclose(file);
  }
  partstore::DatabaseOptions options;
  options.memory.limit_bytes = 64 << 20;  // a crafted file may not fill memory
  options.persistence.data_dir = Directory();
  auto db = Database::Open(options);
  if (!db.ok()) {
    if (db.status().code() != Code::kValidation) std::abort();
    return 0;
  }
  auto backups = (*db)->ListBackups({});
  if (!backups.ok() || backups->backup_summaries.size() != 1) std::abort();
  auto restored = (*db)->RestoreTableFromBackup(
      {.target_table_name = "Restored",
       .backup_arn = backups->backup_summaries[0].details.backup_arn});
  if (!restored.ok()) {
    const Code code = restored.status().code();
    if (code == Code::kInternal || code == Code::kOk) std::abort();
    // A refused restore leaves no table behind.
    if ((*db)->DescribeTable({"Restored"}).ok()) std::abort();
  }
  return 0;
}
