// libFuzzer target for ImportTable's record readers (tools/transfer/import_reader.h): the first
// byte picks DYNAMODB_JSON lines or CSV (and CSV's delimiter and whether a header list is given);
// the rest is an object's text. Every record must become an item or an error without a crash; a
// CSV item holds only non-empty Strings and, in typed key columns, Numbers and Binaries; the
// records handed out never outnumber the lines. Violations abort.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <variant>

#include "tools/transfer/import_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  using partstore::transfer::RecordFormat;
  const uint8_t mode = data[0];
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  RecordFormat format;
  format.csv = (mode & 1) != 0;
  format.delimiter = ",\t:;| "[(mode >> 1) % 6];
  if ((mode & 0x10) != 0) format.header = {"PK", "SK", "v"};
  if ((mode & 0x20) != 0) format.key_types["SK"] = partstore::KeyType::kNumber;
  if ((mode & 0x40) != 0) format.key_types["v"] = partstore::KeyType::kBinary;
  size_t records = 0;
  partstore::transfer::ReadRecords(text, format, [&](partstore::Result<partstore::Item> item) {
    ++records;
    if (!item.ok() || !format.csv) return;
    // A CSV item holds non-empty Strings, and Numbers or Binaries only in typed key columns.
    for (const auto& [name, value] : *item) {
      const auto* s = std::get_if<std::string>(&value.variant());
      if (s != nullptr ? s->empty() : !format.key_types.contains(name)) std::abort();
    }
  });
  size_t lines = 1;
  for (char c : text) lines += c == '\n' ? 1 : 0;
  if (records > lines) std::abort();
  return 0;
}
