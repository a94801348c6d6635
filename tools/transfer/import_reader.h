// Reading ImportTable's input objects (DynamoDB's formats, docs/reference.md "ImportTable"):
//
//   DYNAMODB_JSON  one {"Item": {...}} object per line, the item in marshalled JSON (an export's
//                  data files load as they are); blank lines are skipped.
//   CSV            RFC 4180 records: fields split at the delimiter (default ','; one of
//                  , \t : ; | and space), a field in double quotes may hold the delimiter, line
//                  breaks and doubled quotes (""), CRLF or LF ends a record. The first record is
//                  the header unless a HeaderList is given. A column that is a key attribute of
//                  the table or one of its GSIs takes the type its AttributeDefinitions give (N:
//                  a number, B: base64); every other column is a String, and an empty field is
//                  no attribute (partstore's choice: DynamoDB does not document it).
//
// Each record becomes an item or an error (the record is skipped and counted in ErrorCount:
// malformed JSON, a line that is not {"Item": ...}, a bad attribute value, a CSV record with more
// fields than the header, a key column that does not parse as its type). The table's own checks
// (key present and of its type, item size) apply when the items load (Database::ImportItem).
//
// Limits: an object is read whole, up to kMaxObjectBytes after decompression; a larger one fails
// the import (the message names the object and the limit).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "partstore/database.h"
#include "partstore/item.h"
#include "partstore/status.h"
#include "partstore/table_requests.h"
#include "tools/transfer/transfers.h"

namespace partstore::transfer {

inline constexpr size_t kMaxObjectBytes = size_t{4} << 30;

// How one object's records become items.
struct RecordFormat {
  bool csv = false;
  char delimiter = ',';
  std::vector<std::string> header{};  // CSV: given (HeaderList) or empty: the first record
  std::map<std::string, KeyType, std::less<>> key_types{};  // CSV: typed columns
};

// The format an import request describes (`request` already checked by ImportTable).
RecordFormat FormatOf(const ImportRequest& request);

// Calls `sink` once per record of `text` with the item or the record's error.
void ReadRecords(std::string_view text, const RecordFormat& format,
                 const std::function<void(Result<Item>)>& sink);

// The object keys under `prefix` in `bucket_dir` (S3's rule: every key that starts with it),
// sorted; their paths are <bucket_dir>/<key>.
std::vector<std::string> ListObjects(const std::string& bucket_dir, std::string_view prefix);

// One object's bytes: decompressed when `gzip` (a file that is not gzip is an error naming it).
Result<std::string> ReadObject(const std::string& path, bool gzip);

// Files on the local file system to import (partstore import, a simulation's preload): an
// export's directory (its manifest-files.json names the data files, found in its data/), any
// other directory (every file under it, in key order), or one file. The format and compression
// are guessed from the first file's name: .csv or .csv.gz is CSV, anything else DynamoDB JSON;
// .gz is gzip. An error names a source that is missing, empty, or a manifest that does not parse.
struct LocalSource {
  std::vector<std::string> paths;
  bool csv = false;
  bool gzip = false;
};
Result<LocalSource> FindLocalSource(const std::string& source);

// Records between progress reports.
inline constexpr int64_t kProgressEvery = 10000;

struct ImportCounts {
  int64_t processed_size_bytes = 0;  // the objects' sizes as stored
  int64_t processed_items = 0;       // records read
  int64_t imported = 0;              // items the table took
  int64_t errors = 0;                // records unreadable or refused
};

// Reads the objects at `paths` in order into `table` (which exists) through
// Database::ImportItem (no capacity consumed, never throttled, through the table's
// write-sharding policies); `progress` gets what each kProgressEvery records and each object
// added. An object that cannot be read stops the load with its error (ValidationException
// naming it), as does the table's deletion; what was loaded stays.
Status LoadObjects(Database& db, const std::string& table, const std::vector<std::string>& paths,
                   const RecordFormat& format, bool gzip,
                   const std::function<void(const ImportCounts&)>& progress);

}  // namespace partstore::transfer
