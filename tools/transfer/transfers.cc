// Transfers: see transfers.h.
#include "tools/transfer/transfers.h"

#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <regex>

#include "shard/constraints.h"
#include "shard/resource_id.h"
#include "tools/transfer/export_writer.h"
#include "tools/transfer/import_reader.h"

namespace partstore::transfer {
namespace {

namespace fs = std::filesystem;

double Now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// S3's bucket name rule as ExportTableToPointInTime's model states it.
Status CheckBucket(std::string_view bucket) {
  static const std::regex kBucket("^[a-z0-9A-Z]+[\\.\\-\\w]*[a-z0-9A-Z]+$");
  if (bucket.size() > 255 || !std::regex_match(bucket.begin(), bucket.end(), kBucket)) {
    return Status::Validation(fmt::format(
        "1 validation error detected: Value '{}' at 's3Bucket' failed to satisfy constraint: "
        "Member must satisfy regular expression pattern: ^[a-z0-9A-Z]+[\\.\\-\\w]*[a-z0-9A-Z]+$",
        bucket));
  }
  return Status::Ok();
}

// A key prefix that stays inside the bucket's directory.
Status CheckPrefix(std::string_view prefix) {
  if (prefix.starts_with('/')) {
    return Status::Validation("partstore refuses an S3 key prefix that starts with '/'");
  }
  for (const auto& part : fs::path(prefix)) {
    if (part == "..") {
      return Status::Validation(
          "partstore refuses an S3 key prefix with a '..' segment (it would leave the bucket's "
          "directory)");
    }
  }
  return Status::Ok();
}

// The table an ARN names, checked against the table's own ARN.
Result<TableDescription> TableOfArn(Database& db, std::string_view arn) {
  const size_t at = arn.find(":table/");
  std::string name;
  if (at != std::string_view::npos) {
    name = std::string(arn.substr(at + 7, arn.find('/', at + 7) - (at + 7)));
  }
  Result<DescribeTableResult> table = db.DescribeTable({.table_name = name});
  if (name.empty() || !table.ok() || table->table.table_arn != arn) {
    return Status(Code::kTableNotFound, fmt::format("Table not found: {}", arn));
  }
  return std::move(table->table);
}

bool SameExport(const ExportRequest& a, const ExportDescription& b) {
  return a.table_arn == b.table_arn && a.s3_bucket == b.s3_bucket && a.s3_prefix == b.s3_prefix &&
         a.export_format == b.export_format && a.export_type == b.export_type;
}

bool SameImport(const ImportRequest& a, const ImportRequest& b) {
  return a.input_format == b.input_format && a.input_compression_type == b.input_compression_type &&
         a.s3_bucket == b.s3_bucket && a.s3_key_prefix == b.s3_key_prefix &&
         a.table_creation_parameters.table_name == b.table_creation_parameters.table_name;
}

template <typename Entry, typename Arn>
std::optional<size_t> Find(const std::vector<Entry>& entries, const std::string& arn, Arn of) {
  for (size_t i = 0; i < entries.size(); ++i) {
    if (of(entries[i]) == arn) return i;
  }
  return std::nullopt;
}

}  // namespace

std::string NewTransferArn(std::string_view table_arn, std::string_view kind) {
  return fmt::format("{}/{}/{}", table_arn, kind, NewResourceId(Now()));
}

std::string_view TransferStatusName(TransferStatus status) {
  switch (status) {
    case TransferStatus::kInProgress:
      return "IN_PROGRESS";
    case TransferStatus::kCompleted:
      return "COMPLETED";
    case TransferStatus::kFailed:
      return "FAILED";
  }
  return "FAILED";
}

Transfers::Transfers(Database& db, std::string s3_dir) : db_(db), s3_dir_(std::move(s3_dir)) {
  worker_ = std::thread([this] { Work(); });
}

Transfers::~Transfers() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  worker_.join();
}

void Transfers::Work() {
  std::unique_lock lock(mu_);
  for (;;) {
    wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, and nothing left
    std::function<void()> job = std::move(queue_.front());
    queue_.pop_front();
    busy_ = true;
    lock.unlock();
    job();
    lock.lock();
    busy_ = false;
    if (queue_.empty()) idle_.notify_all();
  }
}

void Transfers::Post(std::function<void()> job) {
  {
    std::lock_guard lock(mu_);
    queue_.push_back(std::move(job));
  }
  wake_.notify_one();
}

void Transfers::WaitIdle() {
  std::unique_lock lock(mu_);
  idle_.wait(lock, [&] { return queue_.empty() && !busy_; });
}

Status Transfers::NotConfigured() {
  return Status::Validation(
      "No S3 directory is configured: exports and imports need one (partstore serve --s3-dir "
      "DIR; a bucket is a directory in it)");
}

Status Transfers::CheckConfigured() const {
  return s3_dir_.empty() ? NotConfigured() : Status::Ok();
}

// ---- Exports ----------------------------------------------------------------------------------

Result<ExportDescription> Transfers::ExportTableToPointInTime(const ExportRequest& request) {
  PARTSTORE_RETURN_IF_ERROR(CheckConfigured());
  PARTSTORE_RETURN_IF_ERROR(CheckBucket(request.s3_bucket));
  if (request.s3_prefix) PARTSTORE_RETURN_IF_ERROR(CheckPrefix(*request.s3_prefix));
  if (request.export_format != "DYNAMODB_JSON") {
    return Status::Validation("partstore writes exports in DYNAMODB_JSON only (not ION)");
  }
  if (request.export_type != "FULL_EXPORT") {
    return Status::Validation(
        "partstore writes full exports only: INCREMENTAL_EXPORT needs the table's history, which "
        "partstore does not keep");
  }
  if (request.s3_sse_algorithm && *request.s3_sse_algorithm != "AES256") {
    return Status::Validation(
        "partstore writes exports unencrypted on disk: S3SseAlgorithm KMS "
        "is not supported (AES256, the default, is accepted)");
  }
  if (request.client_token) {
    std::lock_guard lock(mu_);
    for (const ExportDescription& earlier : exports_) {
      if (earlier.client_token != request.client_token) continue;
      if (SameExport(request, earlier)) return earlier;
      return Status(Code::kExportConflict,
                    "An export with this ClientToken was requested with other parameters");
    }
  }
  PARTSTORE_ASSIGN_OR_RETURN(TableDescription table, TableOfArn(db_, request.table_arn));
  Result<ContinuousBackupsResult> backups =
      db_.DescribeContinuousBackups({.table_name = table.table_name});
  if (!backups.ok()) return backups.error();
  if (backups->continuous_backups_description.point_in_time_recovery_description
          .point_in_time_recovery_status != PointInTimeRecoveryStatus::kEnabled) {
    return Status(Code::kPointInTimeRecoveryUnavailable,
                  "Point in time recovery has not yet been enabled for this source table");
  }
  const double now = Now();
  if (request.export_time && (*request.export_time < now - 1 || *request.export_time > now + 1)) {
    return Status(Code::kInvalidExportTime,
                  fmt::format("ExportTime {} is outside the table's recovery window: partstore "
                              "keeps no history, so only the present ({}) can be exported (omit "
                              "ExportTime)",
                              Iso8601(*request.export_time), Iso8601(now)));
  }
  PARTSTORE_ASSIGN_OR_RETURN(TableImage image, db_.ReadTableImage(table.table_name));
  ExportDescription description{
      .export_arn = NewTransferArn(table.table_arn, "export"),
      .start_time = now,
      .table_arn = table.table_arn,
      .table_id = table.table_id,
      .export_time = image.time,
      .client_token = request.client_token,
      .s3_bucket = request.s3_bucket,
      .s3_bucket_owner = request.s3_bucket_owner,
      .s3_prefix = request.s3_prefix,
      .s3_sse_kms_key_id = request.s3_sse_kms_key_id,
  };
  {
    std::lock_guard lock(mu_);
    exports_.push_back(description);
  }
  Post([this, arn = description.export_arn, image = std::move(image)] { RunExport(arn, image); });
  return description;
}

void Transfers::RunExport(const std::string& arn, const TableImage& image) {
  ExportDescription description;
  {
    std::lock_guard lock(mu_);
    auto at = Find(exports_, arn, [](const ExportDescription& e) { return e.export_arn; });
    if (!at) return;
    exports_[*at].end_time = Now();
    description = exports_[*at];
  }
  Result<ExportFiles> files =
      WriteExport(image, description, (fs::path(s3_dir_) / description.s3_bucket).string());
  std::lock_guard lock(mu_);
  auto at = Find(exports_, arn, [](const ExportDescription& e) { return e.export_arn; });
  if (!at) return;
  ExportDescription& done = exports_[*at];
  done.end_time = Now();
  if (files.ok()) {
    done.export_status = TransferStatus::kCompleted;
    done.export_manifest = files->manifest_summary_key;
    done.item_count = files->item_count;
    done.billed_size_bytes = files->billed_size_bytes;
  } else {
    done.export_status = TransferStatus::kFailed;
    done.failure_code = "S3WriteFailed";
    done.failure_message = std::string(files.error().message());
  }
}

Result<ExportDescription> Transfers::DescribeExport(const std::string& export_arn) {
  std::lock_guard lock(mu_);
  auto at = Find(exports_, export_arn, [](const ExportDescription& e) { return e.export_arn; });
  if (!at) return Status(Code::kExportNotFound, fmt::format("Export not found: {}", export_arn));
  return exports_[*at];
}

namespace {

// One page of `entries` (oldest first) of the table `table_arn` (all: none), `size` entries
// (1..25, default 25; `size_member` names it in the error), from the token (the ARN to start at).
template <typename Entry, typename Arn>
Result<std::pair<std::vector<Entry>, std::optional<std::string>>> Page(
    const std::vector<Entry>& entries, const std::optional<std::string>& table_arn,
    std::optional<int64_t> size, std::string_view size_member,
    const std::optional<std::string>& token, Arn arn_of) {
  if (size) {
    ConstraintViolations violations;
    violations.Range(*size, 1, 25, size_member);
    PARTSTORE_RETURN_IF_ERROR(violations.ToStatus());
  }
  size_t start = 0;
  if (token) {
    auto at = Find(entries, *token, arn_of);
    if (!at) return Status::Validation("Invalid NextToken");
    start = *at;
  }
  std::pair<std::vector<Entry>, std::optional<std::string>> page;
  for (size_t i = start; i < entries.size(); ++i) {
    if (table_arn && entries[i].table_arn != *table_arn) continue;
    if (static_cast<int64_t>(page.first.size()) == size.value_or(25)) {
      page.second = arn_of(entries[i]);
      break;
    }
    page.first.push_back(entries[i]);
  }
  return page;
}

}  // namespace

Result<ListExportsResult> Transfers::ListExports(const ListExportsRequest& request) {
  std::lock_guard lock(mu_);
  PARTSTORE_ASSIGN_OR_RETURN(
      auto page, Page(exports_, request.table_arn, request.max_results, "maxResults",
                      request.next_token, [](const ExportDescription& e) { return e.export_arn; }));
  return ListExportsResult{std::move(page.first), std::move(page.second)};
}

// ---- Imports ----------------------------------------------------------------------------------

Result<ImportDescription> Transfers::ImportTable(const ImportRequest& request) {
  PARTSTORE_RETURN_IF_ERROR(CheckConfigured());
  if (request.input_format == "ION") {
    return Status::Validation("partstore reads DYNAMODB_JSON and CSV imports (not ION)");
  }
  if (request.input_compression_type == "ZSTD") {
    return Status::Validation("partstore reads GZIP and NONE imports (not ZSTD)");
  }
  if (request.csv && request.input_format != "CSV") {
    return Status::Validation("InputFormatOptions.Csv applies only to InputFormat CSV");
  }
  if (request.csv && request.csv->delimiter) {
    const std::string& d = *request.csv->delimiter;
    if (d.size() != 1 || std::string_view(",\t:;| ").find(d[0]) == std::string_view::npos) {
      return Status::Validation(
          "The CSV delimiter must be one of: comma (,), tab (\\t), colon (:), semicolon (;), "
          "pipe (|), space ( )");
    }
  }
  if (request.csv && request.csv->header_list &&
      (request.csv->header_list->empty() || request.csv->header_list->size() > 255)) {
    return Status::Validation("A CSV HeaderList has 1 to 255 names");
  }
  PARTSTORE_RETURN_IF_ERROR(CheckBucket(request.s3_bucket));
  PARTSTORE_RETURN_IF_ERROR(CheckPrefix(request.s3_key_prefix));
  if (request.client_token) {
    std::lock_guard lock(mu_);
    for (const ImportDescription& earlier : imports_) {
      if (earlier.client_token != request.client_token) continue;
      if (SameImport(request, earlier.request)) return earlier;
      return Status(Code::kImportConflict,
                    "An import with this ClientToken was requested with other parameters");
    }
  }
  CreateTableRequest create = request.table_creation_parameters;
  create.local_secondary_indexes.clear();  // not in TableCreationParameters
  create.stream_specification.reset();
  PARTSTORE_ASSIGN_OR_RETURN(CreateTableResult created, db_.CreateTable(create));
  const TableDescription& table = created.table_description;
  ImportDescription description{
      .import_arn = NewTransferArn(table.table_arn, "import"),
      .table_arn = table.table_arn,
      .table_id = table.table_id,
      .client_token = request.client_token,
      .request = request,
      .start_time = Now(),
  };
  {
    std::lock_guard lock(mu_);
    imports_.push_back(description);
  }
  Post([this, arn = description.import_arn] { RunImport(arn); });
  return description;
}

void Transfers::RunImport(const std::string& arn) {
  auto of = [](const ImportDescription& e) { return e.import_arn; };
  ImportRequest request;
  {
    std::lock_guard lock(mu_);
    auto at = Find(imports_, arn, of);
    if (!at) return;
    request = imports_[*at].request;
  }
  const std::string table_name = request.table_creation_parameters.table_name;
  auto update = [&](const std::function<void(ImportDescription&)>& change) {
    std::lock_guard lock(mu_);
    if (auto at = Find(imports_, arn, of)) change(imports_[*at]);
  };
  auto fail = [&](std::string code, std::string message) {
    (void)db_.DeleteTable({.table_name = table_name});
    update([&](ImportDescription& d) {
      d.import_status = TransferStatus::kFailed;
      d.failure_code = std::move(code);
      d.failure_message = std::move(message);
      d.end_time = Now();
    });
  };
  const std::string bucket_dir = (fs::path(s3_dir_) / request.s3_bucket).string();
  const std::vector<std::string> keys = ListObjects(bucket_dir, request.s3_key_prefix);
  if (keys.empty()) {
    fail("S3NoSuchKey", fmt::format("No object under the prefix '{}' in bucket {}",
                                    request.s3_key_prefix, request.s3_bucket));
    return;
  }
  std::vector<std::string> paths;
  for (const std::string& key : keys) paths.push_back((fs::path(bucket_dir) / key).string());
  Status loaded =
      LoadObjects(db_, table_name, paths, FormatOf(request),
                  request.input_compression_type == "GZIP", [&](const ImportCounts& more) {
                    update([&](ImportDescription& d) {
                      d.processed_size_bytes += more.processed_size_bytes;
                      d.processed_item_count += more.processed_items;
                      d.imported_item_count += more.imported;
                      d.error_count += more.errors;
                    });
                  });
  if (!loaded.ok()) {
    fail(loaded.code() == Code::kValidation ? "InvalidObject" : "ImportFailed",
         std::string(loaded.message()));
    return;
  }
  update([&](ImportDescription& d) {
    d.import_status = TransferStatus::kCompleted;
    d.end_time = Now();
  });
}

Result<ImportDescription> Transfers::DescribeImport(const std::string& import_arn) {
  std::lock_guard lock(mu_);
  auto at = Find(imports_, import_arn, [](const ImportDescription& e) { return e.import_arn; });
  if (!at) return Status(Code::kImportNotFound, fmt::format("Import not found: {}", import_arn));
  return imports_[*at];
}

Result<ListImportsResult> Transfers::ListImports(const ListImportsRequest& request) {
  std::lock_guard lock(mu_);
  PARTSTORE_ASSIGN_OR_RETURN(
      auto page, Page(imports_, request.table_arn, request.page_size, "pageSize",
                      request.next_token, [](const ImportDescription& e) { return e.import_arn; }));
  return ListImportsResult{std::move(page.first), std::move(page.second)};
}

}  // namespace partstore::transfer
