#include "shard/secondary_index.h"

#include <algorithm>
#include <cassert>
#include <mutex>
#include <shared_mutex>
#include <utility>

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
  if (entries_are_keys()) {
    const KeySchema& key = definition_.key;
    using Source = EntryKeyPart::Source;
    std::vector<std::pair<const KeyAttribute*, Source>> parts;
    if (key.sort) parts.emplace_back(&*key.sort, Source::kComponent);
    if (global()) {
      parts.emplace_back(&key.partition, Source::kPartition);
      parts.emplace_back(&table_key_.partition, Source::kComponent);
    } else {
      parts.emplace_back(&table_key_.partition, Source::kPartition);
    }
    if (table_key_.sort) parts.emplace_back(&*table_key_.sort, Source::kRest);
    for (size_t i = 0; i < parts.size(); ++i) {
      const std::string& name = parts[i].first->name;
      const bool repeated = std::any_of(parts.begin(), parts.begin() + static_cast<ptrdiff_t>(i),
                                        [&](const auto& p) { return p.first->name == name; });
      // projected_ holds these names sorted, each once.
      const auto place = std::lower_bound(projected_.begin(), projected_.end(), name);
      entry_key_parts_.push_back({parts[i].first, parts[i].second,
                                  repeated ? -1 : static_cast<int>(place - projected_.begin())});
    }
    entry_key_attributes_ = projected_.size();
  }
}

template <typename ItemT>
Status SecondaryIndex::CheckItemImpl(const ItemT& item) const {
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

Status SecondaryIndex::CheckItem(const Item& item) const { return CheckItemImpl(item); }

Status SecondaryIndex::CheckItem(const StoredItem& item) const { return CheckItemImpl(item); }

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
  if (entries_are_keys()) return StoredItem::OfSize(ProjectedSize(item));
  return ProjectStoredItem(item, projected_views_);
}

namespace {

// Takes the escaped component `rest` starts with (AppendEscapedComponent) off it and returns its
// bytes unescaped: a view into `rest` when it holds no 0x00 byte, else written to *scratch.
// nullopt when `rest` does not start with a component.
std::optional<std::string_view> TakeEscapedComponent(std::string_view& rest, std::string* scratch) {
  const size_t zero = rest.find('\0');
  if (zero == std::string_view::npos || zero + 1 == rest.size()) return std::nullopt;
  if (rest[zero + 1] == '\x01') {  // no escapes: the bytes as they are
    const std::string_view bytes = rest.substr(0, zero);
    rest.remove_prefix(zero + 2);
    return bytes;
  }
  scratch->clear();
  for (size_t i = 0; i + 1 < rest.size(); ++i) {
    if (rest[i] != '\0') {
      scratch->push_back(rest[i]);
    } else if (rest[i + 1] == '\xFF') {
      scratch->push_back('\0');
      ++i;
    } else if (rest[i + 1] == '\x01') {
      rest.remove_prefix(i + 2);
      return *scratch;
    } else {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

}  // namespace

StoredItem SecondaryIndex::EntryItem(std::string_view partition, std::string_view entry_key,
                                     const StoredItem& entry) const {
  if (!entries_are_keys()) return entry;
  // The keys' encodings, in the entry key's order (entry_key_parts_).
  ScalarAttribute keys[4];
  std::string scratch[4];  // unescaped components, numbers' texts
  const size_t parts = entry_key_parts_.size();
  bool ok = true;
  for (size_t i = 0; i < parts && ok; ++i) {
    const EntryKeyPart& part = entry_key_parts_[i];
    std::optional<std::string_view> encoded;
    switch (part.source) {
      case EntryKeyPart::Source::kPartition:
        encoded = partition;
        break;
      case EntryKeyPart::Source::kComponent:
        encoded = TakeEscapedComponent(entry_key, &scratch[i]);
        break;
      case EntryKeyPart::Source::kRest:
        encoded = std::exchange(entry_key, {});
        break;
    }
    if (!encoded) {
      ok = false;
    } else if (part.place >= 0) {
      ScalarAttribute& key = keys[part.place];
      key.name = part.attribute->name;
      key.type = ValueTypeOf(part.attribute->type);
      key.payload = *encoded;
      if (part.attribute->type == KeyType::kNumber) {
        Result<Value> number = DecodeKey(part.attribute->type, *encoded);
        ok = number.ok();
        if (ok) key.payload = scratch[i] = number->as_number().ToString();
      }
    }
  }
  // The keys are the index's own: they always decode, and nothing follows them.
  ok = ok && entry_key.empty();
  assert(ok);
  if (!ok) return entry;
  StoredItem item = EncodeScalarAttributes({keys, entry_key_attributes_});
  assert(item.item_size() == entry.item_size());
  return item;
}

size_t SecondaryIndex::EntryBufferBytes(size_t projected_size) const {
  return entries_are_keys() ? 0 : projected_size;  // a KEYS_ONLY entry holds its size alone
}

bool SecondaryIndex::SharesBuffer(const StoredItem& item) const {
  if (definition_.projection == ProjectionType::kAll) return true;
  if (entries_are_keys()) return false;
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
