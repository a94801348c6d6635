// Catalog: see catalog.h.
#include "cache/catalog.h"

#include <fmt/format.h>

#include <array>
#include <cstring>
#include <mutex>
#include <utility>

#include "shard/database_state.h"

namespace partstore::cache {
namespace {

// A KeySchema from DescribeTable's key schema and attribute definitions; nullopt when they do
// not make one (an upstream answering something DynamoDB would not).
std::optional<KeySchema> KeySchemaOf(const std::vector<KeySchemaElement>& elements,
                                     const std::vector<AttributeDefinition>& definitions) {
  auto type_of = [&](const std::string& name) -> std::optional<KeyType> {
    for (const AttributeDefinition& d : definitions) {
      if (d.attribute_name == name) return d.attribute_type;
    }
    return std::nullopt;
  };
  KeySchema schema;
  bool has_partition = false;
  for (const KeySchemaElement& e : elements) {
    std::optional<KeyType> type = type_of(e.attribute_name);
    if (!type) return std::nullopt;
    if (e.key_type == KeyRoleName::kHash) {
      schema.partition = {e.attribute_name, *type};
      has_partition = true;
    } else {
      schema.sort = KeyAttribute{e.attribute_name, *type};
    }
  }
  if (!has_partition) return std::nullopt;
  return schema;
}

}  // namespace

std::optional<ConsumedCapacity> ZeroCapacity(std::string_view table, ReturnConsumedCapacity asked) {
  if (asked == ReturnConsumedCapacity::kNone) return std::nullopt;
  ConsumedCapacity zero;
  zero.table_name = std::string(table);
  if (asked == ReturnConsumedCapacity::kIndexes) zero.table_half_units = 0;
  return zero;
}

Value ExpiryValue(int64_t micros) {
  std::string bytes(sizeof micros, '\0');
  std::memcpy(bytes.data(), &micros, sizeof micros);
  return Value::Binary(std::move(bytes));
}

bool Expired(const StoredItem& stored, int64_t now_micros) {
  // The hidden names sort first (ESC): the expiry is entry 0 or, after kAbsentAttribute, 1.
  const MapView attributes = stored.attributes();
  for (size_t i = 0; i < attributes.size() && i < 2; ++i) {
    const MapEntry entry = attributes.at(i);
    if (!IsExpiresName(entry.name)) continue;
    const std::string_view bytes = entry.value.as_binary();
    int64_t expires = 0;
    if (bytes.size() != sizeof expires) return true;
    std::memcpy(&expires, bytes.data(), sizeof expires);
    return now_micros >= expires;
  }
  return true;
}

int CachedTable::FindIndex(std::string_view index_name) const {
  for (size_t i = 0; i < indexes.size(); ++i) {
    if (indexes[i].name == index_name) return static_cast<int>(i);
  }
  return -1;
}

Catalog::Catalog(Store& upstream, Database& local)
    : upstream_(upstream), local_(local), id_([] {
        static std::atomic<uint64_t> next{0};
        return next.fetch_add(1, std::memory_order_relaxed) + 1;
      }()) {}

CachedTable* Catalog::Pinned(std::string_view name) const {
  struct Slot {
    uint64_t catalog = 0;
    uint64_t version = 0;
    std::string name;
    std::shared_ptr<CachedTable> table;
  };
  constexpr size_t kSlots = 4;
  thread_local std::array<Slot, kSlots> slots;
  thread_local size_t next = 0;
  const uint64_t version = version_.load(std::memory_order_acquire);
  for (Slot& slot : slots) {
    if (slot.catalog == id_ && slot.version == version && slot.name == name) {
      return slot.table.get();
    }
  }
  std::shared_ptr<CachedTable> table = Find(name);
  if (!table) return nullptr;
  Slot& slot = slots[next++ % kSlots];
  slot = Slot{id_, version, std::string(name), std::move(table)};
  return slot.table.get();
}

std::shared_ptr<CachedTable> Catalog::Find(std::string_view name) const {
  std::shared_lock lock(mu_);
  auto it = tables_.find(name);
  return it == tables_.end() ? nullptr : it->second;
}

std::shared_ptr<CachedTable> Catalog::Get(std::string_view name) {
  if (std::shared_ptr<CachedTable> table = Find(name)) return table;
  Result<DescribeTableResult> described =
      upstream_.DescribeTable({.table_name = std::string(name)});
  if (!described.ok()) return nullptr;
  Result<std::shared_ptr<CachedTable>> table = SetUp(described->table);
  if (!table.ok()) return nullptr;
  std::unique_lock lock(mu_);
  auto [it, inserted] = tables_.try_emplace(std::string(name), *table);
  if (inserted) version_.fetch_add(1, std::memory_order_acq_rel);
  if (!inserted) {
    // Another caller set it up first: keep theirs.
    lock.unlock();
    DropLocal(**table);
    return Find(name);
  }
  return it->second;
}

Result<std::shared_ptr<CachedTable>> Catalog::SetUp(const TableDescription& description) {
  auto table = std::make_shared<CachedTable>();
  table->name = description.table_name;
  std::optional<KeySchema> key =
      KeySchemaOf(description.key_schema, description.attribute_definitions);
  if (!key) return Status::Internal("the upstream described a table without a key schema");
  table->key = *key;
  auto add_index = [&](const std::string& name, const std::vector<KeySchemaElement>& elements) {
    std::optional<KeySchema> index_key = KeySchemaOf(elements, description.attribute_definitions);
    if (index_key) table->indexes.push_back({name, *index_key});
  };
  for (const GlobalSecondaryIndexDescription& g : description.global_secondary_indexes) {
    add_index(g.index_name, g.key_schema);
  }
  for (const LocalSecondaryIndexDescription& l : description.local_secondary_indexes) {
    add_index(l.index_name, l.key_schema);
  }
  if (description.stream_specification && description.stream_specification->stream_enabled &&
      description.latest_stream_arn) {
    table->stream_arn = *description.latest_stream_arn;
    const StreamViewType view =
        description.stream_specification->stream_view_type.value_or(StreamViewType::kKeysOnly);
    table->stream_has_new_images =
        view == StreamViewType::kNewImage || view == StreamViewType::kNewAndOldImages;
    table->stream_has_old_images =
        view == StreamViewType::kOldImage || view == StreamViewType::kNewAndOldImages;
  }
  table->generations = std::make_unique<std::atomic<uint64_t>[]>(table->indexes.size() + 1);

  uint64_t id;
  {
    std::unique_lock lock(mu_);
    id = ++next_id_;
  }
  table->items_name = fmt::format("items-{}", id);
  table->pages_name = fmt::format("pages-{}", id);
  PARTSTORE_RETURN_IF_ERROR(
      local_.CreateTable(SimpleTable(table->items_name, table->key)).status());
  KeySchema pages_key;
  pages_key.partition = KeyAttribute{"c", KeyType::kBinary};
  pages_key.sort = KeyAttribute{"r", KeyType::kBinary};
  PARTSTORE_RETURN_IF_ERROR(local_.CreateTable(SimpleTable(table->pages_name, pages_key)).status());
  PARTSTORE_ASSIGN_OR_RETURN(table->items, internal::GetTable(local_, table->items_name));
  PARTSTORE_ASSIGN_OR_RETURN(table->pages, internal::GetTable(local_, table->pages_name));
  return table;
}

void Catalog::DropLocal(const CachedTable& table) {
  (void)local_.DeleteTable({.table_name = table.items_name});
  (void)local_.DeleteTable({.table_name = table.pages_name});
}

void Catalog::Forget(std::string_view name) {
  std::shared_ptr<CachedTable> table;
  {
    std::unique_lock lock(mu_);
    auto it = tables_.find(name);
    if (it == tables_.end()) return;
    table = std::move(it->second);
    tables_.erase(it);
    version_.fetch_add(1, std::memory_order_acq_rel);
  }
  DropLocal(*table);
}

void Catalog::ForgetAll() {
  std::map<std::string, std::shared_ptr<CachedTable>, std::less<>> tables;
  {
    std::unique_lock lock(mu_);
    tables.swap(tables_);
    version_.fetch_add(1, std::memory_order_acq_rel);
  }
  for (const auto& [name, table] : tables) DropLocal(*table);
}

std::vector<std::shared_ptr<CachedTable>> Catalog::Tables() const {
  std::shared_lock lock(mu_);
  std::vector<std::shared_ptr<CachedTable>> out;
  for (const auto& [name, table] : tables_) out.push_back(table);
  return out;
}

}  // namespace partstore::cache
