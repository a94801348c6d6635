#include "tests/consistency/history_testutil.h"

#include <fmt/format.h>

namespace partstore::consistency {

bool CheckReport::Mentions(std::string_view text) const {
  for (const std::string& a : anomalies) {
    if (a.find(text) != std::string::npos) return true;
  }
  return false;
}

std::string CheckReport::ToString() const {
  if (ok()) return fmt::format("{} operations, no anomaly", operations);
  std::string text = fmt::format("{} operations, {} anomalies:", operations, anomalies.size());
  for (const std::string& a : anomalies) text += "\n  " + a;
  return text;
}

}  // namespace partstore::consistency
