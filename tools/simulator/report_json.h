// The JSON report: a Report (report.h) member for member, names as in the structs (snake_case),
// nested structs as objects, vectors as arrays, absent optionals left out, integral numbers
// written as integers. `partstore simulate A --compare B` writes {"runs": [A, B]}.
//
// Deterministic: the same Report gives the same bytes (one line, then a newline).
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <vector>

#include "tools/simulator/report.h"

namespace partstore::sim {

std::string ReportJson(const Report& report);
// {"runs": [...]} for several runs.
std::string ComparisonJson(const std::vector<Report>& runs);

}  // namespace partstore::sim
