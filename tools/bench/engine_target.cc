#include "tools/bench/engine_target.h"

#include <utility>

#include "tools/bench/items.h"

namespace partstore::bench {
namespace {

// Reads use the view calls (GetItemView, QueryView, ScanView): an in-process cache reads the
// stored items in place, as these do.
void Count(const StoredItem& item, ReadOutcome* outcome) {
  ++outcome->items;
  for (const MapEntry& entry : item.attributes()) {
    const bool is_s = entry.value.is(Type::kS);
    outcome->Add(entry.name, is_s ? entry.value.as_string() : std::string_view(), is_s);
  }
}

// Rewrites the strings of a key KeyOf(table, ...) made to `key`'s.
Status RewriteKey(const TableSpec& table, ItemKey key, Item* out) {
  if (out->size() != (table.sort_key.empty() ? 1u : 2u)) *out = KeyOf(table, key);
  for (auto& [name, value] : *out) {
    std::string* s = value.if_string();
    if (s == nullptr) return Status::Internal("bench key is not a string");
    s->assign(name == table.partition_key ? key.partition : key.sort);
  }
  return Status::Ok();
}

class EngineSession final : public Session {
 public:
  explicit EngineSession(Database& db) : db_(db) {}

  Status Get(const TableSpec& table, ItemKey key, ReadOutcome* outcome) override {
    // One request per session, its strings rewritten in place, as a program reading in a loop
    // would: only the item read is allocated per call.
    GetItemRequest& request = get_;
    if (request.table_name != table.name) {
      request.table_name = table.name;
      request.key = KeyOf(table, key);
    }
    if (Status s = RewriteKey(table, key, &request.key); !s.ok()) return s;
    auto r = db_.GetItemView(request);
    if (!r.ok()) return r.status();
    if (r->item) Count(*r->item, outcome);
    return Status::Ok();
  }

  Status Put(const TableSpec& table, const BenchItem& item) override {
    PutItemRequest request;
    request.table_name = table.name;
    request.item = ToItem(item);
    return db_.PutItem(request).status();
  }

  Status Update(const TableSpec& table, ItemKey key, std::string_view attribute,
                std::string_view value) override {
    // As Get: one request per session, its strings rewritten in place.
    UpdateItemRequest& request = update_;
    if (request.table_name != table.name) {
      request.table_name = table.name;
      request.key = KeyOf(table, key);
      request.update_expression = "SET #a = :v";
      request.expression_attribute_names = expr::NameMap{{"#a", std::string()}};
      request.expression_attribute_values = AttributeMap{{":v", Value::String(std::string())}};
    }
    if (Status s = RewriteKey(table, key, &request.key); !s.ok()) return s;
    request.expression_attribute_names->begin()->second.assign(attribute);
    std::string* v = request.expression_attribute_values->begin()->second.if_string();
    if (v == nullptr) return Status::Internal("bench value is not a string");
    v->assign(value);
    return db_.UpdateItem(request).status();
  }

  Status Query(const TableSpec& table, bool on_gsi, std::string_view partition,
               std::string_view sort_prefix, int limit, ReadOutcome* outcome) override {
    // As Get: one request per session for each shape (the table, the index and whether there is
    // a prefix), its values rewritten in place.
    QueryRequest& request = query_[on_gsi ? 1 : 0][sort_prefix.empty() ? 0 : 1];
    if (request.table_name != table.name) {
      request = QueryRequest();
      request.table_name = table.name;
      if (on_gsi) request.index_name = table.gsi_name;
      expr::NameMap names{{"#pk", on_gsi ? table.gsi_partition_key : table.partition_key}};
      AttributeMap values{{":pk", Value::String(std::string())}};
      if (sort_prefix.empty()) {
        request.key_condition_expression = "#pk = :pk";
      } else {
        request.key_condition_expression = "#pk = :pk AND begins_with(#sk, :p)";
        names.emplace("#sk", on_gsi ? table.gsi_sort_key : table.sort_key);
        values.emplace(":p", Value::String(std::string()));
      }
      request.expression_attribute_names = std::move(names);
      request.expression_attribute_values = std::move(values);
    }
    for (auto& [name, value] : *request.expression_attribute_values) {
      std::string* s = value.if_string();
      if (s == nullptr) return Status::Internal("bench key is not a string");
      s->assign(name == ":pk" ? partition : sort_prefix);
    }
    request.limit = limit;
    request.exclusive_start_key.reset();
    // Limit <= 100 small items: one page (1 MB) always holds them, but follow LastEvaluatedKey
    // as a client must.
    for (;;) {
      auto r = db_.QueryView(request);
      if (!r.ok()) return r.status();
      for (const StoredItem& item : r->items) Count(item, outcome);
      if (!r->last_evaluated_key || outcome->items >= limit) return Status::Ok();
      request.exclusive_start_key = std::move(r->last_evaluated_key);
      request.limit = limit - outcome->items;
    }
  }

  Status Scan(const TableSpec& table, std::string_view start, int limit,
              ReadOutcome* outcome) override {
    ScanRequest request;
    request.table_name = table.name;
    request.limit = limit;
    if (!start.empty()) request.exclusive_start_key = KeyOf(table, {start, {}});
    auto r = db_.ScanView(request);
    if (!r.ok()) return r.status();
    for (const StoredItem& item : r->items) Count(item, outcome);
    return Status::Ok();
  }

 private:
  Database& db_;
  // Requests kept between calls, rebuilt when the table's name changes: a session's tables keep
  // their TableSpec for its life (the runner prepares them before it makes sessions).
  GetItemRequest get_;        // reused by Get
  UpdateItemRequest update_;  // reused by Update
  QueryRequest query_[2][2];  // reused by Query: [on_gsi][with a sort-key prefix]
};

class EngineTarget final : public Target {
 public:
  EngineTarget(std::string name, DatabaseOptions options)
      : name_(std::move(name)), db_(std::make_unique<Database>(std::move(options))) {}

  const std::string& name() const override { return name_; }

  Status Prepare(std::span<const TableSpec> tables) override {
    for (const TableSpec& t : tables) {
      DeleteTableRequest drop;
      drop.table_name = t.name;
      auto deleted = db_->DeleteTable(drop);
      if (!deleted.ok() && deleted.status().code() != Code::kResourceNotFound) {
        return deleted.status();
      }
      KeySchema key;
      key.partition = {t.partition_key, KeyType::kString};
      if (!t.sort_key.empty()) key.sort = KeyAttribute{t.sort_key, KeyType::kString};
      CreateTableRequest create = SimpleTable(t.name, key);
      if (!t.gsi_name.empty()) {
        for (const std::string* a : {&t.gsi_partition_key, &t.gsi_sort_key}) {
          create.attribute_definitions.push_back({*a, KeyType::kString});
        }
        GlobalSecondaryIndex gsi;
        gsi.index_name = t.gsi_name;
        gsi.key_schema = {{t.gsi_partition_key, KeyRoleName::kHash},
                          {t.gsi_sort_key, KeyRoleName::kRange}};
        gsi.projection.projection_type = ProjectionType::kAll;
        create.global_secondary_indexes.push_back(std::move(gsi));
      }
      if (auto created = db_->CreateTable(create); !created.ok()) return created.status();
    }
    return Status::Ok();
  }

  Result<std::unique_ptr<Session>> NewSession() override {
    return std::unique_ptr<Session>(std::make_unique<EngineSession>(*db_));
  }

 private:
  std::string name_;
  std::unique_ptr<Database> db_;
};

}  // namespace

std::unique_ptr<Target> MakeEngineTarget(std::string name, DatabaseOptions options) {
  return std::make_unique<EngineTarget>(std::move(name), std::move(options));
}

}  // namespace partstore::bench
