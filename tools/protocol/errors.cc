#include "tools/protocol/errors.h"

namespace partstore::protocol {

WireError WireErrorFor(Code code) {
  switch (code) {
    case Code::kOk:
      break;
    case Code::kValidation:
      return {"com.amazon.coral.validate#ValidationException", 400};
    case Code::kSerialization:
      return {"com.amazon.coral.service#SerializationException", 400};
    case Code::kUnknownOperation:
      return {"com.amazon.coral.service#UnknownOperationException", 400};
    case Code::kConditionalCheckFailed:
      return {"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException", 400};
    case Code::kProvisionedThroughputExceeded:
      return {"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException", 400};
    case Code::kThrottling:
      return {"com.amazonaws.dynamodb.v20120810#ThrottlingException", 400};
    case Code::kRequestLimitExceeded:
      return {"com.amazonaws.dynamodb.v20120810#RequestLimitExceeded", 400};
    case Code::kItemCollectionSizeLimitExceeded:
      return {"com.amazonaws.dynamodb.v20120810#ItemCollectionSizeLimitExceededException", 400};
    case Code::kTransactionCanceled:
      return {"com.amazonaws.dynamodb.v20120810#TransactionCanceledException", 400};
    case Code::kTransactionConflict:
      return {"com.amazonaws.dynamodb.v20120810#TransactionConflictException", 400};
    case Code::kTransactionInProgress:
      return {"com.amazonaws.dynamodb.v20120810#TransactionInProgressException", 400};
    case Code::kIdempotentParameterMismatch:
      return {"com.amazonaws.dynamodb.v20120810#IdempotentParameterMismatchException", 400};
    case Code::kResourceNotFound:
      return {"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException", 400};
    case Code::kResourceInUse:
      return {"com.amazonaws.dynamodb.v20120810#ResourceInUseException", 400};
    case Code::kLimitExceeded:
      return {"com.amazonaws.dynamodb.v20120810#LimitExceededException", 400};
    case Code::kInternal:
      return {"com.amazonaws.dynamodb.v20120810#InternalServerError", 500};
    case Code::kMemoryLimitExceeded:
      // partstore's own (no DynamoDB error means it); a 400 the SDKs do not retry.
      return {"com.partstore#MemoryLimitExceededException", 400};
    case Code::kExpiredIterator:
      return {"com.amazonaws.dynamodb.v20120810#ExpiredIteratorException", 400};
    case Code::kTrimmedDataAccess:
      return {"com.amazonaws.dynamodb.v20120810#TrimmedDataAccessException", 400};
    case Code::kTableNotFound:
      return {"com.amazonaws.dynamodb.v20120810#TableNotFoundException", 400};
    case Code::kPointInTimeRecoveryUnavailable:
      return {"com.amazonaws.dynamodb.v20120810#PointInTimeRecoveryUnavailableException", 400};
    case Code::kInvalidExportTime:
      return {"com.amazonaws.dynamodb.v20120810#InvalidExportTimeException", 400};
    case Code::kExportNotFound:
      return {"com.amazonaws.dynamodb.v20120810#ExportNotFoundException", 400};
    case Code::kImportNotFound:
      return {"com.amazonaws.dynamodb.v20120810#ImportNotFoundException", 400};
    case Code::kExportConflict:
      return {"com.amazonaws.dynamodb.v20120810#ExportConflictException", 400};
    case Code::kImportConflict:
      return {"com.amazonaws.dynamodb.v20120810#ImportConflictException", 400};
    case Code::kBackupNotFound:
      return {"com.amazonaws.dynamodb.v20120810#BackupNotFoundException", 400};
    case Code::kTableAlreadyExists:
      return {"com.amazonaws.dynamodb.v20120810#TableAlreadyExistsException", 400};
    case Code::kInvalidRestoreTime:
      return {"com.amazonaws.dynamodb.v20120810#InvalidRestoreTimeException", 400};
    case Code::kDuplicateItem:
      return {"com.amazonaws.dynamodb.v20120810#DuplicateItemException", 400};
    case Code::kUnrecognizedClient:
      return {"com.amazon.coral.service#UnrecognizedClientException", 400};
    case Code::kInvalidSignature:
      return {"com.amazon.coral.service#InvalidSignatureException", 400};
    case Code::kMissingAuthenticationToken:
      return {"com.amazon.coral.service#MissingAuthenticationTokenException", 400};
    case Code::kAccessDenied:
      return {"com.amazon.coral.service#AccessDeniedException", 400};
    case Code::kOutcomeUnknown:
      // A client's verdict, never a server's: named here only so that every Code has a name.
      return {"com.amazonaws.partstore#OutcomeUnknownException", 500};
  }
  return {"com.amazonaws.dynamodb.v20120810#InternalServerError", 500};
}

std::string_view ExceptionName(Code code) {
  std::string_view type = WireErrorFor(code).type;
  return type.substr(type.find('#') + 1);
}

}  // namespace partstore::protocol
