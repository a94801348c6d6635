// Strict base64 (RFC 4648 section 4, standard alphabet, '=' padding) for the B and BS types.
//
// DynamoDB's JSON protocol carries binary values as base64 text and rejects anything that is not
// the canonical encoding of some byte string: a length that is not a multiple of 4, a character
// outside the alphabet, padding anywhere but the end, or non-zero unused bits in the last
// character ("Invalid last non-pad Base64 character dectected"). Decode() enforces exactly that
// and reports what went wrong and where, so the caller can build DynamoDB's message; canonical
// text and bytes are then in one-to-one correspondence, and Encode(Decode(t)) == t.
//
// No whitespace, no URL-safe alphabet, no missing padding.
//
// Thread safety: pure functions; thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace partstore::protocol::base64 {

// Bytes of base64 text for `size` bytes of input.
constexpr size_t EncodedSize(size_t size) { return (size + 2) / 3 * 4; }

// Appends the base64 encoding of `bytes` to *out.
void Encode(std::string_view bytes, std::string* out);
// Writes the encoding to dst[0 .. EncodedSize(bytes.size())).
void EncodeTo(std::string_view bytes, char* dst);

struct DecodeError {
  enum class Kind {
    kNone,
    // text.size() % 4 != 0.
    kLength,
    // The last character before the padding carries bits that a canonical encoding leaves zero
    // (e.g. "+/+=": '+' is 0b111110 but only its top 4 bits are data).
    kNonZeroTrailingBits,
    // text[position] is not in the alphabet, or is a '=' that is not part of the final padding.
    kBadCharacter,
  };
  Kind kind = Kind::kNone;
  // Byte offset in the text of the offending character (0 for kLength).
  size_t position = 0;
};

// Decodes `text`, appending the bytes to *out. On error returns false, fills *error and leaves
// *out with unspecified partial content. The checks run in the order DynamoDB reports them:
// length, then the last non-pad character, then the characters from left to right.
bool Decode(std::string_view text, std::string* out, DecodeError* error);

// Decode() without the output: whether `text` is canonical base64, and if not, why.
DecodeError Validate(std::string_view text);

}  // namespace partstore::protocol::base64
