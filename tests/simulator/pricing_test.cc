// The bill of a simulated run (tools/simulator/pricing.h): every pricing dimension checked by hand
// against the price table (on-demand request units, provisioned capacity-unit-hours, storage in
// GB-months, Standard vs Standard-IA, GSIs), and the price file's reading and errors.
#include "tools/simulator/pricing.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/simulator/simulation_testutil.h"
#include "tools/simulator/simulation.h"
#include "tools/simulator/workload_toml.h"

namespace partstore::sim {
namespace {

Report SimulatedWithPrices(const std::string& toml, const Prices& prices = DefaultPrices()) {
  return testing::MustSimulate(toml, {.progress = nullptr, .prices = prices});
}

// An on-demand Standard table: 60 s of 100 puts a second of 500-byte items (1 WRU each), then
// 60 s of 100 strongly consistent gets a second (1 RRU each, found or not) and 100 eventually
// consistent ones (0.5 RRU each).
constexpr char kOnDemand[] = R"(
name = "on-demand"
[[tables]]
name = "Orders"
partition_key = "PK"
billing = "on-demand"
[[phases]]
name = "writes"
duration = "60s"
rate = 100
  [[phases.mix]]
  op = "put"
  table = "Orders"
  key = "ORDER#{seq}"
  size = 500
[[phases]]
name = "reads"
duration = "60s"
rate = 200
keys = { distribution = "uniform", count = 6000 }
  [[phases.mix]]
  op = "get"
  table = "Orders"
  key = "ORDER#{key}"
  consistent_read = true
  [[phases.mix]]
  op = "get"
  table = "Orders"
  key = "ORDER#{key}"
)";

TEST(PricingTest, OnDemandBillsTheRequestUnitsConsumed) {
  const Report report = SimulatedWithPrices(kOnDemand);
  ASSERT_EQ(report.cost.resources.size(), 1u);
  const ResourceCost& c = report.cost.resources[0];
  EXPECT_EQ(c.billing_mode, "PAY_PER_REQUEST");
  EXPECT_EQ(c.table_class, "STANDARD");
  EXPECT_DOUBLE_EQ(c.write_request_units, 6000);
  // 12,000 gets, about half of each kind (the mix draws by weight): 6,000 x 1 + 6,000 x 0.5
  // give 9,000; the exact figure is the engine's consumed units.
  EXPECT_DOUBLE_EQ(c.read_request_units, report.resources[0].consumed_read_units);
  EXPECT_NEAR(c.read_request_units, 9000, 300);
  EXPECT_DOUBLE_EQ(c.write_cost, 6000 / 1e6 * 0.625);  // $0.00375
  EXPECT_DOUBLE_EQ(c.read_cost, c.read_request_units / 1e6 * 0.125);
  EXPECT_EQ(c.read_capacity_unit_hours, 0);
  EXPECT_EQ(c.write_capacity_unit_hours, 0);
  EXPECT_DOUBLE_EQ(report.cost.hours, 120.0 / 3600);
  EXPECT_DOUBLE_EQ(report.cost.total, c.read_cost + c.write_cost + c.storage_cost);
  EXPECT_DOUBLE_EQ(report.cost.monthly_estimate, report.cost.total * 730 / (120.0 / 3600));
}

// A provisioned Standard-IA table with a GSI and preloaded items, one idle hour.
constexpr char kProvisionedIa[] = R"(
name = "provisioned-ia"
[[tables]]
name = "Archive"
partition_key = "PK"
billing = "provisioned"
read_capacity = 100
write_capacity = 50
table_class = "standard-infrequent-access"
  [[tables.indexes]]
  name = "ByG"
  partition_key = "G"
  read_capacity = 10
  write_capacity = 20
[[preload]]
table = "Archive"
key = "ITEM#{key}"
keys = 1000
size = 1000
attributes = { G = "G#{key}" }
[[phases]]
name = "idle"
duration = "1h"
rate = 0
  [[phases.mix]]
  op = "get"
  table = "Archive"
  key = "ITEM#{key}"
)";

TEST(PricingTest, ProvisionedBillsCapacityUnitHoursAndStorageAtTheTableClass) {
  const Report report = SimulatedWithPrices(kProvisionedIa);
  ASSERT_EQ(report.cost.resources.size(), 2u);
  const ResourceCost& table = report.cost.resources[0];
  const ResourceCost& index = report.cost.resources[1];
  EXPECT_EQ(table.table_class, "STANDARD_INFREQUENT_ACCESS");
  EXPECT_EQ(index.table_class, "STANDARD_INFREQUENT_ACCESS");  // its table's
  EXPECT_EQ(*index.index, "ByG");
  EXPECT_DOUBLE_EQ(report.cost.hours, 1);
  EXPECT_DOUBLE_EQ(table.read_capacity_unit_hours, 100);
  EXPECT_DOUBLE_EQ(table.write_capacity_unit_hours, 50);
  EXPECT_DOUBLE_EQ(table.read_cost, 100 * 0.0001625);  // $0.01625
  EXPECT_DOUBLE_EQ(table.write_cost, 50 * 0.0008125);  // $0.040625
  EXPECT_DOUBLE_EQ(index.read_cost, 10 * 0.0001625);
  EXPECT_DOUBLE_EQ(index.write_cost, 20 * 0.0008125);
  EXPECT_EQ(table.read_request_units, 0);
  // Storage: the items' bytes plus 100 bytes each, for one hour of a 730-hour month, at IA's
  // $0.10 a GB-month.
  const ResourceReport& held = report.resources[0];
  EXPECT_EQ(held.item_count, 1000);
  EXPECT_EQ(held.size_bytes, 1000 * 1000);  // the generator pads each item to its size
  const double gb = (1'000'000 + 100 * 1000) / (1024.0 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(table.storage_gb_months, gb / 730);
  EXPECT_DOUBLE_EQ(table.storage_cost, gb / 730 * 0.10);
  // The GSI holds its own projection (ALL: the whole items) of the 1,000 items.
  EXPECT_EQ(report.resources[1].item_count, 1000);
  EXPECT_GT(index.storage_cost, 0);
  EXPECT_DOUBLE_EQ(report.cost.total, table.total + index.total);
}

TEST(PricingTest, TheTableClassAndAPriceFileChangeTheBill) {
  std::string standard = kProvisionedIa;
  standard.replace(standard.find("standard-infrequent-access"),
                   std::string("standard-infrequent-access").size(), "standard");
  const Report on_standard = SimulatedWithPrices(standard);
  const Report on_ia = SimulatedWithPrices(kProvisionedIa);
  // Standard: throughput 20% cheaper than IA's (IA is 1.25x), storage 2.5x dearer.
  EXPECT_DOUBLE_EQ(on_standard.cost.resources[0].read_cost, 100 * 0.00013);
  EXPECT_DOUBLE_EQ(on_standard.cost.resources[0].storage_cost,
                   on_ia.cost.resources[0].storage_cost * 2.5);

  auto prices = ParsePrices(R"(
region = "eu-west-1"
[standard_infrequent_access]
read_capacity_unit_hour = 0.001
write_capacity_unit_hour = 1
)",
                            "eu.toml");
  ASSERT_TRUE(prices.ok()) << prices.status().message();
  const Report priced = SimulatedWithPrices(kProvisionedIa, *prices);
  EXPECT_EQ(priced.cost.region, "eu-west-1");
  EXPECT_EQ(priced.cost.prices, "eu.toml");
  EXPECT_DOUBLE_EQ(priced.cost.resources[0].read_cost, 100 * 0.001);
  EXPECT_DOUBLE_EQ(priced.cost.resources[0].write_cost, 50 * 1.0);
  // What the file left out keeps the built-in price.
  EXPECT_DOUBLE_EQ(priced.cost.resources[0].storage_cost, on_ia.cost.resources[0].storage_cost);
}

TEST(PricingTest, PriceFilesRoundTripAndBadOnesAreRefusedWithWhere) {
  const Prices defaults = DefaultPrices();
  auto again = ParsePrices(PricesToml(defaults), "built-in");
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(*again, defaults);

  auto error = [](std::string_view text) {
    auto parsed = ParsePrices(text, "p.toml");
    return parsed.ok() ? std::string("OK") : std::string(parsed.status().message());
  };
  EXPECT_EQ(error("[standard]\nread_capacity_unit_hour = -1\n"),
            "p.toml:2:27: standard.read_capacity_unit_hour: expected a price: a number >= 0");
  EXPECT_EQ(error("[standard]\nread_capacity_unit_hour = \"cheap\"\n"),
            "p.toml:2:27: standard.read_capacity_unit_hour: expected a price: a number >= 0");
  EXPECT_EQ(error("[standard]\nwrites = 1\n"),
            "p.toml:2:1: standard.writes: unknown price (known: read_request_units_per_million, "
            "write_request_units_per_million, read_capacity_unit_hour, write_capacity_unit_hour, "
            "storage_gb_month)");
  EXPECT_EQ(error("[glacier]\n"),
            "p.toml:1:2: glacier: unknown key (known: region, currency, standard, "
            "standard_infrequent_access)");
  EXPECT_EQ(error("standard = 3\n"), "p.toml:1:12: standard: expected a table of prices");
  EXPECT_EQ(error("region = \"\"\n"), "p.toml:1:10: region: expected a string of 1..64 characters");
  EXPECT_NE(error("[standard\n").find("p.toml:1:"), std::string::npos);
  EXPECT_EQ(error(""), "OK");  // every price the built-in one
  auto missing = LoadPrices("/nonexistent/prices.toml");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(), "/nonexistent/prices.toml: cannot read the price file");
}

}  // namespace
}  // namespace partstore::sim
