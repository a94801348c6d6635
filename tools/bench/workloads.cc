#include "tools/bench/workloads.h"

#include <cstdio>

namespace partstore::bench {

std::string_view DistributionName(Distribution d) {
  return d == Distribution::kZipfian ? "zipfian" : "uniform";
}

std::string_view OpTypeName(OpType op) {
  switch (op) {
    case OpType::kRead:
      return "read";
    case OpType::kUpdate:
      return "update";
    case OpType::kInsert:
      return "insert";
    case OpType::kScan:
      return "scan";
    case OpType::kReadModifyWrite:
      return "read-modify-write";
    case OpType::kGetUser:
      return "get-user";
    case OpType::kUserOrders:
      return "user-orders";
    case OpType::kProductReviews:
      return "product-reviews";
    case OpType::kOrderItems:
      return "order-items";
    case OpType::kFollowersPage:
      return "followers-page";
  }
  return "?";
}

bool Workload::point_reads_only() const { return ycsb ? read == 1.0 : seed_op == OpType::kGetUser; }

std::vector<Workload> YcsbWorkloads() {
  auto ycsb = [](std::string name, std::string description, double read, double update,
                 double insert, double scan, double read_modify_write, bool latest) {
    Workload w;
    w.name = std::move(name);
    w.description = std::move(description);
    w.read = read;
    w.update = update;
    w.insert = insert;
    w.scan = scan;
    w.read_modify_write = read_modify_write;
    w.latest = latest;
    return w;
  };
  return {
      ycsb("ycsb-a", "update heavy: 50% read, 50% update", 0.5, 0.5, 0, 0, 0, false),
      ycsb("ycsb-b", "read mostly: 95% read, 5% update", 0.95, 0.05, 0, 0, 0, false),
      ycsb("ycsb-c", "read only: 100% read", 1.0, 0, 0, 0, 0, false),
      ycsb("ycsb-d", "read latest: 95% read, 5% insert", 0.95, 0, 0.05, 0, 0, true),
      ycsb("ycsb-e", "short ranges: 95% scan of 1-100, 5% insert", 0, 0, 0.05, 0.95, 0, false),
      ycsb("ycsb-f", "read-modify-write: 50% read, 50% RMW", 0.5, 0, 0, 0, 0.5, false),
  };
}

std::vector<Workload> SeedWorkloads() {
  auto seed = [](std::string name, std::string description, OpType op) {
    Workload w;
    w.name = std::move(name);
    w.description = std::move(description);
    w.ycsb = false;
    w.seed_op = op;
    return w;
  };
  return {
      seed("seed-get-user", "GetItem of a user's profile", OpType::kGetUser),
      seed("seed-user-orders", "Query GSI1: a user's orders", OpType::kUserOrders),
      seed("seed-product-reviews", "Query: a product with its reviews", OpType::kProductReviews),
      seed("seed-order-items", "Query: an order with its items", OpType::kOrderItems),
      seed("seed-followers-page", "Query: a page of 25 followers", OpType::kFollowersPage),
  };
}

const Workload* FindWorkload(std::string_view name) {
  static const std::vector<Workload> all = [] {
    std::vector<Workload> w = YcsbWorkloads();
    for (Workload& s : SeedWorkloads()) w.push_back(std::move(s));
    return w;
  }();
  for (const Workload& w : all) {
    if (w.name == name) return &w;
  }
  return nullptr;
}

Dataset::Dataset(DatasetOptions options) : o_(options) {
  ycsb_table_.name = "partstore-bench-usertable";
  ycsb_table_.partition_key = "YCSB_KEY";
  seed_table_.name = "partstore-bench-seed";
  seed_table_.partition_key = "PK";
  seed_table_.sort_key = "SK";
  seed_table_.gsi_name = "GSI1";
  seed_table_.gsi_partition_key = "GSI1PK";
  seed_table_.gsi_sort_key = "GSI1SK";
}

uint64_t Dataset::FnvHash64(int64_t n) {
  // FNV-1a over the 8 bytes of the number, low byte first; YCSB returns its absolute value.
  uint64_t hash = 0xCBF29CE484222325ull;
  uint64_t value = static_cast<uint64_t>(n);
  for (int i = 0; i < 8; ++i) {
    hash ^= value & 0xff;
    hash *= 1099511628211ull;
    value >>= 8;
  }
  const int64_t signed_hash = static_cast<int64_t>(hash);
  return signed_hash < 0 ? 0 - static_cast<uint64_t>(signed_hash) : hash;
}

std::string Dataset::YcsbKey(int64_t n) { return "user" + std::to_string(FnvHash64(n)); }

namespace {
sim::KeyChooser MakeChooser(Distribution d, int64_t count) {
  sim::KeyDistribution k;
  k.kind = d == Distribution::kZipfian ? sim::KeyDistribution::Kind::kZipfian
                                       : sim::KeyDistribution::Kind::kUniform;
  k.count = std::max<int64_t>(1, count);
  k.theta = 0.99;
  return sim::KeyChooser(k);
}
}  // namespace

RecordChooser::RecordChooser(Distribution d, int64_t records, bool scrambled)
    : chooser_(
          MakeChooser(d, d == Distribution::kZipfian && scrambled ? kScrambledItems : records)),
      records_(std::max<int64_t>(1, records)),
      scramble_(d == Distribution::kZipfian && scrambled) {}

int64_t RecordChooser::Next(sim::Random& random) const {
  const int64_t rank = chooser_.Next(random, 0);
  return scramble_
             ? static_cast<int64_t>(Dataset::FnvHash64(rank) % static_cast<uint64_t>(records_))
             : rank;
}

std::string Dataset::RandomField(sim::Random& random) const {
  std::string value(static_cast<size_t>(o_.field_length), ' ');
  for (size_t i = 0; i < value.size(); i += 8) {
    uint64_t bits = random.Next();
    for (size_t j = i; j < value.size() && j < i + 8; ++j, bits >>= 8) {
      value[j] = static_cast<char>(' ' + 1 + (bits & 0xff) % 94);  // '!' .. '~'
    }
  }
  return value;
}

BenchItem Dataset::YcsbRecord(int64_t n, sim::Random& random) const {
  BenchItem item;
  item.attributes.reserve(static_cast<size_t>(o_.fields) + 1);
  item.attributes.push_back({ycsb_table_.partition_key, YcsbKey(n)});
  for (int f = 0; f < o_.fields; ++f) {
    item.attributes.push_back({"field" + std::to_string(f), RandomField(random)});
  }
  return item;
}

std::vector<BenchItem> Dataset::YcsbItems() const {
  sim::Random random(o_.seed);
  std::vector<BenchItem> items;
  items.reserve(static_cast<size_t>(o_.records));
  for (int64_t n = 0; n < o_.records; ++n) items.push_back(YcsbRecord(n, random));
  return items;
}

namespace {

std::string Numbered(const char* format, int64_t n) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, format, static_cast<long long>(n));
  return buffer;
}

}  // namespace

std::string Dataset::UserKey(int64_t u) { return Numbered("USER#%07lld", u); }
std::string Dataset::ProductKey(int64_t p) { return Numbered("PRODUCT#%06lld", p); }
std::string Dataset::OrderKey(int64_t o) { return Numbered("ORDER#%08lld", o); }

std::vector<BenchItem> Dataset::SeedItems() const {
  sim::Random random(o_.seed + 1);
  std::vector<BenchItem> items;
  const int64_t users = o_.users;
  const int64_t products = this->products();
  items.reserve(static_cast<size_t>(
      users * (1 + o_.followers_per_user + o_.orders_per_user * (1 + o_.lines_per_order)) +
      products * (1 + o_.reviews_per_product)));
  for (int64_t u = 0; u < users; ++u) {
    const std::string user = UserKey(u);
    const std::string name = Numbered("user%lld", u);
    items.push_back({{{"PK", user},
                      {"SK", user},
                      {"type", "user"},
                      {"username", name},
                      {"email", name + "@example.com"},
                      {"name", "Jane Doe"},
                      {"address", "1 Main Street, Springfield, 12345"},
                      {"created_at", "2026-01-15T10:30:00Z"}}});
    for (int f = 0; f < o_.followers_per_user; ++f) {
      const int64_t follower = static_cast<int64_t>(random.Below(static_cast<uint64_t>(users)));
      // The follower's number and the edge's position keep the sort keys distinct.
      items.push_back({{{"PK", user},
                        {"SK", Numbered("FOLLOWER#%07lld", follower) + Numbered("#%03lld", f)},
                        {"type", "follower"},
                        {"follower", UserKey(follower)},
                        {"since", "2026-02-01T08:00:00Z"}}});
    }
    for (int k = 0; k < o_.orders_per_user; ++k) {
      const int64_t o = u * o_.orders_per_user + k;
      const std::string order = OrderKey(o);
      items.push_back({{{"PK", order},
                        {"SK", order},
                        {"GSI1PK", user},
                        {"GSI1SK", Numbered("ORDER#2026-03-%02lld", 1 + k % 28) + "#" + order},
                        {"type", "order"},
                        {"status", "SHIPPED"},
                        {"total", "129.90"},
                        {"shipping_address", "1 Main Street, Springfield, 12345"}}});
      for (int l = 0; l < o_.lines_per_order; ++l) {
        const std::string product =
            ProductKey(static_cast<int64_t>(random.Below(static_cast<uint64_t>(products))));
        items.push_back({{{"PK", order},
                          {"SK", product + Numbered("#%02lld", l)},
                          {"GSI1PK", product},
                          {"GSI1SK", order},
                          {"type", "order_item"},
                          {"quantity", "1"},
                          {"price", "43.30"}}});
      }
    }
  }
  for (int64_t p = 0; p < products; ++p) {
    const std::string product = ProductKey(p);
    items.push_back({{{"PK", product},
                      {"SK", product},
                      {"type", "product"},
                      {"name", "Wireless headphones"},
                      {"category", "electronics"},
                      {"price", "43.30"},
                      {"description",
                       "Over-ear wireless headphones with active noise cancelling, "
                       "40 hours of battery, a folding case, a cable and a pouch too."}}});
    for (int r = 0; r < o_.reviews_per_product; ++r) {
      items.push_back(
          {{{"PK", product},
            {"SK", Numbered("REVIEW#%08lld", p * o_.reviews_per_product + r)},
            {"type", "review"},
            {"rating", "5"},
            {"author", UserKey(static_cast<int64_t>(random.Below(static_cast<uint64_t>(users))))},
            {"text", "Great sound, comfortable, battery lasts all week."}}});
    }
  }
  return items;
}

}  // namespace partstore::bench
