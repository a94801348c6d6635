// Export and import JSON: see transfer_json.h. Timestamps are epoch seconds (JSON numbers), as
// the SDKs send and read them.
#include "tools/protocol/transfer_json.h"

#include <rapidjson/stringbuffer.h>

#include <array>

#include "tools/protocol/operations_json.h"
#include "tools/protocol/request_json.h"

namespace partstore::protocol {
namespace {

using transfer::ExportDescription;
using transfer::ImportDescription;

std::optional<std::string> OptStr(const JsonValue* value) {
  if (value == nullptr) return std::nullopt;
  return Str(value);
}

// ---- Requests ----

enum ExportMember {
  kExportTableArn,
  kExportTime,
  kExportClientToken,
  kExportBucket,
  kExportBucketOwner,
  kExportPrefix,
  kExportSse,
  kExportKms,
  kExportFormat,
  kExportType,
  kExportIncremental,
  kExportMemberCount
};
constexpr MemberSpec kExportMembers[kExportMemberCount] = {
    {"TableArn", Shape::kString},
    {"ExportTime", Shape::kDouble},
    {"ClientToken", Shape::kString},
    {"S3Bucket", Shape::kString},
    {"S3BucketOwner", Shape::kString},
    {"S3Prefix", Shape::kString},
    {"S3SseAlgorithm", Shape::kString},
    {"S3SseKmsKeyId", Shape::kString},
    {"ExportFormat", Shape::kString},
    {"ExportType", Shape::kString},
    {"IncrementalExportSpecification", Shape::kStructure},
};
constexpr std::string_view kExportFormatNames[] = {"DYNAMODB_JSON", "ION"};
constexpr std::string_view kExportTypeNames[] = {"FULL_EXPORT", "INCREMENTAL_EXPORT"};
constexpr std::string_view kSseNames[] = {"AES256", "KMS"};

Result<transfer::ExportRequest> DecodeExport(const JsonValue& body) {
  std::array<const JsonValue*, kExportMemberCount> m;
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, "ExportTableToPointInTime", kExportMembers, m));
  Constraints c;
  c.Required(m[kExportTableArn], "tableArn");
  c.Required(m[kExportBucket], "s3Bucket");
  c.Enum(m[kExportFormat], kExportFormatNames, "[DYNAMODB_JSON, ION]", "exportFormat");
  c.Enum(m[kExportType], kExportTypeNames, "[FULL_EXPORT, INCREMENTAL_EXPORT]", "exportType");
  c.Enum(m[kExportSse], kSseNames, "[AES256, KMS]", "s3SseAlgorithm");
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());
  transfer::ExportRequest request;
  request.table_arn = Str(m[kExportTableArn]);
  request.s3_bucket = Str(m[kExportBucket]);
  request.s3_prefix = OptStr(m[kExportPrefix]);
  request.s3_bucket_owner = OptStr(m[kExportBucketOwner]);
  request.s3_sse_algorithm = OptStr(m[kExportSse]);
  request.s3_sse_kms_key_id = OptStr(m[kExportKms]);
  request.client_token = OptStr(m[kExportClientToken]);
  if (m[kExportTime] != nullptr) request.export_time = DoubleOf(*m[kExportTime]);
  if (m[kExportFormat] != nullptr) request.export_format = Str(m[kExportFormat]);
  if (m[kExportType] != nullptr) request.export_type = Str(m[kExportType]);
  return request;
}

Result<std::string> DecodeArn(const JsonValue& body, std::string_view operation, const char* name,
                              std::string_view member) {
  const MemberSpec specs[1] = {{name, Shape::kString}};
  std::array<const JsonValue*, 1> m;
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, operation, specs, m));
  Constraints c;
  c.Required(m[0], member);
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());
  return Str(m[0]);
}

struct ListRequest {
  std::optional<std::string> table_arn;
  std::optional<int64_t> size;
  std::optional<std::string> next_token;
};

Result<ListRequest> DecodeList(const JsonValue& body, std::string_view operation,
                               const char* size_name) {
  const MemberSpec specs[3] = {
      {"TableArn", Shape::kString}, {size_name, Shape::kInteger}, {"NextToken", Shape::kString}};
  std::array<const JsonValue*, 3> m;
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, operation, specs, m));
  ListRequest request{OptStr(m[0]), std::nullopt, OptStr(m[2])};
  if (m[1] != nullptr) request.size = IntegerOf(*m[1]);
  return request;
}

enum ImportMember {
  kImportClientToken,
  kImportFormat,
  kImportCompression,
  kImportOptions,
  kImportSource,
  kImportTable,
  kImportMemberCount
};
constexpr MemberSpec kImportMembers[kImportMemberCount] = {
    {"ClientToken", Shape::kString},          {"InputFormat", Shape::kString},
    {"InputCompressionType", Shape::kString}, {"InputFormatOptions", Shape::kStructure},
    {"S3BucketSource", Shape::kStructure},    {"TableCreationParameters", Shape::kStructure},
};
constexpr MemberSpec kSourceMembers[3] = {{"S3Bucket", Shape::kString},
                                          {"S3BucketOwner", Shape::kString},
                                          {"S3KeyPrefix", Shape::kString}};
constexpr MemberSpec kOptionsMembers[1] = {{"Csv", Shape::kStructure}};
constexpr MemberSpec kCsvMembers[2] = {{"Delimiter", Shape::kString},
                                       {"HeaderList", Shape::kStringList}};
constexpr std::string_view kInputFormatNames[] = {"DYNAMODB_JSON", "ION", "CSV"};
constexpr std::string_view kCompressionNames[] = {"GZIP", "ZSTD", "NONE"};

Result<transfer::ImportRequest> DecodeImport(const JsonValue& body) {
  std::array<const JsonValue*, kImportMemberCount> m;
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, "ImportTable", kImportMembers, m));
  std::array<const JsonValue*, 3> source{};
  std::array<const JsonValue*, 1> options{};
  std::array<const JsonValue*, 2> csv{};
  if (m[kImportSource] != nullptr) {
    PARTSTORE_RETURN_IF_ERROR(
        ReadMembers(*m[kImportSource], "S3BucketSource", kSourceMembers, source));
  }
  if (m[kImportOptions] != nullptr) {
    PARTSTORE_RETURN_IF_ERROR(
        ReadMembers(*m[kImportOptions], "InputFormatOptions", kOptionsMembers, options));
    if (options[0] != nullptr) {
      PARTSTORE_RETURN_IF_ERROR(ReadMembers(*options[0], "CsvOptions", kCsvMembers, csv));
    }
  }
  Constraints c;
  c.Required(m[kImportFormat], "inputFormat");
  c.Enum(m[kImportFormat], kInputFormatNames, "[DYNAMODB_JSON, ION, CSV]", "inputFormat");
  c.Enum(m[kImportCompression], kCompressionNames, "[GZIP, ZSTD, NONE]", "inputCompressionType");
  c.Required(m[kImportSource], "s3BucketSource");
  if (m[kImportSource] != nullptr) c.Required(source[0], "s3BucketSource.s3Bucket");
  c.Required(m[kImportTable], "tableCreationParameters");
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());
  transfer::ImportRequest request;
  PARTSTORE_ASSIGN_OR_RETURN(request.table_creation_parameters,
                             DecodeCreateTableRequest(*m[kImportTable]));
  request.client_token = OptStr(m[kImportClientToken]);
  request.input_format = Str(m[kImportFormat]);
  if (m[kImportCompression] != nullptr) request.input_compression_type = Str(m[kImportCompression]);
  request.s3_bucket = Str(source[0]);
  request.s3_bucket_owner = OptStr(source[1]);
  if (source[2] != nullptr) request.s3_key_prefix = Str(source[2]);
  if (options[0] != nullptr) {
    transfer::CsvOptions& o = request.csv.emplace();
    o.delimiter = OptStr(csv[0]);
    if (csv[1] != nullptr) {
      std::vector<std::string> names;
      for (const JsonValue& name : csv[1]->GetArray()) names.push_back(Str(&name));
      o.header_list = std::move(names);
    }
  }
  return request;
}

// ---- Responses ----

void KeyIf(JsonWriter& w, const char* key, const std::optional<std::string>& value) {
  if (value) Key(w, key, std::string_view(*value));
}

void WriteExport(const ExportDescription& e, JsonWriter& w) {
  w.StartObject();
  Key(w, "ExportArn", e.export_arn);
  Key(w, "ExportStatus", transfer::TransferStatusName(e.export_status));
  w.Key("StartTime");
  w.Double(e.start_time);
  if (e.end_time && e.export_status != transfer::TransferStatus::kInProgress) {
    w.Key("EndTime");
    w.Double(*e.end_time);
  }
  KeyIf(w, "ExportManifest", e.export_manifest);
  Key(w, "TableArn", e.table_arn);
  Key(w, "TableId", e.table_id);
  w.Key("ExportTime");
  w.Double(e.export_time);
  KeyIf(w, "ClientToken", e.client_token);
  Key(w, "S3Bucket", e.s3_bucket);
  KeyIf(w, "S3BucketOwner", e.s3_bucket_owner);
  KeyIf(w, "S3Prefix", e.s3_prefix);
  Key(w, "S3SseAlgorithm", e.s3_sse_algorithm);
  KeyIf(w, "S3SseKmsKeyId", e.s3_sse_kms_key_id);
  KeyIf(w, "FailureCode", e.failure_code);
  KeyIf(w, "FailureMessage", e.failure_message);
  Key(w, "ExportFormat", e.export_format);
  if (e.billed_size_bytes) {
    w.Key("BilledSizeBytes");
    w.Int64(*e.billed_size_bytes);
  }
  if (e.item_count) {
    w.Key("ItemCount");
    w.Int64(*e.item_count);
  }
  Key(w, "ExportType", e.export_type);
  w.EndObject();
}

void WriteBucketSource(const transfer::ImportRequest& r, JsonWriter& w) {
  w.Key("S3BucketSource");
  w.StartObject();
  Key(w, "S3Bucket", r.s3_bucket);
  KeyIf(w, "S3BucketOwner", r.s3_bucket_owner);
  Key(w, "S3KeyPrefix", r.s3_key_prefix);
  w.EndObject();
}

void WriteImport(const ImportDescription& d, JsonWriter& w, bool summary) {
  const transfer::ImportRequest& r = d.request;
  w.StartObject();
  Key(w, "ImportArn", d.import_arn);
  Key(w, "ImportStatus", transfer::TransferStatusName(d.import_status));
  Key(w, "TableArn", d.table_arn);
  WriteBucketSource(r, w);
  Key(w, "InputFormat", r.input_format);
  w.Key("StartTime");
  w.Double(d.start_time);
  if (d.end_time) {
    w.Key("EndTime");
    w.Double(*d.end_time);
  }
  if (!summary) {
    Key(w, "TableId", d.table_id);
    KeyIf(w, "ClientToken", d.client_token);
    Key(w, "InputCompressionType", r.input_compression_type);
    if (r.csv) {
      w.Key("InputFormatOptions");
      w.StartObject();
      w.Key("Csv");
      w.StartObject();
      KeyIf(w, "Delimiter", r.csv->delimiter);
      if (r.csv->header_list) {
        w.Key("HeaderList");
        w.StartArray();
        for (const std::string& name : *r.csv->header_list) w.String(name.data(), name.size());
        w.EndArray();
      }
      w.EndObject();
      w.EndObject();
    }
    w.Key("TableCreationParameters");
    w.StartObject();
    const CreateTableRequest& t = r.table_creation_parameters;
    Key(w, "TableName", t.table_name);
    w.Key("AttributeDefinitions");
    w.StartArray();
    for (const AttributeDefinition& a : t.attribute_definitions) {
      w.StartObject();
      Key(w, "AttributeName", a.attribute_name);
      Key(w, "AttributeType",
          a.attribute_type == KeyType::kString   ? "S"
          : a.attribute_type == KeyType::kNumber ? "N"
                                                 : "B");
      w.EndObject();
    }
    w.EndArray();
    w.Key("KeySchema");
    w.StartArray();
    for (const KeySchemaElement& k : t.key_schema) {
      w.StartObject();
      Key(w, "AttributeName", k.attribute_name);
      Key(w, "KeyType", k.key_type == KeyRoleName::kHash ? "HASH" : "RANGE");
      w.EndObject();
    }
    w.EndArray();
    Key(w, "BillingMode", BillingModeName(t.billing_mode.value_or(BillingMode::kProvisioned)));
    w.EndObject();
    w.Key("ProcessedSizeBytes");
    w.Int64(d.processed_size_bytes);
    w.Key("ProcessedItemCount");
    w.Int64(d.processed_item_count);
    w.Key("ImportedItemCount");
    w.Int64(d.imported_item_count);
    w.Key("ErrorCount");
    w.Int64(d.error_count);
    KeyIf(w, "FailureCode", d.failure_code);
    KeyIf(w, "FailureMessage", d.failure_message);
  }
  w.EndObject();
}

template <typename Write>
Response OkResponse(Write write) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  write(w);
  w.EndObject();
  return {200, std::string(buffer.GetString(), buffer.GetSize())};
}

constexpr std::string_view kTransferOperations[] = {
    "ExportTableToPointInTime", "DescribeExport", "ListExports", "ImportTable",
    "DescribeImport",           "ListImports"};

}  // namespace

bool IsTransferOperation(std::string_view operation) {
  for (std::string_view name : kTransferOperations) {
    if (name == operation) return true;
  }
  return false;
}

namespace {

// Decoded -> (refused without --s3-dir) -> called -> written. (Decoding first: a malformed request
// is refused the same with or without --s3-dir.)
template <typename Request, typename Call, typename Write>
Response Serve(transfer::Transfers* transfers, const Result<Request>& request, Call call,
               Write write) {
  if (!request.ok()) return ErrorResponse(request.error());
  if (transfers == nullptr) return ErrorResponse(transfer::Transfers::NotConfigured());
  auto result = call(*transfers, *request);
  if (!result.ok()) return ErrorResponse(result.error());
  return OkResponse([&](JsonWriter& w) { write(*result, w); });
}

void WriteExportDescription(const ExportDescription& e, JsonWriter& w) {
  w.Key("ExportDescription");
  WriteExport(e, w);
}

void WriteImportDescription(const ImportDescription& d, JsonWriter& w) {
  w.Key("ImportTableDescription");
  WriteImport(d, w, false);
}

}  // namespace

Response DispatchTransfer(transfer::Transfers* transfers, std::string_view operation,
                          const JsonValue& body) {
  using transfer::Transfers;
  if (operation == "ExportTableToPointInTime") {
    return Serve(
        transfers, DecodeExport(body),
        [](Transfers& t, const transfer::ExportRequest& r) {
          return t.ExportTableToPointInTime(r);
        },
        WriteExportDescription);
  }
  if (operation == "DescribeExport") {
    return Serve(
        transfers, DecodeArn(body, "DescribeExport", "ExportArn", "exportArn"),
        [](Transfers& t, const std::string& arn) { return t.DescribeExport(arn); },
        WriteExportDescription);
  }
  if (operation == "ImportTable") {
    return Serve(
        transfers, DecodeImport(body),
        [](Transfers& t, const transfer::ImportRequest& r) { return t.ImportTable(r); },
        WriteImportDescription);
  }
  if (operation == "DescribeImport") {
    return Serve(
        transfers, DecodeArn(body, "DescribeImport", "ImportArn", "importArn"),
        [](Transfers& t, const std::string& arn) { return t.DescribeImport(arn); },
        WriteImportDescription);
  }
  if (operation == "ListExports") {
    return Serve(
        transfers, DecodeList(body, "ListExports", "MaxResults"),
        [](Transfers& t, const ListRequest& r) {
          return t.ListExports(
              {.table_arn = r.table_arn, .max_results = r.size, .next_token = r.next_token});
        },
        [](const transfer::ListExportsResult& r, JsonWriter& w) {
          w.Key("ExportSummaries");
          w.StartArray();
          for (const ExportDescription& e : r.exports) {
            w.StartObject();
            Key(w, "ExportArn", e.export_arn);
            Key(w, "ExportStatus", transfer::TransferStatusName(e.export_status));
            Key(w, "ExportType", e.export_type);
            w.EndObject();
          }
          w.EndArray();
          KeyIf(w, "NextToken", r.next_token);
        });
  }
  // ListImports
  return Serve(
      transfers, DecodeList(body, "ListImports", "PageSize"),
      [](Transfers& t, const ListRequest& r) {
        return t.ListImports(
            {.table_arn = r.table_arn, .page_size = r.size, .next_token = r.next_token});
      },
      [](const transfer::ListImportsResult& r, JsonWriter& w) {
        w.Key("ImportSummaryList");
        w.StartArray();
        for (const ImportDescription& d : r.imports) WriteImport(d, w, true);
        w.EndArray();
        KeyIf(w, "NextToken", r.next_token);
      });
}

}  // namespace partstore::protocol
