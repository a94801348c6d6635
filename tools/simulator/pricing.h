// Pricing: what a simulated run would cost on DynamoDB, by its pricing dimensions, from a price
// table (docs/reference.md, "Pricing").
//
// The dimensions, per table and per GSI (a GSI is billed at its table's class and mode):
//   on-demand     read and write request units (the units the run consumed: a transactional
//                 request's doubled units, an eventually consistent read's half unit);
//   provisioned   read and write capacity-unit-hours (the provisioned units over the simulated
//                 time, auto scaling's changes included from when they took effect);
//   storage       GB-months: the bytes held at the end of the run plus DynamoDB's 100 bytes of
//                 overhead an item, for the simulated time (a month is 730 hours).
// Standard and Standard-IA tables take their class's prices. Not modelled: the free tier,
// backups, streams, global tables, data transfer, reserved capacity.
//
// Thread safety: value types and pure functions.
#pragma once

#include <string>
#include <string_view>

#include "partstore/status.h"
#include "tools/simulator/report.h"

namespace partstore::sim {

// One table class's prices, in the table's currency.
struct ClassPrices {
  double read_request_units_per_million = 0;
  double write_request_units_per_million = 0;
  double read_capacity_unit_hour = 0;
  double write_capacity_unit_hour = 0;
  double storage_gb_month = 0;
  friend bool operator==(const ClassPrices&, const ClassPrices&) = default;
};

struct Prices {
  std::string region;
  std::string currency = "USD";
  std::string source;  // "built-in" or the file's path, shown in reports
  ClassPrices standard;
  ClassPrices standard_infrequent_access;
  friend bool operator==(const Prices&, const Prices&) = default;
};

// us-east-1's list prices (docs/reference.md, "Pricing", with the date and source of each).
Prices DefaultPrices();

// A price file (TOML): `region`, `currency` and the tables [standard] and
// [standard_infrequent_access] with the keys of ClassPrices; what a file leaves out keeps its
// default. Unknown keys, negative or non-numeric prices are refused with "<source>:<line>:<col>:
// ..." (ValidationException).
Result<Prices> ParsePrices(std::string_view text, const std::string& source);
// The file at `path` (its errors too).
Result<Prices> LoadPrices(const std::string& path);
// A price file of `prices` that ParsePrices reads back to them (`partstore simulate
// --print-prices`).
std::string PricesToml(const Prices& prices);

// The bill of `report`'s run (its resources' modes, classes, capacities, consumption and sizes).
Bill PriceRun(const Report& report, const Prices& prices);

}  // namespace partstore::sim
