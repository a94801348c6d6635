#include "tools/simulator/pricing.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <array>
#include <cmath>
#include <fstream>
#include <iterator>
#include <utility>

namespace partstore::sim {
namespace {

constexpr double kHoursPerMonth = 730;  // DynamoDB's pricing pages' month
constexpr double kBytesPerGb = 1024.0 * 1024 * 1024;
constexpr double kItemOverheadBytes = 100;  // billed storage an item adds (reference "Pricing")

// ClassPrices' members by their file keys.
struct PriceKey {
  std::string_view name;
  double ClassPrices::*member;
};
constexpr std::array<PriceKey, 5> kPriceKeys = {{
    {"read_request_units_per_million", &ClassPrices::read_request_units_per_million},
    {"write_request_units_per_million", &ClassPrices::write_request_units_per_million},
    {"read_capacity_unit_hour", &ClassPrices::read_capacity_unit_hour},
    {"write_capacity_unit_hour", &ClassPrices::write_capacity_unit_hour},
    {"storage_gb_month", &ClassPrices::storage_gb_month},
}};
constexpr std::string_view kStandard = "standard";
constexpr std::string_view kInfrequentAccess = "standard_infrequent_access";

Status ErrorAt(const std::string& source, const toml::source_region& where, std::string_view path,
               std::string_view message) {
  if (where.begin.line == 0)
    return Status::Validation(fmt::format("{}: {}: {}", source, path, message));
  return Status::Validation(
      fmt::format("{}:{}:{}: {}: {}", source, where.begin.line, where.begin.column, path, message));
}

Status ParseClass(const toml::node& node, const std::string& source, std::string_view name,
                  ClassPrices* out) {
  const toml::table* table = node.as_table();
  if (table == nullptr) return ErrorAt(source, node.source(), name, "expected a table of prices");
  for (const auto& [key, value] : *table) {
    const PriceKey* found = nullptr;
    for (const PriceKey& k : kPriceKeys) {
      if (k.name == key.str()) found = &k;
    }
    const std::string path = fmt::format("{}.{}", name, key.str());
    if (found == nullptr) {
      return ErrorAt(source, key.source(), path,
                     "unknown price (known: read_request_units_per_million, "
                     "write_request_units_per_million, read_capacity_unit_hour, "
                     "write_capacity_unit_hour, storage_gb_month)");
    }
    std::optional<double> price = value.value<double>();  // (an integer converts)
    if (!price || !std::isfinite(*price) || *price < 0) {
      return ErrorAt(source, value.source(), path, "expected a price: a number >= 0");
    }
    out->*(found->member) = *price;
  }
  return Status::Ok();
}

// The bill's quantities of one resource, priced.
ResourceCost PriceResource(const ResourceReport& r, double hours, const Prices& prices) {
  ResourceCost c;
  c.table = r.table;
  c.index = r.index;
  c.billing_mode = r.billing_mode;
  c.table_class = r.table_class;
  const ClassPrices& p = r.table_class == "STANDARD_INFREQUENT_ACCESS"
                             ? prices.standard_infrequent_access
                             : prices.standard;
  if (r.billing_mode == "PAY_PER_REQUEST") {
    c.read_request_units = r.consumed_read_units;
    c.write_request_units = r.consumed_write_units;
    c.read_cost = c.read_request_units / 1e6 * p.read_request_units_per_million;
    c.write_cost = c.write_request_units / 1e6 * p.write_request_units_per_million;
  } else {
    c.read_capacity_unit_hours = r.read_capacity_unit_hours;  // (auto scaling's changes in)
    c.write_capacity_unit_hours = r.write_capacity_unit_hours;
    c.read_cost = c.read_capacity_unit_hours * p.read_capacity_unit_hour;
    c.write_cost = c.write_capacity_unit_hours * p.write_capacity_unit_hour;
  }
  const double bytes =
      static_cast<double>(r.size_bytes) + kItemOverheadBytes * static_cast<double>(r.item_count);
  c.storage_gb_months = bytes / kBytesPerGb * hours / kHoursPerMonth;
  c.storage_cost = c.storage_gb_months * p.storage_gb_month;
  c.total = c.read_cost + c.write_cost + c.storage_cost;
  return c;
}

}  // namespace

Prices DefaultPrices() {
  Prices prices;
  prices.region = "us-east-1";
  prices.source = "built-in";
  // On-demand after the 2024-11-01 price cut; provisioned and storage unchanged by it.
  prices.standard = {.read_request_units_per_million = 0.125,
                     .write_request_units_per_million = 0.625,
                     .read_capacity_unit_hour = 0.00013,
                     .write_capacity_unit_hour = 0.00065,
                     .storage_gb_month = 0.25};
  // Standard-IA: throughput 25% dearer, storage 60% cheaper.
  prices.standard_infrequent_access = {.read_request_units_per_million = 0.15625,
                                       .write_request_units_per_million = 0.78125,
                                       .read_capacity_unit_hour = 0.0001625,
                                       .write_capacity_unit_hour = 0.0008125,
                                       .storage_gb_month = 0.10};
  return prices;
}

Result<Prices> ParsePrices(std::string_view text, const std::string& source) {
  toml::table root;
  try {
    root = toml::parse(text, source);
  } catch (const toml::parse_error& error) {
    const auto& where = error.source().begin;
    return Status::Validation(
        fmt::format("{}:{}:{}: {}", source, where.line, where.column, error.description()));
  }
  Prices prices = DefaultPrices();
  prices.source = source;
  for (const auto& [key, value] : root) {
    const std::string_view name = key.str();
    if (name == "region" || name == "currency") {
      std::optional<std::string> text_value = value.value<std::string>();
      if (!text_value || text_value->empty() || text_value->size() > 64) {
        return ErrorAt(source, value.source(), name, "expected a string of 1..64 characters");
      }
      (name == "region" ? prices.region : prices.currency) = *text_value;
    } else if (name == kStandard) {
      PARTSTORE_RETURN_IF_ERROR(ParseClass(value, source, name, &prices.standard));
    } else if (name == kInfrequentAccess) {
      PARTSTORE_RETURN_IF_ERROR(
          ParseClass(value, source, name, &prices.standard_infrequent_access));
    } else {
      return ErrorAt(source, key.source(), name,
                     "unknown key (known: region, currency, standard, "
                     "standard_infrequent_access)");
    }
  }
  return prices;
}

Result<Prices> LoadPrices(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Validation(fmt::format("{}: cannot read the price file", path));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return ParsePrices(text, path);
}

std::string PricesToml(const Prices& prices) {
  std::string out = fmt::format(
      "# partstore simulate's price table ({}): what each DynamoDB pricing dimension costs.\n"
      "# Edit and pass with --prices FILE; a key left out keeps partstore's built-in price.\n"
      "region = \"{}\"\ncurrency = \"{}\"\n",
      prices.source, prices.region, prices.currency);
  for (const auto& [name, p] : {std::pair{kStandard, &prices.standard},
                                std::pair{kInfrequentAccess, &prices.standard_infrequent_access}}) {
    out += fmt::format("\n[{}]\n", name);
    for (const PriceKey& key : kPriceKeys)
      out += fmt::format("{} = {}\n", key.name, p->*key.member);
  }
  return out;
}

Bill PriceRun(const Report& report, const Prices& prices) {
  Bill bill;
  bill.region = prices.region;
  bill.currency = prices.currency;
  bill.prices = prices.source;
  bill.hours = report.simulated_seconds / 3600;
  for (const ResourceReport& r : report.resources) {
    ResourceCost cost = PriceResource(r, bill.hours, prices);
    bill.read_cost += cost.read_cost;
    bill.write_cost += cost.write_cost;
    bill.storage_cost += cost.storage_cost;
    bill.total += cost.total;
    bill.resources.push_back(std::move(cost));
  }
  bill.monthly_estimate = bill.hours > 0 ? bill.total * kHoursPerMonth / bill.hours : 0;
  return bill;
}

}  // namespace partstore::sim
