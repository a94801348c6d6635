// Template: a key or attribute spelling with placeholders, e.g. "PRODUCT#{key}" or
// "ORDER#{time}#{seq:06}".
//
//   {key}    the key the request drew (its distribution's index)
//   {item}   the item index the request drew (0 .. items-1), or the preloaded item's index
//   {seq}    a counter per operation of the workload, 0, 1, 2, ... (preload: the item's ordinal)
//   {time}   the simulated time in milliseconds, zero-padded to 12 digits (sorts as it should)
//
// A placeholder may carry a width, "{key:06}": zero-padded to 6 digits. "{{" and "}}" are
// literal braces. Anything else in braces is an error.
//
// Thread safety: value types; Expand writes only to its output.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "partstore/status.h"

namespace partstore::sim {

struct TemplateValues {
  int64_t key = 0;
  int64_t item = 0;
  int64_t seq = 0;
  int64_t time_millis = 0;
};

class Template {
 public:
  enum class Field : uint8_t { kLiteral, kKey, kItem, kSeq, kTime };
  struct Part {
    Field field = Field::kLiteral;
    std::string literal;  // kLiteral
    int32_t width = 0;    // zero-padded to at least this many digits
  };

  Template() = default;
  // A ValidationException naming the problem ("unknown placeholder {foo} in ...").
  static Result<Template> Parse(std::string_view text);

  // Appends the spelling for `values` to `out`.
  void Expand(const TemplateValues& values, std::string& out) const;
  std::string Expand(const TemplateValues& values) const {
    std::string out;
    Expand(values, out);
    return out;
  }

  const std::string& text() const { return text_; }
  bool uses(Field field) const;
  bool empty() const { return text_.empty(); }

 private:
  std::string text_;
  std::vector<Part> parts_;
};

}  // namespace partstore::sim
