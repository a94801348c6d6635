// The reports' summary in words and glossary (tools/simulator/report_summary.h): the main
// throttle named and explained with where it happened, a quiet run said to be quiet, the bill,
// and every glossary term on the HTML page.
#include "tools/simulator/report_summary.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <string>

#include "tests/simulator/simulation_testutil.h"
#include "tools/simulator/report_html.h"
#include "tools/simulator/report_text.h"
#include "tools/simulator/simulation.h"
#include "tools/simulator/workload_toml.h"

namespace partstore::sim {
namespace {

using testing::OneHotKey;

Report SummarySimulated(const std::string& toml) { return testing::MustSimulate(toml); }
std::string HotKey(int rate) { return OneHotKey(rate); }

std::string Joined(const std::vector<std::string>& sentences) {
  std::string out;
  for (const std::string& s : sentences) out += s + "\n";
  return out;
}

TEST(ReportSummaryTest, NamesTheMainThrottleWhereItHappenedAndWhatFixesIt) {
  const Report report = SummarySimulated(HotKey(3000));
  const std::string summary = Joined(Summary(report));
  EXPECT_NE(summary.find("30,000 requests were offered over 10 s"), std::string::npos) << summary;
  EXPECT_NE(summary.find("mostly TableWriteKeyRangeThroughputExceeded: the table's writes went "
                         "over one partition's limit"),
            std::string::npos)
      << summary;
  EXPECT_NE(summary.find("write sharding"), std::string::npos) << summary;
  EXPECT_NE(summary.find("The most throttled resource is table Events"), std::string::npos)
      << summary;
  EXPECT_NE(summary.find("its most throttled key is PK=DEVICE#7"), std::string::npos) << summary;
  EXPECT_NE(summary.find("USD on DynamoDB"), std::string::npos) << summary;
  // The text report starts with it.
  const std::string text = ReportText(report);
  EXPECT_LT(text.find("What happened:"), text.find("Requests: offered"));
}

// With Contributor Insights off (a faster run), the reports have no top keys and the summary
// names the resource and partition without a key.
TEST(ReportSummaryTest, WithoutContributorInsightsThereAreNoTopKeys) {
  std::string toml = HotKey(3000);
  toml.replace(toml.find("[retries]"), 9, "[capacity]\ncontributor_insights = false\n[retries]");
  const Report report = SummarySimulated(toml);
  ASSERT_GT(report.totals.throttled, 0);
  for (const ResourceReport& r : report.resources) EXPECT_TRUE(r.top_keys.empty());
  const std::string summary = Joined(Summary(report));
  EXPECT_NE(summary.find("The most throttled resource is table Events (partition"),
            std::string::npos)
      << summary;
  EXPECT_EQ(summary.find("most throttled key"), std::string::npos) << summary;
}

TEST(ReportSummaryTest, AQuietRunSaysSo) {
  const std::string summary = Joined(Summary(SummarySimulated(HotKey(100))));
  EXPECT_NE(summary.find("100.0% of them were served"), std::string::npos) << summary;
  EXPECT_NE(summary.find("No request was throttled."), std::string::npos) << summary;
}

TEST(ReportSummaryTest, EveryReasonIsExplained) {
  for (const char* resource : {"Table", "Index"}) {
    for (const char* op : {"Read", "Write"}) {
      for (const char* limit : {"ProvisionedThroughputExceeded", "AccountLimitExceeded",
                                "KeyRangeThroughputExceeded", "MaxOnDemandThroughputExceeded"}) {
        const std::string reason = std::string(resource) + op + limit;
        const std::string text = ExplainReason(reason);
        EXPECT_NE(text, "a throttle") << reason;
        EXPECT_NE(text.find(std::string(op) == "Read" ? "reads" : "writes"), std::string::npos)
            << reason << ": " << text;
      }
    }
  }
}

TEST(ReportSummaryTest, TheGlossaryIsSortedAndOnTheHtmlPage) {
  const auto& glossary = Glossary();
  ASSERT_GE(glossary.size(), 10u);
  auto lower = [](std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
  };
  for (size_t i = 1; i < glossary.size(); ++i) {
    EXPECT_LT(lower(glossary[i - 1].term), lower(glossary[i].term)) << glossary[i].term;
  }
  const std::string html = HtmlReport({SummarySimulated(HotKey(100))});
  EXPECT_NE(html.find("<h3>What happened</h3>"), std::string::npos);
  for (const GlossaryEntry& entry : glossary) {
    std::string term(entry.term);
    EXPECT_NE(html.find("<dt>" + term + "</dt>"), std::string::npos) << term;
  }
}

}  // namespace
}  // namespace partstore::sim
