// Reading ImportTable's input objects: see import_reader.h.
#include "tools/transfer/import_reader.h"

#include <fmt/format.h>
#include <rapidjson/document.h>
#include <zlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tools/protocol/attribute_value_json.h"
#include "tools/protocol/base64.h"

namespace partstore::transfer {
namespace {

namespace fs = std::filesystem;

Result<Item> JsonRecord(std::string_view line) {
  protocol::InsituJson json;  // each line parsed in place, as a request body is
  if (!json.Parse(line).ok()) {
    return Status::Validation("not a JSON object: the line does not parse");
  }
  const rapidjson::Value& document = json.root();
  if (!document.IsObject()) return Status::Validation("a line is not a JSON object");
  const auto found = document.FindMember("Item");
  if (found == document.MemberEnd() || !found->value.IsObject()) {
    return Status::Validation("a line has no \"Item\" object");
  }
  const rapidjson::Value& item = found->value;
  PARTSTORE_RETURN_IF_ERROR(protocol::CheckItemJson(item));
  return protocol::DecodeItem(item);
}

// One CSV record from `text` at `*at` (RFC 4180 quoting); false at the end of the text.
bool NextCsvRecord(std::string_view text, size_t* at, char delimiter,
                   std::vector<std::string>* fields, bool* malformed) {
  fields->clear();
  *malformed = false;
  if (*at >= text.size()) return false;
  std::string field;
  bool quoted = false;      // inside quotes
  bool was_quoted = false;  // the field started with a quote
  size_t i = *at;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          quoted = false;
        }
      } else {
        field += c;
      }
      continue;
    }
    if (c == '"' && field.empty() && !was_quoted) {
      quoted = was_quoted = true;
    } else if (c == delimiter) {
      fields->push_back(std::move(field));
      field.clear();
      was_quoted = false;
    } else if (c == '\n' || (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n')) {
      i += c == '\r' ? 2 : 1;
      break;
    } else {
      if (was_quoted) *malformed = true;  // text after a closing quote
      field += c;
    }
  }
  if (quoted) *malformed = true;  // a quote never closed
  fields->push_back(std::move(field));
  *at = i;
  return true;
}

Result<Value> CsvValue(std::string_view field, KeyType type) {
  switch (type) {
    case KeyType::kNumber: {
      PARTSTORE_ASSIGN_OR_RETURN(Number number, Number::Parse(field));
      return Value(std::move(number));
    }
    case KeyType::kBinary: {
      std::string bytes;
      protocol::base64::DecodeError error;
      if (!protocol::base64::Decode(field, &bytes, &error)) {
        return Status::Validation("a binary key column is not base64");
      }
      return Value::Binary(std::move(bytes));
    }
    case KeyType::kString:
      break;
  }
  return Value::String(std::string(field));
}

void ReadCsv(std::string_view text, const RecordFormat& format,
             const std::function<void(Result<Item>)>& sink) {
  std::vector<std::string> header = format.header;
  std::vector<std::string> fields;
  size_t at = 0;
  bool malformed = false;
  if (header.empty()) {
    if (!NextCsvRecord(text, &at, format.delimiter, &header, &malformed)) return;
  }
  while (NextCsvRecord(text, &at, format.delimiter, &fields, &malformed)) {
    if (fields.size() == 1 && fields[0].empty() && !malformed) continue;  // a blank line
    if (malformed) {
      sink(Status::Validation("a CSV record has a malformed quoted field"));
      continue;
    }
    if (fields.size() > header.size()) {
      sink(Status::Validation(
          fmt::format("a CSV record has {} fields, the header {}", fields.size(), header.size())));
      continue;
    }
    Item item;
    Status error;
    for (size_t i = 0; i < fields.size() && error.ok(); ++i) {
      if (fields[i].empty()) continue;
      auto key = format.key_types.find(header[i]);
      Result<Value> value =
          CsvValue(fields[i], key == format.key_types.end() ? KeyType::kString : key->second);
      if (value.ok()) {
        item.insert_or_assign(header[i], std::move(*value));
      } else {
        error = value.error();
      }
    }
    if (error.ok()) {
      sink(std::move(item));
    } else {
      sink(std::move(error));
    }
  }
}

}  // namespace

RecordFormat FormatOf(const ImportRequest& request) {
  RecordFormat format;
  format.csv = request.input_format == "CSV";
  if (request.csv) {
    if (request.csv->delimiter && !request.csv->delimiter->empty()) {
      format.delimiter = (*request.csv->delimiter)[0];
    }
    if (request.csv->header_list) format.header = *request.csv->header_list;
  }
  const CreateTableRequest& table = request.table_creation_parameters;
  auto typed = [&](const std::vector<KeySchemaElement>& schema) {
    for (const KeySchemaElement& key : schema) {
      for (const AttributeDefinition& definition : table.attribute_definitions) {
        if (definition.attribute_name == key.attribute_name) {
          format.key_types[key.attribute_name] = definition.attribute_type;
        }
      }
    }
  };
  typed(table.key_schema);
  for (const auto& index : table.global_secondary_indexes) typed(index.key_schema);
  return format;
}

void ReadRecords(std::string_view text, const RecordFormat& format,
                 const std::function<void(Result<Item>)>& sink) {
  if (format.csv) {
    ReadCsv(text, format, sink);
    return;
  }
  while (!text.empty()) {
    const size_t end = std::min(text.find('\n'), text.size());
    std::string_view line = text.substr(0, end);
    text.remove_prefix(std::min(end + 1, text.size()));
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    sink(JsonRecord(line));
  }
}

std::vector<std::string> ListObjects(const std::string& bucket_dir, std::string_view prefix) {
  std::vector<std::string> keys;
  std::error_code error;
  for (fs::recursive_directory_iterator it(bucket_dir, error), end; !error && it != end;
       it.increment(error)) {
    if (!it->is_regular_file(error)) continue;
    std::string key = fs::relative(it->path(), bucket_dir, error).generic_string();
    if (!error && key.starts_with(prefix)) keys.push_back(std::move(key));
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

Result<std::string> ReadObject(const std::string& path, bool gzip) {
  std::string bytes;
  if (!gzip) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream all;
    all << in.rdbuf();
    if (!in) return Status::Validation(fmt::format("cannot read {}", path));
    bytes = std::move(all).str();
  } else {
    gzFile file = gzopen(path.c_str(), "rb");
    if (file == nullptr) return Status::Validation(fmt::format("cannot read {}", path));
    char buffer[1 << 16];
    int read = 0;
    bool over = false;
    while ((read = gzread(file, buffer, sizeof buffer)) > 0) {
      if (bytes.size() + static_cast<size_t>(read) > kMaxObjectBytes) {
        over = true;
        break;
      }
      bytes.append(buffer, static_cast<size_t>(read));
    }
    const bool direct = gzdirect(file) != 0;
    int code = Z_OK;
    const char* message = gzerror(file, &code);
    const std::string zlib_error = code != Z_OK ? message : "";
    gzclose(file);
    if (direct && !bytes.empty()) {
      return Status::Validation(fmt::format("{} is not gzip (InputCompressionType GZIP)", path));
    }
    if (read < 0 || !zlib_error.empty()) {
      return Status::Validation(fmt::format("{} is not a whole gzip stream: {}", path, zlib_error));
    }
    if (over) {
      return Status::Validation(
          fmt::format("{} is larger than {} bytes decompressed", path, kMaxObjectBytes));
    }
    return bytes;
  }
  if (bytes.size() > kMaxObjectBytes) {
    return Status::Validation(fmt::format("{} is larger than {} bytes", path, kMaxObjectBytes));
  }
  return bytes;
}

Status LoadObjects(Database& db, const std::string& table, const std::vector<std::string>& paths,
                   const RecordFormat& format, bool gzip,
                   const std::function<void(const ImportCounts&)>& progress) {
  ImportCounts counts;
  auto report = [&] {
    progress(counts);
    counts = ImportCounts{};
  };
  for (const std::string& path : paths) {
    PARTSTORE_ASSIGN_OR_RETURN(std::string text, ReadObject(path, gzip));
    std::error_code error;
    const auto size = fs::file_size(path, error);
    counts.processed_size_bytes += error ? 0 : static_cast<int64_t>(size);
    Status stop;
    ReadRecords(text, format, [&](Result<Item> item) {
      if (!stop.ok()) return;
      ++counts.processed_items;
      Status imported = item.ok() ? db.ImportItem(table, std::move(*item)) : item.error();
      if (imported.ok()) {
        ++counts.imported;
      } else if (imported.code() == Code::kResourceNotFound) {
        stop = std::move(imported);  // the table is gone
      } else {
        ++counts.errors;
      }
      if (counts.processed_items == kProgressEvery) report();
    });
    report();
    PARTSTORE_RETURN_IF_ERROR(stop);
  }
  return Status::Ok();
}

namespace {

// The data files an export's manifest-files.json names, found beside it in `root`/data.
Result<std::vector<std::string>> ExportDataFiles(const fs::path& root) {
  std::ifstream in(root / "manifest-files.json");
  std::vector<std::string> paths;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    rapidjson::Document entry;
    entry.Parse(line.c_str());
    if (!entry.IsObject() || !entry.HasMember("dataFileS3Key") ||
        !entry["dataFileS3Key"].IsString()) {
      return Status::Validation(fmt::format("{}: line {} has no dataFileS3Key",
                                            (root / "manifest-files.json").string(), number));
    }
    const fs::path key = entry["dataFileS3Key"].GetString();
    paths.push_back((root / "data" / key.filename()).string());
  }
  return paths;
}

}  // namespace

Result<LocalSource> FindLocalSource(const std::string& source) {
  LocalSource found;
  std::error_code error;
  const fs::path root = source;
  if (fs::is_regular_file(root / "manifest-files.json", error)) {
    PARTSTORE_ASSIGN_OR_RETURN(found.paths, ExportDataFiles(root));
  } else if (fs::is_directory(root, error)) {
    for (const std::string& key : ListObjects(source, "")) {
      found.paths.push_back((root / key).string());
    }
  } else if (fs::is_regular_file(root, error)) {
    found.paths.push_back(source);
  } else {
    return Status::Validation(fmt::format("{}: no such file or directory", source));
  }
  if (found.paths.empty()) return Status::Validation(fmt::format("{} holds no file", source));
  const std::string& first = found.paths.front();
  found.gzip = first.ends_with(".gz");
  found.csv = first.ends_with(".csv") || first.ends_with(".csv.gz");
  return found;
}

}  // namespace partstore::transfer
