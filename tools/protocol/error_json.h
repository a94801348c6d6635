// DynamoDB's error responses read back into a Status: the other direction of ErrorResponse
// (dispatch.h), for the client (partstore/remote_store.h). One body, any bytes: it comes from
// whatever server the client talks to, so malformed input is a Status saying so, never a crash.
//
//   {"__type": "com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException",
//    "message": "The conditional request failed", "Item": {...}}
//   -> Status(Code::kConditionalCheckFailed, "The conditional request failed") with ErrorDetail
//
// The Code is the one whose exception name (errors.h) is the part of `__type` after '#' (a
// `__type` without '#' is the name itself, as some servers send it). The message is `message`,
// else `Message` (DynamoDB uses both spellings), else empty. The detail members are read as
// dispatch writes them: "Item" (ConditionalCheckFailedException), "ThrottlingReasons" /
// "throttlingReasons" ([{"reason", "resource"}], reasons not known are skipped),
// "CancellationReasons" ([{"Code", "Message", "Item"}]); a detail member of the wrong shape is
// ignored (the error itself still comes back).
//
// An unknown exception name is kInternal for HTTP 5xx and kValidation otherwise, its message
// "<name>: <message>" so that nothing is lost. A body that is not a JSON object with a string
// `__type`, or is over kMaxErrorBodyBytes, is "HTTP <status> from <what>: <the body's first 200
// bytes>": kValidation for a 4xx status (refused before anything was applied), else kInternal.
//
// Thread safety: a pure function.
#pragma once

#include <cstddef>
#include <string_view>

#include "partstore/status.h"

namespace partstore::protocol {

inline constexpr size_t kMaxErrorBodyBytes = 1 << 20;

// `origin` names the server in messages about a body that is not an error body.
Status DecodeErrorResponse(int http_status, std::string_view body, std::string_view origin);

}  // namespace partstore::protocol
