// The one mapping from partstore's error Codes to DynamoDB's wire errors: the `__type` string
// and the HTTP status. Nothing else in partstore names DynamoDB exceptions.
//
// Thread safety: pure functions; thread-safe.
#pragma once

#include <string_view>

#include "partstore/status.h"

namespace partstore::protocol {

struct WireError {
  // Full `__type`, e.g. "com.amazon.coral.validate#ValidationException". SDKs read the part
  // after '#'.
  std::string_view type;
  int http_status;
};

// REQUIRES: code != Code::kOk.
WireError WireErrorFor(Code code);

// The exception name alone (the part of `type` after '#').
std::string_view ExceptionName(Code code);

}  // namespace partstore::protocol
