// HtmlReport: the self-contained HTML page of one simulation run, or of several side by side
// (`partstore simulate A --compare B`). Inline CSS and SVG only: no script, no network access, so
// the page renders the same anywhere, offline. Shows the figures of the text report, a partition
// x time heat map of consumed capacity per table and GSI, throttles over time, and the top keys.
//
// Every figure the page shows carries the value it was formatted from (a data-value attribute),
// so a test can check the page against the JSON report.
//
// Thread safety: a pure function.
#pragma once

#include <string>
#include <vector>

#include "tools/simulator/report.h"

namespace partstore::sim {

std::string HtmlReport(const std::vector<Report>& runs);

}  // namespace partstore::sim
