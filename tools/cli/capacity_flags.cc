// `--capacity on|off` and `--clock system|manual` (commands.h): the Database options they select.
#include <memory>

#include "partstore/clock.h"
#include "tools/cli/commands.h"

namespace partstore::cli {

bool CapacityFlags::enabled() const {
  return capacity == "on" || (capacity.empty() && clock == "manual");
}

bool CapacityFlags::manual_clock() const { return clock == "manual"; }

std::string CapacityFlags::Conflict() const {
  if (capacity == "off" && clock == "manual") {
    return "manual needs capacity simulation on: drop --capacity off";
  }
  return "";
}

std::string CapacityFlags::Describe() const {
  if (!enabled()) return "";
  return std::string("capacity simulation on (") + (manual_clock() ? "manual" : "system") +
         " clock)";
}

DatabaseOptions DatabaseOptionsFor(const CapacityFlags& flags) {
  DatabaseOptions options;
  options.capacity.enabled = flags.enabled();
  // Simulation is what these programs are for: every table's top keys are kept (a library user
  // turns them on in CapacityOptions).
  options.capacity.contributor_insights = flags.enabled();
  // A null clock is a SystemClock made with the Database.
  if (flags.manual_clock()) options.capacity.clock = std::make_shared<capacity::ManualClock>();
  // A local DynamoDB: expired items stay visible until the sweeper deletes them, as on DynamoDB.
  options.time_to_live.expiry_mode = ExpiryMode::kDynamoDb;
  return options;
}

}  // namespace partstore::cli
