// Content codings: see content_coding.h.
#include "tools/protocol/content_coding.h"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>
#include <vector>

namespace partstore::protocol {

namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

// The comma-separated entries of a header value, trimmed, empty ones dropped.
std::vector<std::string_view> Entries(std::string_view value) {
  std::vector<std::string_view> entries;
  while (true) {
    const size_t comma = value.find(',');
    if (std::string_view entry = Trim(value.substr(0, comma)); !entry.empty()) {
      entries.push_back(entry);
    }
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
  return entries;
}

std::optional<ContentCoding> CodingNamed(std::string_view name) {
  if (EqualsIgnoreCase(name, "gzip")) return ContentCoding::kGzip;
  if (EqualsIgnoreCase(name, "deflate")) return ContentCoding::kDeflate;
  if (EqualsIgnoreCase(name, "identity")) return ContentCoding::kIdentity;
  return std::nullopt;
}

constexpr int kGzipWindowBits = 16 + MAX_WBITS;  // zlib's flag for the gzip wrapper
constexpr size_t kChunk = 64 * 1024;

// Inflates `input` (gzip members back to back, or one zlib stream) into `output`, at most
// `max_bytes`. Bytes after the last complete member that do not start a new one are ignored.
DecodeOutcome Inflate(std::string_view input, ContentCoding coding, size_t max_bytes,
                      std::string& output) {
  if (input.empty()) return DecodeOutcome::kCorrupt;
  z_stream stream{};
  const int window_bits = coding == ContentCoding::kGzip ? kGzipWindowBits : MAX_WBITS;
  if (inflateInit2(&stream, window_bits) != Z_OK) return DecodeOutcome::kCorrupt;
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data()));
  stream.avail_in = static_cast<uInt>(input.size());
  output.clear();
  DecodeOutcome outcome = DecodeOutcome::kOk;
  while (true) {
    const size_t used = output.size();
    if (used >= max_bytes + 1) {
      outcome = DecodeOutcome::kTooLarge;
      break;
    }
    // Never more than one byte past the limit: a bomb costs max_bytes of memory, no more.
    const size_t room = std::min(kChunk, max_bytes + 1 - used);
    output.resize(used + room);
    stream.next_out = reinterpret_cast<Bytef*>(output.data() + used);
    stream.avail_out = static_cast<uInt>(room);
    const int rc = inflate(&stream, Z_NO_FLUSH);
    output.resize(used + room - stream.avail_out);
    if (rc == Z_STREAM_END) {
      // Another gzip member (magic 1f 8b) continues the body; anything else ends it.
      const bool another = coding == ContentCoding::kGzip && stream.avail_in >= 2 &&
                           stream.next_in[0] == 0x1f && stream.next_in[1] == 0x8b;
      if (!another) break;
      if (inflateReset(&stream) != Z_OK) {
        outcome = DecodeOutcome::kCorrupt;
        break;
      }
      continue;
    }
    if (rc == Z_OK) continue;
    if (rc == Z_BUF_ERROR && stream.avail_out != 0) {
      outcome = DecodeOutcome::kCorrupt;  // input ended inside the stream
      break;
    }
    if (rc != Z_BUF_ERROR) {
      outcome = DecodeOutcome::kCorrupt;  // Z_DATA_ERROR, Z_NEED_DICT, Z_MEM_ERROR
      break;
    }
  }
  inflateEnd(&stream);
  if (outcome == DecodeOutcome::kOk && output.size() > max_bytes)
    outcome = DecodeOutcome::kTooLarge;
  return outcome;
}

}  // namespace

std::string_view ContentCodingName(ContentCoding coding) {
  switch (coding) {
    case ContentCoding::kGzip:
      return "gzip";
    case ContentCoding::kDeflate:
      return "deflate";
    case ContentCoding::kIdentity:
      return "identity";
  }
  return "identity";
}

DecodeOutcome DecodeRequestBody(std::string_view content_encoding, std::string& body,
                                size_t max_bytes) {
  const std::vector<std::string_view> codings = Entries(content_encoding);
  std::vector<ContentCoding> steps;
  for (std::string_view name : codings) {
    const std::optional<ContentCoding> coding = CodingNamed(name);
    if (!coding) return DecodeOutcome::kUnsupported;
    if (*coding != ContentCoding::kIdentity) steps.push_back(*coding);
  }
  // Applied in the order listed, so undone last first.
  for (auto step = steps.rbegin(); step != steps.rend(); ++step) {
    std::string decoded;
    const DecodeOutcome outcome = Inflate(body, *step, max_bytes, decoded);
    if (outcome != DecodeOutcome::kOk) return outcome;
    body = std::move(decoded);
  }
  return DecodeOutcome::kOk;
}

ContentCoding ChooseResponseCoding(std::string_view accept_encoding) {
  struct Weight {
    double q = 0;
    int first = -1;  // index of its first listing; -1: not listed
  };
  Weight gzip, deflate;
  std::optional<double> any;  // "*"
  const std::vector<std::string_view> entries = Entries(accept_encoding);
  for (int i = 0; i < static_cast<int>(entries.size()); ++i) {
    std::string_view entry = entries[i];
    const size_t semicolon = entry.find(';');
    const std::string_view name = Trim(entry.substr(0, semicolon));
    double q = 1;
    // The first parameter named q sets the weight.
    for (std::string_view rest = semicolon == std::string_view::npos ? std::string_view()
                                                                     : entry.substr(semicolon + 1);
         !rest.empty();) {
      const size_t next = rest.find(';');
      const std::string_view parameter = rest.substr(0, next);
      rest = next == std::string_view::npos ? std::string_view() : rest.substr(next + 1);
      const size_t equals = parameter.find('=');
      if (equals == std::string_view::npos ||
          !EqualsIgnoreCase(Trim(parameter.substr(0, equals)), "q")) {
        continue;
      }
      const std::string_view text = Trim(parameter.substr(equals + 1));
      double parsed = 0;
      const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), parsed);
      if (error == std::errc() && end == text.data() + text.size()) q = std::min(parsed, 1.0);
      break;
    }
    if (name == "*") {
      any = std::max(any.value_or(0.0), q);
      continue;
    }
    const std::optional<ContentCoding> coding = CodingNamed(name);
    if (!coding || *coding == ContentCoding::kIdentity) continue;
    Weight& weight = *coding == ContentCoding::kGzip ? gzip : deflate;
    weight.q = weight.first < 0 ? q : std::max(weight.q, q);
    if (weight.first < 0) weight.first = i;
  }
  // A coding not listed takes "*"'s weight, ranked after every listed one at the same weight.
  const int unlisted = static_cast<int>(entries.size());
  if (gzip.first < 0 && any) gzip = {*any, unlisted};
  if (deflate.first < 0 && any) deflate = {*any, unlisted + 1};
  const bool gzip_ok = gzip.first >= 0 && gzip.q > 0;
  const bool deflate_ok = deflate.first >= 0 && deflate.q > 0;
  if (gzip_ok && deflate_ok) {
    if (gzip.q != deflate.q)
      return gzip.q > deflate.q ? ContentCoding::kGzip : ContentCoding::kDeflate;
    return gzip.first < deflate.first ? ContentCoding::kGzip : ContentCoding::kDeflate;
  }
  if (gzip_ok) return ContentCoding::kGzip;
  if (deflate_ok) return ContentCoding::kDeflate;
  return ContentCoding::kIdentity;
}

std::optional<std::string> EncodeBody(std::string_view body, ContentCoding coding) {
  if (coding == ContentCoding::kIdentity) return std::nullopt;
  z_stream stream{};
  const int window_bits = coding == ContentCoding::kGzip ? kGzipWindowBits : MAX_WBITS;
  // Level 1: a 4-400 KB JSON body costs microseconds, not a millisecond, and JSON's repetition
  // still shrinks several times.
  if (deflateInit2(&stream, Z_BEST_SPEED, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    return std::nullopt;
  }
  std::string out(deflateBound(&stream, static_cast<uLong>(body.size())), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(body.data()));
  stream.avail_in = static_cast<uInt>(body.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&stream, Z_FINISH);  // deflateBound makes one call enough
  out.resize(stream.total_out);
  deflateEnd(&stream);
  if (rc != Z_STREAM_END) return std::nullopt;
  return out;
}

}  // namespace partstore::protocol
