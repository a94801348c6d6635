// libFuzzer target for ReadTrace (request traces, tools/simulator/trace_replay.h). Any input must
// read or fail with a ValidationException naming the source, never crash or hang; a trace that
// reads must keep the promises Simulate relies on (requests in time order within 7 days, each
// with items, a mix entry of the one phase, tables that resolve), and a small one must replay
// (errors of its requests are counted, not crashes). Violations abort.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "tools/simulator/simulation.h"
#include "tools/simulator/trace_replay.h"

namespace {

using namespace partstore::sim;

void Check(bool condition) {
  if (!condition) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > (1 << 16)) return 0;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  auto replay = ReadTrace(in, "fuzz.trace", {.speed = 1000});
  if (!replay.ok()) {
    Check(replay.status().code() == partstore::Code::kValidation);
    Check(replay.status().message().rfind("fuzz.trace", 0) == 0);
    return 0;
  }
  const Workload& w = replay->workload;
  Check(w.phases.size() == 1 && !replay->requests.empty());
  int64_t last = 0;
  for (const ReplayRequest& r : replay->requests) {
    Check(r.micros >= last && r.micros < w.phases[0].duration_micros);
    last = r.micros;
    Check(!r.items.empty() && r.entry >= 0 &&
          r.entry < static_cast<int32_t>(w.phases[0].mix.size()));
    for (const ReplayItem& item : r.items) {
      bool found = false;
      for (const TableSpec& t : w.tables) found = found || t.name == item.table;
      Check(found);
    }
  }
  if (replay->requests.size() <= 200 && w.phases[0].duration_micros <= 60'000'000) {
    auto report = Simulate(w, {.replay = &*replay});
    if (report.ok()) Check(report->phases.size() == 1);
  }
  return 0;
}
