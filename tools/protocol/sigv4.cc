#include "tools/protocol/sigv4.h"

#include <openssl/evp.h>

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

namespace partstore::protocol {
namespace {

// SHA-256, fetched once: OpenSSL 3 otherwise looks the implementation up on every digest.
const EVP_MD* Sha256Md() {
#if OPENSSL_VERSION_NUMBER >= 0x30000000L
  static const EVP_MD* md = [] {
    const EVP_MD* fetched = EVP_MD_fetch(nullptr, "SHA256", nullptr);
    return fetched != nullptr ? fetched : EVP_sha256();
  }();
  return md;
#else
  return EVP_sha256();
#endif
}

bool IsBlank(char c) { return c == ' ' || c == '\t'; }

// A header value as SigV4 signs it: trimmed, inner runs of blanks collapsed to one space.
void AppendCanonicalValue(std::string_view value, std::string* out) {
  size_t begin = 0;
  size_t end = value.size();
  while (begin < end && IsBlank(value[begin])) ++begin;
  while (end > begin && IsBlank(value[end - 1])) --end;
  bool blank = false;
  for (size_t i = begin; i < end; ++i) {
    if (IsBlank(value[i])) {
      blank = true;
      continue;
    }
    if (blank) out->push_back(' ');
    blank = false;
    out->push_back(value[i]);
  }
}

char Lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

}  // namespace

void AppendHex(std::span<const uint8_t> bytes, std::string* out) {
  static constexpr char kDigits[] = "0123456789abcdef";
  const size_t at = out->size();
  out->resize(at + 2 * bytes.size());
  char* p = out->data() + at;
  for (uint8_t b : bytes) {
    *p++ = kDigits[b >> 4];
    *p++ = kDigits[b & 15];
  }
}

struct SigV4Signer::Digest {
  Digest() : ctx(EVP_MD_CTX_new()) {}
  ~Digest() { EVP_MD_CTX_free(ctx); }
  void Init() { EVP_DigestInit_ex(ctx, Sha256Md(), nullptr); }
  void Update(const void* data, size_t size) { EVP_DigestUpdate(ctx, data, size); }
  Hash Final() {
    Hash out{};
    unsigned int size = 0;
    EVP_DigestFinal_ex(ctx, out.data(), &size);
    return out;
  }
  EVP_MD_CTX* ctx;
};

SigV4Signer::SigV4Signer(SigV4Credentials credentials, std::string region, std::string service)
    : credentials_(std::move(credentials)),
      region_(std::move(region)),
      service_(std::move(service)),
      digest_(std::make_unique<Digest>()) {}

SigV4Signer::~SigV4Signer() = default;

SigV4Signer::Hash SigV4Signer::Sha256(std::string_view data) {
  digest_->Init();
  digest_->Update(data.data(), data.size());
  return digest_->Final();
}

// HMAC-SHA256 (RFC 2104) on the digest context: H((K ^ opad) || H((K ^ ipad) || data)).
SigV4Signer::Hash SigV4Signer::Hmac(std::span<const uint8_t> key, std::string_view data) {
  uint8_t block[64] = {};
  if (key.size() > sizeof block) {
    const Hash hashed =
        Sha256(std::string_view(reinterpret_cast<const char*>(key.data()), key.size()));
    std::memcpy(block, hashed.data(), hashed.size());
  } else {
    std::memcpy(block, key.data(), key.size());
  }
  uint8_t pad[64];
  for (size_t i = 0; i < sizeof pad; ++i) pad[i] = block[i] ^ 0x36;
  digest_->Init();
  digest_->Update(pad, sizeof pad);
  digest_->Update(data.data(), data.size());
  const Hash inner = digest_->Final();
  for (size_t i = 0; i < sizeof pad; ++i) pad[i] = block[i] ^ 0x5c;
  digest_->Init();
  digest_->Update(pad, sizeof pad);
  digest_->Update(inner.data(), inner.size());
  return digest_->Final();
}

const SigV4Signer::Hash& SigV4Signer::SigningKey(std::string_view date) {
  if (date == key_date_) return key_;
  scratch_.assign("AWS4");
  scratch_ += credentials_.secret_access_key;
  Hash k = Hmac({reinterpret_cast<const uint8_t*>(scratch_.data()), scratch_.size()}, date);
  k = Hmac(k, region_);
  k = Hmac(k, service_);
  key_ = Hmac(k, "aws4_request");
  key_date_.assign(date);
  return key_;
}

// Writes the canonical request into canonical_ and the signed header list into *signed_headers.
void SigV4Signer::Canonical(const SigV4Request& request, std::string* signed_headers) {
  // Lower-cased names with their index, sorted by name.
  std::vector<Entry>& entries = entries_;
  entries.resize(request.headers.size());
  for (size_t i = 0; i < request.headers.size(); ++i) {
    std::string_view name = request.headers[i].name;
    entries[i].name.resize(name.size());
    std::transform(name.begin(), name.end(), entries[i].name.begin(), Lower);
    entries[i].index = i;
  }
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.name < b.name; });
  // Entries keep their strings' capacity from one request to the next: no allocation.

  canonical_.clear();
  canonical_ += request.method;
  canonical_ += '\n';
  canonical_ += request.path;
  canonical_ += '\n';
  canonical_ += request.query;
  canonical_ += '\n';
  signed_headers->clear();
  for (const Entry& e : entries) {
    canonical_ += e.name;
    canonical_ += ':';
    AppendCanonicalValue(request.headers[e.index].value, &canonical_);
    canonical_ += '\n';
    if (!signed_headers->empty()) *signed_headers += ';';
    *signed_headers += e.name;
  }
  canonical_ += '\n';
  canonical_ += *signed_headers;
  canonical_ += '\n';
  AppendHex(Sha256(request.body), &canonical_);
}

void SigV4Signer::Authorization(const SigV4Request& request, std::string_view amz_date,
                                std::string* out) {
  std::string& signed_headers = signed_headers_;
  Canonical(request, &signed_headers);
  const std::string_view date = amz_date.substr(0, std::min<size_t>(8, amz_date.size()));
  const Hash& key = SigningKey(date);  // first: it uses scratch_

  // The scope, then the string to sign in scratch_.
  std::string& scope = scope_;
  scope.assign(date);
  scope += '/';
  scope += region_;
  scope += '/';
  scope += service_;
  scope += "/aws4_request";
  const Hash canonical_hash = Sha256(canonical_);
  scratch_.assign("AWS4-HMAC-SHA256\n");
  scratch_ += amz_date;
  scratch_ += '\n';
  scratch_ += scope;
  scratch_ += '\n';
  AppendHex(canonical_hash, &scratch_);
  const Hash signature = Hmac(key, scratch_);

  out->assign("AWS4-HMAC-SHA256 Credential=");
  *out += credentials_.access_key_id;
  *out += '/';
  *out += scope;
  *out += ", SignedHeaders=";
  *out += signed_headers;
  *out += ", Signature=";
  AppendHex(signature, out);
}

std::string SigV4Authorization(const SigV4Request& request, const SigV4Credentials& credentials,
                               std::string_view region, std::string_view service,
                               std::string_view amz_date) {
  SigV4Signer signer(credentials, std::string(region), std::string(service));
  std::string out;
  signer.Authorization(request, amz_date, &out);
  return out;
}

std::string SigV4CanonicalRequest(const SigV4Request& request) {
  SigV4Signer signer({}, "", "");
  std::string unused;
  signer.Authorization(request, "19700101T000000Z", &unused);
  return signer.last_canonical_request();
}

std::string SigV4SigningKeyHex(std::string_view secret, std::string_view date,
                               std::string_view region, std::string_view service) {
  SigV4Signer signer({"", std::string(secret), ""}, std::string(region), std::string(service));
  std::string out;
  AppendHex(signer.SigningKey(date), &out);
  return out;
}

}  // namespace partstore::protocol
