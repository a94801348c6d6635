// ByteWriter / ByteReader: the little binary vocabulary of partstore's files (snapshots): LEB128
// varints, fixed little-endian integers, length-prefixed strings. The reader never reads past its
// input: every Read* returns false once the input is short or malformed, and stays failed.
//
// Thread safety: none needed (a writer or reader belongs to one thread).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace partstore::persist {

class ByteWriter {
 public:
  explicit ByteWriter(std::string* out) : out_(out) {}

  void Varint(uint64_t v) {
    while (v >= 0x80) {
      out_->push_back(static_cast<char>(v | 0x80));
      v >>= 7;
    }
    out_->push_back(static_cast<char>(v));
  }
  void Fixed32(uint32_t v) { Fixed(v, 4); }
  void Fixed64(uint64_t v) { Fixed(v, 8); }
  void Byte(uint8_t v) { out_->push_back(static_cast<char>(v)); }
  void Bool(bool v) { Byte(v ? 1 : 0); }
  void String(std::string_view s) {
    Varint(s.size());
    out_->append(s);
  }
  void Double(double v) {
    uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    Fixed64(bits);
  }

 private:
  void Fixed(uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out_->push_back(static_cast<char>(v >> (8 * i)));
  }
  std::string* out_;
};

class ByteReader {
 public:
  explicit ByteReader(std::string_view in) : in_(in) {}

  bool ok() const { return ok_; }
  bool done() const { return ok_ && pos_ == in_.size(); }
  size_t position() const { return pos_; }

  bool Varint(uint64_t* v) {
    uint64_t result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (!ok_ || pos_ >= in_.size()) return Fail();
      const auto byte = static_cast<uint8_t>(in_[pos_++]);
      if (shift == 63 && byte > 1) return Fail();  // more than 64 bits
      result |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) {
        *v = result;
        return true;
      }
    }
    return Fail();
  }
  // A varint that must be at most `max` (counts and lengths: a bound before anything is sized).
  bool Count(uint64_t max, uint64_t* v) { return Varint(v) && (*v <= max || Fail()); }
  bool Fixed32(uint32_t* v) {
    uint64_t wide = 0;
    if (!Fixed(4, &wide)) return false;
    *v = static_cast<uint32_t>(wide);
    return true;
  }
  bool Fixed64(uint64_t* v) { return Fixed(8, v); }
  bool Byte(uint8_t* v) {
    if (!ok_ || pos_ >= in_.size()) return Fail();
    *v = static_cast<uint8_t>(in_[pos_++]);
    return true;
  }
  // A byte that must be at most `max` (an enum's last value).
  bool Enum(uint8_t max, uint8_t* v) { return Byte(v) && (*v <= max || Fail()); }
  bool Bool(bool* v) {
    uint8_t byte = 0;
    if (!Enum(1, &byte)) return false;
    *v = byte == 1;
    return true;
  }
  // A length-prefixed string: a view into the input.
  bool Bytes(std::string_view* s) {
    uint64_t size = 0;
    if (!Varint(&size)) return false;
    if (size > in_.size() - pos_) return Fail();
    *s = in_.substr(pos_, size);
    pos_ += size;
    return true;
  }
  bool String(std::string* s) {
    std::string_view view;
    if (!Bytes(&view)) return false;
    s->assign(view);
    return true;
  }
  bool Double(double* v) {
    uint64_t bits = 0;
    if (!Fixed64(&bits)) return false;
    std::memcpy(v, &bits, sizeof bits);
    return true;
  }

 private:
  bool Fixed(int bytes, uint64_t* v) {
    if (!ok_ || in_.size() - pos_ < static_cast<size_t>(bytes)) return Fail();
    uint64_t result = 0;
    for (int i = 0; i < bytes; ++i) {
      result |= static_cast<uint64_t>(static_cast<uint8_t>(in_[pos_ + i])) << (8 * i);
    }
    pos_ += bytes;
    *v = result;
    return true;
  }
  bool Fail() {
    ok_ = false;
    return false;
  }

  std::string_view in_;
  size_t pos_ = 0;
  bool ok_ = true;
};

}  // namespace partstore::persist
