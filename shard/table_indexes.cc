// Table: keeping secondary indexes in step with the base table (synchronous maintenance).
//
// A write computes each index's old and new entry under its base stripe's exclusive lock, then
// takes each affected index stripe's exclusive lock in turn (base stripe first, then index
// stripes; never the other way round), so when the write returns every entry is in place.
//
// Index write capacity (reference §2.4), per index, in 1 KB units of the *entry* (projection):
// an item entering the index 1 put; leaving it 1 delete; changing index key 2 (delete + put);
// staying with changed projected attributes 1 update (max(old, new) entry size); unchanged or
// never in the index 0.
#include <algorithm>
#include <mutex>
#include <shared_mutex>

#include "core/capacity_units.h"
#include "shard/index_definitions.h"
#include "shard/table.h"
#include "shard/throughput_settings.h"

namespace partstore {

std::shared_ptr<SecondaryIndex> Table::FindIndex(std::string_view name) const {
  std::shared_lock lock(indexes_mu_);
  for (const auto& index : indexes_) {
    if (index->name() == name) return index;
  }
  return nullptr;
}

std::vector<IndexDefinition> Table::index_definitions() const {
  std::shared_lock lock(indexes_mu_);
  std::vector<IndexDefinition> out;
  for (const auto& index : indexes_) out.push_back(index->definition());
  return out;
}

Status Table::UpdateIndexes(const UpdateTableRequest& request) {
  const auto& updates = *request.global_secondary_index_updates;
  // DynamoDB's texts, in its order: each entry's actions, one entry per index, then the limit
  // of one index created or deleted at a time (live captures and dynalite's tests, recorded
  // against DynamoDB).
  size_t creates_or_deletes = 0;
  std::vector<std::string_view> names;
  for (const GlobalSecondaryIndexUpdate& update : updates) {
    const int actions =
        update.create.has_value() + update.update.has_value() + update.remove.has_value();
    if (actions == 0) {
      return Status::Validation(
          "One or more parameter values were invalid: One of GlobalSecondaryIndexUpdate.Update, "
          "GlobalSecondaryIndexUpdate.Create, GlobalSecondaryIndexUpdate.Delete must not be null");
    }
    if (actions > 1) {
      return Status::Validation(
          "One or more parameter values were invalid: Only one global secondary index action is "
          "allowed per GlobalSecondaryIndexUpdate object");
    }
    creates_or_deletes += update.create.has_value() || update.remove.has_value();
  }
  for (const GlobalSecondaryIndexUpdate& update : updates) {
    const std::string& name = update.create   ? update.create->index_name
                              : update.update ? update.update->index_name
                                              : update.remove->index_name;
    if (std::find(names.begin(), names.end(), name) != names.end()) {
      return Status::Validation(
          "One or more parameter values were invalid: Only one global secondary index update per "
          "index is allowed simultaneously. Index: " +
          name);
    }
    names.push_back(name);
  }
  if (creates_or_deletes > 1) {
    return Status(Code::kLimitExceeded,
                  "Subscriber limit exceeded: Only 1 online index can be created or deleted "
                  "simultaneously per table");
  }
  TableDescription description;  // (its billing mode and throughput; description_mu_ is not held
                                 // below: the index lock comes after it)
  {
    std::lock_guard<std::mutex> lock(description_mu_);
    description = description_;
  }
  // The index actions are checked against the billing mode the request leaves (a switch to
  // provisioned gives the GSIs their throughput in the same request).
  const BillingMode mode = request.billing_mode.value_or(description.billing_mode);
  const std::vector<IndexDefinition> existing = index_definitions();
  // Validate every action before changing anything.
  std::vector<IndexDefinition> created;
  for (const GlobalSecondaryIndexUpdate& update : updates) {
    if (update.create) {
      PARTSTORE_ASSIGN_OR_RETURN(
          IndexDefinition definition,
          GlobalIndexDefinitionOf(*update.create, request.attribute_definitions, key_schema_,
                                  existing, mode));
      created.push_back(std::move(definition));
      continue;
    }
    const std::string& name = update.update ? update.update->index_name : update.remove->index_name;
    auto it = std::find_if(existing.begin(), existing.end(),
                           [&](const IndexDefinition& d) { return d.name == name; });
    if (it == existing.end() || it->kind != IndexKind::kGlobal) {
      return Status::ResourceNotFound("Requested resource not found: Index " + name +
                                      " for table " + name_);
    }
    if (update.update) PARTSTORE_RETURN_IF_ERROR(CheckIndexUpdate(*update.update, *it, mode));
  }

  // Apply (see table.h: never more than one base stripe held). Deletions leave the readers' list
  // first; throughput changes touch only definitions.
  IndexList next;
  {
    std::unique_lock indexes_lock(indexes_mu_);
    for (const GlobalSecondaryIndexUpdate& update : updates) {
      if (update.remove) {
        std::erase_if(indexes_, [&](const auto& index) {
          return index->name() == update.remove->index_name;
        });
        if (capacity_) capacity_->RemoveIndex(update.remove->index_name);
      } else if (update.update) {
        const GlobalSecondaryIndexUpdate::Update& change = *update.update;
        for (auto& index : indexes_) {
          if (index->name() != change.index_name) continue;
          const IndexDefinition& d = index->definition();
          std::optional<ProvisionedThroughput> provisioned = change.provisioned_throughput
                                                                 ? change.provisioned_throughput
                                                                 : d.provisioned_throughput;
          std::optional<OnDemandThroughput> on_demand =
              change.on_demand_throughput
                  ? MergeOnDemandThroughput(d.on_demand_throughput, *change.on_demand_throughput)
                  : d.on_demand_throughput;
          std::optional<WarmThroughput> warm =
              change.warm_throughput
                  ? MergeWarmThroughput(d.warm_throughput, *change.warm_throughput)
                  : d.warm_throughput;
          RaiseWarmThroughputToFloor(mode, provisioned, &warm);
          index->set_throughputs(provisioned, on_demand, warm);
          if (capacity_) {
            capacity_->UpdateIndex(index->name(), IndexCapacitySettings(d, description));
          }
        }
      }
    }
    next = indexes_;
  }
  std::vector<std::shared_ptr<SecondaryIndex>> added;
  for (IndexDefinition& definition : created) {
    added.push_back(std::make_shared<SecondaryIndex>(std::move(definition), key_schema_,
                                                     options_.stripes, memory_));
  }
  next.insert(next.end(), added.begin(), added.end());
  for (const auto& index : added) AddIndexCapacity(*index);
  auto list = std::make_shared<const IndexList>(next);
  for (size_t i = 0; i < stripes_.size(); ++i) {
    Stripe& stripe = stripes_.at(i);
    Stripe::WriteLock lock(stripe);
    // Backfill this stripe's items into the new indexes, then switch its writers to the new list.
    // Items whose new key has another type, is empty or is over the key size limits are left out
    // without a word: DynamoDB's "index key violations" ("Detecting and correcting index key
    // violations" in its developer guide), which it reports through no API either.
    for (const auto& index : added) {
      for (const Stripe::Entry* entry : stripe.Ordered()) {
        ItemCollection::Cursor cursor = entry->second.NewCursor();
        for (cursor.SeekToFirst(); cursor.valid(); cursor.Next()) {
          const StoredItem& item = cursor.item();
          // (KeyOf leaves out the violations.)
          std::optional<SecondaryIndex::EntryKey> key =
              index->KeyOf(item, entry->first.key, key_schema_.sort ? cursor.key() : "");
          if (!key) continue;
          StoredItem projected = index->Project(item);
          const size_t size = projected.item_size();
          const bool owns = projected.encoding().data() != item.encoding().data();
          Stripe& target = index->stripes().ForHash(key->hash);
          Stripe::WriteLock target_lock(target);
          target.Put({key->hash, key->partition}, key->entry, std::move(projected), nullptr,
                     {.item = owns, .replaced = true});
          if (capacity_) {
            capacity_->NoteIndexData(index->name(), key->hash, static_cast<int64_t>(size), 1);
          }
        }
      }
    }
    stripe_indexes_[i] = list;
  }
  if (!added.empty()) {
    std::unique_lock indexes_lock(indexes_mu_);
    indexes_.insert(indexes_.end(), added.begin(), added.end());
  }

  // The new indexes' key attributes join the table's AttributeDefinitions; the request's other
  // definitions are ignored, as DynamoDB ignores them (even with another type than the table's:
  // a live catalogue of its answers, docs/reference.md).
  std::lock_guard<std::mutex> lock(description_mu_);
  auto& defs = description_.attribute_definitions;
  for (const auto& index : added) {
    const KeySchema& key = index->definition().key;
    for (const KeyAttribute* attribute : {&key.partition, key.sort ? &*key.sort : nullptr}) {
      if (attribute == nullptr) continue;
      if (std::none_of(defs.begin(), defs.end(), [&](const AttributeDefinition& e) {
            return e.attribute_name == attribute->name;
          })) {
        defs.push_back({attribute->name, attribute->type});
      }
    }
  }
  return Status::Ok();
}

bool Table::HasLocalIndexes(const IndexList& indexes) {
  for (const auto& index : indexes) {
    if (!index->global()) return true;
  }
  return false;
}

namespace {

// The bytes of `key`'s collection in `stripe` (0 when it has none).
uint64_t CollectionBytes(const Stripe& stripe, const Table::EncodedKey& key)
    PARTSTORE_REQUIRES_SHARED(stripe.mutex()) {
  const ItemCollection* entries = stripe.Find({key.hash, key.partition});
  return entries != nullptr ? entries->total_size() : 0;
}

}  // namespace

uint64_t Table::ItemCollectionBytes(const IndexList& indexes, const EncodedKey& key,
                                    const ItemCollection* base, StripeLocking locking) {
  uint64_t bytes = base != nullptr ? base->total_size() : 0;
  for (const auto& index : indexes) {
    if (index->global()) continue;
    const Stripe& stripe = index->stripes().ForHash(key.hash);
    if (locking == StripeLocking::kHeldByCaller) {
      stripe.AssertReaderHeld();  // a transaction's commit holds them
      bytes += CollectionBytes(stripe, key);
    } else {
      Stripe::ReadLock lock(stripe);
      bytes += CollectionBytes(stripe, key);
    }
  }
  return bytes;
}

Status Table::CheckItemCollectionLimit(const IndexList& indexes, const EncodedKey& key,
                                       const ItemCollection* base, int64_t growth) const {
  if (growth <= 0 || !HasLocalIndexes(indexes)) return Status::Ok();  // shrinking writes pass
  if (ItemCollectionBytes(indexes, key, base) + static_cast<uint64_t>(growth) >
      options_.item_collection_size_limit) {
    return Status(Code::kItemCollectionSizeLimitExceeded, "Collection size exceeded.");
  }
  return Status::Ok();
}

std::optional<ItemCollectionMetrics> Table::CollectionMetrics(ReturnItemCollectionMetrics mode,
                                                              const IndexList& indexes,
                                                              const EncodedKey& key,
                                                              const Item& key_item,
                                                              StripeLocking locking) const {
  if (mode != ReturnItemCollectionMetrics::kSize || !HasLocalIndexes(indexes)) return std::nullopt;
  ItemCollectionMetrics out;
  if (auto it = key_item.find(key_schema_.partition.name); it != key_item.end()) {
    out.item_collection_key.emplace(it->first, it->second);
  }
  const Stripe& base_stripe = stripes_.ForHash(key.hash);
  base_stripe.AssertReaderHeld();  // REQUIRES: the base stripe held (see table.h)
  const ItemCollection* base = base_stripe.Find({key.hash, key.partition});
  const double gb = static_cast<double>(ItemCollectionBytes(indexes, key, base, locking)) /
                    (1024.0 * 1024 * 1024);
  const double lower = static_cast<double>(static_cast<int64_t>(gb));
  out.size_estimate_range_gb[0] = lower;
  out.size_estimate_range_gb[1] = lower + 1;
  return out;
}

Status Table::CheckIndexKeys(const IndexList& indexes, const Item& item) {
  for (const auto& index : indexes) PARTSTORE_RETURN_IF_ERROR(index->CheckItem(item));
  return Status::Ok();
}

Status Table::CheckIndexKeys(const IndexList& indexes, const StoredItem& item) {
  for (const auto& index : indexes) PARTSTORE_RETURN_IF_ERROR(index->CheckItem(item));
  return Status::Ok();
}

Status Table::CheckIndexKeysForWrite(const Item& item) const {
  std::shared_lock lock(indexes_mu_);
  return CheckIndexKeys(indexes_, item);
}

Status Table::CheckIndexRead(const SecondaryIndex& index, const PreparedRead& prepared,
                             bool consistent_read) const {
  if (index.global() && consistent_read) {
    return Status::Validation("Consistent reads are not supported on global secondary indexes");
  }
  if (index.global() && prepared.select == Select::kAllAttributes &&
      index.definition().projection != ProjectionType::kAll) {
    return Status::Validation(
        "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported "
        "for global secondary index " +
        index.name() + " because its projection type is not ALL");
  }
  // A GSI cannot fetch from the base table, so asking it for an attribute it does not carry is an
  // error rather than a silently missing attribute (reference §4.4; DynamoDB's exact text was not
  // found: this one names the attribute and the index).
  if (index.global() && prepared.projection) {
    for (const expr::Path& path : prepared.projection->paths) {
      if (!index.Projects(path.top())) {
        return Status::Validation(
            "One or more parameter values were invalid: Global secondary index " + index.name() +
            " does not project attribute " + path.top());
      }
    }
  }
  return Status::Ok();
}

Result<SecondaryIndex::EntryKey> Table::DecodeIndexStartKey(const SecondaryIndex& index,
                                                            const Item& key) const {
  // Texts and order: dynalite test/scan.js and test/query.js, recorded against DynamoDB.
  const Status invalid = Status::Validation("The provided starting key is invalid");
  if (key.size() != StartKeySize(&index)) return invalid;
  const KeySchema& index_key = index.definition().key;
  PARTSTORE_RETURN_IF_ERROR(CheckStartKeyAttribute(key, index_key.partition));
  if (index_key.sort) PARTSTORE_RETURN_IF_ERROR(CheckStartKeyAttribute(key, *index_key.sort));
  Item table_key = KeyOf(key);
  Result<EncodedKey> encoded = EncodeItemKey(table_key);
  if (!encoded.ok()) {
    return Status::Validation("The provided starting key is invalid: " +
                              std::string(encoded.error().message()));
  }
  std::optional<SecondaryIndex::EntryKey> entry =
      index.KeyOf(key, encoded->partition, encoded->sort);
  if (!entry) return invalid;
  return *entry;
}

Item Table::IndexKeyOf(const SecondaryIndex& index, const Item& entry) const {
  Item out = KeyOf(entry);
  for (const KeyAttribute* a :
       {&index.definition().key.partition,
        index.definition().key.sort ? &*index.definition().key.sort : nullptr}) {
    if (a == nullptr) continue;
    if (auto it = entry.find(a->name); it != entry.end())
      out.insert_or_assign(it->first, it->second);
  }
  return out;
}

Item Table::IndexKeyOf(const SecondaryIndex& index, const StoredItem& entry) const {
  Item out = KeyOf(entry);
  for (const KeyAttribute* a :
       {&index.definition().key.partition,
        index.definition().key.sort ? &*index.definition().key.sort : nullptr}) {
    if (a == nullptr) continue;
    if (std::optional<ValueView> v = entry.Find(a->name))
      out.insert_or_assign(a->name, v->ToValue());
  }
  return out;
}

StoredItem Table::ReadBaseItem(const StoredItem& entry, bool touch) const {
  Result<EncodedKey> key = EncodeItemKey(KeyOf(entry));
  if (!key.ok()) return StoredItem();
  return ReadItem(*key, touch);
}

std::optional<ConsumedCapacity> Table::ReportReadCapacity(ReturnConsumedCapacity mode,
                                                          const SecondaryIndex* index,
                                                          int64_t half_units) const {
  CapacityCharge charge;
  if (index == nullptr) {
    charge.table_half_units = half_units;
    return ReportCapacity(mode, name_, charge);
  }
  (index->global() ? charge.global_secondary_indexes
                   : charge.local_secondary_indexes)[index->name()] = half_units;
  std::optional<ConsumedCapacity> out = ReportCapacity(mode, name_, charge);
  if (out) out->table_half_units.reset();  // an index read reports the index part only
  return out;
}

namespace {

int64_t EntryWriteHalfUnits(size_t bytes) { return 2 * WriteUnits(bytes, WriteKind::kStandard); }

void AddIndexCharge(const SecondaryIndex& index, int64_t half_units, CapacityCharge* charge) {
  if (charge == nullptr || half_units == 0) return;
  auto& map = index.global() ? charge->global_secondary_indexes : charge->local_secondary_indexes;
  map[index.name()] += half_units;
}

// (`count_buffer` / `counting`: whether the entries own their buffers, for memory counting.)
void EraseEntry(SecondaryIndex& index, const SecondaryIndex::EntryKey& key, StripeLocking locking,
                bool count_buffer) {
  Stripe& stripe = index.stripes().ForHash(key.hash);
  if (locking == StripeLocking::kHeldByCaller) {
    stripe.AssertHeld();  // a transaction's commit holds its index stripes
    stripe.Erase({key.hash, key.partition}, key.entry, nullptr, count_buffer);
    return;
  }
  Stripe::WriteLock lock(stripe);
  stripe.Erase({key.hash, key.partition}, key.entry, nullptr, count_buffer);
}

void PutEntry(SecondaryIndex& index, const SecondaryIndex::EntryKey& key, StoredItem entry,
              StripeLocking locking, Stripe::BufferCounting counting) {
  Stripe& stripe = index.stripes().ForHash(key.hash);
  if (locking == StripeLocking::kHeldByCaller) {
    stripe.AssertHeld();
    stripe.Put({key.hash, key.partition}, key.entry, std::move(entry), nullptr, counting);
    return;
  }
  Stripe::WriteLock lock(stripe);
  stripe.Put({key.hash, key.partition}, key.entry, std::move(entry), nullptr, counting);
}

}  // namespace

Table::IndexWritePlan Table::PlanIndexWrites(const IndexList& indexes, const StoredItem* old_item,
                                             const StoredItem* new_item,
                                             const EncodedKey& key) const {
  IndexWritePlan plan;
  for (const auto& index_ptr : indexes) {
    SecondaryIndex& index = *index_ptr;
    std::optional<SecondaryIndex::EntryKey> old_key, new_key;
    if (old_item != nullptr) old_key = index.KeyOf(*old_item, key.partition, key.sort);
    if (new_item != nullptr) new_key = index.KeyOf(*new_item, key.partition, key.sort);
    if (!old_key && !new_key) continue;
    IndexWrite write;
    write.index = &index;
    if (old_key && new_key && *old_key == *new_key) {
      // Nothing the index carries changed: no write (compared in place; building both entries
      // cost 21% of a 5-GSI overwrite in bench/index_benchmark.cc).
      if (index.SameProjection(*old_item, *new_item)) {
        // Except that an entry sharing its base item's buffer, or one that would share the new
        // item's, is re-pointed at the new item (free: no capacity, no index write counted), so
        // that an entry shares its base item's current buffer exactly when SharesBuffer(base)
        // holds. The memory count relies on it, and an entry kept on the old buffer would keep
        // that buffer alive.
        write.old_shares = index.SharesBuffer(*old_item);
        if (!write.old_shares && !index.SharesBuffer(*new_item)) continue;
        write.repoint = true;
        write.old_size = write.new_size = index.ProjectedSize(*new_item);
        write.put = std::move(new_key);
        write.replaces = true;
        plan.push_back(std::move(write));
        continue;
      }
      write.old_shares = index.SharesBuffer(*old_item);
      write.old_size = index.ProjectedSize(*old_item);
      write.new_size = index.ProjectedSize(*new_item);
      write.put = std::move(new_key);
      write.replaces = true;
      write.put_half_units = EntryWriteHalfUnits(std::max(write.old_size, write.new_size));
    } else {
      if (old_key) {
        write.old_shares = index.SharesBuffer(*old_item);
        write.old_size = index.ProjectedSize(*old_item);
        write.erase = std::move(old_key);
        write.erase_half_units = EntryWriteHalfUnits(write.old_size);
      }
      if (new_key) {
        write.new_size = index.ProjectedSize(*new_item);
        write.put = std::move(new_key);
        write.put_half_units = EntryWriteHalfUnits(write.new_size);
      }
    }
    plan.push_back(std::move(write));
  }
  return plan;
}

void Table::ApplyIndexWrites(const IndexWritePlan& plan, const StoredItem* new_item,
                             CapacityCharge* charge, StripeLocking locking) {
  for (const IndexWrite& write : plan) {
    if (write.erase) EraseEntry(*write.index, *write.erase, locking, !write.old_shares);
    if (write.put) {
      // An ALL projection stores the base item's own buffer (one more reference).
      StoredItem entry = write.index->Project(*new_item);
      const bool owns = entry.encoding().data() != new_item->encoding().data();
      PutEntry(*write.index, *write.put, std::move(entry), locking,
               {.item = owns, .replaced = !write.old_shares});
    }
    AddIndexCharge(*write.index, write.erase_half_units + write.put_half_units, charge);
  }
}

}  // namespace partstore
