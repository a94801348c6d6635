#include "shard/secondary_index.h"

#include <algorithm>
#include <mutex>
#include <shared_mutex>

#include "core/item_attribute.h"
#include "core/key_encoding.h"
#include "core/stored_item_projection.h"

namespace partstore {

void AppendEscapedComponent(std::string_view encoded, std::string* out) {
  for (char c : encoded) {
    out->push_back(c);
    if (c == '\0') out->push_back('\xFF');
  }
  out->push_back('\0');
  out->push_back('\x01');
}

SecondaryIndex::SecondaryIndex(IndexDefinition definition, KeySchema table_key, size_t stripes,
                               std::shared_ptr<MemoryAccount> memory)
    : definition_(std::move(definition)),
      table_key_(std::move(table_key)),
      stripes_(stripes, std::move(memory)) {
  if (definition_.projection != ProjectionType::kAll) {
    projected_.push_back(table_key_.partition.name);
    if (table_key_.sort) projected_.push_back(table_key_.sort->name);
    projected_.push_back(definition_.key.partition.name);
    if (definition_.key.sort) projected_.push_back(definition_.key.sort->name);
    if (definition_.projection == ProjectionType::kInclude) {
      projected_.insert(projected_.end(), definition_.non_key_attributes.begin(),
                        definition_.non_key_attributes.end());
    }
    std::sort(projected_.begin(), projected_.end());
    projected_.erase(std::unique(projected_.begin(), projected_.end()), projected_.end());
    projected_views_.assign(projected_.begin(), projected_.end());
  }
}

Status SecondaryIndex::CheckItem(const Item& item) const {
  for (const KeyAttribute* attribute :
       {&definition_.key.partition, definition_.key.sort ? &*definition_.key.sort : nullptr}) {
    if (attribute == nullptr) continue;
    const auto value = Attribute(item, attribute->name);
    if (!value) continue;
    const Type expected = ValueTypeOf(attribute->type);
    if (value->type() != expected) {
      return Status::Validation(
          "One or more parameter values were invalid: Type mismatch for Index Key " +
          attribute->name + " Expected: " + std::string(TypeName(expected)) +
          " Actual: " + std::string(TypeName(value->type())) + " IndexName: " + definition_.name);
    }
    const bool empty = (expected == Type::kS && value->as_string().empty()) ||
                       (expected == Type::kB && value->as_binary().empty());
    if (empty) {
      return Status::Validation(
          std::string("One or more parameter values are not valid. A value specified for a "
                      "secondary index key is not supported. The AttributeValue for a key "
                      "attribute cannot contain an empty ") +
          (expected == Type::kS ? "string" : "binary") + " value. IndexName: " + definition_.name +
          ", IndexKey: " + attribute->name);
    }
    // Over the key size limits: the table key's texts, which DynamoDB answers for an index key too
    // (a user's report of a GSI partition key over 2,048 bytes; dynalite checks index keys so).
    if (expected != Type::kN) {
      const KeyRole role =
          attribute == &definition_.key.partition ? KeyRole::kPartition : KeyRole::kSort;
      PARTSTORE_RETURN_IF_ERROR(CheckKeyValue(*attribute, role, *value));
    }
  }
  return Status::Ok();
}

template <typename ItemT>
std::optional<SecondaryIndex::EntryKey> SecondaryIndex::KeyOfImpl(
    const ItemT& item, std::string_view table_partition, std::string_view table_sort) const {
  const KeySchema& key = definition_.key;
  // A value of another type, an empty one, or one over the key size limits makes no entry: writes
  // refuse such items, and a backfill leaves them out (DynamoDB's index key violations).
  auto usable = [](const KeyAttribute& attribute, KeyRole role, const auto& value) {
    const Type type = ValueTypeOf(attribute.type);
    if (value.type() != type) return false;
    if (type == Type::kN) return true;
    return CheckKeyValue(attribute, role, value).ok();
  };
  decltype(Attribute(item, "")) sort{};
  if (key.sort) {
    sort = Attribute(item, key.sort->name);
    if (!sort || !usable(*key.sort, KeyRole::kSort, *sort)) return std::nullopt;
  }
  EntryKey out;
  if (definition_.kind == IndexKind::kLocal) {
    out.partition = std::string(table_partition);
  } else {
    auto partition = Attribute(item, key.partition.name);
    if (!partition || !usable(key.partition, KeyRole::kPartition, *partition)) return std::nullopt;
    AppendKeyEncoding(*partition, &out.partition);
  }
  out.hash = HashPartitionKey(out.partition);
  if (sort) {
    std::string encoded;
    AppendKeyEncoding(*sort, &encoded);
    AppendEscapedComponent(encoded, &out.entry);
  }
  if (definition_.kind == IndexKind::kGlobal) AppendEscapedComponent(table_partition, &out.entry);
  out.entry.append(table_sort);
  return out;
}

std::optional<SecondaryIndex::EntryKey> SecondaryIndex::KeyOf(const Item& item,
                                                              std::string_view table_partition,
                                                              std::string_view table_sort) const {
  return KeyOfImpl(item, table_partition, table_sort);
}

std::optional<SecondaryIndex::EntryKey> SecondaryIndex::KeyOf(const StoredItem& item,
                                                              std::string_view table_partition,
                                                              std::string_view table_sort) const {
  return KeyOfImpl(item, table_partition, table_sort);
}

StoredItem SecondaryIndex::Project(const StoredItem& item) const {
  if (definition_.projection == ProjectionType::kAll) return item;
  return ProjectStoredItem(item, projected_views_);
}

bool SecondaryIndex::SharesBuffer(const StoredItem& item) const {
  if (definition_.projection == ProjectionType::kAll) return true;
  if (item.attribute_count() > projected_.size()) return false;
  for (const MapEntry& entry : item.attributes()) {
    if (!std::binary_search(projected_.begin(), projected_.end(), entry.name)) return false;
  }
  return true;
}

Item SecondaryIndex::Project(const Item& item) const {
  if (definition_.projection == ProjectionType::kAll) return item;
  Item out;
  for (const std::string& name : projected_) {
    if (auto it = item.find(name); it != item.end()) out.emplace(it->first, it->second);
  }
  return out;
}

size_t SecondaryIndex::ProjectedSize(const StoredItem& item) const {
  if (definition_.projection == ProjectionType::kAll) return item.item_size();
  size_t size = 0;
  for (const std::string& name : projected_) {
    if (std::optional<ValueView> value = item.Find(name)) size += name.size() + value->Size();
  }
  return size;
}

bool SecondaryIndex::SameProjection(const StoredItem& a, const StoredItem& b) const {
  if (definition_.projection == ProjectionType::kAll) return a.encoding() == b.encoding();
  for (const std::string& name : projected_) {
    std::optional<ValueView> x = a.Find(name);
    std::optional<ValueView> y = b.Find(name);
    if (x.has_value() != y.has_value()) return false;
    if (x && !(*x == *y)) return false;
  }
  return true;
}

bool SecondaryIndex::Projects(std::string_view attribute) const {
  if (definition_.projection == ProjectionType::kAll) return true;
  return std::binary_search(projected_.begin(), projected_.end(), attribute);
}

int64_t SecondaryIndex::item_count() const { return stripes_.item_count(); }

int64_t SecondaryIndex::size_bytes() const { return stripes_.size_bytes(); }

}  // namespace partstore
