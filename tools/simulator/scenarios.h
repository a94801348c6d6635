// The built-in scenarios: the workload files under tools/scenarios/, compiled into the program
// (cmake/embed_scenarios.cmake writes builtin_scenarios.cc from them at build time), so that
// `partstore simulate viral-product` and `partstore demo` work from any directory.
//
// Thread safety: immutable data.
#pragma once

#include <span>
#include <string_view>

namespace partstore::sim {

struct Scenario {
  std::string_view name;  // the workload's file name without .toml, '_' spelled '-'
  std::string_view file;  // e.g. "tools/scenarios/viral_product.toml"
  std::string_view toml;  // its text
};

std::span<const Scenario> BuiltinScenarios();
// The scenario named `name` ("viral-product" or "viral_product"), or null.
const Scenario* FindScenario(std::string_view name);

}  // namespace partstore::sim
