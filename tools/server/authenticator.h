// Authentication as DynamoDB's endpoint does it: every request signed with Signature Version 4
// (sigv4.h) by an access key the server knows. `partstore serve --auth sigv4 --access-keys FILE`;
// without it any credentials are accepted (what local tools expect).
//
// The checks, in DynamoDB's order, and its answers (HTTP 400, `__type`
// com.amazon.coral.service#<Exception>):
//   no Authorization header        MissingAuthenticationTokenException
//                                  "Request is missing Authentication Token"
//   not AWS4-HMAC-SHA256, or no Credential / SignedHeaders / Signature, or no X-Amz-Date
//                                  IncompleteSignatureException naming what is missing
//   X-Amz-Date 15 minutes or more off the server's clock (checked before the key: an expired
//   request with an unknown key is "expired")
//                                  InvalidSignatureException "Signature expired: <date> is now
//                                  earlier than <now - 15 min> (<now> - 15 min.)" or "Signature not
//                                  yet current: <date> is still later than <now + 15 min> (<now> +
//                                  15 min.)"
//   a credential scope (<key id>/<date>/<region>/<service>/aws4_request) for another region than
//   the server's, or another service than "dynamodb" (which DynamoDB Streams' clients sign with
//   too: botocore's and the JavaScript SDK's dynamodbstreams model has signingName "dynamodb")
//                                  InvalidSignatureException "Credential should be scoped to a
//                                  valid region. " and/or "Credential should be scoped to correct
//                                  service: 'dynamodb'. " (both, in this order, when both are
//                                  wrong; each with its trailing blank, as DynamoDB sends them)
//   an access key id not in the file
//                                  UnrecognizedClientException "The security token included in
//                                  the request is invalid."
//   a signature that differs from the one computed with the key's secret over the signed headers
//   and the body as received (compressed bytes included)
//                                  InvalidSignatureException "The request signature we calculated
//                                  does not match the signature you provided. Check your AWS
//                                  Secret Access Key and signing method. Consult the service
//                                  documentation for details."
// The components of the Authorization header may be separated by commas, spaces or both. The
// health check (GET /) needs no signature.
//
// The access-key file: one key per line, "<access key id> <secret access key>" separated by
// spaces or tabs; blank lines and lines starting with '#' are skipped.
//
// Thread safety: an AccessKeys is immutable once loaded; Authenticate is a pure function.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "partstore/status.h"
#include "tools/server/handler.h"

namespace partstore::server {

class AccessKeys {
 public:
  // Parses the file's text; ValidationException naming the first bad line ("line 3: ...").
  static Result<AccessKeys> Parse(std::string_view text);
  // Reads and parses `path`.
  static Result<AccessKeys> Load(const std::string& path);

  // The secret of `access_key_id`, or null.
  const std::string* Find(std::string_view access_key_id) const;
  size_t size() const { return secrets_.size(); }

 private:
  std::map<std::string, std::string, std::less<>> secrets_;
};

// Why a request was refused: the exception's short name (for __type) and DynamoDB's message.
struct AuthFailure {
  std::string_view type;  // e.g. "InvalidSignatureException"
  std::string message;
};

// Checks `request`'s signature against `keys` at `now_seconds` (Unix time), for a server of
// `region` (the region its credential scope must name). nullopt: accepted.
std::optional<AuthFailure> Authenticate(const HttpRequest& request, const AccessKeys& keys,
                                        std::string_view region, int64_t now_seconds);

}  // namespace partstore::server
