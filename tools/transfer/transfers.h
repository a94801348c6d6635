// DynamoDB's exports to and imports from S3, with a local directory standing for S3: the bucket
// B is the directory <s3_dir>/B and an object's key is its path under it. What
// ExportTableToPointInTime, DescribeExport, ListExports, ImportTable, DescribeImport and
// ListImports do on the wire (tools/protocol/transfer_json.cc) and what `partstore export` and
// `partstore import` do (tools/cli/transfer.cc).
//
// An export writes DynamoDB's DYNAMODB_JSON export layout under <S3Prefix>/AWSDynamoDB/<ExportId>/
// (export_writer.h); an import reads DYNAMODB_JSON or CSV objects, gzip or not, under a key prefix
// (import_reader.h), into a table it creates. Both run on one background worker, in the order
// they were asked for: the call answers IN_PROGRESS at once (an export's point in time is already
// taken, with Database::ReadTableImage), and DescribeExport / DescribeImport report COMPLETED or
// FAILED (with FailureCode and FailureMessage) when the work is done.
//
// Rules, as DynamoDB's unless named (docs/reference.md, "Export, import and backups"):
//   - An export needs point-in-time recovery enabled on the table
//     (PointInTimeRecoveryUnavailableException), and takes the present as its point in time
//     (partstore/continuous_backups.h: an ExportTime more than a second old is
//     InvalidExportTimeException). ExportFormat ION and ExportType INCREMENTAL_EXPORT,
//     ImportTable's ION format and ZSTD compression, and S3SseAlgorithm KMS are refused with a
//     ValidationException saying partstore does not write or read them.
//   - A ClientToken makes the call idempotent: the same token with the same parameters answers
//     the first call's description; with other parameters, ExportConflictException /
//     ImportConflictException.
//   - ImportTable creates its table at once (ResourceInUseException when the name is taken) and
//     fills it in the background, consuming no capacity. An item that cannot be read or that the
//     table refuses is skipped and counted in ErrorCount; an import whose objects cannot be read
//     at all (no object under the prefix, a file that is not gzip under GZIP) FAILS, and its table
//     is deleted.
//   - Beyond S3: a key prefix with a ".." segment, or a bucket not of S3's form, is refused
//     (ValidationException), so no file outside <s3_dir> is read or written. An export creates the
//     bucket's directory when it is missing.
//
// Thread safety: every method may be called from any thread.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "partstore/database.h"

namespace partstore::transfer {

enum class TransferStatus { kInProgress, kCompleted, kFailed };
std::string_view TransferStatusName(TransferStatus status);  // IN_PROGRESS, COMPLETED, FAILED

struct ExportRequest {
  std::string table_arn{};
  std::string s3_bucket{};
  std::optional<std::string> s3_prefix{};
  std::optional<std::string> s3_bucket_owner{};
  std::optional<std::string> s3_sse_algorithm{};  // AES256 (KMS refused)
  std::optional<std::string> s3_sse_kms_key_id{};
  std::optional<double> export_time{};  // seconds since the epoch; the present when absent
  std::optional<std::string> client_token{};
  std::string export_format = "DYNAMODB_JSON";
  std::string export_type = "FULL_EXPORT";
};

struct ExportDescription {
  std::string export_arn{};
  TransferStatus export_status = TransferStatus::kInProgress;
  double start_time = 0;
  std::optional<double> end_time{};
  std::optional<std::string> export_manifest{};  // the manifest-summary.json key, once written
  std::string table_arn{};
  std::string table_id{};
  double export_time = 0;
  std::optional<std::string> client_token{};
  std::string s3_bucket{};
  std::optional<std::string> s3_bucket_owner{};
  std::optional<std::string> s3_prefix{};
  std::string s3_sse_algorithm = "AES256";
  std::optional<std::string> s3_sse_kms_key_id{};
  std::optional<std::string> failure_code{};
  std::optional<std::string> failure_message{};
  std::string export_format = "DYNAMODB_JSON";
  std::string export_type = "FULL_EXPORT";
  std::optional<int64_t> billed_size_bytes{};  // once completed
  std::optional<int64_t> item_count{};         // once completed
};

struct ListExportsRequest {
  std::optional<std::string> table_arn{};
  std::optional<int64_t> max_results{};  // 1..25
  std::optional<std::string> next_token{};
};
struct ListExportsResult {
  std::vector<ExportDescription> exports{};  // the wire lists ExportArn, ExportStatus, ExportType
  std::optional<std::string> next_token{};
};

struct CsvOptions {
  std::optional<std::string> delimiter{};                 // one of , \t : ; | and space
  std::optional<std::vector<std::string>> header_list{};  // 1..255 names
};

struct ImportRequest {
  std::optional<std::string> client_token{};
  std::string input_format{};                   // DYNAMODB_JSON | CSV (ION refused)
  std::string input_compression_type = "NONE";  // GZIP | NONE (ZSTD refused)
  std::optional<CsvOptions> csv{};
  std::string s3_bucket{};
  std::optional<std::string> s3_bucket_owner{};
  std::string s3_key_prefix{};
  CreateTableRequest table_creation_parameters{};
};

struct ImportDescription {
  std::string import_arn{};
  TransferStatus import_status = TransferStatus::kInProgress;
  std::string table_arn{};
  std::string table_id{};
  std::optional<std::string> client_token{};
  ImportRequest request{};
  double start_time = 0;
  std::optional<double> end_time{};
  int64_t processed_size_bytes = 0;
  int64_t processed_item_count = 0;
  int64_t imported_item_count = 0;
  int64_t error_count = 0;
  std::optional<std::string> failure_code{};
  std::optional<std::string> failure_message{};
};

struct ListImportsRequest {
  std::optional<std::string> table_arn{};
  std::optional<int64_t> page_size{};  // 1..25
  std::optional<std::string> next_token{};
};
struct ListImportsResult {
  std::vector<ImportDescription> imports{};
  std::optional<std::string> next_token{};
};

// "<table ARN>/<kind>/<14 digits>-<8 hex>": a new export ("export") or import ("import") ARN, its
// ID the milliseconds since the epoch and a random tag, as DynamoDB's.
std::string NewTransferArn(std::string_view table_arn, std::string_view kind);

class Transfers {
 public:
  // `s3_dir`: the directory buckets are subdirectories of (empty: every call is refused with a
  // ValidationException naming `partstore serve --s3-dir`).
  Transfers(Database& db, std::string s3_dir);
  ~Transfers();  // finishes the work already asked for
  Transfers(const Transfers&) = delete;
  Transfers& operator=(const Transfers&) = delete;

  Result<ExportDescription> ExportTableToPointInTime(const ExportRequest& request);
  Result<ExportDescription> DescribeExport(const std::string& export_arn);
  Result<ListExportsResult> ListExports(const ListExportsRequest& request);
  Result<ImportDescription> ImportTable(const ImportRequest& request);
  Result<ImportDescription> DescribeImport(const std::string& import_arn);
  Result<ListImportsResult> ListImports(const ListImportsRequest& request);

  // Waits until every export and import asked for so far has finished.
  void WaitIdle();

  // The ValidationException for a server without an S3 directory.
  static Status NotConfigured();

 private:
  void Work();
  void Post(std::function<void()> job);
  Status CheckConfigured() const;
  void RunExport(const std::string& arn, const TableImage& image);
  void RunImport(const std::string& arn);

  Database& db_;
  const std::string s3_dir_;
  std::mutex mu_;  // guards everything below
  std::condition_variable wake_;
  std::condition_variable idle_;
  std::deque<std::function<void()>> queue_;
  bool busy_ = false;
  bool stopping_ = false;
  std::vector<ExportDescription> exports_;  // oldest first
  std::vector<ImportDescription> imports_;
  std::thread worker_;
};

}  // namespace partstore::transfer
