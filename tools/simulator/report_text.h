// The text report: what a terminal shows after `partstore simulate` (and `partstore demo`):
// offered vs served rates, throttles by reason, retries and the delay they added, consumed units
// per table, GSI and partition (the busiest partitions), splits, and the top keys as Contributor
// Insights ranks them. ComparisonText puts two or more runs side by side.
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <vector>

#include "tools/simulator/report.h"

namespace partstore::sim {

std::string ReportText(const Report& report);
std::string ComparisonText(const std::vector<Report>& runs);

// "1,234,567" and "1,234.5": the report's number formats (shared with the HTML report).
std::string Grouped(int64_t value);
std::string Grouped(double value, int decimals);
// "12.3%" for 0.123.
std::string Percent(double fraction);

}  // namespace partstore::sim
