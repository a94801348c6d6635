// Authentication: see authenticator.h.
#include "tools/server/authenticator.h"

#include <openssl/crypto.h>

#include <ctime>
#include <fstream>
#include <sstream>
#include <vector>

#include "tools/protocol/sigv4.h"

namespace partstore::server {

using protocol::SigV4Authorization;
using protocol::SigV4Header;
using protocol::SigV4Request;

namespace {

constexpr std::string_view kAlgorithm = "AWS4-HMAC-SHA256";
// The service a credential scope must name, DynamoDB Streams' requests included.
constexpr std::string_view kService = "dynamodb";
constexpr int64_t kMaxSkewSeconds = 15 * 60;

bool IsBlank(char c) { return c == ' ' || c == '\t'; }

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsBlank(s.front())) s.remove_prefix(1);
  while (!s.empty() && (IsBlank(s.back()) || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::string_view HeaderOf(const HttpRequest& request, std::string_view name) {
  auto it = request.find(boost::beast::string_view(name.data(), name.size()));
  if (it == request.end()) return {};
  return std::string_view(it->value().data(), it->value().size());
}

// "YYYYMMDDTHHMMSSZ" as Unix time, or nullopt.
std::optional<int64_t> ParseAmzDate(std::string_view text) {
  if (text.size() != 16 || text[8] != 'T' || text[15] != 'Z') return std::nullopt;
  for (size_t i = 0; i < 15; ++i) {
    if (i != 8 && (text[i] < '0' || text[i] > '9')) return std::nullopt;
  }
  auto number = [&](size_t at, size_t n) {
    int v = 0;
    for (size_t i = at; i < at + n; ++i) v = v * 10 + (text[i] - '0');
    return v;
  };
  struct tm t {};
  t.tm_year = number(0, 4) - 1900;
  t.tm_mon = number(4, 2) - 1;
  t.tm_mday = number(6, 2);
  t.tm_hour = number(9, 2);
  t.tm_min = number(11, 2);
  t.tm_sec = number(13, 2);
  if (t.tm_mon > 11 || t.tm_mday < 1 || t.tm_mday > 31 || t.tm_hour > 23 || t.tm_min > 59 ||
      t.tm_sec > 60) {
    return std::nullopt;
  }
  return static_cast<int64_t>(timegm(&t));
}

std::string FormatAmzDate(int64_t seconds) {
  const time_t value = static_cast<time_t>(seconds);
  struct tm t {};
  gmtime_r(&value, &t);
  char text[32];
  strftime(text, sizeof(text), "%Y%m%dT%H%M%SZ", &t);
  return text;
}

// The Credential, SignedHeaders and Signature parameters of an Authorization header (after the
// algorithm), separated by commas, blanks or both.
struct AuthorizationParts {
  std::optional<std::string_view> credential, signed_headers, signature;
};

AuthorizationParts ParseParameters(std::string_view rest) {
  AuthorizationParts parts;
  size_t i = 0;
  while (i < rest.size()) {
    while (i < rest.size() && (IsBlank(rest[i]) || rest[i] == ',')) ++i;
    size_t end = i;
    while (end < rest.size() && !IsBlank(rest[end]) && rest[end] != ',') ++end;
    const std::string_view token = rest.substr(i, end - i);
    i = end;
    const size_t equals = token.find('=');
    if (equals == std::string_view::npos) continue;
    const std::string_view name = token.substr(0, equals);
    const std::string_view value = token.substr(equals + 1);
    if (name == "Credential" && !parts.credential) parts.credential = value;
    if (name == "SignedHeaders" && !parts.signed_headers) parts.signed_headers = value;
    if (name == "Signature" && !parts.signature) parts.signature = value;
  }
  return parts;
}

std::vector<std::string_view> Split(std::string_view text, char separator) {
  std::vector<std::string_view> out;
  while (true) {
    const size_t at = text.find(separator);
    out.push_back(text.substr(0, at));
    if (at == std::string_view::npos) return out;
    text.remove_prefix(at + 1);
  }
}

// Client text quoted in a message: printable ASCII only (others become '?'), at most 128
// characters, so that the error body stays valid JSON whatever bytes the header carried.
std::string Quoted(std::string_view text) {
  std::string out;
  for (char c : text.substr(0, 128)) out += (c >= 0x20 && c <= 0x7e) ? c : '?';
  return out;
}

AuthFailure Incomplete(std::string message) {
  return {"IncompleteSignatureException", std::move(message)};
}

}  // namespace

Result<AccessKeys> AccessKeys::Parse(std::string_view text) {
  AccessKeys keys;
  int line_number = 0;
  for (std::string_view line : Split(text, '\n')) {
    ++line_number;
    line = Trim(line);
    if (line.empty() || line.front() == '#') continue;
    size_t blank = 0;
    while (blank < line.size() && !IsBlank(line[blank])) ++blank;
    const std::string_view id = line.substr(0, blank);
    const std::string_view secret = Trim(line.substr(blank));
    const auto bad = [&](std::string_view why) {
      return Status::Validation("access keys, line " + std::to_string(line_number) + ": " +
                                std::string(why));
    };
    if (secret.empty()) return bad("expected \"<access key id> <secret access key>\"");
    for (char c : secret) {
      if (IsBlank(c)) return bad("a secret access key has no blanks");
    }
    if (!keys.secrets_.emplace(std::string(id), std::string(secret)).second) {
      return bad("access key id " + std::string(id) + " appears twice");
    }
  }
  if (keys.secrets_.empty()) return Status::Validation("access keys: the file names no key");
  return keys;
}

Result<AccessKeys> AccessKeys::Load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Validation("access keys: cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return Parse(text.str());
}

const std::string* AccessKeys::Find(std::string_view access_key_id) const {
  auto it = secrets_.find(access_key_id);
  return it == secrets_.end() ? nullptr : &it->second;
}

std::optional<AuthFailure> Authenticate(const HttpRequest& request, const AccessKeys& keys,
                                        std::string_view region, int64_t now_seconds) {
  const std::string_view authorization = HeaderOf(request, "Authorization");
  if (authorization.empty()) {
    return AuthFailure{"MissingAuthenticationTokenException",
                       "Request is missing Authentication Token"};
  }
  const size_t space = authorization.find(' ');
  const std::string_view algorithm = authorization.substr(0, space);
  if (algorithm != kAlgorithm) {
    return Incomplete("Unsupported AWS 'algorithm': '" + Quoted(algorithm) + "'");
  }
  const AuthorizationParts parts = ParseParameters(
      space == std::string_view::npos ? std::string_view() : authorization.substr(space + 1));
  const std::string_view amz_date = HeaderOf(request, "X-Amz-Date");
  std::string missing;
  const auto require = [&](bool present, std::string_view what) {
    if (present) return;
    if (!missing.empty()) missing += ' ';
    missing += what;
  };
  require(parts.credential.has_value(), "Authorization header requires 'Credential' parameter.");
  require(parts.signed_headers.has_value(),
          "Authorization header requires 'SignedHeaders' parameter.");
  require(parts.signature.has_value(), "Authorization header requires 'Signature' parameter.");
  require(!amz_date.empty(),
          "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header.");
  if (!missing.empty()) return Incomplete(missing);

  const std::optional<int64_t> signed_at = ParseAmzDate(amz_date);
  if (!signed_at) {
    return Incomplete("Date must be in ISO-8601 'basic format'. Got '" + Quoted(amz_date) +
                      "'. See http://en.wikipedia.org/wiki/ISO_8601");
  }
  if (*signed_at <= now_seconds - kMaxSkewSeconds) {
    return AuthFailure{"InvalidSignatureException",
                       "Signature expired: " + std::string(amz_date) + " is now earlier than " +
                           FormatAmzDate(now_seconds - kMaxSkewSeconds) + " (" +
                           FormatAmzDate(now_seconds) + " - 15 min.)"};
  }
  if (*signed_at >= now_seconds + kMaxSkewSeconds) {
    return AuthFailure{"InvalidSignatureException",
                       "Signature not yet current: " + std::string(amz_date) +
                           " is still later than " + FormatAmzDate(now_seconds + kMaxSkewSeconds) +
                           " (" + FormatAmzDate(now_seconds) + " + 15 min.)"};
  }

  // Credential = <key id>/<date>/<region>/<service>/aws4_request
  const std::vector<std::string_view> scope = Split(*parts.credential, '/');
  if (scope.size() != 5 || scope[4] != "aws4_request") {
    return Incomplete("Credential should be scoped with a valid terminator: 'aws4_request', not '" +
                      Quoted(scope.back()) + "'.");
  }
  // A scope for another region or service, before the key is looked up (as dynalite found
  // DynamoDB's order). DynamoDB's texts, each with a trailing blank, both when both are wrong, as
  // measured against the service in ExtendDB/extenddb tests/test_auth_error_fidelity.py
  // (test_scope_for_another_region_is_rejected, test_scope_wrong_in_region_and_service_reports_
  // both); the service's own name is in the message whatever the client signed for.
  std::string wrong_scope;
  if (scope[2] != region) wrong_scope += "Credential should be scoped to a valid region. ";
  if (scope[3] != kService) {
    wrong_scope += "Credential should be scoped to correct service: '";
    wrong_scope += kService;
    wrong_scope += "'. ";
  }
  if (!wrong_scope.empty()) return AuthFailure{"InvalidSignatureException", wrong_scope};
  const std::string* secret = keys.Find(scope[0]);
  if (secret == nullptr) {
    return AuthFailure{"UnrecognizedClientException",
                       "The security token included in the request is invalid."};
  }

  // The signature over the headers the client signed, with their values as received.
  std::vector<std::string> values;
  std::vector<SigV4Header> headers;
  const std::vector<std::string_view> names = Split(*parts.signed_headers, ';');
  values.reserve(names.size());
  for (std::string_view name : names) {
    std::string value;
    const auto [first, last] =
        request.equal_range(boost::beast::string_view(name.data(), name.size()));
    for (auto field = first; field != last; ++field) {
      if (!value.empty()) value += ',';
      value.append(field->value().data(), field->value().size());
    }
    values.push_back(std::move(value));
  }
  for (size_t i = 0; i < names.size(); ++i) headers.push_back({names[i], values[i]});
  const std::string_view target(request.target().data(), request.target().size());
  const size_t question = target.find('?');
  SigV4Request canonical;
  canonical.method =
      std::string_view(request.method_string().data(), request.method_string().size());
  canonical.path = target.substr(0, question);
  canonical.query =
      question == std::string_view::npos ? std::string_view() : target.substr(question + 1);
  canonical.headers = headers;
  canonical.body = request.body();
  const std::string expected = SigV4Authorization(canonical, {std::string(scope[0]), *secret, ""},
                                                  scope[2], scope[3], amz_date);
  const std::string_view expected_signature =
      std::string_view(expected).substr(expected.rfind("Signature=") + 10);
  const std::string_view given = *parts.signature;
  if (given.size() != expected_signature.size() ||
      CRYPTO_memcmp(given.data(), expected_signature.data(), given.size()) != 0) {
    return AuthFailure{"InvalidSignatureException",
                       "The request signature we calculated does not match the signature you "
                       "provided. Check your AWS Secret Access Key and signing method. Consult "
                       "the service documentation for details."};
  }
  return std::nullopt;
}

}  // namespace partstore::server
