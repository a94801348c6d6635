#include "tools/simulator/template.h"

#include <charconv>

namespace partstore::sim {
namespace {

void AppendNumber(int64_t value, int32_t width, std::string& out) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  const int32_t digits = static_cast<int32_t>(end - buf);
  if (width > digits) out.append(static_cast<size_t>(width - digits), '0');
  out.append(buf, end);
}

}  // namespace

Result<Template> Template::Parse(std::string_view text) {
  Template t;
  t.text_ = std::string(text);
  std::string literal;
  auto flush = [&] {
    if (!literal.empty()) t.parts_.push_back({Field::kLiteral, std::move(literal), 0});
    literal.clear();
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '}') {
      if (i + 1 < text.size() && text[i + 1] == '}') {
        literal += '}';
        ++i;
        continue;
      }
      return Status::Validation("unmatched '}' in template \"" + std::string(text) +
                                "\" (write }} for a brace)");
    }
    if (c != '{') {
      literal += c;
      continue;
    }
    if (i + 1 < text.size() && text[i + 1] == '{') {
      literal += '{';
      ++i;
      continue;
    }
    const size_t close = text.find('}', i);
    if (close == std::string_view::npos) {
      return Status::Validation("unclosed '{' in template \"" + std::string(text) + "\"");
    }
    std::string_view inside = text.substr(i + 1, close - i - 1);
    std::string_view name = inside;
    int32_t width = 0;
    if (const size_t colon = inside.find(':'); colon != std::string_view::npos) {
      name = inside.substr(0, colon);
      std::string_view spec = inside.substr(colon + 1);
      int parsed = 0;
      auto [end, ec] = std::from_chars(spec.data(), spec.data() + spec.size(), parsed);
      if (spec.empty() || spec[0] != '0' || ec != std::errc() || end != spec.data() + spec.size() ||
          parsed < 1 || parsed > 20) {
        return Status::Validation("bad width in placeholder {" + std::string(inside) +
                                  "} of template \"" + std::string(text) +
                                  "\": write {name:0N}, N from 1 to 20");
      }
      width = parsed;
    }
    Field field;
    if (name == "key") {
      field = Field::kKey;
    } else if (name == "item") {
      field = Field::kItem;
    } else if (name == "seq") {
      field = Field::kSeq;
    } else if (name == "time") {
      field = Field::kTime;
      if (width == 0) width = 12;
    } else {
      return Status::Validation("unknown placeholder {" + std::string(inside) + "} in template \"" +
                                std::string(text) + "\" (known: {key}, {item}, {seq}, {time})");
    }
    flush();
    t.parts_.push_back({field, {}, width});
    i = close;
  }
  flush();
  return t;
}

void Template::Expand(const TemplateValues& values, std::string& out) const {
  for (const Part& part : parts_) {
    switch (part.field) {
      case Field::kLiteral:
        out += part.literal;
        break;
      case Field::kKey:
        AppendNumber(values.key, part.width, out);
        break;
      case Field::kItem:
        AppendNumber(values.item, part.width, out);
        break;
      case Field::kSeq:
        AppendNumber(values.seq, part.width, out);
        break;
      case Field::kTime:
        AppendNumber(values.time_millis, part.width, out);
        break;
    }
  }
}

bool Template::uses(Field field) const {
  for (const Part& part : parts_) {
    if (part.field == field) return true;
  }
  return false;
}

}  // namespace partstore::sim
