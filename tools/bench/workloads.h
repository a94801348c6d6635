// The workloads `partstore bench` runs and the data they run on.
//
// YCSB's core workloads (github.com/brianfrankcooper/YCSB, workloads/workload[a-f]), on its
// `usertable`: one item per record, partition key YCSB_KEY = "user" + FNV-1a 64 of the record
// number (YCSB's hashed insert order), `fields` attributes field0.. of `field_length` random
// printable bytes (YCSB's defaults: 10 x 100 B, ~1 KB records).
//
//   A  update heavy   50% read, 50% update
//   B  read mostly    95% read, 5% update
//   C  read only      100% read
//   D  read latest    95% read, 5% insert; reads favour the newest records
//   E  short ranges   95% scan (1..100 records, uniform), 5% insert
//   F  read-modify-write  50% read, 50% read then update of the same record
//
// Each runs with the request distribution zipfian or uniform. Zipfian is YCSB's scrambled zipfian
// (theta 0.99: a zipfian rank over 10^10 items, FNV-hashed onto the records, so the hot records are
// spread over the key space); for D, "latest": plain zipfian ranks counted back from the newest
// record. Reads read the whole record;
// updates write one field (YCSB's writeallfields=false); inserts write a new record.
//
// The seeds' access patterns, on the single-table model of the seed articles (PK, SK, and GSI1 on
// GSI1PK / GSI1SK; seeds/000 and seeds/002):
//
//   item            PK            SK                GSI1PK        GSI1SK
//   user profile    USER#u        USER#u            -             -
//   follower edge   USER#u        FOLLOWER#f        -             -
//   order           ORDER#o       ORDER#o           USER#u        ORDER#<date>
//   order line      ORDER#o       PRODUCT#p         PRODUCT#p     ORDER#o
//   product         PRODUCT#p     PRODUCT#p         -             -
//   review          PRODUCT#p     REVIEW#r          -             -
//
//   get-user         GetItem USER#u / USER#u                                    1 item
//   user-orders      Query GSI1 GSI1PK = USER#u AND begins_with(GSI1SK, ORDER#)  orders_per_user
//   product-reviews  Query PK = PRODUCT#p                                        1 + reviews
//   order-items      Query PK = ORDER#o                                          1 + lines
//   followers-page   Query PK = USER#u AND begins_with(SK, FOLLOWER#), Limit 25  25 items
//
// Thread safety: everything here is immutable after construction.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tools/bench/target.h"
#include "tools/simulator/key_chooser.h"
#include "tools/simulator/random.h"

namespace partstore::bench {

enum class Distribution : uint8_t { kZipfian, kUniform };
std::string_view DistributionName(Distribution d);  // "zipfian", "uniform"

// Draws YCSB record numbers in [0, records): uniform; or zipfian, scrambled as YCSB's
// ScrambledZipfianGenerator (rank r over kScrambledItems items, weight 1 / (r + 1)^0.99, record
// FnvHash64(r) % records) or, unscrambled, the rank itself in [0, records) (rank 0 the hottest).
// Thread safety: const after construction; the Random passed in is the caller's.
class RecordChooser {
 public:
  static constexpr int64_t kScrambledItems = 10'000'000'000;  // YCSB's ITEM_COUNT
  RecordChooser(Distribution d, int64_t records, bool scrambled);
  int64_t Next(sim::Random& random) const;

 private:
  sim::KeyChooser chooser_;
  int64_t records_;
  bool scramble_;
};

// One kind of request, each with its own latency histogram.
enum class OpType : uint8_t {
  kRead,
  kUpdate,
  kInsert,
  kScan,
  kReadModifyWrite,
  kGetUser,
  kUserOrders,
  kProductReviews,
  kOrderItems,
  kFollowersPage,
};
inline constexpr int kOpTypes = 10;
std::string_view OpTypeName(OpType op);  // "read", "update", ..., "followers-page"

struct Workload {
  std::string name;         // "ycsb-a", ..., "seed-get-user"
  std::string description;  // "update heavy: 50% read, 50% update"
  bool ycsb = true;
  // YCSB proportions (sum 1).
  double read = 0, update = 0, insert = 0, scan = 0, read_modify_write = 0;
  bool latest = false;                // D: zipfian reads count back from the newest record
  OpType seed_op = OpType::kGetUser;  // !ycsb: the one access pattern
  // Point reads only (YCSB C, get-user): what a static-response server can be measured on.
  bool point_reads_only() const;
  bool writes() const { return update > 0 || insert > 0 || read_modify_write > 0; }
};
std::vector<Workload> YcsbWorkloads();
std::vector<Workload> SeedWorkloads();
// "ycsb-a" .. "seed-followers-page", or nullptr.
const Workload* FindWorkload(std::string_view name);

struct DatasetOptions {
  int64_t records = 100'000;  // YCSB records loaded
  int fields = 10;
  int field_length = 100;
  int64_t users = 2'000;  // seed model: users; products are a quarter of them
  int followers_per_user = 30;
  int orders_per_user = 5;
  int lines_per_order = 3;
  int reviews_per_product = 10;
  uint64_t seed = 42;
};

class Dataset {
 public:
  explicit Dataset(DatasetOptions options);

  const DatasetOptions& options() const { return o_; }
  const TableSpec& ycsb_table() const { return ycsb_table_; }
  const TableSpec& seed_table() const { return seed_table_; }
  std::vector<TableSpec> tables() const { return {ycsb_table_, seed_table_}; }

  // YCSB: the key of record `n` ("user" + FNV-1a 64 of n, in decimal), and a record with fresh
  // random field values.
  static std::string YcsbKey(int64_t n);
  static uint64_t FnvHash64(int64_t n);  // YCSB's Utils.fnvhash64: FNV-1a, made non-negative
  BenchItem YcsbRecord(int64_t n, sim::Random& random) const;
  std::string RandomField(sim::Random& random) const;  // field_length printable bytes
  // The records to load: 0 .. records-1, values drawn from the dataset's seed.
  std::vector<BenchItem> YcsbItems() const;

  // The seed model's items, in a deterministic order, and its entity counts.
  std::vector<BenchItem> SeedItems() const;
  int64_t users() const { return o_.users; }
  int64_t products() const { return std::max<int64_t>(1, o_.users / 4); }
  int64_t orders() const { return o_.users * o_.orders_per_user; }
  static std::string UserKey(int64_t u);     // USER#0000042
  static std::string ProductKey(int64_t p);  // PRODUCT#000042
  static std::string OrderKey(int64_t o);    // ORDER#00000042

 private:
  DatasetOptions o_;
  TableSpec ycsb_table_;
  TableSpec seed_table_;
};

}  // namespace partstore::bench
