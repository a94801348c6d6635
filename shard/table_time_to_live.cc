// Table: Time to Live (see shard/table.h and partstore/time_to_live.h; DynamoDB's rules and
// messages with their sources: docs/reference.md, Time to Live).
#include <algorithm>
#include <charconv>
#include <string>
#include <utility>
#include <vector>

#include "shard/table.h"

namespace partstore {

namespace {

// DynamoDB leaves alone items whose TTL value is more than five years in the past.
constexpr double kFiveYearsSeconds = 5 * 365.25 * 86400;

}  // namespace

std::optional<double> TtlValueOf(const StoredItem& item, std::string_view attribute) {
  std::optional<ValueView> value = item.Find(attribute);
  if (!value || value->type() != Type::kN) return std::nullopt;
  // Canonical decimal text, read as a double: exact enough for a comparison in seconds (numbers
  // beyond double's range fail to convert and never expire).
  const std::string_view text = value->number_text();
  double seconds = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), seconds);
  if (error != std::errc()) return std::nullopt;
  return seconds;
}

Status Table::UpdateTimeToLive(const TimeToLiveSpecification& spec, int64_t now_micros,
                               int64_t change_interval_micros) {
  std::lock_guard lock(ttl_mu_);
  // The state rules first, then the change limit (docs/reference.md, Time to Live).
  if (spec.enabled) {
    if (ttl_attribute_ && *ttl_attribute_ == spec.attribute_name) {
      return Status::Validation("TimeToLive is already enabled");
    }
    if (ttl_attribute_) {
      return Status::Validation(
          "TimeToLive is active on a different AttributeName: current AttributeName is " +
          *ttl_attribute_);
    }
  } else {
    if (!ttl_attribute_) return Status::Validation("TimeToLive is already disabled");
    if (*ttl_attribute_ != spec.attribute_name) {
      return Status::Validation(
          "TimeToLive is active on a different AttributeName: current AttributeName is " +
          *ttl_attribute_);
    }
  }
  if (ttl_changed_micros_ && change_interval_micros > 0 &&
      now_micros - *ttl_changed_micros_ < change_interval_micros) {
    return Status::Validation(
        "Time to live has been modified multiple times within a fixed interval");
  }
  if (spec.enabled) {
    ttl_attribute_ = spec.attribute_name;
  } else {
    ttl_attribute_.reset();
  }
  ttl_changed_micros_ = now_micros;
  if (options_.cache_expiry) {
    const std::string* published = nullptr;
    if (spec.enabled) {
      published =
          ttl_names_.emplace_back(std::make_unique<const std::string>(spec.attribute_name)).get();
    }
    cache_ttl_attribute_.store(published, std::memory_order_release);
  }
  return Status::Ok();
}

TimeToLiveDescription Table::DescribeTimeToLive() const {
  std::lock_guard lock(ttl_mu_);
  TimeToLiveDescription description;
  description.time_to_live_status =
      ttl_attribute_ ? TimeToLiveStatus::kEnabled : TimeToLiveStatus::kDisabled;
  description.attribute_name = ttl_attribute_;
  return description;
}

bool Table::Expiry::Expired(const StoredItem& item) const {
  if (attribute == nullptr) return false;
  const std::optional<double> expiry = TtlValueOf(item, *attribute);
  return expiry && *expiry<now&& * expiry> now - kFiveYearsSeconds;
}

Table::Expiry Table::CacheExpiry() const {
  Expiry expiry;
  expiry.attribute = cache_ttl_attribute_.load(std::memory_order_acquire);
  if (expiry.attribute != nullptr) {
    expiry.now = options_.epoch_at_clock_zero + options_.capacity.clock->NowMicros() / 1e6;
  }
  return expiry;
}

void Table::ReclaimExpired(const EncodedKey& key, const Expiry& expiry) {
  if (!expiry) return;
  Stripe& stripe = stripes_.ForHash(key.hash);
  stripe.AssertHeld();  // REQUIRES: held exclusively by the caller
  const StoredItem* existing = stripe.FindItem({key.hash, key.partition}, key.sort);
  if (existing == nullptr || !expiry.Expired(*existing)) return;
  EraseUnmetered(stripe, key, StoredItem(*existing), StreamRemover::kTimeToLive);
  expired_items_.fetch_add(1, std::memory_order_relaxed);
}

void Table::DropExpiredEntries(const SecondaryIndex* index, const Expiry& expiry,
                               ReadPage* page) const {
  if (!expiry || index == nullptr) return;
  const IndexDefinition& d = index->definition();
  const std::string& attribute = *expiry.attribute;
  auto names = [&](const KeySchema& schema) {
    return attribute == schema.partition.name || (schema.sort && attribute == schema.sort->name);
  };
  if (d.projection == ProjectionType::kAll || names(key_schema_) || names(d.key) ||
      std::find(d.non_key_attributes.begin(), d.non_key_attributes.end(), attribute) !=
          d.non_key_attributes.end()) {
    return;  // the entries carry the attribute: already checked
  }
  // (ReadBaseItem reads nothing for an expired item; no index lock is held here. The check does
  // not mark the base item's collection used.)
  page->DropIf([this](const StoredItem& entry) { return !ReadBaseItem(entry, /*touch=*/false); });
}

int64_t Table::DeleteExpired(double now_epoch, double cutoff) {
  std::string attribute;
  {
    std::lock_guard lock(ttl_mu_);
    if (!ttl_attribute_) return 0;
    attribute = *ttl_attribute_;
  }
  const double oldest = now_epoch - kFiveYearsSeconds;
  // The delete of one item: only while its TTL value is still the one read (an update that moved
  // it, or a new item under the key, is not deleted).
  DeleteItemRequest request;
  request.table_name = name_;
  request.condition_expression = "#ttl = :ttl";
  request.expression_attribute_names = expr::NameMap{{"#ttl", attribute}};
  int64_t deleted = 0;
  std::vector<std::pair<Item, Value>> expired;
  for (size_t i = 0; i < stripes_.size(); ++i) {
    expired.clear();
    {
      const Stripe& stripe = stripes_.at(i);
      Stripe::ReadLock lock(stripe);
      for (const Stripe::Entry* entry : stripe.Ordered()) {
        ItemCollection::Cursor cursor = entry->second.NewCursor();
        for (cursor.SeekToFirst(); cursor.valid(); cursor.Next()) {
          const StoredItem& item = cursor.item();
          const std::optional<double> expiry = TtlValueOf(item, attribute);
          if (!expiry || *expiry >= cutoff || *expiry <= oldest) continue;
          expired.emplace_back(KeyOf(item), item.Find(attribute)->ToValue());
        }
      }
    }
    for (auto& [key, value] : expired) {
      request.key = std::move(key);
      request.expression_attribute_values = AttributeMap{{":ttl", std::move(value)}};
      Result<PreparedCondition> prepared = PrepareDelete(request, name_, cache());
      if (!prepared.ok()) continue;
      if (DeleteItem(request, *prepared,
                     {.unmetered = true, .remover = StreamRemover::kTimeToLive}).ok()) ++deleted;
    }
  }
  expired_items_.fetch_add(static_cast<uint64_t>(deleted), std::memory_order_relaxed);
  return deleted;
}

}  // namespace partstore
