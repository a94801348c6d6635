// WriteExport: see export_writer.h.
#include "tools/transfer/export_writer.h"

#include <fmt/format.h>
#include <openssl/evp.h>
#include <rapidjson/stringbuffer.h>
#include <zlib.h>

#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tools/protocol/attribute_value_json.h"
#include "tools/protocol/base64.h"

namespace partstore::transfer {
namespace {

namespace fs = std::filesystem;

Status IoError(const fs::path& path, std::string_view what) {
  return Status::Internal(fmt::format("cannot {} {}", what, path.string()));
}

Status WriteFile(const fs::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) return IoError(path, "write");
  return Status::Ok();
}

Result<std::string> ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (!in) return IoError(path, "read");
  return std::move(bytes).str();
}

// The MD5 of `bytes`, raw (16 bytes).
std::string Md5(std::string_view bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_Digest(bytes.data(), bytes.size(), digest, &size, EVP_md5(), nullptr);
  return std::string(reinterpret_cast<const char*>(digest), size);
}

std::string Hex(std::string_view bytes) {
  std::string out;
  for (unsigned char c : bytes) out += fmt::format("{:02x}", c);
  return out;
}

// A gzip file of `text` (zlib's gzip writer).
Status WriteGzip(const fs::path& path, std::string_view text) {
  gzFile file = gzopen(path.c_str(), "wb6");
  if (file == nullptr) return IoError(path, "create");
  bool ok = true;
  for (size_t at = 0; at < text.size() && ok;) {
    const unsigned chunk = static_cast<unsigned>(std::min<size_t>(text.size() - at, 1 << 20));
    ok = gzwrite(file, text.data() + at, chunk) == static_cast<int>(chunk);
    at += chunk;
  }
  if (gzclose(file) != Z_OK || !ok) return IoError(path, "write");
  return Status::Ok();
}

void Member(protocol::JsonWriter& w, const char* key, std::string_view value) {
  w.Key(key);
  w.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
}

void MemberOrNull(protocol::JsonWriter& w, const char* key,
                  const std::optional<std::string>& value) {
  if (value) {
    Member(w, key, *value);
  } else {
    w.Key(key);
    w.Null();
  }
}

}  // namespace

std::string Iso8601(double epoch_seconds) {
  const auto millis = static_cast<int64_t>(epoch_seconds * 1000);
  const std::time_t seconds = static_cast<std::time_t>(millis / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S", &tm);
  return fmt::format("{}.{:03d}Z", date, static_cast<int>(millis % 1000));
}

Result<ExportFiles> WriteExport(const TableImage& image, const ExportDescription& description,
                                const std::string& bucket_dir) {
  const std::string export_id =
      description.export_arn.substr(description.export_arn.rfind('/') + 1);
  std::string key_root;  // the export's key prefix in the bucket
  if (description.s3_prefix && !description.s3_prefix->empty()) {
    key_root = *description.s3_prefix;
    if (key_root.back() != '/') key_root += '/';
  }
  key_root += "AWSDynamoDB/" + export_id + "/";
  const fs::path root = fs::path(bucket_dir) / key_root;
  std::error_code error;
  fs::create_directories(root / "data", error);
  if (error) return IoError(root / "data", "create the directory");
  PARTSTORE_RETURN_IF_ERROR(WriteFile(root / "_started", ""));

  ExportFiles files;
  std::string manifest_files;
  const size_t count = image.items.size();
  const size_t file_count =
      std::max<size_t>(1, (count + kItemsPerDataFile - 1) / kItemsPerDataFile);
  for (size_t f = 0; f < file_count; ++f) {
    rapidjson::StringBuffer lines;
    protocol::JsonWriter w(lines);
    const size_t begin = f * kItemsPerDataFile;
    const size_t end = std::min(count, begin + kItemsPerDataFile);
    for (size_t i = begin; i < end; ++i) {
      w.Reset(lines);
      w.StartObject();
      w.Key("Item");
      protocol::WriteItem(image.items[i], w);
      w.EndObject();
      lines.Put('\n');
      files.billed_size_bytes += static_cast<int64_t>(image.items[i].item_size());
    }
    const std::string name = fmt::format("{}-{:05d}.json.gz", Hex(Md5(export_id)).substr(0, 16), f);
    const fs::path path = root / "data" / name;
    PARTSTORE_RETURN_IF_ERROR(
        WriteGzip(path, std::string_view(lines.GetString(), lines.GetSize())));
    PARTSTORE_ASSIGN_OR_RETURN(std::string written, ReadFile(path));
    const std::string md5 = Md5(written);
    std::string md5_base64;
    protocol::base64::Encode(md5, &md5_base64);
    rapidjson::StringBuffer line;
    protocol::JsonWriter m(line);
    m.StartObject();
    m.Key("itemCount");
    m.Int64(static_cast<int64_t>(end - begin));
    Member(m, "md5Checksum", md5_base64);
    Member(m, "etag", Hex(md5));
    Member(m, "dataFileS3Key", key_root + "data/" + name);
    m.EndObject();
    manifest_files.append(line.GetString(), line.GetSize());
    manifest_files += '\n';
    files.item_count += static_cast<int64_t>(end - begin);
  }
  PARTSTORE_RETURN_IF_ERROR(WriteFile(root / "manifest-files.json", manifest_files));
  PARTSTORE_RETURN_IF_ERROR(WriteFile(root / "manifest-files.checksum", Hex(Md5(manifest_files))));

  rapidjson::StringBuffer buffer;
  protocol::JsonWriter w(buffer);
  w.StartObject();
  Member(w, "version", "2020-06-30");
  Member(w, "exportArn", description.export_arn);
  Member(w, "startTime", Iso8601(description.start_time));
  Member(w, "endTime", Iso8601(description.end_time.value_or(description.start_time)));
  Member(w, "tableArn", description.table_arn);
  Member(w, "tableId", description.table_id);
  Member(w, "exportTime", Iso8601(description.export_time));
  Member(w, "s3Bucket", description.s3_bucket);
  MemberOrNull(w, "s3Prefix", description.s3_prefix);
  Member(w, "s3SseAlgorithm", description.s3_sse_algorithm);
  MemberOrNull(w, "s3SseKmsKeyId", description.s3_sse_kms_key_id);
  Member(w, "manifestFilesS3Key", key_root + "manifest-files.json");
  w.Key("billedSizeBytes");
  w.Int64(files.billed_size_bytes);
  w.Key("itemCount");
  w.Int64(files.item_count);
  Member(w, "outputFormat", description.export_format);
  w.EndObject();
  const std::string summary(buffer.GetString(), buffer.GetSize());
  PARTSTORE_RETURN_IF_ERROR(WriteFile(root / "manifest-summary.json", summary));
  PARTSTORE_RETURN_IF_ERROR(WriteFile(root / "manifest-summary.checksum", Hex(Md5(summary))));
  files.manifest_summary_key = key_root + "manifest-summary.json";
  return files;
}

}  // namespace partstore::transfer
