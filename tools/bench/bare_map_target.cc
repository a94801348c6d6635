#include "tools/bench/bare_map_target.h"

#include <functional>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>
#include <vector>

namespace partstore::bench {
namespace {

constexpr size_t kStripes = 64;

struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
};

using Attributes = std::vector<Attribute>;
using Collection = std::map<std::string, Attributes, std::less<>>;

template <class Value>
struct Stripe {
  mutable std::shared_mutex mu;
  std::unordered_map<std::string, Value, StringHash, std::equal_to<>> map;
};

template <class Value>
using Stripes = std::vector<Stripe<Value>>;

size_t StripeOf(std::string_view key) { return StringHash()(key) & (kStripes - 1); }

void Count(const Attributes& attributes, ReadOutcome* outcome) {
  ++outcome->items;
  for (const Attribute& a : attributes) outcome->Add(a.name, a.value);
}

// Copies the item out, as a store handing items to its caller does, and counts it.
void CopyOut(const Attributes& attributes, Attributes* scratch, ReadOutcome* outcome) {
  *scratch = attributes;
  Count(*scratch, outcome);
}

std::string_view Find(const Attributes& attributes, std::string_view name) {
  for (const Attribute& a : attributes) {
    if (a.name == name) return a.value;
  }
  return {};
}

void Set(Attributes& attributes, std::string_view name, std::string_view value) {
  for (Attribute& a : attributes) {
    if (a.name == name) {
      a.value.assign(value);
      return;
    }
  }
  attributes.push_back({std::string(name), std::string(value)});
}

struct TableData {
  explicit TableData(TableSpec s) : spec(std::move(s)), hash(kStripes), pairs(kStripes) {
    if (!spec.gsi_name.empty()) gsi = Stripes<Collection>(kStripes);
  }
  TableSpec spec;
  Stripes<Attributes> hash;   // no sort key
  Stripes<Collection> pairs;  // with a sort key
  Stripes<Collection> gsi;

  // The GSI entry of an item, or empty when it has no GSI keys.
  std::pair<std::string, std::string> GsiKey(const Attributes& a) const {
    if (spec.gsi_name.empty()) return {};
    std::string_view pk = Find(a, spec.gsi_partition_key);
    std::string_view sk = Find(a, spec.gsi_sort_key);
    if (pk.empty() || sk.empty()) return {};
    std::string sort(sk);
    sort += '\x1f';
    sort += Find(a, spec.partition_key);
    sort += '\x1f';
    sort += Find(a, spec.sort_key);
    return {std::string(pk), std::move(sort)};
  }
  // REQUIRES: the item's table stripe is held exclusively.
  void GsiErase(const std::pair<std::string, std::string>& key) {
    if (key.first.empty()) return;
    Stripe<Collection>& s = gsi[StripeOf(key.first)];
    std::unique_lock lock(s.mu);
    auto it = s.map.find(key.first);
    if (it == s.map.end()) return;
    it->second.erase(key.second);
    if (it->second.empty()) s.map.erase(it);
  }
  void GsiPut(const std::pair<std::string, std::string>& key, const Attributes& item) {
    if (key.first.empty()) return;
    Stripe<Collection>& s = gsi[StripeOf(key.first)];
    std::unique_lock lock(s.mu);
    s.map[key.first].insert_or_assign(key.second, item);
  }
};

class BareMapSession final : public Session {
 public:
  explicit BareMapSession(const std::map<std::string, std::unique_ptr<TableData>>& tables)
      : tables_(tables) {}

  Status Get(const TableSpec& table, ItemKey key, ReadOutcome* outcome) override {
    TableData* t = nullptr;
    if (Status s = Lookup(table, &t); !s.ok()) return s;
    if (table.sort_key.empty()) {
      const Stripe<Attributes>& s = t->hash[StripeOf(key.partition)];
      std::shared_lock lock(s.mu);
      auto it = s.map.find(key.partition);
      if (it != s.map.end()) CopyOut(it->second, &scratch_, outcome);
      return Status::Ok();
    }
    const Stripe<Collection>& s = t->pairs[StripeOf(key.partition)];
    std::shared_lock lock(s.mu);
    auto it = s.map.find(key.partition);
    if (it == s.map.end()) return Status::Ok();
    auto item = it->second.find(key.sort);
    if (item != it->second.end()) CopyOut(item->second, &scratch_, outcome);
    return Status::Ok();
  }

  Status Put(const TableSpec& table, const BenchItem& item) override {
    TableData* t = nullptr;
    if (Status s = Lookup(table, &t); !s.ok()) return s;
    std::string_view pk = item.Get(table.partition_key);
    if (table.sort_key.empty()) {
      Stripe<Attributes>& s = t->hash[StripeOf(pk)];
      std::unique_lock lock(s.mu);
      s.map.insert_or_assign(std::string(pk), item.attributes);
      return Status::Ok();
    }
    Stripe<Collection>& s = t->pairs[StripeOf(pk)];
    std::unique_lock lock(s.mu);
    Collection& collection = s.map[std::string(pk)];
    auto [it, inserted] = collection.try_emplace(std::string(item.Get(table.sort_key)));
    if (!inserted) t->GsiErase(t->GsiKey(it->second));
    it->second = item.attributes;
    t->GsiPut(t->GsiKey(it->second), it->second);
    return Status::Ok();
  }

  Status Update(const TableSpec& table, ItemKey key, std::string_view attribute,
                std::string_view value) override {
    TableData* t = nullptr;
    if (Status s = Lookup(table, &t); !s.ok()) return s;
    if (table.sort_key.empty()) {
      Stripe<Attributes>& s = t->hash[StripeOf(key.partition)];
      std::unique_lock lock(s.mu);
      auto it = s.map.find(key.partition);
      if (it != s.map.end()) Set(it->second, attribute, value);
      return Status::Ok();
    }
    Stripe<Collection>& s = t->pairs[StripeOf(key.partition)];
    std::unique_lock lock(s.mu);
    auto it = s.map.find(key.partition);
    if (it == s.map.end()) return Status::Ok();
    auto item = it->second.find(key.sort);
    if (item == it->second.end()) return Status::Ok();
    t->GsiErase(t->GsiKey(item->second));
    Set(item->second, attribute, value);
    t->GsiPut(t->GsiKey(item->second), item->second);
    return Status::Ok();
  }

  Status Query(const TableSpec& table, bool on_gsi, std::string_view partition,
               std::string_view sort_prefix, int limit, ReadOutcome* outcome) override {
    TableData* t = nullptr;
    if (Status s = Lookup(table, &t); !s.ok()) return s;
    if (table.sort_key.empty() || (on_gsi && t->gsi.empty())) {
      return Status::Validation("the bare map queries tables with a sort key, and their GSI");
    }
    const Stripe<Collection>& s = (on_gsi ? t->gsi : t->pairs)[StripeOf(partition)];
    std::shared_lock lock(s.mu);
    auto it = s.map.find(partition);
    if (it == s.map.end()) return Status::Ok();
    for (auto item = it->second.lower_bound(sort_prefix);
         item != it->second.end() && outcome->items < limit && item->first.starts_with(sort_prefix);
         ++item) {
      CopyOut(item->second, &scratch_, outcome);
    }
    return Status::Ok();
  }

  Status Scan(const TableSpec& table, std::string_view start, int limit,
              ReadOutcome* outcome) override {
    TableData* t = nullptr;
    if (Status s = Lookup(table, &t); !s.ok()) return s;
    if (!table.sort_key.empty()) return Status::Validation("the bare map scans hash tables only");
    size_t stripe = start.empty() ? 0 : StripeOf(start);
    bool first = !start.empty();
    for (; stripe < kStripes && outcome->items < limit; ++stripe) {
      const Stripe<Attributes>& s = t->hash[stripe];
      std::shared_lock lock(s.mu);
      auto it = s.map.begin();
      if (first) {
        it = s.map.find(start);
        if (it != s.map.end()) ++it;
        first = false;
      }
      for (; it != s.map.end() && outcome->items < limit; ++it) {
        CopyOut(it->second, &scratch_, outcome);
      }
    }
    return Status::Ok();
  }

 private:
  Status Lookup(const TableSpec& table, TableData** out) const {
    auto it = tables_.find(table.name);
    if (it == tables_.end()) return Status::ResourceNotFound();
    *out = it->second.get();
    return Status::Ok();
  }

  const std::map<std::string, std::unique_ptr<TableData>>& tables_;
  Attributes scratch_;
};

class BareMapTarget final : public Target {
 public:
  explicit BareMapTarget(std::string name) : name_(std::move(name)) {}
  const std::string& name() const override { return name_; }
  Status Prepare(std::span<const TableSpec> tables) override {
    for (const TableSpec& t : tables) tables_[t.name] = std::make_unique<TableData>(t);
    return Status::Ok();
  }
  Result<std::unique_ptr<Session>> NewSession() override {
    return std::unique_ptr<Session>(std::make_unique<BareMapSession>(tables_));
  }

 private:
  std::string name_;
  std::map<std::string, std::unique_ptr<TableData>> tables_;
};

}  // namespace

std::unique_ptr<Target> MakeBareMapTarget(std::string name) {
  return std::make_unique<BareMapTarget>(std::move(name));
}

}  // namespace partstore::bench
