// What a report says in words, for the top of the text and HTML reports: what happened (served
// vs offered, the main throttle and where, what it means, auto scaling, the bill), and the
// glossary of the terms the reports use.
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tools/simulator/report.h"

namespace partstore::sim {

// A few sentences on `report`, most important first.
std::vector<std::string> Summary(const Report& report);

// What a throttle reason (e.g. "TableWriteKeyRangeThroughputExceeded") means, in a sentence.
std::string ExplainReason(std::string_view reason);

struct GlossaryEntry {
  std::string_view term;
  std::string_view meaning;
};
// The terms of the reports, alphabetically.
const std::vector<GlossaryEntry>& Glossary();

}  // namespace partstore::sim
