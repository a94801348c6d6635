// Helpers of the workload parser's tests (workload_toml_test.cc, workload_toml_values_test.cc):
// parsing with a source name, expected errors, and small documents built around one phase or
// operation.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>

#include "tools/simulator/workload_toml.h"

namespace partstore::sim::toml_testing {

using sharding::KeyMatch;
using sharding::ShardStrategy;

// --- Helpers -------------------------------------------------------------------------------------

inline Result<Workload> Parse(std::string_view toml) { return ParseWorkload(toml, "test.toml"); }

inline Workload MustParse(std::string_view toml) {
  Result<Workload> parsed = Parse(toml);
  EXPECT_TRUE(parsed.ok()) << parsed.status().ToString() << "\n" << toml;
  return parsed.ok() ? *parsed : Workload();
}

// The error message of parsing `toml` ("OK" when it parses).
inline std::string Error(std::string_view toml) {
  Result<Workload> parsed = Parse(toml);
  if (parsed.ok()) return "OK";
  EXPECT_EQ(parsed.error().code(), Code::kValidation);
  return std::string(parsed.error().message());
}

// Whether parsing `toml` fails with a message containing `expected`.
inline ::testing::AssertionResult FailsWith(std::string_view toml, std::string_view expected) {
  const std::string error = Error(toml);
  if (error == "OK") {
    return ::testing::AssertionFailure()
           << "parsed, expected an error containing \"" << expected << "\"\n"
           << toml;
  }
  if (error.find(expected) == std::string::npos) {
    return ::testing::AssertionFailure()
           << "the error\n  " << error << "\ndoes not contain\n  " << expected;
  }
  return ::testing::AssertionSuccess();
}

// Two tables: Shop (PK + SK, provisioned, GSI1 with a sort key and ByPk without one) and Flat
// (id only, on-demand, GSI ByOwner without a sort key).
constexpr std::string_view kTables = R"(
[[tables]]
name = "Shop"
partition_key = "PK"
sort_key = "SK"
read_capacity = 100
write_capacity = 100
  [[tables.indexes]]
  name = "GSI1"
  partition_key = "GSI1PK"
  sort_key = "GSI1SK"
  read_capacity = 10
  write_capacity = 10
  [[tables.indexes]]
  name = "ByPk"
  partition_key = "GSI2PK"
  read_capacity = 10
  write_capacity = 10

[[tables]]
name = "Flat"
partition_key = "id"
billing = "on-demand"
  [[tables.indexes]]
  name = "ByOwner"
  partition_key = "owner"
)";

constexpr std::string_view kPhase = R"(
[[phases]]
name = "p"
duration = 10
rate = 1
  [[phases.mix]]
  op = "get"
  table = "Flat"
  key = "K#{key}"
)";

// A workload: `top` (top-level keys), the two tables, `rest` (more tables: [[preload]],
// [[sharding]], [retries], ...) and one phase.
inline std::string Doc(std::string_view top, std::string_view rest = "") {
  return "name = \"test\"\n" + std::string(top) + std::string(kTables) + std::string(rest) +
         std::string(kPhase);
}

// A workload whose only phase has `phase` as its body (name, duration, rate: give them all).
inline std::string WithPhase(std::string_view phase) {
  return "name = \"test\"\n" + std::string(kTables) + "[[phases]]\n" + std::string(phase);
}

// A workload whose only phase has one operation, `op` (its keys).
inline std::string WithOp(std::string_view op) {
  return WithPhase("name = \"p\"\nduration = 10\nrate = 1\n[[phases.mix]]\n" + std::string(op));
}

// The only operation of WithOp(op).
inline Operation MustParseOp(std::string_view op) {
  Workload workload = MustParse(WithOp(op));
  if (workload.phases.size() != 1 || workload.phases[0].mix.size() != 1) return Operation();
  return workload.phases[0].mix[0];
}

// The phase duration of a duration spelling.
inline Result<int64_t> Duration(std::string_view spelling) {
  Result<Workload> parsed = Parse(WithPhase("name = \"p\"\nduration = " + std::string(spelling) +
                                            "\nrate = 1\n[[phases.mix]]\nop = \"scan\"\n"
                                            "table = \"Flat\"\n"));
  if (!parsed.ok()) return parsed.error();
  return parsed->phases[0].duration_micros;
}

// The key distribution of a phase's `keys = <spelling>`.
inline Result<KeyDistribution> Keys(std::string_view spelling) {
  Result<Workload> parsed =
      Parse(WithPhase("name = \"p\"\nduration = 10\nrate = 1\nkeys = " + std::string(spelling) +
                      "\n[[phases.mix]]\nop = \"scan\"\ntable = \"Flat\"\n"));
  if (!parsed.ok()) return parsed.error();
  return parsed->phases[0].keys;
}

// The size of a put's `size = <spelling>`.
inline Result<SizeDistribution> Size(std::string_view spelling) {
  Result<Workload> parsed =
      Parse(WithOp("op = \"put\"\ntable = \"Flat\"\nkey = \"K\"\nsize = " + std::string(spelling)));
  if (!parsed.ok()) return parsed.error();
  return *parsed->phases[0].mix[0].size;
}

inline std::string Text(const std::optional<Template>& t) { return t ? t->text() : "<none>"; }

}  // namespace partstore::sim::toml_testing
