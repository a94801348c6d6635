// `--capacity on|off`, `--clock system|manual`, the memory limit and TTL flags (commands.h): the
// Database options they select.
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
  // A local DynamoDB by default: expired items stay visible until the sweeper deletes them, as
  // on DynamoDB.
  options.time_to_live.expiry_mode =
      flags.expiry_mode == "cache" ? ExpiryMode::kCache : ExpiryMode::kDynamoDb;
  options.time_to_live.sweep_interval_seconds = flags.ttl_sweep_seconds;
  options.time_to_live.expiry_delay_seconds = flags.ttl_delay_seconds;
  options.memory.limit_bytes = flags.memory_limit;
  options.memory.policy =
      flags.memory_policy == "reject" ? MemoryPolicy::kReject : MemoryPolicy::kEvict;
  options.memory.ttl_first = flags.memory_policy == "evict-ttl-first";
  options.trace = flags.trace;
  return options;
}

}  // namespace partstore::cli
