// ExportTableToPointInTime, DescribeExport, ListExports, ImportTable, DescribeImport and
// ListImports JSON: DynamoDB's shapes, translated to tools/transfer/transfers.h. Dispatch calls
// DispatchTransfer for these operations.
#pragma once

#include <rapidjson/document.h>

#include <string_view>

#include "tools/protocol/dispatch.h"
#include "tools/transfer/transfers.h"

namespace partstore::protocol {

// Whether `operation` is one of the six.
bool IsTransferOperation(std::string_view operation);

// Answers one of the six; `transfers` null: the ValidationException that names --s3-dir.
Response DispatchTransfer(transfer::Transfers* transfers, std::string_view operation,
                          const rapidjson::Value& body);

}  // namespace partstore::protocol
