// HTTP content codings as DynamoDB's endpoint applies them (zlib from Debian does the bytes).
//
// Requests: a body with `Content-Encoding: gzip` (the SDKs' request compression) is decoded before
// it is read; concatenated gzip members are one body (RFC 1952), bytes after the last member that
// do not start another member are ignored (DynamoDB accepts them; Scylla's test suite,
// test_compressed_request.py, marks that as a DynamoDB bug). A stream that is not gzip, is cut
// short or is empty, and any other coding, is an InternalServerError (HTTP 500), as DynamoDB
// answers. `deflate` (the zlib format, RFC 9110) is decoded too, beyond DynamoDB (which answers
// 500). The decoded body is limited like a plain one: past the limit the request is refused (413)
// before more memory is taken, where DynamoDB accepts up to about 1 GB.
//
// Responses: gzip or deflate, whichever `Accept-Encoding` prefers, when the body is at least
// kCompressionThreshold bytes (DynamoDB's 4 KB). The choice follows DynamoDB's observed rules
// (ChooseResponseCoding). x-amz-crc32 is then the CRC-32 of the compressed bytes, as DynamoDB's
// (the SDKs check it before they decompress).
//
// Thread safety: pure functions.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace partstore::protocol {

// DynamoDB compresses a response body of at least this many bytes.
inline constexpr size_t kCompressionThreshold = 4096;

enum class ContentCoding { kIdentity, kGzip, kDeflate };

// "gzip", "deflate" or "identity".
std::string_view ContentCodingName(ContentCoding coding);

// How decoding a request body ended.
enum class DecodeOutcome {
  kOk,
  kUnsupported,  // a coding other than gzip, deflate or identity
  kCorrupt,      // not the coding's format, truncated or empty
  kTooLarge,     // decoded, it would pass the limit
};

// Decodes `body` per the Content-Encoding header's value (empty or "identity": unchanged; the
// header's list, "gzip, identity", is applied last coding first). At most `max_bytes` decoded.
DecodeOutcome DecodeRequestBody(std::string_view content_encoding, std::string& body,
                                size_t max_bytes);

// The coding for a response per the request's Accept-Encoding (empty: none), DynamoDB's way:
// entries split at ',' and trimmed; codings compared case-insensitively; the first "q" parameter
// is the weight (missing or not a number: 1, above 1: 1, 0 or below: refused); a coding listed
// more than once takes its highest weight; "*" gives its weight to gzip and deflate when they are
// not listed; "identity" is ignored. The highest weight wins; at equal weights a listed coding
// beats one reached through "*", then the one listed first, then gzip.
ContentCoding ChooseResponseCoding(std::string_view accept_encoding);

// `body` compressed with `coding` (kGzip or kDeflate); nullopt if zlib refused (the body then goes
// out as it is).
std::optional<std::string> EncodeBody(std::string_view body, ContentCoding coding);

}  // namespace partstore::protocol
