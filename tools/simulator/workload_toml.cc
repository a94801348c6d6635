#include "tools/simulator/workload_toml.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <exception>
#include <initializer_list>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace partstore::sim {
namespace {

constexpr std::string_view kPaddingReserved =
    "\"data\" is reserved: the simulator pads generated items to their size with it";

using sharding::KeyMatch;
using sharding::ShardingPolicy;
using sharding::ShardStrategy;

constexpr int64_t kMicrosPerSecond = 1'000'000;
constexpr int64_t kMaxTotalMicros = int64_t{7} * 24 * 3600 * kMicrosPerSecond;  // 7 days
constexpr int64_t kMaxItemBytes = 409'600;
constexpr int64_t kMaxPreloadItems = 20'000'000;
constexpr double kMaxRate = 10'000'000;
constexpr double kMaxWeight = 1e9;
constexpr size_t kMaxAttributeNameBytes = 255;
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

const std::initializer_list<std::string_view> kOpNames = {
    "get",  "put",       "update",      "delete",         "query",
    "scan", "batch_get", "batch_write", "transact_write", "transact_get"};

// A table of the document and where it is: "phases[0].mix[1]" (empty for the root table).
struct Obj {
  const toml::table* table = nullptr;
  std::string path;
};

std::string Join(std::string_view path, std::string_view key) {
  if (path.empty()) return std::string(key);
  return fmt::format("{}.{}", path, key);
}

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

// DynamoDB's rule for table and index names.
bool IsValidTableName(std::string_view name) {
  if (name.size() < 3 || name.size() > 255) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == '.';
  });
}

std::string FormatNumber(double value) { return fmt::format("{}", value); }

bool IsWrite(OpKind kind) {
  return kind == OpKind::kPut || kind == OpKind::kUpdate || kind == OpKind::kBatchWrite ||
         kind == OpKind::kTransactWrite;
}

// The largest `batch` of an operation (1: it takes no batch).
int32_t MaxBatch(OpKind kind) {
  switch (kind) {
    case OpKind::kBatchGet:
      return 100;
    case OpKind::kBatchWrite:
      return 25;
    case OpKind::kTransactWrite:
      return 100;
    case OpKind::kTransactGet:
      return 100;
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

class Parser {
 public:
  explicit Parser(std::string source) : source_(std::move(source)) {}

  Result<Workload> Parse(const toml::table& root_table);

 private:
  // --- Errors -----------------------------------------------------------------------------------

  Status Error(const toml::source_region& where, std::string_view path,
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
  Status Error(const toml::node& node, std::string_view path, std::string_view message) const {
    return Error(node.source(), path, message);
  }
  Status Error(const Obj& obj, std::string_view message) const {
    return Error(obj.table->source(), obj.path, message);
  }
  // At the value of `key` when it is there, else at the table.
  Status ErrorAt(const Obj& obj, std::string_view key, std::string_view message) const {
    if (const toml::node* node = obj.table->get(key)) {
      return Error(*node, Join(obj.path, key), message);
    }
    return Error(obj, message);
  }
  Status Missing(const Obj& obj, std::string_view key) const {
    return Error(obj, fmt::format("missing required key \"{}\"", key));
  }
  Status WrongType(const toml::node& node, std::string_view path, std::string_view expected) const {
    return Error(node, path, fmt::format("expected {}, got {}", expected, Describe(node)));
  }

  // Every key of `obj` is one of `known`.
  Status CheckKeys(const Obj& obj, std::initializer_list<std::string_view> known) const {
    for (auto it = obj.table->begin(); it != obj.table->end(); ++it) {
      const toml::key& key = it->first;
      if (std::find(known.begin(), known.end(), key.str()) != known.end()) continue;
      return Error(key.source(), obj.path,
                   fmt::format("unknown key \"{}\"{} (expected one of: {})", key.str(),
                               obj.path.empty() ? " at the top level" : "", List(known)));
    }
    return Status::Ok();
  }

  // --- Values -----------------------------------------------------------------------------------

  Result<std::string> AsString(const toml::node& node, const std::string& path,
                               size_t min_chars = 0,
                               size_t max_chars = std::numeric_limits<size_t>::max()) const {
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

  Result<std::string> AsAttributeName(const toml::node& node, const std::string& path) const {
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

  Result<std::string> AsTableName(const toml::node& node, const std::string& path) const {
    const auto* value = node.as_string();
    if (value == nullptr) return WrongType(node, path, "a string");
    const std::string& name = value->get();
    if (!IsValidTableName(name)) {
      return Error(node, path,
                   fmt::format("bad name \"{}\": 3 to 255 characters of A-Z, a-z, 0-9, '_', '-' "
                               "and '.'",
                               name));
    }
    return name;
  }

  Result<int64_t> AsInt(const toml::node& node, const std::string& path, int64_t min,
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

  // An integer or a float, finite, in [min, max].
  Result<double> AsNumber(const toml::node& node, const std::string& path, double min,
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

  Result<bool> AsBool(const toml::node& node, const std::string& path) const {
    const auto* value = node.as_boolean();
    if (value == nullptr) return WrongType(node, path, "a boolean (true or false)");
    return value->get();
  }

  // One of `choices`: its index.
  Result<int> AsChoice(const toml::node& node, const std::string& path, std::string_view what,
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

  // Seconds (an integer or a float) or "<number><unit>", unit ms, s, m or h: microseconds,
  // rounded to the nearest, in [0, 7 days].
  Result<int64_t> AsDuration(const toml::node& node, const std::string& path) const {
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

  Result<Template> AsTemplate(const toml::node& node, const std::string& path,
                              bool allow_empty) const {
    const auto* value = node.as_string();
    if (value == nullptr) return WrongType(node, path, "a string (a template)");
    if (!allow_empty && value->get().empty()) return Error(node, path, "must not be empty");
    Result<Template> parsed = Template::Parse(value->get());
    if (!parsed.ok()) return Error(node, path, parsed.error().message());
    return parsed;
  }

  // An integer (bytes), { min, max } or { mean, stddev [, min, max] }.
  Result<SizeDistribution> AsSize(const toml::node& node, const std::string& path) const {
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

  Result<KeyDistribution> AsKeys(const toml::node& node, const std::string& path) const {
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
  Result<std::optional<T>> Opt(const Obj& obj, std::string_view key, Convert&& convert) const {
    const toml::node* node = obj.table->get(key);
    if (node == nullptr) return std::optional<T>();
    Result<T> value = convert(*node, Join(obj.path, key));
    if (!value.ok()) return value.error();
    return std::optional<T>(std::move(value).value());
  }
  template <typename T, typename Convert>
  Result<T> Req(const Obj& obj, std::string_view key, Convert&& convert) const {
    const toml::node* node = obj.table->get(key);
    if (node == nullptr) return Missing(obj, key);
    return convert(*node, Join(obj.path, key));
  }

  Result<std::optional<std::string>> OptString(const Obj& obj, std::string_view key,
                                               size_t min_chars = 0,
                                               size_t max_chars = SIZE_MAX) const {
    return Opt<std::string>(obj, key, [&](const toml::node& n, const std::string& p) {
      return AsString(n, p, min_chars, max_chars);
    });
  }
  Result<std::string> ReqString(const Obj& obj, std::string_view key, size_t min_chars = 0,
                                size_t max_chars = SIZE_MAX) const {
    return Req<std::string>(obj, key, [&](const toml::node& n, const std::string& p) {
      return AsString(n, p, min_chars, max_chars);
    });
  }
  Result<std::optional<std::string>> OptAttributeName(const Obj& obj, std::string_view key) const {
    return Opt<std::string>(
        obj, key, [&](const toml::node& n, const std::string& p) { return AsAttributeName(n, p); });
  }
  Result<std::string> ReqAttributeName(const Obj& obj, std::string_view key) const {
    return Req<std::string>(
        obj, key, [&](const toml::node& n, const std::string& p) { return AsAttributeName(n, p); });
  }
  Result<std::string> ReqTableName(const Obj& obj, std::string_view key) const {
    return Req<std::string>(
        obj, key, [&](const toml::node& n, const std::string& p) { return AsTableName(n, p); });
  }
  Result<std::optional<int64_t>> OptInt(const Obj& obj, std::string_view key, int64_t min,
                                        int64_t max) const {
    return Opt<int64_t>(
        obj, key, [&](const toml::node& n, const std::string& p) { return AsInt(n, p, min, max); });
  }
  Result<int64_t> ReqInt(const Obj& obj, std::string_view key, int64_t min, int64_t max) const {
    return Req<int64_t>(
        obj, key, [&](const toml::node& n, const std::string& p) { return AsInt(n, p, min, max); });
  }
  Result<std::optional<double>> OptNumber(const Obj& obj, std::string_view key, double min,
                                          double max) const {
    return Opt<double>(obj, key, [&](const toml::node& n, const std::string& p) {
      return AsNumber(n, p, min, max);
    });
  }
  Result<double> ReqNumber(const Obj& obj, std::string_view key, double min, double max) const {
    return Req<double>(obj, key, [&](const toml::node& n, const std::string& p) {
      return AsNumber(n, p, min, max);
    });
  }
  Result<std::optional<bool>> OptBool(const Obj& obj, std::string_view key) const {
    return Opt<bool>(obj, key,
                     [&](const toml::node& n, const std::string& p) { return AsBool(n, p); });
  }
  Result<std::optional<int>> OptChoice(const Obj& obj, std::string_view key, std::string_view what,
                                       std::initializer_list<std::string_view> choices) const {
    return Opt<int>(obj, key, [&](const toml::node& n, const std::string& p) {
      return AsChoice(n, p, what, choices);
    });
  }
  Result<int> ReqChoice(const Obj& obj, std::string_view key, std::string_view what,
                        std::initializer_list<std::string_view> choices) const {
    return Req<int>(obj, key, [&](const toml::node& n, const std::string& p) {
      return AsChoice(n, p, what, choices);
    });
  }
  Result<std::optional<int64_t>> OptDuration(const Obj& obj, std::string_view key) const {
    return Opt<int64_t>(
        obj, key, [&](const toml::node& n, const std::string& p) { return AsDuration(n, p); });
  }
  Result<int64_t> ReqDuration(const Obj& obj, std::string_view key) const {
    return Req<int64_t>(
        obj, key, [&](const toml::node& n, const std::string& p) { return AsDuration(n, p); });
  }
  Result<std::optional<Template>> OptTemplate(const Obj& obj, std::string_view key,
                                              bool allow_empty = false) const {
    return Opt<Template>(obj, key, [&](const toml::node& n, const std::string& p) {
      return AsTemplate(n, p, allow_empty);
    });
  }
  Result<Template> ReqTemplate(const Obj& obj, std::string_view key) const {
    return Req<Template>(obj, key, [&](const toml::node& n, const std::string& p) {
      return AsTemplate(n, p, /*allow_empty=*/false);
    });
  }
  Result<std::optional<SizeDistribution>> OptSize(const Obj& obj, std::string_view key) const {
    return Opt<SizeDistribution>(
        obj, key, [&](const toml::node& n, const std::string& p) { return AsSize(n, p); });
  }
  Result<std::optional<KeyDistribution>> OptKeys(const Obj& obj, std::string_view key) const {
    return Opt<KeyDistribution>(
        obj, key, [&](const toml::node& n, const std::string& p) { return AsKeys(n, p); });
  }

  Result<std::optional<Obj>> OptTable(const Obj& obj, std::string_view key) const {
    const toml::node* node = obj.table->get(key);
    if (node == nullptr) return std::optional<Obj>();
    std::string path = Join(obj.path, key);
    const toml::table* table = node->as_table();
    if (table == nullptr) return WrongType(*node, path, fmt::format("a table ([{}])", path));
    return std::optional<Obj>(Obj{table, std::move(path)});
  }

  // The tables of the array of tables under `key` ([[key]]), between min and max of them.
  Result<std::vector<Obj>> TableArray(const Obj& obj, std::string_view key, size_t min,
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
      return Error(
          *node, path,
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

  // --- The workload's parts ---------------------------------------------------------------------

  Result<RetryPolicy> ParseRetries(const Obj& obj) const;
  Result<TableSpec> ParseTable(const Obj& obj) const;
  Result<IndexSpec> ParseIndex(const Obj& obj, const TableSpec& table) const;
  Status ParseCapacity(const Obj& obj, bool on_demand, int64_t& read, int64_t& write) const;
  Result<const TableSpec*> FindTable(const Obj& obj, const std::vector<TableSpec>& tables,
                                     const std::string& name) const;
  Result<const IndexSpec*> FindIndex(const Obj& obj, const TableSpec& table,
                                     const std::string& name) const;
  Result<std::vector<ShardingSpec>> ParseShardingList(const Obj& obj,
                                                      const std::vector<TableSpec>& tables) const;
  Result<ShardingSpec> ParseSharding(const Obj& obj, const std::vector<TableSpec>& tables) const;
  Result<Preload> ParsePreload(const Obj& obj, const std::vector<TableSpec>& tables) const;
  Result<std::vector<std::pair<std::string, Template>>> ParseAttributes(
      const Obj& obj, std::string_view key, const TableSpec& table) const;
  Result<Phase> ParsePhase(const Obj& obj, const std::vector<TableSpec>& tables) const;
  Result<Operation> ParseOperation(const Obj& obj, const std::vector<TableSpec>& tables) const;

  std::string source_;
};

Result<Workload> Parser::Parse(const toml::table& root_table) {
  const Obj root{&root_table, ""};
  PARTSTORE_RETURN_IF_ERROR(
      CheckKeys(root, {"name", "description", "seed", "top_n", "retries", "capacity", "tables",
                       "sharding", "preload", "phases"}));
  Workload workload;
  PARTSTORE_ASSIGN_OR_RETURN(workload.name, ReqString(root, "name", 1, 100));
  PARTSTORE_ASSIGN_OR_RETURN(auto description, OptString(root, "description"));
  workload.description = description.value_or("");
  PARTSTORE_ASSIGN_OR_RETURN(auto seed, OptInt(root, "seed", 0, kInt64Max));
  if (seed) workload.seed = static_cast<uint64_t>(*seed);
  PARTSTORE_ASSIGN_OR_RETURN(auto top_n, OptInt(root, "top_n", 1, 100));
  if (top_n) workload.top_n = static_cast<int32_t>(*top_n);

  PARTSTORE_ASSIGN_OR_RETURN(auto retries, OptTable(root, "retries"));
  if (retries) {
    PARTSTORE_ASSIGN_OR_RETURN(workload.retries, ParseRetries(*retries));
  }
  PARTSTORE_ASSIGN_OR_RETURN(auto capacity, OptTable(root, "capacity"));
  if (capacity) {
    PARTSTORE_RETURN_IF_ERROR(CheckKeys(*capacity, {"heat_split_seconds"}));
    PARTSTORE_ASSIGN_OR_RETURN(workload.heat_split_seconds,
                               OptInt(*capacity, "heat_split_seconds", 1, 86'400));
  }

  PARTSTORE_ASSIGN_OR_RETURN(auto tables, TableArray(root, "tables", 1, 100));
  for (size_t i = 0; i < tables.size(); ++i) {
    PARTSTORE_ASSIGN_OR_RETURN(TableSpec table, ParseTable(tables[i]));
    for (size_t j = 0; j < i; ++j) {
      if (workload.tables[j].name == table.name) {
        return ErrorAt(tables[i], "name",
                       fmt::format("duplicate table name \"{}\" (also tables[{}])", table.name, j));
      }
    }
    workload.tables.push_back(std::move(table));
  }

  PARTSTORE_ASSIGN_OR_RETURN(workload.sharding, ParseShardingList(root, workload.tables));

  PARTSTORE_ASSIGN_OR_RETURN(auto preload, TableArray(root, "preload", 0, 100));
  for (const Obj& obj : preload) {
    PARTSTORE_ASSIGN_OR_RETURN(Preload entry, ParsePreload(obj, workload.tables));
    workload.preload.push_back(std::move(entry));
  }

  PARTSTORE_ASSIGN_OR_RETURN(auto phases, TableArray(root, "phases", 1, 1000));
  int64_t total = 0;
  for (size_t i = 0; i < phases.size(); ++i) {
    PARTSTORE_ASSIGN_OR_RETURN(Phase phase, ParsePhase(phases[i], workload.tables));
    for (size_t j = 0; j < i; ++j) {
      if (workload.phases[j].name == phase.name) {
        return ErrorAt(phases[i], "name",
                       fmt::format("duplicate phase name \"{}\" (also phases[{}])", phase.name, j));
      }
    }
    total += phase.duration_micros;  // each at most 7 days: no overflow
    if (total > kMaxTotalMicros) {
      return ErrorAt(phases[i], "duration", "the phases last longer than 7 days in total");
    }
    workload.phases.push_back(std::move(phase));
  }
  return workload;
}

Result<RetryPolicy> Parser::ParseRetries(const Obj& obj) const {
  PARTSTORE_RETURN_IF_ERROR(
      CheckKeys(obj, {"mode", "max_attempts", "base_delay", "max_delay", "jitter"}));
  RetryPolicy retries;
  PARTSTORE_ASSIGN_OR_RETURN(auto mode,
                             OptChoice(obj, "mode", "retry mode", {"exponential", "none"}));
  if (mode) retries.mode = *mode == 0 ? RetryPolicy::Mode::kExponential : RetryPolicy::Mode::kNone;
  PARTSTORE_ASSIGN_OR_RETURN(auto attempts, OptInt(obj, "max_attempts", 1, 100));
  if (attempts) retries.max_attempts = static_cast<int32_t>(*attempts);
  PARTSTORE_ASSIGN_OR_RETURN(auto base, OptDuration(obj, "base_delay"));
  if (base) retries.base_micros = *base;
  PARTSTORE_ASSIGN_OR_RETURN(auto max, OptDuration(obj, "max_delay"));
  if (max) retries.max_backoff_micros = *max;
  if (retries.max_backoff_micros < retries.base_micros) {
    return ErrorAt(obj, max ? "max_delay" : "base_delay",
                   fmt::format("max_delay ({} us) is shorter than base_delay ({} us)",
                               retries.max_backoff_micros, retries.base_micros));
  }
  PARTSTORE_ASSIGN_OR_RETURN(auto jitter,
                             OptChoice(obj, "jitter", "jitter", {"full", "equal", "none"}));
  if (jitter) retries.jitter = static_cast<RetryPolicy::Jitter>(*jitter);
  return retries;
}

Status Parser::ParseCapacity(const Obj& obj, bool on_demand, int64_t& read, int64_t& write) const {
  for (std::string_view key : {"read_capacity", "write_capacity"}) {
    if (on_demand) {
      if (obj.table->contains(key)) {
        return ErrorAt(obj, key, "an on-demand table takes no read_capacity or write_capacity");
      }
      continue;
    }
    PARTSTORE_ASSIGN_OR_RETURN(const int64_t units, ReqInt(obj, key, 1, 1'000'000));
    (key == "read_capacity" ? read : write) = units;
  }
  return Status::Ok();
}

Result<TableSpec> Parser::ParseTable(const Obj& obj) const {
  PARTSTORE_RETURN_IF_ERROR(CheckKeys(obj, {"name", "partition_key", "sort_key", "billing",
                                            "read_capacity", "write_capacity", "indexes"}));
  TableSpec table;
  PARTSTORE_ASSIGN_OR_RETURN(table.name, ReqTableName(obj, "name"));
  PARTSTORE_ASSIGN_OR_RETURN(table.partition_key, ReqAttributeName(obj, "partition_key"));
  PARTSTORE_ASSIGN_OR_RETURN(table.sort_key, OptAttributeName(obj, "sort_key"));
  if (table.sort_key == table.partition_key) {
    return ErrorAt(obj, "sort_key", "the sort key must differ from the partition key");
  }
  PARTSTORE_ASSIGN_OR_RETURN(
      auto billing, OptChoice(obj, "billing", "billing mode", {"provisioned", "on-demand"}));
  table.on_demand = billing.value_or(0) == 1;
  PARTSTORE_RETURN_IF_ERROR(
      ParseCapacity(obj, table.on_demand, table.read_capacity, table.write_capacity));
  PARTSTORE_ASSIGN_OR_RETURN(auto indexes, TableArray(obj, "indexes", 0, 20));
  for (size_t i = 0; i < indexes.size(); ++i) {
    PARTSTORE_ASSIGN_OR_RETURN(IndexSpec index, ParseIndex(indexes[i], table));
    for (size_t j = 0; j < i; ++j) {
      if (table.indexes[j].name == index.name) {
        return ErrorAt(indexes[i], "name",
                       fmt::format("duplicate index name \"{}\" (also {}.indexes[{}])", index.name,
                                   obj.path, j));
      }
    }
    table.indexes.push_back(std::move(index));
  }
  return table;
}

Result<IndexSpec> Parser::ParseIndex(const Obj& obj, const TableSpec& table) const {
  PARTSTORE_RETURN_IF_ERROR(CheckKeys(
      obj, {"name", "partition_key", "sort_key", "projection", "read_capacity", "write_capacity"}));
  IndexSpec index;
  PARTSTORE_ASSIGN_OR_RETURN(index.name, ReqTableName(obj, "name"));
  PARTSTORE_ASSIGN_OR_RETURN(index.partition_key, ReqAttributeName(obj, "partition_key"));
  PARTSTORE_ASSIGN_OR_RETURN(index.sort_key, OptAttributeName(obj, "sort_key"));
  if (index.sort_key == index.partition_key) {
    return ErrorAt(obj, "sort_key", "the sort key must differ from the partition key");
  }
  PARTSTORE_ASSIGN_OR_RETURN(auto projection,
                             OptChoice(obj, "projection", "projection", {"ALL", "KEYS_ONLY"}));
  index.projection = projection.value_or(0) == 0 ? "ALL" : "KEYS_ONLY";
  PARTSTORE_RETURN_IF_ERROR(
      ParseCapacity(obj, table.on_demand, index.read_capacity, index.write_capacity));
  return index;
}

Result<const TableSpec*> Parser::FindTable(const Obj& obj, const std::vector<TableSpec>& tables,
                                           const std::string& name) const {
  for (const TableSpec& table : tables) {
    if (table.name == name) return &table;
  }
  return ErrorAt(obj, "table",
                 fmt::format("unknown table \"{}\" (tables: {})", name, TableNames(tables)));
}

Result<const IndexSpec*> Parser::FindIndex(const Obj& obj, const TableSpec& table,
                                           const std::string& name) const {
  std::string names;
  for (const IndexSpec& index : table.indexes) {
    if (index.name == name) return &index;
    if (!names.empty()) names += ", ";
    names += index.name;
  }
  return ErrorAt(obj, "index",
                 fmt::format("table \"{}\" has no index \"{}\" ({})", table.name, name,
                             names.empty() ? "it has no indexes" : "its indexes: " + names));
}

Result<std::vector<ShardingSpec>> Parser::ParseShardingList(
    const Obj& obj, const std::vector<TableSpec>& tables) const {
  PARTSTORE_ASSIGN_OR_RETURN(auto entries, TableArray(obj, "sharding", 0, 100));
  std::vector<ShardingSpec> out;
  for (const Obj& entry : entries) {
    PARTSTORE_ASSIGN_OR_RETURN(ShardingSpec spec, ParseSharding(entry, tables));
    out.push_back(std::move(spec));
  }
  return out;
}

Result<ShardingSpec> Parser::ParseSharding(const Obj& obj,
                                           const std::vector<TableSpec>& tables) const {
  PARTSTORE_RETURN_IF_ERROR(CheckKeys(obj, {"table", "index", "key", "prefix", "shards", "strategy",
                                            "calculated_from", "suffix", "logical_key_attribute"}));
  ShardingSpec spec;
  ShardingPolicy& policy = spec.policy;
  PARTSTORE_ASSIGN_OR_RETURN(spec.table, ReqString(obj, "table"));
  PARTSTORE_ASSIGN_OR_RETURN(const TableSpec* table, FindTable(obj, tables, spec.table));
  PARTSTORE_ASSIGN_OR_RETURN(policy.index_name, OptString(obj, "index"));
  const IndexSpec* index = nullptr;
  if (policy.index_name) {
    PARTSTORE_ASSIGN_OR_RETURN(index, FindIndex(obj, *table, *policy.index_name));
  }

  PARTSTORE_ASSIGN_OR_RETURN(auto key, OptString(obj, "key", 1));
  PARTSTORE_ASSIGN_OR_RETURN(auto prefix, OptString(obj, "prefix", 1));
  if (key && prefix) {
    return ErrorAt(obj, "prefix", "give either key (one partition key) or prefix, not both");
  }
  if (!key && !prefix) {
    return Error(obj,
                 "missing \"key\" (one partition key) or \"prefix\" (every key starting "
                 "with it)");
  }
  policy.key = key ? *key : *prefix;
  policy.match = key ? KeyMatch::kExact : KeyMatch::kPrefix;

  PARTSTORE_ASSIGN_OR_RETURN(const int64_t shards,
                             ReqInt(obj, "shards", 1, sharding::kMaxShardCount));
  policy.shard_count = static_cast<int32_t>(shards);
  PARTSTORE_ASSIGN_OR_RETURN(auto strategy,
                             OptChoice(obj, "strategy", "strategy", {"random", "calculated"}));
  policy.strategy = strategy.value_or(0) == 0 ? ShardStrategy::kRandom : ShardStrategy::kCalculated;
  PARTSTORE_ASSIGN_OR_RETURN(policy.calculated_from, OptAttributeName(obj, "calculated_from"));
  PARTSTORE_ASSIGN_OR_RETURN(auto suffix, OptString(obj, "suffix"));
  if (suffix) {
    const size_t at = suffix->find(sharding::kShardPlaceholder);
    if (at == std::string::npos ||
        suffix->find(sharding::kShardPlaceholder, at + 1) != std::string::npos) {
      return ErrorAt(obj, "suffix", "must contain \"<n>\" (the shard number) exactly once");
    }
    policy.suffix_format = *suffix;
  }
  PARTSTORE_ASSIGN_OR_RETURN(auto logical, OptAttributeName(obj, "logical_key_attribute"));
  policy.logical_key_attribute = logical.value_or("");

  // The key schema the policy shards, and the attributes its logical key must not take.
  KeySchema schema;
  schema.partition.name = index ? index->partition_key : table->partition_key;
  const std::optional<std::string>& sort = index ? index->sort_key : table->sort_key;
  if (sort) schema.sort = KeyAttribute{*sort, KeyType::kString};
  std::vector<std::string> reserved = {table->partition_key};
  if (table->sort_key) reserved.push_back(*table->sort_key);
  for (const IndexSpec& gsi : table->indexes) {
    reserved.push_back(gsi.partition_key);
    if (gsi.sort_key) reserved.push_back(*gsi.sort_key);
  }

  if (policy.strategy == ShardStrategy::kRandom && policy.calculated_from) {
    return ErrorAt(obj, "calculated_from", "applies to strategy = \"calculated\" only");
  }
  if (policy.strategy == ShardStrategy::kCalculated) {
    if (policy.calculated_from && *policy.calculated_from == schema.partition.name) {
      return ErrorAt(
          obj, "calculated_from",
          fmt::format("cannot be the partition key it shards ({})", schema.partition.name));
    }
    if (!policy.calculated_from && !schema.sort) {
      return ErrorAt(
          obj, "strategy",
          fmt::format("strategy = \"calculated\" needs calculated_from: {} has no sort "
                      "key to compute the shard from",
                      index ? "index \"" + index->name + "\"" : "table \"" + table->name + "\""));
    }
  }
  if (logical && std::find(reserved.begin(), reserved.end(), *logical) != reserved.end()) {
    return ErrorAt(obj, "logical_key_attribute",
                   fmt::format("\"{}\" is a key attribute of table \"{}\" or its indexes", *logical,
                               table->name));
  }
  // Anything else the engine would refuse.
  auto made = sharding::Policy::Make(policy, schema, reserved);
  if (!made.ok()) return Error(obj, made.error().message());
  return spec;
}

Result<std::vector<std::pair<std::string, Template>>> Parser::ParseAttributes(
    const Obj& obj, std::string_view key, const TableSpec& table) const {
  std::vector<std::pair<std::string, Template>> out;
  const toml::node* node = obj.table->get(key);
  if (node == nullptr) return out;
  const std::string path = Join(obj.path, key);
  const toml::table* attributes = node->as_table();
  if (attributes == nullptr) {
    return WrongType(*node, path,
                     "a table of attribute names to templates, e.g. { GSI1PK = \"A#{key}\" }");
  }
  for (auto it = attributes->begin(); it != attributes->end(); ++it) {
    const std::string name(it->first.str());
    const std::string attribute_path = Join(path, name);
    if (name.empty() || name.size() > kMaxAttributeNameBytes) {
      return Error(it->first.source(), attribute_path,
                   "an attribute name must be 1 to 255 bytes long");
    }
    if (name == kPaddingAttribute) {
      return Error(it->first.source(), attribute_path, std::string(kPaddingReserved));
    }
    if (name == table.partition_key || (table.sort_key && name == *table.sort_key)) {
      return Error(it->first.source(), attribute_path,
                   fmt::format("\"{}\" is a key attribute of table \"{}\" (spell it with key or "
                               "sort)",
                               name, table.name));
    }
    PARTSTORE_ASSIGN_OR_RETURN(Template value,
                               AsTemplate(it->second, attribute_path, /*allow_empty=*/true));
    out.emplace_back(name, std::move(value));
  }
  return out;
}

Result<Preload> Parser::ParsePreload(const Obj& obj, const std::vector<TableSpec>& tables) const {
  PARTSTORE_RETURN_IF_ERROR(
      CheckKeys(obj, {"table", "key", "sort", "keys", "items_per_key", "size", "attributes"}));
  Preload preload;
  PARTSTORE_ASSIGN_OR_RETURN(preload.table, ReqString(obj, "table"));
  PARTSTORE_ASSIGN_OR_RETURN(const TableSpec* table, FindTable(obj, tables, preload.table));
  PARTSTORE_ASSIGN_OR_RETURN(preload.key, ReqTemplate(obj, "key"));
  PARTSTORE_ASSIGN_OR_RETURN(preload.sort, OptTemplate(obj, "sort"));
  if (table->sort_key && !preload.sort) {
    return Error(obj, fmt::format("missing required key \"sort\": table \"{}\" has a sort key ({})",
                                  table->name, *table->sort_key));
  }
  if (!table->sort_key && preload.sort) {
    return ErrorAt(obj, "sort", fmt::format("table \"{}\" has no sort key", table->name));
  }
  PARTSTORE_ASSIGN_OR_RETURN(preload.keys, ReqInt(obj, "keys", 1, 100'000'000));
  PARTSTORE_ASSIGN_OR_RETURN(auto items_per_key, OptInt(obj, "items_per_key", 1, 1'000'000));
  preload.items_per_key = items_per_key.value_or(1);
  if (preload.keys * preload.items_per_key > kMaxPreloadItems) {
    return Error(obj, fmt::format("keys x items_per_key = {} items, more than the {} allowed",
                                  preload.keys * preload.items_per_key, kMaxPreloadItems));
  }
  PARTSTORE_ASSIGN_OR_RETURN(auto size, OptSize(obj, "size"));
  if (size) preload.size = *size;
  PARTSTORE_ASSIGN_OR_RETURN(preload.attributes, ParseAttributes(obj, "attributes", *table));
  return preload;
}

Result<Phase> Parser::ParsePhase(const Obj& obj, const std::vector<TableSpec>& tables) const {
  PARTSTORE_RETURN_IF_ERROR(
      CheckKeys(obj, {"name", "duration", "rate", "rate_end", "keys", "sharding", "mix"}));
  Phase phase;
  PARTSTORE_ASSIGN_OR_RETURN(phase.name, ReqString(obj, "name", 1, 100));
  PARTSTORE_ASSIGN_OR_RETURN(phase.duration_micros, ReqDuration(obj, "duration"));
  if (phase.duration_micros <= 0) return ErrorAt(obj, "duration", "must be longer than 0");
  PARTSTORE_ASSIGN_OR_RETURN(phase.rate, ReqNumber(obj, "rate", 0, kMaxRate));
  PARTSTORE_ASSIGN_OR_RETURN(phase.rate_end, OptNumber(obj, "rate_end", 0, kMaxRate));
  PARTSTORE_ASSIGN_OR_RETURN(auto keys, OptKeys(obj, "keys"));
  if (keys) phase.keys = *keys;
  PARTSTORE_ASSIGN_OR_RETURN(phase.sharding, ParseShardingList(obj, tables));
  PARTSTORE_ASSIGN_OR_RETURN(auto mix, TableArray(obj, "mix", 1, 100));
  for (const Obj& entry : mix) {
    PARTSTORE_ASSIGN_OR_RETURN(Operation op, ParseOperation(entry, tables));
    phase.mix.push_back(std::move(op));
  }
  return phase;
}

Result<Operation> Parser::ParseOperation(const Obj& obj,
                                         const std::vector<TableSpec>& tables) const {
  PARTSTORE_RETURN_IF_ERROR(CheckKeys(
      obj, {"op", "weight", "table", "index", "key", "sort", "sort_prefix", "keys", "items", "size",
            "attributes", "batch", "limit", "consistent_read", "scan_forward", "counter"}));
  Operation op;
  PARTSTORE_ASSIGN_OR_RETURN(const int kind, ReqChoice(obj, "op", "operation", kOpNames));
  op.kind = static_cast<OpKind>(kind);
  const std::string_view name = OpKindName(op.kind);
  const bool query = op.kind == OpKind::kQuery;
  const bool scan = op.kind == OpKind::kScan;
  // The error for a key that does not apply to this operation.
  const auto not_for = [&](std::string_view key, std::string_view applies_to) {
    return ErrorAt(obj, key,
                   fmt::format("\"{}\" does not apply to {} (only to {})", key, name, applies_to));
  };

  PARTSTORE_ASSIGN_OR_RETURN(auto weight, OptNumber(obj, "weight", 0, kMaxWeight));
  if (weight) {
    if (*weight <= 0) return ErrorAt(obj, "weight", "must be greater than 0");
    op.weight = *weight;
  }
  PARTSTORE_ASSIGN_OR_RETURN(op.table, ReqString(obj, "table"));
  PARTSTORE_ASSIGN_OR_RETURN(const TableSpec* table, FindTable(obj, tables, op.table));
  PARTSTORE_ASSIGN_OR_RETURN(op.index, OptString(obj, "index"));
  const IndexSpec* index = nullptr;
  if (op.index) {
    if (!query && !scan) return not_for("index", "query and scan");
    PARTSTORE_ASSIGN_OR_RETURN(index, FindIndex(obj, *table, *op.index));
  }
  // The sort key of what the operation reads: the index's for a query of an index.
  const std::optional<std::string>& sort_key = index ? index->sort_key : table->sort_key;

  PARTSTORE_ASSIGN_OR_RETURN(auto key, OptTemplate(obj, "key"));
  if (scan) {
    if (key) return ErrorAt(obj, "key", "a scan takes no key");
  } else {
    if (!key) return Missing(obj, "key");
    op.key = std::move(*key);
  }

  PARTSTORE_ASSIGN_OR_RETURN(op.sort, OptTemplate(obj, "sort"));
  if (query || scan) {
    if (op.sort) {
      return ErrorAt(
          obj, "sort",
          query ? "a query takes no sort (use sort_prefix to narrow it)" : "a scan takes no sort");
    }
  } else if (table->sort_key && !op.sort) {
    return Error(obj, fmt::format("missing required key \"sort\": table \"{}\" has a sort key ({})",
                                  table->name, *table->sort_key));
  } else if (!table->sort_key && op.sort) {
    return ErrorAt(obj, "sort", fmt::format("table \"{}\" has no sort key", table->name));
  }

  PARTSTORE_ASSIGN_OR_RETURN(op.sort_prefix, OptTemplate(obj, "sort_prefix"));
  if (op.sort_prefix) {
    if (!query) return not_for("sort_prefix", "query");
    if (!sort_key) {
      return ErrorAt(obj, "sort_prefix",
                     fmt::format("{} has no sort key", index ? "index \"" + index->name + "\""
                                                             : "table \"" + table->name + "\""));
    }
  }

  PARTSTORE_ASSIGN_OR_RETURN(op.keys, OptKeys(obj, "keys"));
  PARTSTORE_ASSIGN_OR_RETURN(auto items, OptInt(obj, "items", 1, 1'000'000));
  op.items = items.value_or(1);

  constexpr std::string_view kWrites = "put, update, batch_write and transact_write";
  PARTSTORE_ASSIGN_OR_RETURN(op.size, OptSize(obj, "size"));
  if (op.size && !IsWrite(op.kind)) return not_for("size", kWrites);
  if (obj.table->contains("attributes") && !IsWrite(op.kind)) {
    return not_for("attributes", kWrites);
  }
  PARTSTORE_ASSIGN_OR_RETURN(op.attributes, ParseAttributes(obj, "attributes", *table));

  PARTSTORE_ASSIGN_OR_RETURN(auto batch, OptInt(obj, "batch", 1, kInt64Max));
  if (batch) {
    const int32_t max = MaxBatch(op.kind);
    if (max == 1 && *batch != 1) {
      return not_for("batch", "batch_get, batch_write, transact_write and transact_get");
    }
    if (*batch > max) {
      return ErrorAt(obj, "batch",
                     fmt::format("must be between 1 and {} for {}, got {}", max, name, *batch));
    }
    op.batch = static_cast<int32_t>(*batch);
  }

  PARTSTORE_ASSIGN_OR_RETURN(auto limit, OptInt(obj, "limit", 0, 10'000));
  if (limit) {
    if (!query && !scan) return not_for("limit", "query and scan");
    op.limit = static_cast<int32_t>(*limit);
  }

  PARTSTORE_ASSIGN_OR_RETURN(auto consistent, OptBool(obj, "consistent_read"));
  if (consistent) {
    if (op.kind != OpKind::kGet && !query && !scan && op.kind != OpKind::kBatchGet) {
      return not_for("consistent_read", "get, query, scan and batch_get");
    }
    if (*consistent && index) {
      return ErrorAt(obj, "consistent_read",
                     "global secondary indexes have no strongly consistent reads");
    }
    op.consistent_read = *consistent;
  }

  PARTSTORE_ASSIGN_OR_RETURN(auto forward, OptBool(obj, "scan_forward"));
  if (forward) {
    if (!query) return not_for("scan_forward", "query");
    op.scan_forward = *forward;
  }

  PARTSTORE_ASSIGN_OR_RETURN(auto counter, OptAttributeName(obj, "counter"));
  if (counter) {
    if (op.kind != OpKind::kUpdate) return not_for("counter", "update");
    op.counter = *counter;
  }
  if (op.kind == OpKind::kUpdate) {
    const std::string& c = op.counter;  // given, or the default
    bool key = c == table->partition_key || (table->sort_key && c == *table->sort_key);
    for (const IndexSpec& index : table->indexes) {
      key = key || c == index.partition_key || (index.sort_key && c == *index.sort_key);
    }
    if (key) {
      return ErrorAt(obj, "counter",
                     fmt::format("\"{}\" is a key attribute of table \"{}\" or one of its GSIs "
                                 "(key attributes are strings; the counter is a number)",
                                 c, table->name));
    }
  }
  if (op.kind == OpKind::kUpdate) {
    for (const auto& attribute : op.attributes) {
      if (attribute.first == op.counter) {
        return ErrorAt(
            obj, "counter",
            fmt::format("the counter \"{}\" is also one of the attributes SET", op.counter));
      }
    }
  }
  return op;
}

}  // namespace

Result<Workload> ParseWorkload(std::string_view toml, std::string_view source_name) {
  std::string source = source_name.empty() ? std::string("<workload>") : std::string(source_name);
  toml::table root;
  try {
    root = toml::parse(toml, std::string_view(source));
  } catch (const toml::parse_error& error) {
    const toml::source_position& at = error.source().begin;
    if (at.line > 0) {
      return Status::Validation(
          fmt::format("{}:{}:{}: {}", source, at.line, at.column, error.description()));
    }
    return Status::Validation(fmt::format("{}: {}", source, error.description()));
  } catch (const std::exception& error) {
    return Status::Validation(fmt::format("{}: {}", source, error.what()));
  }
  return Parser(std::move(source)).Parse(root);
}

}  // namespace partstore::sim
