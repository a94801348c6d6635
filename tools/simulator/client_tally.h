// ClientTally: what the simulated client saw, request by request, tallied by the driver
// (simulation_loop.cc) and turned into a Report with the engine's own metrics (report_builder.h).
//
// Thread safety: a value type.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tools/simulator/auto_scaling.h"
#include "tools/simulator/report.h"

namespace partstore::sim {

struct ClientTally {
  // [phase][mix entry]: counted under the phase that offered the request (its retries included).
  std::vector<std::vector<RequestCounts>> operations;
  // Retry delays (microseconds) of requests served after a retry, per offering phase.
  std::vector<std::vector<int64_t>> delays;
  // Per simulated second (by the time of each attempt).
  std::vector<RequestCounts> seconds;
  // Error message -> occurrences (not throttles, not condition failures).
  std::map<std::string, int64_t> errors;
  // What auto scaling did (auto_scaling.h: the client side of Application Auto Scaling).
  std::vector<ScalingAction> scaling;

  RequestCounts& Second(int64_t micros) {
    const size_t s = static_cast<size_t>(micros / 1'000'000);
    if (s >= seconds.size()) seconds.resize(s + 1);
    return seconds[s];
  }
};

}  // namespace partstore::sim
