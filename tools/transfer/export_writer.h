// The files of a DYNAMODB_JSON full export, as DynamoDB writes them to S3 (docs/reference.md,
// "Export output"), under <bucket_dir>/<S3Prefix>/AWSDynamoDB/<ExportId>/:
//   _started                    empty, written first
//   data/<name>.json.gz         gzip of JSON Lines, one {"Item": {...}} per item (marshalled JSON)
//   manifest-files.json         JSON Lines, one per data file: itemCount, md5Checksum (base64 of
//                               the file's MD5, as S3's Content-MD5), etag (its hex MD5),
//                               dataFileS3Key
//   manifest-summary.json       the export's fields (version "2020-06-30", exportArn, startTime,
//                               endTime, tableArn, tableId, exportTime, s3Bucket, s3Prefix,
//                               s3SseAlgorithm, s3SseKmsKeyId, manifestFilesS3Key,
//                               billedSizeBytes, itemCount, outputFormat)
//   manifest-*.checksum         the hex MD5 of the manifest beside it (partstore's choice: the
//                               checksum files' contents are not documented)
// DynamoDB writes at least one data file per partition; partstore writes one per
// kItemsPerDataFile items (at least one, empty for an empty table). Times are ISO 8601 with
// milliseconds and Z.
#pragma once

#include <cstdint>
#include <string>

#include "partstore/status.h"
#include "partstore/table_image.h"
#include "tools/transfer/transfers.h"

namespace partstore::transfer {

inline constexpr size_t kItemsPerDataFile = 100000;

struct ExportFiles {
  int64_t item_count = 0;
  int64_t billed_size_bytes = 0;     // the items' DynamoDB sizes
  std::string manifest_summary_key;  // relative to the bucket
};

// Writes `image` as the export `description` (its ARN ends in the ExportId) into `bucket_dir`.
// An I/O error is an InternalServerError naming the file.
Result<ExportFiles> WriteExport(const TableImage& image, const ExportDescription& description,
                                const std::string& bucket_dir);

// "2026-11-27T16:31:31.123Z".
std::string Iso8601(double epoch_seconds);

}  // namespace partstore::transfer
