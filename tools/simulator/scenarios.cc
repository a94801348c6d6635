#include "tools/simulator/scenarios.h"

#include <string>

namespace partstore::sim {

// Defined in the generated builtin_scenarios.cc.
extern const Scenario kBuiltinScenarios[];
extern const size_t kBuiltinScenarioCount;

std::span<const Scenario> BuiltinScenarios() { return {kBuiltinScenarios, kBuiltinScenarioCount}; }

const Scenario* FindScenario(std::string_view name) {
  std::string wanted(name);
  for (char& c : wanted) {
    if (c == '_') c = '-';
  }
  for (const Scenario& s : BuiltinScenarios()) {
    if (s.name == wanted) return &s;
  }
  return nullptr;
}

}  // namespace partstore::sim
