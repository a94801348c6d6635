// The workload file parser's machinery (workload_toml_parser.h): errors placed in the file, the
// value converters with their ranges and error texts, and the lookups of a key in a table.
#include "tools/simulator/workload_toml_parser.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "partstore/batch_requests.h"
#include "partstore/item.h"
#include "partstore/transaction_requests.h"
#include "shard/constraints.h"

namespace partstore::sim::workload_toml {
namespace {

// DynamoDB's item size limit (partstore/item.h), as the integers a workload spells sizes with.
constexpr int64_t kMaxItemBytes = static_cast<int64_t>(kMaxItemSize);

// "phases[0].mix" -> "phases.mix": how a [[header]] spells an array of tables.
std::string Header(std::string_view path) {
  std::string out;
  bool in_index = false;
  for (char c : path) {
    if (c == '[') in_index = true;
    if (!in_index) out += c;
    if (c == ']') in_index = false;
  }
  return out;
}

std::string List(std::initializer_list<std::string_view> names) {
  std::string out;
  for (std::string_view name : names) {
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out;
}

std::string_view Describe(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::table:
      return "a table";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a float";
    case toml::node_type::boolean:
      return "a boolean";
    case toml::node_type::date:
      return "a date";
    case toml::node_type::time:
      return "a time";
    case toml::node_type::date_time:
      return "a date-time";
    case toml::node_type::none:
      break;
  }
  return "nothing";
}

// Characters, counting UTF-8 code points (toml++ has checked the encoding).
size_t CodePoints(std::string_view text) {
  return static_cast<size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

std::string FormatNumber(double value) { return fmt::format("{}", value); }

}  // namespace

std::string Join(std::string_view path, std::string_view key) {
  if (path.empty()) return std::string(key);
  return fmt::format("{}.{}", path, key);
}

bool IsWrite(OpKind kind) {
  return kind == OpKind::kPut || kind == OpKind::kUpdate || kind == OpKind::kBatchWrite ||
         kind == OpKind::kTransactWrite;
}

// DynamoDB's request limits, as the engine enforces them (partstore/batch_requests.h,
// partstore/transaction_requests.h).
int32_t MaxBatch(OpKind kind) {
  switch (kind) {
    case OpKind::kBatchGet:
      return static_cast<int32_t>(kMaxBatchGetKeys);
    case OpKind::kBatchWrite:
      return static_cast<int32_t>(kMaxBatchWriteRequests);
    case OpKind::kTransactWrite:
    case OpKind::kTransactGet:
      return static_cast<int32_t>(kMaxTransactionActions);
    default:
      return 1;
  }
}

std::string TableNames(const std::vector<TableSpec>& tables) {
  std::string out;
  for (const TableSpec& table : tables) {
    if (!out.empty()) out += ", ";
    out += table.name;
  }
  return out;
}

// --- Errors ------------------------------------------------------------------------------------

Status Parser::Error(const toml::source_region& where, std::string_view path,
                     std::string_view message) const {
  std::string out = source_;
  if (where.begin.line > 0) out += fmt::format(":{}:{}", where.begin.line, where.begin.column);
  out += ": ";
  if (!path.empty()) {
    out += path;
    out += ": ";
  }
  out += message;
  return Status::Validation(std::move(out));
}

Status Parser::Error(const toml::node& node, std::string_view path,
                     std::string_view message) const {
  return Error(node.source(), path, message);
}

Status Parser::Error(const Obj& obj, std::string_view message) const {
  return Error(obj.table->source(), obj.path, message);
}

Status Parser::ErrorAt(const Obj& obj, std::string_view key, std::string_view message) const {
  if (const toml::node* node = obj.table->get(key)) {
    return Error(*node, Join(obj.path, key), message);
  }
  return Error(obj, message);
}

Status Parser::Missing(const Obj& obj, std::string_view key) const {
  return Error(obj, fmt::format("missing required key \"{}\"", key));
}

Status Parser::WrongType(const toml::node& node, std::string_view path,
                         std::string_view expected) const {
  return Error(node, path, fmt::format("expected {}, got {}", expected, Describe(node)));
}

Status Parser::CheckKeys(const Obj& obj, std::initializer_list<std::string_view> known) const {
  for (auto it = obj.table->begin(); it != obj.table->end(); ++it) {
    const toml::key& key = it->first;
    if (std::find(known.begin(), known.end(), key.str()) != known.end()) continue;
    return Error(key.source(), obj.path,
                 fmt::format("unknown key \"{}\"{} (expected one of: {})", key.str(),
                             obj.path.empty() ? " at the top level" : "", List(known)));
  }
  return Status::Ok();
}

// --- Values ------------------------------------------------------------------------------------

Result<std::string> Parser::AsString(const toml::node& node, const std::string& path,
                                     size_t min_chars, size_t max_chars) const {
  const auto* value = node.as_string();
  if (value == nullptr) return WrongType(node, path, "a string");
  const std::string& text = value->get();
  const size_t chars = CodePoints(text);
  if (chars < min_chars || chars > max_chars) {
    if (min_chars == 1 && chars == 0) return Error(node, path, "must not be empty");
    return Error(
        node, path,
        fmt::format("must be {} to {} characters long, got {}", min_chars, max_chars, chars));
  }
  return text;
}

Result<std::string> Parser::AsAttributeName(const toml::node& node, const std::string& path) const {
  const auto* value = node.as_string();
  if (value == nullptr) return WrongType(node, path, "a string (an attribute name)");
  const std::string& name = value->get();
  if (name.empty()) return Error(node, path, "an attribute name must not be empty");
  if (name.size() > kMaxAttributeNameBytes) {
    return Error(node, path, "an attribute name must be at most 255 bytes long");
  }
  if (name == kPaddingAttribute) return Error(node, path, std::string(kPaddingReserved));
  return name;
}

Result<std::string> Parser::AsTableName(const toml::node& node, const std::string& path) const {
  const auto* value = node.as_string();
  if (value == nullptr) return WrongType(node, path, "a string");
  const std::string& name = value->get();
  if (!IsValidName(name)) {
    return Error(node, path,
                 fmt::format("bad name \"{}\": 3 to 255 characters of A-Z, a-z, 0-9, '_', '-' "
                             "and '.'",
                             name));
  }
  return name;
}

Result<int64_t> Parser::AsInt(const toml::node& node, const std::string& path, int64_t min,
                              int64_t max) const {
  const auto* value = node.as_integer();
  if (value == nullptr) return WrongType(node, path, "an integer");
  const int64_t v = value->get();
  if (v < min || v > max) {
    if (max == kInt64Max) {
      return Error(node, path, fmt::format("must be at least {}, got {}", min, v));
    }
    return Error(node, path, fmt::format("must be between {} and {}, got {}", min, max, v));
  }
  return v;
}

Result<double> Parser::AsNumber(const toml::node& node, const std::string& path, double min,
                                double max) const {
  double v = 0;
  if (const auto* i = node.as_integer()) {
    v = static_cast<double>(i->get());
  } else if (const auto* f = node.as_floating_point()) {
    v = f->get();
    if (!std::isfinite(v)) return Error(node, path, "must be a finite number");
  } else {
    return WrongType(node, path, "a number");
  }
  if (v < min || v > max) {
    return Error(node, path,
                 fmt::format("must be between {} and {}, got {}", FormatNumber(min),
                             FormatNumber(max), FormatNumber(v)));
  }
  return v;
}

Result<bool> Parser::AsBool(const toml::node& node, const std::string& path) const {
  const auto* value = node.as_boolean();
  if (value == nullptr) return WrongType(node, path, "a boolean (true or false)");
  return value->get();
}

Result<int> Parser::AsChoice(const toml::node& node, const std::string& path, std::string_view what,
                             std::initializer_list<std::string_view> choices) const {
  const auto* value = node.as_string();
  if (value == nullptr) return WrongType(node, path, fmt::format("a string ({})", what));
  const std::string& text = value->get();
  int index = 0;
  for (std::string_view choice : choices) {
    if (text == choice) return index;
    ++index;
  }
  return Error(node, path,
               fmt::format("unknown {} \"{}\" (expected one of {})", what, text, List(choices)));
}

Result<int64_t> Parser::AsDuration(const toml::node& node, const std::string& path) const {
  double micros = 0;
  if (const auto* i = node.as_integer()) {
    micros = static_cast<double>(i->get()) * kMicrosPerSecond;
  } else if (const auto* f = node.as_floating_point()) {
    if (!std::isfinite(f->get())) return Error(node, path, "a duration must be finite");
    micros = f->get() * kMicrosPerSecond;
  } else if (const auto* s = node.as_string()) {
    const std::string& text = s->get();
    const auto bad = [&] {
      return Error(node, path,
                   fmt::format("bad duration \"{}\": write a number and a unit (ms, s, m or h), "
                               "e.g. \"250ms\", \"1.5s\", \"30m\", \"2h\"",
                               text));
    };
    size_t end = 0;
    while (end < text.size() && ((text[end] >= '0' && text[end] <= '9') || text[end] == '.')) {
      ++end;
    }
    const std::string_view number = std::string_view(text).substr(0, end);
    const std::string_view unit = std::string_view(text).substr(end);
    const size_t dot = number.find('.');
    if (number.empty() || number.front() == '.' || number.back() == '.' ||
        (dot != std::string_view::npos && number.find('.', dot + 1) != std::string_view::npos)) {
      return bad();
    }
    double value = 0;
    const auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
    if (ec != std::errc() || ptr != number.data() + number.size() || !std::isfinite(value)) {
      return bad();
    }
    double scale = 0;
    if (unit == "ms") {
      scale = 1'000;
    } else if (unit == "s") {
      scale = 1'000'000;
    } else if (unit == "m") {
      scale = 60'000'000;
    } else if (unit == "h") {
      scale = 3'600'000'000.0;
    } else {
      return bad();
    }
    micros = value * scale;
  } else {
    return WrongType(node, path, "a duration (seconds, or a string such as \"250ms\")");
  }
  if (micros < 0) return Error(node, path, "a duration must not be negative");
  if (micros > static_cast<double>(kMaxTotalMicros)) {
    return Error(node, path, "a duration must be at most 7 days");
  }
  return static_cast<int64_t>(std::llround(micros));
}

Result<Template> Parser::AsTemplate(const toml::node& node, const std::string& path,
                                    bool allow_empty) const {
  const auto* value = node.as_string();
  if (value == nullptr) return WrongType(node, path, "a string (a template)");
  if (!allow_empty && value->get().empty()) return Error(node, path, "must not be empty");
  Result<Template> parsed = Template::Parse(value->get());
  if (!parsed.ok()) return Error(node, path, parsed.error().message());
  return parsed;
}

Result<SizeDistribution> Parser::AsSize(const toml::node& node, const std::string& path) const {
  SizeDistribution size;
  if (node.is_integer()) {
    PARTSTORE_ASSIGN_OR_RETURN(size.bytes, AsInt(node, path, 1, kMaxItemBytes));
    return size;
  }
  const toml::table* table = node.as_table();
  if (table == nullptr) {
    return WrongType(node, path,
                     "a size: an integer number of bytes, { min = ..., max = ... } or "
                     "{ mean = ..., stddev = ... }");
  }
  const Obj obj{table, path};
  PARTSTORE_RETURN_IF_ERROR(CheckKeys(obj, {"min", "max", "mean", "stddev"}));
  PARTSTORE_ASSIGN_OR_RETURN(auto min, OptInt(obj, "min", 1, kMaxItemBytes));
  PARTSTORE_ASSIGN_OR_RETURN(auto max, OptInt(obj, "max", 1, kMaxItemBytes));
  if (table->contains("mean") || table->contains("stddev")) {
    size.kind = SizeDistribution::Kind::kNormal;
    PARTSTORE_ASSIGN_OR_RETURN(size.mean,
                               ReqNumber(obj, "mean", 1, static_cast<double>(kMaxItemBytes)));
    PARTSTORE_ASSIGN_OR_RETURN(size.stddev,
                               ReqNumber(obj, "stddev", 0, static_cast<double>(kMaxItemBytes)));
    size.min = min.value_or(1);
    size.max = max.value_or(kMaxItemBytes);
  } else {
    if (!min || !max) {
      return Error(obj, "a size table needs min and max (uniform), or mean and stddev (normal)");
    }
    size.kind = SizeDistribution::Kind::kUniform;
    size.min = *min;
    size.max = *max;
  }
  if (size.min > size.max) {
    return ErrorAt(obj, "max", fmt::format("max ({}) is less than min ({})", size.max, size.min));
  }
  return size;
}

Result<KeyDistribution> Parser::AsKeys(const toml::node& node, const std::string& path) const {
  static const std::initializer_list<std::string_view> kKinds = {"uniform", "zipfian", "hotspot",
                                                                 "time-ordered", "hot-key"};
  // The keys each distribution takes besides "distribution".
  static const std::initializer_list<std::string_view> kUniformKeys = {"count"};
  static const std::initializer_list<std::string_view> kZipfianKeys = {"count", "theta"};
  static const std::initializer_list<std::string_view> kHotspotKeys = {"count", "hot_keys",
                                                                       "hot_traffic"};
  static const std::initializer_list<std::string_view> kTimeOrderedKeys = {"bucket"};
  static const std::initializer_list<std::string_view> kHotKeyKeys = {"key"};
  static const std::initializer_list<std::string_view> kAll = {
      "distribution", "count", "theta", "hot_keys", "hot_traffic", "bucket", "key"};
  const toml::table* table = node.as_table();
  if (table == nullptr) {
    return WrongType(node, path,
                     "a key distribution, e.g. { distribution = \"zipfian\", count = 1000 }");
  }
  const Obj obj{table, path};
  PARTSTORE_RETURN_IF_ERROR(CheckKeys(obj, kAll));
  PARTSTORE_ASSIGN_OR_RETURN(const int kind,
                             ReqChoice(obj, "distribution", "distribution", kKinds));
  std::initializer_list<std::string_view> own;
  switch (static_cast<KeyDistribution::Kind>(kind)) {
    case KeyDistribution::Kind::kUniform:
      own = kUniformKeys;
      break;
    case KeyDistribution::Kind::kZipfian:
      own = kZipfianKeys;
      break;
    case KeyDistribution::Kind::kHotspot:
      own = kHotspotKeys;
      break;
    case KeyDistribution::Kind::kTimeOrdered:
      own = kTimeOrderedKeys;
      break;
    case KeyDistribution::Kind::kHotKey:
      own = kHotKeyKeys;
      break;
  }
  for (auto it = table->begin(); it != table->end(); ++it) {
    const std::string_view key = it->first.str();
    if (key == "distribution" || std::find(own.begin(), own.end(), key) != own.end()) continue;
    return Error(it->first.source(), path,
                 fmt::format("\"{}\" does not apply to the {} distribution (it takes: {})", key,
                             kKinds.begin()[kind], List(own)));
  }
  KeyDistribution keys;
  keys.kind = static_cast<KeyDistribution::Kind>(kind);
  PARTSTORE_ASSIGN_OR_RETURN(auto count, OptInt(obj, "count", 1, 1'000'000'000));
  keys.count = count.value_or(1);
  switch (keys.kind) {
    case KeyDistribution::Kind::kUniform:
      break;
    case KeyDistribution::Kind::kZipfian: {
      PARTSTORE_ASSIGN_OR_RETURN(auto theta, OptNumber(obj, "theta", 0, 10));
      if (theta) {
        if (*theta <= 0 || *theta == 1) {
          return ErrorAt(
              obj, "theta",
              fmt::format("must be > 0, not 1, and at most 10, got {}", FormatNumber(*theta)));
        }
        keys.theta = *theta;
      }
      break;
    }
    case KeyDistribution::Kind::kHotspot: {
      PARTSTORE_ASSIGN_OR_RETURN(auto hot_keys, OptNumber(obj, "hot_keys", 0, 1));
      if (hot_keys) {
        if (*hot_keys <= 0) {
          return ErrorAt(obj, "hot_keys", "must be greater than 0 (a fraction of the keys)");
        }
        keys.hot_keys = *hot_keys;
      }
      PARTSTORE_ASSIGN_OR_RETURN(auto hot_traffic, OptNumber(obj, "hot_traffic", 0, 1));
      if (hot_traffic) keys.hot_traffic = *hot_traffic;
      break;
    }
    case KeyDistribution::Kind::kTimeOrdered: {
      PARTSTORE_ASSIGN_OR_RETURN(auto bucket, OptDuration(obj, "bucket"));
      if (bucket) {
        if (*bucket <= 0) return ErrorAt(obj, "bucket", "must be longer than 0");
        keys.bucket_micros = *bucket;
      }
      break;
    }
    case KeyDistribution::Kind::kHotKey: {
      PARTSTORE_ASSIGN_OR_RETURN(auto key, OptInt(obj, "key", 0, kInt64Max));
      keys.hot_key = key.value_or(0);
      break;
    }
  }
  return keys;
}

// --- Lookups: the value under a key of a table, converted -------------------------------------

template <typename T, typename Convert>
Result<std::optional<T>> Parser::Opt(const Obj& obj, std::string_view key,
                                     Convert&& convert) const {
  const toml::node* node = obj.table->get(key);
  if (node == nullptr) return std::optional<T>();
  Result<T> value = convert(*node, Join(obj.path, key));
  if (!value.ok()) return value.error();
  return std::optional<T>(std::move(value).value());
}

template <typename T, typename Convert>
Result<T> Parser::Req(const Obj& obj, std::string_view key, Convert&& convert) const {
  const toml::node* node = obj.table->get(key);
  if (node == nullptr) return Missing(obj, key);
  return convert(*node, Join(obj.path, key));
}

Result<std::optional<std::string>> Parser::OptString(const Obj& obj, std::string_view key,
                                                     size_t min_chars, size_t max_chars) const {
  return Opt<std::string>(obj, key, [&](const toml::node& n, const std::string& p) {
    return AsString(n, p, min_chars, max_chars);
  });
}

Result<std::string> Parser::ReqString(const Obj& obj, std::string_view key, size_t min_chars,
                                      size_t max_chars) const {
  return Req<std::string>(obj, key, [&](const toml::node& n, const std::string& p) {
    return AsString(n, p, min_chars, max_chars);
  });
}

Result<std::optional<std::string>> Parser::OptAttributeName(const Obj& obj,
                                                            std::string_view key) const {
  return Opt<std::string>(
      obj, key, [&](const toml::node& n, const std::string& p) { return AsAttributeName(n, p); });
}

Result<std::string> Parser::ReqAttributeName(const Obj& obj, std::string_view key) const {
  return Req<std::string>(
      obj, key, [&](const toml::node& n, const std::string& p) { return AsAttributeName(n, p); });
}

Result<std::string> Parser::ReqTableName(const Obj& obj, std::string_view key) const {
  return Req<std::string>(
      obj, key, [&](const toml::node& n, const std::string& p) { return AsTableName(n, p); });
}

Result<std::optional<int64_t>> Parser::OptInt(const Obj& obj, std::string_view key, int64_t min,
                                              int64_t max) const {
  return Opt<int64_t>(
      obj, key, [&](const toml::node& n, const std::string& p) { return AsInt(n, p, min, max); });
}

Result<int64_t> Parser::ReqInt(const Obj& obj, std::string_view key, int64_t min,
                               int64_t max) const {
  return Req<int64_t>(
      obj, key, [&](const toml::node& n, const std::string& p) { return AsInt(n, p, min, max); });
}

Result<std::optional<double>> Parser::OptNumber(const Obj& obj, std::string_view key, double min,
                                                double max) const {
  return Opt<double>(obj, key, [&](const toml::node& n, const std::string& p) {
    return AsNumber(n, p, min, max);
  });
}

Result<double> Parser::ReqNumber(const Obj& obj, std::string_view key, double min,
                                 double max) const {
  return Req<double>(obj, key, [&](const toml::node& n, const std::string& p) {
    return AsNumber(n, p, min, max);
  });
}

Result<std::optional<bool>> Parser::OptBool(const Obj& obj, std::string_view key) const {
  return Opt<bool>(obj, key,
                   [&](const toml::node& n, const std::string& p) { return AsBool(n, p); });
}

Result<std::optional<int>> Parser::OptChoice(
    const Obj& obj, std::string_view key, std::string_view what,
    std::initializer_list<std::string_view> choices) const {
  return Opt<int>(obj, key, [&](const toml::node& n, const std::string& p) {
    return AsChoice(n, p, what, choices);
  });
}

Result<int> Parser::ReqChoice(const Obj& obj, std::string_view key, std::string_view what,
                              std::initializer_list<std::string_view> choices) const {
  return Req<int>(obj, key, [&](const toml::node& n, const std::string& p) {
    return AsChoice(n, p, what, choices);
  });
}

Result<std::optional<int64_t>> Parser::OptDuration(const Obj& obj, std::string_view key) const {
  return Opt<int64_t>(obj, key,
                      [&](const toml::node& n, const std::string& p) { return AsDuration(n, p); });
}

Result<int64_t> Parser::ReqDuration(const Obj& obj, std::string_view key) const {
  return Req<int64_t>(obj, key,
                      [&](const toml::node& n, const std::string& p) { return AsDuration(n, p); });
}

Result<std::optional<Template>> Parser::OptTemplate(const Obj& obj, std::string_view key,
                                                    bool allow_empty) const {
  return Opt<Template>(obj, key, [&](const toml::node& n, const std::string& p) {
    return AsTemplate(n, p, allow_empty);
  });
}

Result<Template> Parser::ReqTemplate(const Obj& obj, std::string_view key) const {
  return Req<Template>(obj, key, [&](const toml::node& n, const std::string& p) {
    return AsTemplate(n, p, /*allow_empty=*/false);
  });
}

Result<std::optional<SizeDistribution>> Parser::OptSize(const Obj& obj,
                                                        std::string_view key) const {
  return Opt<SizeDistribution>(
      obj, key, [&](const toml::node& n, const std::string& p) { return AsSize(n, p); });
}

Result<std::optional<KeyDistribution>> Parser::OptKeys(const Obj& obj, std::string_view key) const {
  return Opt<KeyDistribution>(
      obj, key, [&](const toml::node& n, const std::string& p) { return AsKeys(n, p); });
}

Result<std::optional<Obj>> Parser::OptTable(const Obj& obj, std::string_view key) const {
  const toml::node* node = obj.table->get(key);
  if (node == nullptr) return std::optional<Obj>();
  std::string path = Join(obj.path, key);
  const toml::table* table = node->as_table();
  if (table == nullptr) return WrongType(*node, path, fmt::format("a table ([{}])", path));
  return std::optional<Obj>(Obj{table, std::move(path)});
}

Result<std::vector<Obj>> Parser::TableArray(const Obj& obj, std::string_view key, size_t min,
                                            size_t max) const {
  const std::string path = Join(obj.path, key);
  const std::string header = Header(path);
  std::vector<Obj> out;
  const toml::node* node = obj.table->get(key);
  if (node == nullptr) {
    if (min > 0) return Error(obj, fmt::format("at least one [[{}]] is required", header));
    return out;
  }
  const toml::array* array = node->as_array();
  if (array == nullptr) {
    return WrongType(*node, path, fmt::format("an array of tables ([[{}]])", header));
  }
  if (array->size() < min) {
    return Error(*node, path, fmt::format("at least one [[{}]] is required", header));
  }
  if (array->size() > max) {
    return Error(*node, path,
                 fmt::format("at most {} [[{}]] are allowed, got {}", max, header, array->size()));
  }
  for (size_t i = 0; i < array->size(); ++i) {
    const toml::node& element = *array->get(i);
    std::string element_path = fmt::format("{}[{}]", path, i);
    const toml::table* table = element.as_table();
    if (table == nullptr) return WrongType(element, element_path, "a table");
    out.push_back(Obj{table, std::move(element_path)});
  }
  return out;
}

}  // namespace partstore::sim::workload_toml
