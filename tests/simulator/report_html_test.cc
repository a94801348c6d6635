// HtmlReport on synthetic Reports: a self-contained page (no script, no external URL), escaped
// text, data-figure/data-value pairs with the JSON report's paths, deterministic bytes, compare
// mode's runs[i]. prefixes, and the heat map's cells (one <rect> per cell whose partition existed:
// cells with utilization -1 draw nothing).
#include "tools/simulator/report_html.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace partstore::sim {
namespace {

RequestCounts Counts(int64_t offered, int64_t served, int64_t throttled) {
  RequestCounts counts;
  counts.offered = offered;
  counts.attempts = served + throttled;
  counts.served = served;
  counts.throttled = throttled;
  counts.retries = throttled;
  counts.gave_up = throttled / 10;
  counts.condition_failed = 3;
  counts.errors = 1;
  return counts;
}

// A heat map of `rows` partitions (ids 10, 11, ...) x `columns` seconds, every cell existing.
HeatMap FullHeatMap(int rows, int columns) {
  HeatMap map;
  map.bucket_seconds = 1;
  map.columns = columns;
  for (int r = 0; r < rows; ++r) {
    map.partition_ids.push_back(10 + r);
    map.read_units.emplace_back();
    map.write_units.emplace_back();
    map.utilization.emplace_back();
    map.throttled.emplace_back();
    for (int c = 0; c < columns; ++c) {
      double write = 37.5 * ((r * 7 + c * 3) % 29);
      double read = 120.25 * ((r + c) % 5);
      map.read_units.back().push_back(read);
      map.write_units.back().push_back(write);
      map.utilization.back().push_back(std::max(read / 3000, write / 1000));
      map.throttled.back().push_back(write >= 1000 ? 12 : 0);
    }
  }
  return map;
}

// Small but complete: 2 phases, 2 resources (a table and its GSI), a 4 x 6 heat map with one
// blank cell and one throttled cell, top keys, a timeline and an error with markup in it.
Report MakeReport() {
  Report report;
  report.workload = "hot <key> & friends";
  report.description = "Two phases:\nsteady, then a \"spike\" on one key.";
  report.seed = 18446744073709551615ull;
  report.simulated_seconds = 6;
  report.totals = Counts(1234567, 1200000, 34567);
  report.offered_rate = 205761.16666666666;
  report.served_rate = 123.456;
  report.throttle_rate = 0.0123456;
  report.retry_delay = {.delayed_requests = 4321,
                        .mean_ms = 12.345,
                        .p50_ms = 8.5,
                        .p99_ms = 1234.5678,
                        .max_ms = 2000};
  report.throttle_events = {{"TableWriteKeyRangeThroughputExceeded", 900},
                            {"IndexWriteProvisionedThroughputExceeded", 12}};

  PhaseReport steady;
  steady.name = "steady";
  steady.start_seconds = 0;
  steady.duration_seconds = 3;
  steady.offered_rate = 800;
  steady.served_rate = 799.5;
  steady.counts = Counts(2400, 2398, 2);
  steady.operations.push_back(
      {.name = "put", .table = "Hot", .index = {}, .counts = Counts(2400, 2398, 2)});
  PhaseReport spike;
  spike.name = "spike <b>";
  spike.start_seconds = 3;
  spike.duration_seconds = 3;
  spike.offered_rate = 3000;
  spike.served_rate = 1000.25;
  spike.counts = Counts(9000, 3001, 5999);
  spike.retry_delay.p99_ms = 250.75;
  spike.operations.push_back(
      {.name = "put", .table = "Hot", .index = {}, .counts = Counts(6000, 2000, 4000)});
  spike.operations.push_back(
      {.name = "query", .table = "Hot", .index = "GSI1", .counts = Counts(3000, 1001, 1999)});
  report.phases = {steady, spike};

  ResourceReport table;
  table.table = "Hot";
  table.billing_mode = "PROVISIONED";
  table.read_capacity = 2000;
  table.write_capacity = 2000;
  table.consumed_read_units = 1500.5;
  table.consumed_write_units = 9876.25;
  table.peak_read_units = 300;
  table.peak_write_units = 1100;
  table.read_requests = 3001;
  table.write_requests = 8398;
  table.throttled_read_requests = 7;
  table.throttled_write_requests = 5992;
  table.throttle_events = {{"TableWriteKeyRangeThroughputExceeded", 900}};
  table.partitions = {
      {.id = 0,
       .hash_range_start = "0000000000000000",
       .hash_range_end = "7fffffffffffffff",
       .created_seconds = 0,
       .retired_seconds = {},
       .item_count = 100,
       .size_bytes = 30000,
       .consumed_read_units = 700,
       .consumed_write_units = 1000,
       .throttled_read_requests = 0,
       .throttled_write_requests = 0},
      {.id = 1,
       .hash_range_start = "8000000000000000",
       .hash_range_end = "ffffffffffffffff",
       .created_seconds = 0,
       .retired_seconds = 2.5,
       .item_count = 0,
       .size_bytes = 0,
       .consumed_read_units = 800.5,
       .consumed_write_units = 8876.25,
       .throttled_read_requests = 7,
       .throttled_write_requests = 5992},
      {.id = 2,
       .hash_range_start = "8000000000000000",
       .hash_range_end = "bfffffffffffffff",
       .created_seconds = 2.5,
       .retired_seconds = {},
       .item_count = 50,
       .size_bytes = 15000},
      {.id = 3,
       .hash_range_start = "c000000000000000",
       .hash_range_end = "ffffffffffffffff",
       .created_seconds = 2.5,
       .retired_seconds = {},
       .item_count = 60,
       .size_bytes = 18000},
  };
  table.splits = {
      {.time_seconds = 2.5, .parent_id = 1, .left_id = 2, .right_id = 3, .reason = "THROUGHPUT"}};
  table.heat_map.bucket_seconds = 1;
  table.heat_map.columns = 6;
  table.heat_map.partition_ids = {0, 1, 2, 3};
  for (int r = 0; r < 4; ++r) {
    table.heat_map.read_units.push_back({0, 10, 20, 30, 40, 50});
    table.heat_map.write_units.push_back({0, 100, 200, 300, 400, 500});
    table.heat_map.utilization.push_back({0, 0.1, 0.2, 0.3, 0.4, 0.5});
    table.heat_map.throttled.push_back({0, 0, 0, 0, 0, 0});
  }
  // Partition 1 at its limit and throttled in second 2; partition 2 did not exist in second 0.
  table.heat_map.write_units[1][2] = 950;
  table.heat_map.read_units[1][2] = 0;
  table.heat_map.utilization[1][2] = 1.25;
  table.heat_map.throttled[1][2] = 12;
  table.heat_map.utilization[2][0] = -1;
  table.top_keys = {
      {.rule = "MostAccessedPartitionKeys",
       .keys = {{.key = "PK=ITEM#7", .value = 120000, .minute = 0},
                {.key = "PK=ITEM#<1>&\"q\"", .value = 61.5, .minute = 1}}},
      {.rule = "MostThrottledItems", .keys = {}},
  };

  ResourceReport index;
  index.table = "Hot";
  index.index = "GSI1";
  index.billing_mode = "PROVISIONED";
  index.read_capacity = 500;
  index.write_capacity = 500;
  index.consumed_write_units = 4321.125;
  index.throttle_events = {{"IndexWriteProvisionedThroughputExceeded", 12}};
  index.partitions.push_back(PartitionReport{});
  index.partitions[0].hash_range_start = "0000000000000000";
  index.partitions[0].hash_range_end = "ffffffffffffffff";
  index.heat_map = FullHeatMap(1, 6);
  report.resources = {table, index};

  report.timeline_bucket_seconds = 1;
  for (int t = 0; t < 6; ++t) {
    TimelinePoint point;
    point.start_seconds = t;
    point.counts = t < 3 ? Counts(800, 799, 1) : Counts(3000, 1000, 2000);
    if (t >= 3) point.throttle_events = {{"TableWriteKeyRangeThroughputExceeded", 300}};
    report.timeline.push_back(point);
  }
  report.errors = {{.message = "ValidationException: <script>alert(\"x\")</script>", .count = 2}};
  return report;
}

size_t Count(std::string_view text, std::string_view needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string_view::npos;
       at = text.find(needle, at + needle.size())) {
    ++count;
  }
  return count;
}

// The data-value and the text of the figure with `path` ("" when absent).
struct Shown {
  std::string value;
  std::string text;
};
Shown FigureAt(const std::string& html, const std::string& path) {
  std::string needle = "data-figure=\"" + path + "\" data-value=\"";
  size_t at = html.find(needle);
  if (at == std::string::npos) return {};
  at += needle.size();
  size_t value_end = html.find("\">", at);
  size_t text_end = html.find('<', value_end);
  return {html.substr(at, value_end - at), html.substr(value_end + 2, text_end - value_end - 2)};
}

// The <svg class="heatmap" data-resource=RESOURCE ...> ... </svg> element.
std::string HeatMapSvg(const std::string& html, const std::string& resource) {
  size_t start = html.find("<svg class=\"heatmap\" data-resource=\"" + resource + "\"");
  if (start == std::string::npos) return "";
  size_t end = html.find("</svg>", start);
  return html.substr(start, end - start);
}

TEST(HtmlReportTest, SelfContained) {
  std::string html = HtmlReport({MakeReport()});
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("<style>"), std::string::npos);
  EXPECT_EQ(Count(html, "<script"), 0u);
  EXPECT_EQ(Count(html, "<SCRIPT"), 0u);
  // No URL of any kind: the only allowed one would be the SVG namespace, which inline SVG in HTML
  // does not need.
  std::string without_svg_ns = html;
  for (size_t at; (at = without_svg_ns.find("http://www.w3.org/2000/svg")) != std::string::npos;) {
    without_svg_ns.erase(at, 26);
  }
  EXPECT_EQ(Count(without_svg_ns, "http://"), 0u);
  EXPECT_EQ(Count(without_svg_ns, "https://"), 0u);
  EXPECT_EQ(Count(html, "url("), 0u);
  EXPECT_EQ(Count(html, "@import"), 0u);
  EXPECT_EQ(Count(html, " src="), 0u);
  EXPECT_EQ(Count(html, "<link"), 0u);
  EXPECT_NE(html.find("</html>"), std::string::npos);
}

TEST(HtmlReportTest, EscapesText) {
  std::string html = HtmlReport({MakeReport()});
  EXPECT_EQ(html.find("<key>"), std::string::npos);
  EXPECT_NE(html.find("hot &lt;key&gt; &amp; friends"), std::string::npos);
  EXPECT_NE(html.find("ValidationException: &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"),
            std::string::npos);
  EXPECT_EQ(html.find("spike <b>"), std::string::npos);
  EXPECT_NE(html.find("spike &lt;b&gt;"), std::string::npos);
  EXPECT_NE(html.find("PK=ITEM#&lt;1&gt;&amp;&quot;q&quot;"), std::string::npos);
  // In the attribute too.
  Shown key = FigureAt(html, "resources[0].top_keys[0].keys[1].key");
  EXPECT_EQ(key.value, "PK=ITEM#&lt;1&gt;&amp;&quot;q&quot;");
  EXPECT_EQ(key.text, key.value);
}

TEST(HtmlReportTest, FiguresCarryPathAndValue) {
  std::string html = HtmlReport({MakeReport()});
  struct Expected {
    std::string path, value, text;
  };
  const std::vector<Expected> expected = {
      {"workload", "hot &lt;key&gt; &amp; friends", "hot &lt;key&gt; &amp; friends"},
      {"seed", "18446744073709551615", "18,446,744,073,709,551,615"},
      {"simulated_seconds", "6", "6"},
      {"totals.offered", "1234567", "1,234,567"},
      {"totals.served", "1200000", "1,200,000"},
      {"totals.condition_failed", "3", "3"},
      {"offered_rate", "205761.16666666666", "205,761.2"},
      {"served_rate", "123.456", "123.5"},
      {"throttle_rate", "0.0123456", "1.23%"},
      {"retry_delay.p99_ms", "1234.5678", "1,234.6"},
      {"retry_delay.delayed_requests", "4321", "4,321"},
      {"throttle_events[1].reason", "IndexWriteProvisionedThroughputExceeded",
       "IndexWriteProvisionedThroughputExceeded"},
      {"throttle_events[0].events", "900", "900"},
      {"phases[1].name", "spike &lt;b&gt;", "spike &lt;b&gt;"},
      {"phases[1].start_seconds", "3", "3"},
      {"phases[1].served_rate", "1000.25", "1,000.2"},  // fmt rounds half to even here
      {"phases[1].counts.throttled", "5999", "5,999"},
      {"phases[1].retry_delay.p99_ms", "250.75", "250.8"},
      {"phases[1].operations[1].index", "GSI1", "GSI1"},
      {"phases[1].operations[1].counts.gave_up", "199", "199"},
      {"resources[1].index", "GSI1", "GSI1"},
      {"resources[1].heat_map.columns", "6", "6"},
      {"resources[0].consumed_write_units", "9876.25", "9,876.2"},
      {"resources[0].throttled_write_requests", "5992", "5,992"},
      {"resources[0].partitions[1].retired_seconds", "2.5", "2.5"},
      {"resources[0].splits[0].reason", "THROUGHPUT", "THROUGHPUT"},
      {"resources[0].splits[0].right_id", "3", "3"},
      {"resources[0].heat_map.partition_ids[2]", "2", "2"},
      {"resources[0].top_keys[0].keys[0].value", "120000", "120,000"},
      {"resources[0].top_keys[0].keys[1].value", "61.5", "61.5"},
      {"resources[0].top_keys[1].rule", "MostThrottledItems", "MostThrottledItems"},
      {"errors[0].count", "2", "2"},
  };
  for (const Expected& e : expected) {
    Shown shown = FigureAt(html, e.path);
    EXPECT_EQ(shown.value, e.value) << e.path;
    EXPECT_EQ(shown.text, e.text) << e.path;
  }
  // A partition still live at the end has no retired_seconds figure (the JSON leaves it out).
  EXPECT_EQ(html.find("data-figure=\"resources[0].partitions[0].retired_seconds\""),
            std::string::npos);
  // Every data-figure carries a data-value.
  EXPECT_EQ(Count(html, "data-figure=\""), Count(html, "\" data-value=\""));
  EXPECT_GT(Count(html, "data-figure=\""), 150u);
}

TEST(HtmlReportTest, Deterministic) {
  Report report = MakeReport();
  std::string first = HtmlReport({report});
  Report copy = report;
  EXPECT_EQ(first, HtmlReport({copy}));
  EXPECT_EQ(HtmlReport({report, copy}), HtmlReport({copy, report}));
}

TEST(HtmlReportTest, HeatMapCells) {
  std::string html = HtmlReport({MakeReport()});
  std::string table = HeatMapSvg(html, "Hot");
  ASSERT_FALSE(table.empty());
  // 4 x 6 cells, one blank (partition 2 did not exist in second 0): 23 rects, each with a title.
  EXPECT_EQ(Count(table, "<rect"), 23u);
  EXPECT_EQ(Count(table, "<title>"), 23u);
  EXPECT_EQ(Count(table, "<title>partition 2, 0-1 s"), 0u);
  EXPECT_EQ(Count(table, "<title>partition 2, 1-2 s: 100 WCU/s, 10 RCU/s</title>"), 1u);
  EXPECT_EQ(Count(table, "<title>partition 0, 0-1 s: idle</title>"), 1u);
  // The throttled cell: in a group of the darkest class and the outline class, with its tooltip.
  EXPECT_EQ(Count(table,
                  "<g class=\"u8 t\"><rect x=\"2\"><title>partition 1, 2-3 s: 950 WCU/s, "
                  "12 throttled</title></rect></g>"),
            1u);
  EXPECT_EQ(Count(table, " t\""), 1u);
  // Cells of a row share its group, grouped by colour class: partition 3's second 1 (10%) is in
  // class u0, the map's default fill; its second 5 (50%) in class u4.
  EXPECT_NE(table.find("<g transform=\"translate(0 3)\"><rect x=\"0\"><title>partition 3, 0-1 s: "
                       "idle</title></rect><rect x=\"1\">"),
            std::string::npos);
  EXPECT_NE(table.find("<g class=\"u4\"><rect x=\"5\"><title>partition 3, 5-6 s: 500 WCU/s, "
                       "50 RCU/s</title></rect></g></g>"),
            std::string::npos);
  // Axis labels: the partition ids on the left.
  for (int r = 0; r < 4; ++r) {
    EXPECT_NE(
        table.find("data-figure=\"resources[0].heat_map.partition_ids[" + std::to_string(r) +
                   "]\" data-value=\"" + std::to_string(r) + "\">" + std::to_string(r) + "</text>"),
        std::string::npos);
  }
  std::string index = HeatMapSvg(html, "Hot/GSI1");
  ASSERT_FALSE(index.empty());
  EXPECT_EQ(Count(index, "<rect"), 6u);
}

TEST(HtmlReportTest, TimelineChart) {
  std::string html = HtmlReport({MakeReport()});
  size_t start = html.find("<svg class=\"chart timeline\"");
  ASSERT_NE(start, std::string::npos);
  std::string chart = html.substr(start, html.find("</svg>", start) - start);
  EXPECT_EQ(Count(chart, "<polyline"), 2u);  // offered and served
  EXPECT_EQ(Count(chart, "<rect"), 6u);      // a throttled bar per second
  EXPECT_NE(chart.find("<title>4-5 s: 2,000 throttled/s</title>"), std::string::npos);
  EXPECT_NE(chart.find("spike &lt;b&gt;"), std::string::npos);  // phase label
}

TEST(HtmlReportTest, CompareMode) {
  Report a = MakeReport();
  Report b = MakeReport();
  b.workload = "second";
  b.served_rate = 246.912;
  b.totals.served = 42;
  std::string html = HtmlReport({a, b});
  EXPECT_EQ(FigureAt(html, "runs[0].totals.served").value, "1200000");
  EXPECT_EQ(FigureAt(html, "runs[1].totals.served").value, "42");
  EXPECT_EQ(FigureAt(html, "runs[1].workload").text, "second");
  EXPECT_EQ(FigureAt(html, "runs[1].resources[0].heat_map.columns").value, "6");
  EXPECT_EQ(FigureAt(html, "runs[0].phases[1].operations[1].index").value, "GSI1");
  // Every figure is prefixed.
  EXPECT_EQ(Count(html, "data-figure=\""), Count(html, "data-figure=\"runs["));
  // Both runs' sections and heat maps.
  EXPECT_NE(html.find("id=\"run-1\""), std::string::npos);
  EXPECT_NE(html.find("id=\"run-2\""), std::string::npos);
  EXPECT_EQ(Count(html, "<svg class=\"heatmap\" data-resource=\"Hot\""), 2u);
  // Throttle events by reason side by side, a reason only one run has shows 0 for the other.
  b.throttle_events = {{"IndexWriteProvisionedThroughputExceeded", 5}};
  html = HtmlReport({a, b});
  EXPECT_EQ(FigureAt(html, "runs[1].throttle_events[0].events").value, "5");
  EXPECT_NE(
      html.find("<tr><th>TableWriteKeyRangeThroughputExceeded events</th><td class=\"n\" "
                "data-figure=\"runs[0].throttle_events[0].events\" data-value=\"900\">900</td>"
                "<td class=\"n muted\">0</td></tr>"),
      std::string::npos);
  // The ratio of served rates (run 2 / run 1).
  EXPECT_NE(html.find("2.00\xc3\x97"), std::string::npos);
}

TEST(HtmlReportTest, EmptyReportRenders) {
  std::string html = HtmlReport({Report{}});
  EXPECT_NE(html.find("</html>"), std::string::npos);
  EXPECT_EQ(FigureAt(html, "throttle_rate").text, "0.00%");
  std::string none = HtmlReport({});
  EXPECT_NE(none.find("</html>"), std::string::npos);
}

TEST(HtmlReportTest, LargeHeatMapStaysSmall) {
  Report report = MakeReport();
  report.resources[0].heat_map = FullHeatMap(60, 120);
  std::string html = HtmlReport({report});
  EXPECT_EQ(Count(HeatMapSvg(html, "Hot"), "<rect"), 60u * 120u);
  EXPECT_LT(html.size(), 700u * 1024u) << html.size();
}

}  // namespace
}  // namespace partstore::sim
