// AWS Signature Version 4 (SigV4): the Authorization header value that signs one HTTP request
// with an access key, as every AWS SDK sends it. `partstore serve --auth sigv4` verifies requests
// with it (authenticator.h); the wire client of `partstore bench` (tools/bench/dynamodb_target.h)
// signs its DynamoDB JSON POSTs with it when credentials are configured.
//
//   canonical request = METHOD \n path \n query \n (name:value\n for each header, sorted) \n
//                       signed header names (;-joined) \n hex(SHA-256(body))
//   string to sign    = "AWS4-HMAC-SHA256" \n amz_date \n date/region/service/aws4_request \n
//                       hex(SHA-256(canonical request))
//   signing key       = HMAC chain "AWS4"+secret -> date -> region -> service -> "aws4_request"
//   Authorization     = AWS4-HMAC-SHA256 Credential=<key id>/<scope>, SignedHeaders=<names>,
//                       Signature=hex(HMAC(signing key, string to sign))
//
// The path and query are taken as given: the caller passes them already canonical (URI-encoded,
// query parameters sorted), which "/" and "" (all DynamoDB needs) are. Header names are lowered
// and sorted here, values trimmed with inner runs of spaces collapsed; every header passed is
// signed. SHA-256 and HMAC come from OpenSSL (EVP).
//
// Thread safety: SigV4Authorization is a pure function, safe from any thread. A SigV4Signer is
// used by one thread at a time (it caches the signing key of the current date and reuses its
// buffers); distinct signers are independent.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace partstore::protocol {

struct SigV4Credentials {
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;  // empty: none (then no x-amz-security-token header is expected)
};

struct SigV4Header {
  std::string_view name;  // any case; signed lower-cased
  std::string_view value;
};

struct SigV4Request {
  std::string_view method = "POST";
  std::string_view path = "/";  // canonical URI
  std::string_view query;       // canonical query string, "" for none
  // Every header to sign, Host and X-Amz-Date included (and X-Amz-Security-Token with a session
  // token): the caller sends exactly these.
  std::span<const SigV4Header> headers;
  std::string_view body;
};

// The Authorization header value for `request` at `amz_date` ("YYYYMMDDTHHMMSSZ", UTC).
std::string SigV4Authorization(const SigV4Request& request, const SigV4Credentials& credentials,
                               std::string_view region, std::string_view service,
                               std::string_view amz_date);

// The canonical request, for tests and debugging.
std::string SigV4CanonicalRequest(const SigV4Request& request);

// hex of the signing key for `date` ("YYYYMMDD"), for tests against AWS's published vectors.
std::string SigV4SigningKeyHex(std::string_view secret, std::string_view date,
                               std::string_view region, std::string_view service);

// The same signature as SigV4Authorization, for a stream of requests: the signing key is derived
// once per date, the digest contexts and buffers are reused.
class SigV4Signer {
 public:
  SigV4Signer(SigV4Credentials credentials, std::string region, std::string service);
  ~SigV4Signer();
  SigV4Signer(const SigV4Signer&) = delete;
  SigV4Signer& operator=(const SigV4Signer&) = delete;

  const SigV4Credentials& credentials() const { return credentials_; }
  // Writes the Authorization header value into *out (replacing its contents).
  void Authorization(const SigV4Request& request, std::string_view amz_date, std::string* out);
  // The canonical request the last Authorization() signed.
  const std::string& last_canonical_request() const { return canonical_; }

 private:
  friend std::string SigV4SigningKeyHex(std::string_view, std::string_view, std::string_view,
                                        std::string_view);
  struct Digest;  // an OpenSSL SHA-256 context (sigv4.cc)
  using Hash = std::array<uint8_t, 32>;
  struct Entry {
    std::string name;  // lower-cased
    size_t index;      // in the request's headers
  };

  Hash Sha256(std::string_view data);
  Hash Hmac(std::span<const uint8_t> key, std::string_view data);
  const Hash& SigningKey(std::string_view date);
  void Canonical(const SigV4Request& request, std::string* signed_headers);

  SigV4Credentials credentials_;
  std::string region_;
  std::string service_;
  std::unique_ptr<Digest> digest_;
  std::string key_date_;  // the date SigningKey() was derived for
  Hash key_{};
  std::string canonical_;  // reused buffers
  std::string scratch_;
  std::string signed_headers_;
  std::string scope_;
  std::vector<Entry> entries_;
};

// Lower-case hex of `bytes`, appended to *out.
void AppendHex(std::span<const uint8_t> bytes, std::string* out);

}  // namespace partstore::protocol
