// ReadTrace (trace_replay.h): the JSON lines read one by one (RapidJSON, the protocol's parser
// and its nesting limit), the table definitions turned into the workload's tables, the requests
// into mix entries of one "trace" phase, sorted by time (a server's threads record slightly out of
// order), then the preload of what the reads found that no earlier write made.
#include "tools/simulator/trace_replay.h"

#include <fmt/format.h>
#include <rapidjson/document.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include "tools/protocol/attribute_value_json.h"

namespace partstore::sim {

namespace {

using rapidjson::Value;

struct OpName {
  std::string_view name;
  OpKind kind;
};
constexpr OpName kOps[] = {
    {"GetItem", OpKind::kGet},
    {"PutItem", OpKind::kPut},
    {"UpdateItem", OpKind::kUpdate},
    {"DeleteItem", OpKind::kDelete},
    {"Query", OpKind::kQuery},
    {"Scan", OpKind::kScan},
    {"BatchGetItem", OpKind::kBatchGet},
    {"BatchWriteItem", OpKind::kBatchWrite},
    {"TransactWriteItems", OpKind::kTransactWrite},
    {"TransactGetItems", OpKind::kTransactGet},
};

bool Single(OpKind kind) {
  return kind != OpKind::kBatchGet && kind != OpKind::kBatchWrite &&
         kind != OpKind::kTransactWrite && kind != OpKind::kTransactGet;
}

// What a line is read into, with the line's number for errors.
class LineReader {
 public:
  LineReader(std::string_view source, int64_t line) : source_(source), line_(line) {}

  Status Error(std::string_view message) const {
    return Status::Validation(fmt::format("{}:{}: {}", source_, line_, message));
  }
  Result<std::string> String(const Value& object, const char* name, bool required) const {
    auto it = object.FindMember(name);
    if (it == object.MemberEnd()) {
      if (required) return Error(fmt::format("\"{}\" is missing", name));
      return std::string();
    }
    if (!it->value.IsString()) return Error(fmt::format("\"{}\" must be a string", name));
    return std::string(it->value.GetString(), it->value.GetStringLength());
  }
  Result<double> Number(const Value& object, const char* name, double fallback, double min,
                        double max) const {
    auto it = object.FindMember(name);
    if (it == object.MemberEnd()) return fallback;
    if (!it->value.IsNumber()) return Error(fmt::format("\"{}\" must be a number", name));
    const double v = it->value.GetDouble();
    if (!(v >= min && v <= max)) {
      return Error(fmt::format("\"{}\" is {}, out of range [{}, {}]", name, v, min, max));
    }
    return v;
  }
  Result<bool> Bool(const Value& object, const char* name) const {
    auto it = object.FindMember(name);
    if (it == object.MemberEnd()) return false;
    if (!it->value.IsBool()) return Error(fmt::format("\"{}\" must be true or false", name));
    return it->value.GetBool();
  }
  Result<std::vector<std::string>> Names(const Value& object, const char* name) const {
    auto it = object.FindMember(name);
    if (it == object.MemberEnd() || !it->value.IsArray() || it->value.Empty() ||
        it->value.Size() > 2) {
      return Error(fmt::format("\"{}\" must be an array of 1 or 2 attribute names", name));
    }
    std::vector<std::string> out;
    for (const Value& v : it->value.GetArray()) {
      if (!v.IsString() || v.GetStringLength() == 0) {
        return Error(fmt::format("\"{}\" must hold non-empty strings", name));
      }
      out.emplace_back(v.GetString(), v.GetStringLength());
    }
    return out;
  }
  Result<ReplayItem> Item(const Value& object, std::string table, std::string action) const {
    ReplayItem item;
    if (table.empty()) {
      PARTSTORE_ASSIGN_OR_RETURN(item.table, String(object, "table", true));
    } else {
      item.table = std::move(table);
    }
    if (action.empty()) {
      PARTSTORE_ASSIGN_OR_RETURN(item.action, String(object, "action", true));
      static constexpr std::string_view kActions[] = {"put", "update", "delete", "get", "check"};
      if (std::find(std::begin(kActions), std::end(kActions), item.action) == std::end(kActions)) {
        return Error(
            fmt::format("unknown action \"{}\" (put, update, delete, get or check)", item.action));
      }
    } else {
      item.action = std::move(action);
    }
    if (auto key = object.FindMember("key"); key != object.MemberEnd()) {
      if (!key->value.IsObject()) return Error("\"key\" must be an object of strings");
      for (const auto& m : key->value.GetObject()) {
        if (!m.value.IsString() || m.value.GetStringLength() == 0) {
          return Error("\"key\" must be an object of non-empty strings");
        }
        item.key.emplace_back(std::string(m.name.GetString(), m.name.GetStringLength()),
                              std::string(m.value.GetString(), m.value.GetStringLength()));
      }
    }
    PARTSTORE_ASSIGN_OR_RETURN(double size, Number(object, "size", -1, -1, 400 * 1024));
    item.size = static_cast<int64_t>(size);
    return item;
  }

 private:
  std::string_view source_;
  int64_t line_;
};

// A table definition line -> a TableSpec.
Result<TableSpec> TableOf(const LineReader& r, const Value& line, std::string name) {
  TableSpec t;
  t.name = std::move(name);
  PARTSTORE_ASSIGN_OR_RETURN(auto key, r.Names(line, "key"));
  t.partition_key = key[0];
  if (key.size() > 1) t.sort_key = key[1];
  PARTSTORE_ASSIGN_OR_RETURN(std::string billing, r.String(line, "billing", false));
  t.on_demand = billing == "PAY_PER_REQUEST";
  PARTSTORE_ASSIGN_OR_RETURN(double read, r.Number(line, "read", 0, 0, 4e10));
  PARTSTORE_ASSIGN_OR_RETURN(double write, r.Number(line, "write", 0, 0, 4e10));
  t.read_capacity = static_cast<int64_t>(read);
  t.write_capacity = static_cast<int64_t>(write);
  PARTSTORE_ASSIGN_OR_RETURN(std::string table_class, r.String(line, "class", false));
  if (auto c = TableClassNamed(table_class)) t.table_class = *c;
  if (auto indexes = line.FindMember("indexes"); indexes != line.MemberEnd()) {
    if (!indexes->value.IsArray()) return r.Error("\"indexes\" must be an array");
    for (const Value& i : indexes->value.GetArray()) {
      if (!i.IsObject()) return r.Error("\"indexes\" must hold objects");
      IndexSpec index;
      PARTSTORE_ASSIGN_OR_RETURN(index.name, r.String(i, "name", true));
      PARTSTORE_ASSIGN_OR_RETURN(auto index_key, r.Names(i, "key"));
      index.partition_key = index_key[0];
      if (index_key.size() > 1) index.sort_key = index_key[1];
      PARTSTORE_ASSIGN_OR_RETURN(std::string projection, r.String(i, "projection", false));
      index.projection = projection == "ALL" || projection.empty() ? "ALL" : "KEYS_ONLY";
      PARTSTORE_ASSIGN_OR_RETURN(double ir, r.Number(i, "read", 0, 0, 4e10));
      PARTSTORE_ASSIGN_OR_RETURN(double iw, r.Number(i, "write", 0, 0, 4e10));
      index.read_capacity = static_cast<int64_t>(ir);
      index.write_capacity = static_cast<int64_t>(iw);
      t.indexes.push_back(std::move(index));
    }
  }
  return t;
}

// The 4 KB (reads) or 1 KB (writes) blocks `units` pay for, per item of `n`.
int64_t BlocksPerItem(double blocks, size_t n) {
  return std::max<int64_t>(1, std::llround(blocks / static_cast<double>(std::max<size_t>(n, 1))));
}

// The preload: an item of `key` and `bytes` (at least its keys).
Item PreloadItem(const std::vector<std::pair<std::string, std::string>>& key, int64_t bytes) {
  Item item;
  for (const auto& [name, text] : key) item.insert_or_assign(name, partstore::Value(text));
  const int64_t have =
      static_cast<int64_t>(ItemSize(item)) + static_cast<int64_t>(kPaddingAttribute.size());
  if (bytes > have) {
    item.insert_or_assign(std::string(kPaddingAttribute),
                          partstore::Value(std::string(static_cast<size_t>(bytes - have), 'x')));
  }
  return item;
}

class Preloader {
 public:
  explicit Preloader(const Workload& w) {
    for (const TableSpec& t : w.tables) tables_[t.name] = &t;
  }

  void Note(const ReplayRequest& r, std::vector<std::pair<std::string, Item>>& out) {
    if (r.kind == OpKind::kQuery) return Query(r, out);
    if (r.kind == OpKind::kScan || r.missing) return;
    // The blocks the request's units paid for, and their size.
    double blocks = r.units;
    int64_t block_bytes = 1024;
    switch (r.kind) {
      case OpKind::kGet:
      case OpKind::kBatchGet:
        blocks = r.consistent ? r.units : r.units * 2;
        block_bytes = 4096;
        break;
      case OpKind::kTransactGet:
        blocks = r.units / 2;
        block_bytes = 4096;
        break;
      case OpKind::kTransactWrite:
        blocks = r.units / 2;
        break;
      default:
        break;
    }
    const int64_t per_item = BlocksPerItem(blocks, r.items.size());
    for (const ReplayItem& item : r.items) {
      const TableSpec* t = Table(item.table);
      if (t == nullptr) continue;
      const std::string id = Id(*t, item);
      const bool writes = item.action == "put" || (item.action == "update" && item.size >= 0);
      if (writes) {
        written_.insert(id);
        Partitions(*t, item);
        continue;
      }
      if (r.units <= 0 || written_.count(id) > 0) continue;
      written_.insert(id);
      Partitions(*t, item);
      out.emplace_back(item.table, PreloadItem(item.key, (per_item - 1) * block_bytes + 100));
    }
  }

 private:
  const TableSpec* Table(const std::string& name) const {
    auto it = tables_.find(name);
    return it == tables_.end() ? nullptr : it->second;
  }
  static std::string Text(const ReplayItem& item, const std::string& name) {
    for (const auto& [n, text] : item.key) {
      if (n == name) return text;
    }
    return {};
  }
  static std::string Id(const TableSpec& t, const ReplayItem& item) {
    std::string id = t.name + '\0' + Text(item, t.partition_key);
    if (t.sort_key) id += '\0' + Text(item, *t.sort_key);
    return id;
  }
  void Partitions(const TableSpec& t, const ReplayItem& item) {
    partitions_.insert(t.name + '\0' + '\0' + Text(item, t.partition_key));
    for (const IndexSpec& i : t.indexes) {
      const std::string pk = Text(item, i.partition_key);
      if (!pk.empty()) partitions_.insert(t.name + '\0' + i.name + '\0' + pk);
    }
  }
  void Query(const ReplayRequest& r, std::vector<std::pair<std::string, Item>>& out) {
    const TableSpec* t = Table(r.items.front().table);
    if (t == nullptr || r.scanned <= 0 || r.items.front().key.empty()) return;
    const std::string pk = r.items.front().key.front().second;
    if (!partitions_.insert(t->name + '\0' + r.index + '\0' + pk).second) return;
    const IndexSpec* index = nullptr;
    for (const IndexSpec& i : t->indexes) {
      if (i.name == r.index) index = &i;
    }
    const double blocks = std::max(1.0, r.consistent ? r.units : r.units * 2);
    const int64_t n = std::min<int64_t>(r.scanned, 1000);
    const int64_t bytes = std::max<int64_t>(100, static_cast<int64_t>(blocks * 4096 - 2048) / n);
    for (int64_t i = 0; i < n; ++i) {
      const std::string ordinal = fmt::format("replay#{:06}", i);
      std::vector<std::pair<std::string, std::string>> key;
      auto set = [&](const std::string& name, std::string value) {
        for (auto& [n2, v] : key) {
          if (n2 == name) {
            v = std::move(value);
            return;
          }
        }
        key.emplace_back(name, std::move(value));
      };
      if (index == nullptr) {
        set(t->partition_key, pk);
        if (t->sort_key) set(*t->sort_key, ordinal);
      } else {
        set(t->partition_key, fmt::format("replay#{}#{}#{}", r.index, pk, i));
        if (t->sort_key) set(*t->sort_key, ordinal);
        set(index->partition_key, pk);
        if (index->sort_key) set(*index->sort_key, ordinal);
      }
      out.emplace_back(t->name, PreloadItem(key, bytes));
    }
  }

  std::map<std::string, const TableSpec*, std::less<>> tables_;
  std::set<std::string> written_;     // table, partition key, sort key
  std::set<std::string> partitions_;  // table, index (empty: the table), partition key
};

}  // namespace

Result<double> ParseSpeed(std::string_view text) {
  std::string_view digits = text;
  if (!digits.empty() && (digits.back() == 'x' || digits.back() == 'X')) digits.remove_suffix(1);
  double speed = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), speed);
  if (ec != std::errc() || end != digits.data() + digits.size() || !(speed > 0) ||
      !(speed <= kMaxReplaySpeed)) {
    return Status::Validation(fmt::format(
        "--speed {}: expected a factor in (0, {}], such as 50x (50 times the recorded pace) or "
        "0.5x",
        text, kMaxReplaySpeed));
  }
  return speed;
}

Result<Replay> ReadTrace(std::istream& in, std::string_view source, const ReplayOptions& options) {
  if (!(options.speed > 0) || !(options.speed <= kMaxReplaySpeed)) {
    return Status::Validation(
        fmt::format("speed {} is out of range (0, {}]", options.speed, kMaxReplaySpeed));
  }
  Replay replay;
  Workload& w = replay.workload;
  if (options.tables) w = *options.tables;
  w.phases.clear();
  std::string name(source);
  if (const size_t slash = name.find_last_of('/'); slash != std::string::npos) {
    name.erase(0, slash + 1);
  }
  if (w.name.empty() || !options.tables) w.name = name.empty() ? "trace" : name;
  w.description =
      fmt::format("The requests of the trace {}, replayed at {}x", source, options.speed);
  std::map<std::tuple<OpKind, std::string, std::string>, int32_t> entries;
  Phase phase;
  phase.name = "trace";

  std::string text;
  int64_t line_number = 0;
  bool header = false;
  int64_t first = -1;
  while (std::getline(in, text)) {
    ++line_number;
    const LineReader r(source, line_number);
    if (text.size() > kMaxTraceLineBytes) {
      return r.Error(fmt::format("the line is longer than {} bytes", kMaxTraceLineBytes));
    }
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    rapidjson::Document line;
    if (!protocol::ParseJson(text, &line).ok() || !line.IsObject()) {
      return r.Error("not a JSON object");
    }
    if (!header) {
      PARTSTORE_ASSIGN_OR_RETURN(std::string trace, r.String(line, "trace", false));
      PARTSTORE_ASSIGN_OR_RETURN(double version, r.Number(line, "version", 0, 0, 1e9));
      if (trace != "partstore" || version != 1) {
        return r.Error(
            "not a partstore trace: the first line must be {\"trace\":\"partstore\",\"version\":1, "
            "...} (partstore serve --record writes it)");
      }
      header = true;
      continue;
    }
    PARTSTORE_ASSIGN_OR_RETURN(std::string op, r.String(line, "op", true));
    PARTSTORE_ASSIGN_OR_RETURN(double t, r.Number(line, "t", -1, 0, 9e15));
    if (t < 0) return r.Error("\"t\" is missing");
    if (op == "CreateTable" || op == "UpdateTable" || op == "DeleteTable") {
      PARTSTORE_ASSIGN_OR_RETURN(std::string table, r.String(line, "table", true));
      if (options.tables || op == "DeleteTable") continue;
      const bool known = std::any_of(w.tables.begin(), w.tables.end(),
                                     [&](const TableSpec& s) { return s.name == table; });
      if (known) {
        ++replay.skipped;
        continue;
      }
      PARTSTORE_ASSIGN_OR_RETURN(TableSpec spec, TableOf(r, line, table));
      w.tables.push_back(std::move(spec));
      continue;
    }
    const OpName* kind = nullptr;
    for (const OpName& o : kOps) {
      if (o.name == op) kind = &o;
    }
    if (kind == nullptr) return r.Error(fmt::format("unknown operation \"{}\"", op));
    if (static_cast<int64_t>(replay.requests.size()) >= kMaxTraceRequests) {
      return r.Error(fmt::format("more than {} requests", kMaxTraceRequests));
    }
    ReplayRequest request;
    request.kind = kind->kind;
    request.micros = static_cast<int64_t>(t);
    PARTSTORE_ASSIGN_OR_RETURN(request.units, r.Number(line, "units", 0, 0, 1e9));
    PARTSTORE_ASSIGN_OR_RETURN(double scanned, r.Number(line, "scanned", -1, -1, 1e9));
    request.scanned = static_cast<int32_t>(scanned);
    PARTSTORE_ASSIGN_OR_RETURN(request.consistent, r.Bool(line, "consistent"));
    PARTSTORE_ASSIGN_OR_RETURN(request.backward, r.Bool(line, "backward"));
    PARTSTORE_ASSIGN_OR_RETURN(request.missing, r.Bool(line, "missing"));
    PARTSTORE_ASSIGN_OR_RETURN(std::string error, r.String(line, "error", false));
    request.condition_failed = error.find("ConditionalCheckFailed") != std::string::npos;
    if (Single(request.kind)) {
      PARTSTORE_ASSIGN_OR_RETURN(std::string table, r.String(line, "table", true));
      PARTSTORE_ASSIGN_OR_RETURN(request.index, r.String(line, "index", false));
      std::string action = request.kind == OpKind::kGet || request.kind == OpKind::kQuery ||
                                   request.kind == OpKind::kScan
                               ? "get"
                           : request.kind == OpKind::kDelete ? "delete"
                           : request.kind == OpKind::kUpdate ? "update"
                                                             : "put";
      PARTSTORE_ASSIGN_OR_RETURN(ReplayItem item, r.Item(line, std::move(table), action));
      request.items.push_back(std::move(item));
    } else {
      const Value& object = line;
      auto items = object.FindMember("items");
      if (items == object.MemberEnd() || !items->value.IsArray() || items->value.Empty()) {
        return r.Error("\"items\" must be a non-empty array");
      }
      if (items->value.Size() > kMaxTraceItemsPerRequest) {
        return r.Error(fmt::format("more than {} items", kMaxTraceItemsPerRequest));
      }
      for (const Value& v : items->value.GetArray()) {
        if (!v.IsObject()) return r.Error("\"items\" must hold objects");
        PARTSTORE_ASSIGN_OR_RETURN(ReplayItem item, r.Item(v, "", ""));
        request.items.push_back(std::move(item));
      }
    }
    // Every table it names must be defined.
    for (const ReplayItem& item : request.items) {
      const TableSpec* spec = nullptr;
      for (const TableSpec& s : w.tables) {
        if (s.name == item.table) spec = &s;
      }
      if (spec == nullptr) {
        return r.Error(fmt::format(
            "table {} is not defined: no CreateTable for it comes before this line{}", item.table,
            options.tables ? ", and the --tables file does not define it" : ""));
      }
      if (!request.index.empty() &&
          std::none_of(spec->indexes.begin(), spec->indexes.end(),
                       [&](const IndexSpec& i) { return i.name == request.index; })) {
        // An LSI, or an index the definition lacks: the table is read instead.
        request.index.clear();
      }
      // The key attributes the replay sends must be in the line: a --tables file whose key names
      // differ from the recorded ones would otherwise put every request on one stand-in key.
      if (request.kind == OpKind::kScan) continue;
      std::vector<std::string_view> needed;
      if (request.kind == OpKind::kQuery) {
        needed.push_back(spec->partition_key);
        for (const IndexSpec& i : spec->indexes) {
          if (i.name == request.index) needed.back() = i.partition_key;
        }
      } else {
        needed.push_back(spec->partition_key);
        if (spec->sort_key) needed.push_back(*spec->sort_key);
      }
      for (std::string_view name : needed) {
        const bool has = std::any_of(item.key.begin(), item.key.end(),
                                     [&](const auto& k) { return k.first == name; });
        if (!has) {
          return r.Error(fmt::format(
              "the key of this {} on {} has no {}, a key attribute of the table{}", op, item.table,
              name,
              options.tables ? " in the --tables file (are its key names the recorded ones?)"
                             : ""));
        }
      }
    }
    const auto id = std::make_tuple(request.kind, request.items.front().table, request.index);
    auto [entry, added] = entries.try_emplace(id, static_cast<int32_t>(phase.mix.size()));
    if (added) {
      Operation o;
      o.kind = request.kind;
      o.table = request.items.front().table;
      if (!request.index.empty()) o.index = request.index;
      o.consistent_read = request.consistent;
      phase.mix.push_back(std::move(o));
    }
    request.entry = entry->second;
    if (first < 0 || request.micros < first) first = request.micros;
    replay.requests.push_back(std::move(request));
  }
  if (!header) return Status::Validation(fmt::format("{}: the trace is empty", source));
  if (replay.requests.empty()) {
    return Status::Validation(fmt::format("{}: the trace has no requests to replay", source));
  }
  std::stable_sort(
      replay.requests.begin(), replay.requests.end(),
      [](const ReplayRequest& a, const ReplayRequest& b) { return a.micros < b.micros; });
  for (ReplayRequest& r : replay.requests) {
    r.micros = static_cast<int64_t>(static_cast<double>(r.micros - first) / options.speed);
  }
  constexpr int64_t kWeek = int64_t{7} * 24 * 3600 * 1'000'000;
  if (replay.requests.back().micros >= kWeek) {
    return Status::Validation(fmt::format(
        "{}: the replay would last {:.0f} simulated hours, over 7 days (a faster --speed shortens "
        "it)",
        source, static_cast<double>(replay.requests.back().micros) / 3.6e9));
  }
  phase.duration_micros = std::max<int64_t>(replay.requests.back().micros + 1, 1'000'000);
  // Whole seconds: the report's per-second figures cover the trace.
  phase.duration_micros = (phase.duration_micros + 999'999) / 1'000'000 * 1'000'000;
  phase.rate = 0;
  w.phases.push_back(std::move(phase));
  Preloader preloader(w);
  for (const ReplayRequest& r : replay.requests) preloader.Note(r, replay.preload);
  return replay;
}

}  // namespace partstore::sim
