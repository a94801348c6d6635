// TraceRecorder (partstore/trace.h): JSON lines written with RapidJSON into a buffer under one
// mutex, flushed to the stream in blocks. The key attributes of each item come from the table
// definitions the recorder has seen (RecordTable), so a request records its table's and GSIs'
// key attributes and nothing else of the item.
#include <fmt/format.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <xxhash.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <vector>

#include "partstore/table_requests.h"
#include "partstore/trace.h"
#include "shard/trace_event.h"

namespace partstore {

namespace {

constexpr size_t kFlushBytes = 64 * 1024;
constexpr int kFormatVersion = 1;

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

void String(Writer& w, std::string_view s) {
  w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
}

// A key value as the trace writes it: a string as is, a number as its text, binary as hex; or
// the hash of its type and bytes.
std::string KeyText(const Value& value, bool hash) {
  std::string text;
  char type = 'S';
  if (const std::string* s = value.if_string()) {
    text = *s;
  } else if (value.type() == Type::kN) {
    type = 'N';
    text = value.as_number().ToString();
  } else if (value.type() == Type::kB) {
    type = 'B';
    for (const unsigned char c : value.as_binary()) text += fmt::format("{:02x}", c);
  } else {
    type = '?';
    text = DebugString(value);
  }
  if (!hash) return text;
  text.insert(text.begin(), type);
  return fmt::format("#{:016x}", XXH3_64bits(text.data(), text.size()));
}

}  // namespace

struct TraceRecorder::Tables {
  // Per table: its key attributes and its GSIs' (each once, the table's first).
  std::map<std::string, std::vector<std::string>, std::less<>> keys;
};

Result<std::shared_ptr<TraceRecorder>> TraceRecorder::Open(const std::string& path,
                                                           TraceOptions options) {
  auto file = std::make_unique<std::ofstream>(path, std::ios::binary | std::ios::trunc);
  if (!file->is_open()) {
    return Status::Validation(fmt::format("cannot write the trace file {}", path));
  }
  std::ostream& out = *file;
  auto recorder = std::make_shared<TraceRecorder>(out, options);
  recorder->owned_ = std::move(file);
  PARTSTORE_RETURN_IF_ERROR(recorder->Flush());
  return recorder;
}

TraceRecorder::TraceRecorder(std::ostream& out, TraceOptions options)
    : out_(&out), options_(options), tables_(std::make_unique<Tables>()) {
  std::lock_guard lock(mu_);
  Append(fmt::format(R"({{"trace":"partstore","version":{},"hash_keys":{}}})", kFormatVersion,
                     options_.hash_keys));
}

TraceRecorder::~TraceRecorder() { (void)Flush(); }

Status TraceRecorder::Flush() {
  std::lock_guard lock(mu_);
  out_->write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  buffer_.clear();
  out_->flush();
  if (!*out_) return Status::Validation("the trace could not be written");
  return Status::Ok();
}

int64_t TraceRecorder::lines() const {
  std::lock_guard lock(mu_);
  return lines_;
}

bool TraceRecorder::Knows(std::string_view table) const {
  std::lock_guard lock(mu_);
  return tables_->keys.find(table) != tables_->keys.end();
}

void TraceRecorder::Append(std::string_view line) {
  buffer_.append(line);
  buffer_ += '\n';
  ++lines_;
  if (buffer_.size() >= kFlushBytes) {
    out_->write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    buffer_.clear();
  }
}

void TraceRecorder::RecordTable(std::string_view op, const TableDescription& table,
                                int64_t micros) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  w.Key("t");
  w.Int64(micros);
  w.Key("op");
  String(w, op);
  w.Key("table");
  String(w, table.table_name);
  std::vector<std::string> names;
  auto add = [&](const std::string& name) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  };
  auto key = [&](const std::vector<KeySchemaElement>& schema) {
    w.Key("key");
    w.StartArray();
    for (const KeySchemaElement& e : schema) {
      String(w, e.attribute_name);
      add(e.attribute_name);
    }
    w.EndArray();
  };
  if (op != "DeleteTable") {
    key(table.key_schema);
    w.Key("billing");
    String(w, BillingModeName(table.billing_mode));
    w.Key("read");
    w.Int64(table.provisioned_throughput.read_capacity_units);
    w.Key("write");
    w.Int64(table.provisioned_throughput.write_capacity_units);
    w.Key("class");
    String(w, TableClassName(table.table_class.value_or(TableClass::kStandard)));
    w.Key("indexes");
    w.StartArray();
    for (const GlobalSecondaryIndexDescription& gsi : table.global_secondary_indexes) {
      w.StartObject();
      w.Key("name");
      String(w, gsi.index_name);
      key(gsi.key_schema);
      w.Key("projection");
      String(w, ProjectionTypeName(gsi.projection.projection_type.value_or(ProjectionType::kAll)));
      w.Key("read");
      w.Int64(gsi.provisioned_throughput.read_capacity_units);
      w.Key("write");
      w.Int64(gsi.provisioned_throughput.write_capacity_units);
      w.EndObject();
    }
    w.EndArray();
  }
  w.EndObject();
  std::lock_guard lock(mu_);
  if (op == "DeleteTable") {
    tables_->keys.erase(table.table_name);
  } else {
    tables_->keys.insert_or_assign(table.table_name, std::move(names));
  }
  Append({buffer.GetString(), buffer.GetSize()});
}

void TraceRecorder::Record(const internal::TraceEvent& event, int64_t micros) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  std::lock_guard lock(mu_);  // (the table definitions are read under it too)
  // The key attributes of `item` in `table`'s (and its GSIs') key schema.
  auto key = [&](std::string_view table, const Item& item) {
    w.Key("key");
    w.StartObject();
    auto names = tables_->keys.find(table);
    if (names != tables_->keys.end()) {
      for (const std::string& name : names->second) {
        auto it = item.find(name);
        if (it == item.end()) continue;
        String(w, name);
        String(w, KeyText(it->second, options_.hash_keys));
      }
    }
    w.EndObject();
  };
  auto members = [&](const internal::TraceItem& item, bool with_table) {
    if (with_table) {
      w.Key("table");
      String(w, item.table);
    }
    if (!item.action.empty()) {
      w.Key("action");
      String(w, item.action);
    }
    if (item.item != nullptr) key(item.table, *item.item);
    if (item.size >= 0) {
      w.Key("size");
      w.Int64(item.size);
    }
  };
  w.StartObject();
  w.Key("t");
  w.Int64(micros);
  w.Key("op");
  String(w, event.op);
  const bool single = event.op != "BatchGetItem" && event.op != "BatchWriteItem" &&
                      event.op != "TransactGetItems" && event.op != "TransactWriteItems";
  if (single && !event.items.empty()) {
    w.Key("table");
    String(w, event.items.front().table);
    if (!event.index.empty()) {
      w.Key("index");
      String(w, event.index);
    }
    members(event.items.front(), false);
  } else {
    w.Key("items");
    w.StartArray();
    for (const internal::TraceItem& item : event.items) {
      w.StartObject();
      members(item, true);
      w.EndObject();
    }
    w.EndArray();
  }
  w.Key("units");
  w.Double(static_cast<double>(event.half_units) / 2);
  if (event.scanned >= 0) {
    w.Key("scanned");
    w.Int(event.scanned);
  }
  if (event.consistent) {
    w.Key("consistent");
    w.Bool(true);
  }
  if (event.backward) {
    w.Key("backward");
    w.Bool(true);
  }
  if (event.missing) {
    w.Key("missing");
    w.Bool(true);
  }
  if (!event.error.empty()) {
    w.Key("error");
    String(w, event.error);
  }
  w.EndObject();
  Append({buffer.GetString(), buffer.GetSize()});
}

}  // namespace partstore
