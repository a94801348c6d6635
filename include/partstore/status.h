// Status and Result<T>: errors as values.
//
// Every fallible function in partstore returns a Status or a Result<T>. An OK Status is a null
// pointer (free to create, copy and test); an error carries a Code from a closed enum and the
// message DynamoDB would send. Nothing on a hot path throws: throttling in particular is an
// ordinary, cheap return.
//
// Each error Code is one DynamoDB exception (named beside it below); `partstore serve` sends an
// error as that exception's `__type` with HTTP status 400, or 500 for kInternal.
//
// Thread safety: Status and Result are values; const methods are thread-safe, distinct objects
// may be used from distinct threads, one object is not thread-safe against concurrent mutation.
#pragma once

#include <cassert>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

namespace partstore {

// Extra members some errors carry on the wire (partstore/error_detail.h), e.g. the existing item of
// a ConditionalCheckFailedException under ReturnValuesOnConditionCheckFailure=ALL_OLD.
struct ErrorDetail;

// The closed set of error kinds. Each corresponds to one DynamoDB exception.
enum class Code : uint8_t {
  kOk = 0,
  kValidation,                       // ValidationException: bad or out-of-range input.
  kSerialization,                    // SerializationException: JSON not of the request's shape.
  kUnknownOperation,                 // UnknownOperationException: no such X-Amz-Target.
  kConditionalCheckFailed,           // ConditionalCheckFailedException.
  kProvisionedThroughputExceeded,    // ProvisionedThroughputExceededException (retryable).
  kThrottling,                       // ThrottlingException (retryable).
  kRequestLimitExceeded,             // RequestLimitExceeded (retryable).
  kItemCollectionSizeLimitExceeded,  // ItemCollectionSizeLimitExceededException.
  kTransactionCanceled,              // TransactionCanceledException.
  kTransactionConflict,              // TransactionConflictException.
  kTransactionInProgress,            // TransactionInProgressException (retryable).
  kIdempotentParameterMismatch,      // IdempotentParameterMismatchException.
  kResourceNotFound,                 // ResourceNotFoundException.
  kResourceInUse,                    // ResourceInUseException.
  kLimitExceeded,                    // LimitExceededException (retryable).
  kInternal,                         // InternalServerError (retryable).
  kMemoryLimitExceeded,              // MemoryLimitExceededException: partstore's memory limit
                                     // (partstore/memory.h, the reject policy).
  kExpiredIterator,                  // ExpiredIteratorException (Streams: an iterator too old).
  kTrimmedDataAccess,                // TrimmedDataAccessException (Streams: records trimmed).
  kTableNotFound,                    // TableNotFoundException (continuous backups' calls).
  kPointInTimeRecoveryUnavailable,   // PointInTimeRecoveryUnavailableException.
  kInvalidExportTime,                // InvalidExportTimeException.
  kExportNotFound,                   // ExportNotFoundException.
  kImportNotFound,                   // ImportNotFoundException.
  kExportConflict,                   // ExportConflictException.
  kImportConflict,                   // ImportConflictException.
  kBackupNotFound,                   // BackupNotFoundException.
  kTableAlreadyExists,               // TableAlreadyExistsException (a restore's target).
  kInvalidRestoreTime,               // InvalidRestoreTimeException.
  kDuplicateItem,                    // DuplicateItemException (PartiQL INSERT of an existing key).
  kUnrecognizedClient,               // UnrecognizedClientException: an access key the server
                                     // does not know.
  kInvalidSignature,                 // InvalidSignatureException: a request signed with the
                                     // wrong secret (or badly).
  kMissingAuthenticationToken,       // MissingAuthenticationTokenException: an unsigned request.
  kAccessDenied,                     // AccessDeniedException: the key may not do this.
  kOutcomeUnknown,                   // partstore's RemoteStore only (never sent by DynamoDB): a
                                     // write that may or may not have been applied (its
                                     // connection failed after the request was sent, and it
                                     // was not idempotent, so it was not sent again).
};

// The code's short name, e.g. "Validation" (for logs and test output; not the wire name).
std::string_view CodeName(Code code);

// Whether a client may retry the same request unchanged (DynamoDB's SDKs retry these).
bool IsRetryable(Code code);

class [[nodiscard]] Status {
 public:
  // An OK status.
  Status() = default;
  // An error. REQUIRES: code != Code::kOk.
  Status(Code code, std::string message);

  Status(const Status& other) : rep_(other.rep_ ? std::make_unique<Rep>(*other.rep_) : nullptr) {}
  Status& operator=(const Status& other) {
    if (this != &other) rep_ = other.rep_ ? std::make_unique<Rep>(*other.rep_) : nullptr;
    return *this;
  }
  Status(Status&&) noexcept = default;
  Status& operator=(Status&&) noexcept = default;

  static Status Ok() { return Status(); }
  static Status Validation(std::string message) { return {Code::kValidation, std::move(message)}; }
  static Status Serialization(std::string message) {
    return {Code::kSerialization, std::move(message)};
  }
  static Status ResourceNotFound(std::string message = "Requested resource not found") {
    return {Code::kResourceNotFound, std::move(message)};
  }
  static Status Internal(std::string message) { return {Code::kInternal, std::move(message)}; }

  bool ok() const { return rep_ == nullptr; }
  Code code() const { return rep_ ? rep_->code : Code::kOk; }
  // DynamoDB's message text; empty for OK.
  std::string_view message() const { return rep_ ? std::string_view(rep_->message) : ""; }
  bool retryable() const { return IsRetryable(code()); }
  // The error's extra members, or null. Shared and immutable: copying a Status copies a pointer.
  const ErrorDetail* detail() const { return rep_ ? rep_->detail.get() : nullptr; }
  // This error with `detail` attached. REQUIRES: !ok().
  Status WithDetail(std::shared_ptr<const ErrorDetail> detail) &&;
  // "OK" or "<CodeName>: <message>".
  std::string ToString() const;

  friend bool operator==(const Status& a, const Status& b) {
    return a.code() == b.code() && a.message() == b.message();
  }

 private:
  struct Rep {
    Code code;
    std::string message;
    std::shared_ptr<const ErrorDetail> detail;
  };
  std::unique_ptr<Rep> rep_;
};

// A value of type T, or the error Status that prevented it.
template <typename T>
class [[nodiscard]] Result {
 public:
  // Implicit, so that `return value;` and `return status;` both work. Two overloads, not one by
  // value: `return value;` moves the value once, into place.
  Result(const T& value) : v_(std::in_place_index<1>, value) {}        // NOLINT
  Result(T&& value) : v_(std::in_place_index<1>, std::move(value)) {}  // NOLINT
  // REQUIRES: !status.ok().
  Result(Status status) : v_(std::in_place_index<0>, std::move(status)) {  // NOLINT
    assert(!std::get<0>(v_).ok());
    if (std::get<0>(v_).ok()) v_.template emplace<0>(Code::kInternal, "Result built from OK");
  }
  template <typename U>
  requires(std::is_constructible_v<T, U&&> && !std::is_same_v<std::decay_t<U>, T> &&
           !std::is_same_v<std::decay_t<U>, Status> && !std::is_same_v<std::decay_t<U>, Result>)
      Result(U&& value)
      : v_(std::in_place_index<1>, T(std::forward<U>(value))) {}  // NOLINT

  bool ok() const { return v_.index() == 1; }
  // The error, or an OK Status.
  Status status() const { return ok() ? Status() : std::get<0>(v_); }
  // The error, without a copy. REQUIRES: !ok() (else std::get throws std::bad_variant_access).
  const Status& error() const& { return std::get<0>(v_); }

  // The value; *, -> and value() alike. REQUIRES: ok() (else std::get throws
  // std::bad_variant_access).
  T& value() & { return std::get<1>(v_); }
  const T& value() const& { return std::get<1>(v_); }
  T&& value() && { return std::get<1>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<Status, T> v_;
};

}  // namespace partstore

// Returns from the enclosing function if `expr` (a Status) is an error.
#define PARTSTORE_RETURN_IF_ERROR(expr)                    \
  do {                                                     \
    ::partstore::Status partstore_status_ = (expr);        \
    if (!partstore_status_.ok()) return partstore_status_; \
  } while (0)

#define PARTSTORE_CONCAT_INNER_(a, b) a##b
#define PARTSTORE_CONCAT_(a, b) PARTSTORE_CONCAT_INNER_(a, b)
// `PARTSTORE_ASSIGN_OR_RETURN(auto x, Foo());` declares x from a Result, or returns its error.
#define PARTSTORE_ASSIGN_OR_RETURN(lhs, expr)                      \
  auto PARTSTORE_CONCAT_(partstore_result_, __LINE__) = (expr);    \
  if (!PARTSTORE_CONCAT_(partstore_result_, __LINE__).ok())        \
    return PARTSTORE_CONCAT_(partstore_result_, __LINE__).error(); \
  lhs = std::move(PARTSTORE_CONCAT_(partstore_result_, __LINE__)).value()
