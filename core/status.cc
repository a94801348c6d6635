#include "partstore/status.h"

namespace partstore {

std::string_view CodeName(Code code) {
  switch (code) {
    case Code::kOk:
      return "OK";
    case Code::kValidation:
      return "Validation";
    case Code::kSerialization:
      return "Serialization";
    case Code::kUnknownOperation:
      return "UnknownOperation";
    case Code::kConditionalCheckFailed:
      return "ConditionalCheckFailed";
    case Code::kProvisionedThroughputExceeded:
      return "ProvisionedThroughputExceeded";
    case Code::kThrottling:
      return "Throttling";
    case Code::kRequestLimitExceeded:
      return "RequestLimitExceeded";
    case Code::kItemCollectionSizeLimitExceeded:
      return "ItemCollectionSizeLimitExceeded";
    case Code::kTransactionCanceled:
      return "TransactionCanceled";
    case Code::kTransactionConflict:
      return "TransactionConflict";
    case Code::kTransactionInProgress:
      return "TransactionInProgress";
    case Code::kIdempotentParameterMismatch:
      return "IdempotentParameterMismatch";
    case Code::kResourceNotFound:
      return "ResourceNotFound";
    case Code::kResourceInUse:
      return "ResourceInUse";
    case Code::kLimitExceeded:
      return "LimitExceeded";
    case Code::kInternal:
      return "Internal";
    case Code::kMemoryLimitExceeded:
      return "MemoryLimitExceeded";
    case Code::kExpiredIterator:
      return "ExpiredIterator";
    case Code::kTrimmedDataAccess:
      return "TrimmedDataAccess";
    case Code::kTableNotFound:
      return "TableNotFound";
    case Code::kPointInTimeRecoveryUnavailable:
      return "PointInTimeRecoveryUnavailable";
    case Code::kInvalidExportTime:
      return "InvalidExportTime";
    case Code::kExportNotFound:
      return "ExportNotFound";
    case Code::kImportNotFound:
      return "ImportNotFound";
    case Code::kExportConflict:
      return "ExportConflict";
    case Code::kImportConflict:
      return "ImportConflict";
    case Code::kBackupNotFound:
      return "BackupNotFound";
    case Code::kTableAlreadyExists:
      return "TableAlreadyExists";
    case Code::kInvalidRestoreTime:
      return "InvalidRestoreTime";
    case Code::kDuplicateItem:
      return "DuplicateItem";
    case Code::kUnrecognizedClient:
      return "UnrecognizedClient";
    case Code::kInvalidSignature:
      return "InvalidSignature";
    case Code::kMissingAuthenticationToken:
      return "MissingAuthenticationToken";
    case Code::kAccessDenied:
      return "AccessDenied";
    case Code::kOutcomeUnknown:
      return "OutcomeUnknown";
  }
  return "Unknown";
}

bool IsRetryable(Code code) {
  switch (code) {
    case Code::kProvisionedThroughputExceeded:
    case Code::kThrottling:
    case Code::kRequestLimitExceeded:
    case Code::kItemCollectionSizeLimitExceeded:
    case Code::kTransactionInProgress:
    case Code::kLimitExceeded:
    case Code::kInternal:
      return true;
    default:
      return false;
  }
}

Status::Status(Code code, std::string message)
    : rep_(std::make_unique<Rep>(Rep{code, std::move(message), nullptr})) {
  assert(code != Code::kOk);
}

Status Status::WithDetail(std::shared_ptr<const ErrorDetail> detail) && {
  assert(rep_ != nullptr);
  if (rep_) rep_->detail = std::move(detail);
  return std::move(*this);
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  std::string out(CodeName(code()));
  out += ": ";
  out += message();
  return out;
}

}  // namespace partstore
