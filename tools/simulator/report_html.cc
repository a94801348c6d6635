// HtmlReport: see report_html.h.
//
// The page is built as one string, top to bottom. Every figure taken from a Report goes through
// Figure/FigureCell, which write the JSON path of the value (data-figure), the value itself
// (data-value, shortest round-trip spelling) and its formatted text. The JSON report's paths are
// the member names of report.h; with several runs they are prefixed with "runs[i].".
//
// Heat map: one <rect> per cell whose partition existed (utilization >= 0), with a <title>
// tooltip; a cell where the partition did not exist draws nothing, the map's grey background
// shows through. Cells sit in a group scaled to the cell size, grouped by row and colour class,
// so a rect carries only its column (its width and height, 1 x 1, come from the style sheet: SVG 2
// geometry properties) and the tooltip, which is most of a map's bytes (about 80 bytes a cell).
#include "tools/simulator/report_html.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tools/simulator/report_html_page.h"
#include "tools/simulator/report_summary.h"

namespace partstore::sim {
namespace html {

constexpr std::string_view kStyle = R"css(
:root{color-scheme:light;--fg:#1f2328;--muted:#656d76;--line:#d8dee4;--soft:#f6f8fa;--accent:#0969da}
*{box-sizing:border-box}
body{margin:0;background:#fff;color:var(--fg);font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:1320px;margin:0 auto;padding:24px 28px 48px}
h1{font-size:26px;margin:0 0 4px}
h2{font-size:21px;margin:0 0 6px}
h3{font-size:17px;margin:28px 0 8px;padding-bottom:4px;border-bottom:1px solid var(--line)}
h4{font-size:14px;margin:18px 0 6px}
p{margin:4px 0}
.muted,.sub{color:var(--muted)}
.sub{margin-bottom:16px}
.desc{white-space:pre-line;max-width:90ch}
nav{margin:6px 0 18px}
nav a{color:var(--accent);margin-right:16px;text-decoration:none}
section.run{margin-top:28px;padding-top:16px;border-top:4px solid var(--accent)}
section.resource{margin-top:8px}
table{border-collapse:collapse;margin:6px 0 10px;font-variant-numeric:tabular-nums}
th,td{border:1px solid var(--line);padding:3px 9px;vertical-align:top}
th{background:var(--soft);font-weight:600;text-align:left}
td.n,th.n{text-align:right;white-space:nowrap}
tr.op td{color:#3d444d;background:#fcfcfd}
tr.op td:first-child{padding-left:24px}
tr.op .key{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;color:#57606a}
.phases td:first-child{white-space:nowrap}
.phases th,.phases td{padding:3px 7px}
td.key{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px;word-break:break-all;max-width:520px}
td.msg{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px;white-space:pre-wrap;word-break:break-word;max-width:900px}
.cards{display:flex;flex-wrap:wrap;gap:12px;margin:12px 0}
.card{border:1px solid var(--line);border-radius:8px;padding:10px 16px;min-width:150px;background:var(--soft)}
.card .label{color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.04em}
.card .big{font-size:24px;font-weight:600;font-variant-numeric:tabular-nums}
.card .big small{font-size:13px;font-weight:400;color:var(--muted)}
.cols{display:flex;flex-wrap:wrap;gap:8px 36px;align-items:flex-start}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(380px,1fr));gap:4px 24px}
caption{text-align:left;font-weight:600;padding:2px 0}
details{margin:6px 0}
summary{cursor:pointer;color:var(--accent)}
.chart{display:block;max-width:100%;height:auto;margin:4px 0}
.heatmap{display:block;max-width:100%;height:auto;margin:4px 0}
.heatmap .cells rect{width:1px;height:1px;shape-rendering:crispEdges}
.heatmap .cells .t rect{stroke:#000;stroke-width:1px;vector-effect:non-scaling-stroke;shape-rendering:auto}
svg text{font-size:11px;fill:#3d444d}
svg .axis{stroke:#8c959f;stroke-width:1;fill:none}
svg .grid{stroke:#eaeef2;stroke-width:1}
svg .phase{stroke:#6e7781;stroke-width:1;stroke-dasharray:4 3}
.legend{display:flex;flex-wrap:wrap;align-items:center;gap:6px 14px;font-size:12px;color:var(--muted);margin:4px 0}
.legend .scale{display:inline-flex;align-items:center;gap:0}
.sw{display:inline-block;width:22px;height:12px;vertical-align:middle}
.sw.blank{background:#e9ecef}
.sw.thr{background:#fd8d3c;outline:1px solid #000;outline-offset:-1px}
.sw.line{height:3px}
.ratio{font-weight:600}
footer{margin-top:40px;color:var(--muted);font-size:12px}
.scroll{max-width:100%;overflow-x:auto}
.summary{max-width:100ch;margin:8px 0 4px}
.summary p{margin:3px 0}
.glossary{margin-top:36px;padding-top:12px;border-top:1px solid var(--line)}
.glossary dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 18px;max-width:110ch}
.glossary dt{font-weight:600}
.glossary dd{margin:0}
)css";

// --- sections ----------------------------------------------------------------------------------

void SummaryCards(Page& page, const Report& report) {
  page.Raw("<div class=\"cards\">");
  auto card = [&](std::string_view label, std::string_view path, const Value& value,
                  std::string_view unit) {
    page.Raw("<div class=\"card\"><div class=\"label\">");
    page.Text(label);
    page.Raw("</div><div class=\"big\">");
    page.Figure(path, value);
    if (!unit.empty()) {
      page.Raw(" <small>");
      page.Text(unit);
      page.Raw("</small>");
    }
    page.Raw("</div></div>");
  };
  card("Offered rate", "offered_rate", RateV(report.offered_rate), "/s");
  card("Served rate", "served_rate", RateV(report.served_rate), "/s");
  card("Throttle rate", "throttle_rate", PercentV(report.throttle_rate), "of attempts");
  card("Gave up", "totals.gave_up", IntV(report.totals.gave_up), "requests");
  card("Retry delay p99", "retry_delay.p99_ms", MsV(report.retry_delay.p99_ms), "ms");
  page.Raw("</div>\n");
}

void CountsHeader(Page& page) {
  for (const CountField& field : kCountFields) {
    page.Raw("<th class=\"n\">");
    page.Text(field.label);
    page.Raw("</th>");
  }
}

void CountsCells(Page& page, const std::string& path, const RequestCounts& counts) {
  for (const CountField& field : kCountFields) {
    page.FigureCell(path + "." + field.name, IntV(counts.*field.member));
  }
}

void RetryDelayTable(Page& page, const std::string& path, const RetryDelay& delay) {
  page.Raw(
      "<table><caption>Retry delay of requests served after retries (simulated ms)</caption>"
      "<tr><th class=\"n\">Delayed requests</th><th class=\"n\">Mean</th><th class=\"n\">p50</th>"
      "<th class=\"n\">p99</th><th class=\"n\">Max</th></tr><tr>");
  page.FigureCell(path + ".delayed_requests", IntV(delay.delayed_requests));
  page.FigureCell(path + ".mean_ms", MsV(delay.mean_ms));
  page.FigureCell(path + ".p50_ms", MsV(delay.p50_ms));
  page.FigureCell(path + ".p99_ms", MsV(delay.p99_ms));
  page.FigureCell(path + ".max_ms", MsV(delay.max_ms));
  page.Raw("</tr></table>\n");
}

void ReasonTable(Page& page, const std::string& path, const std::vector<ReasonCount>& reasons,
                 std::string_view caption) {
  if (reasons.empty()) {
    page.Raw("<p class=\"muted\">No throttle events.</p>\n");
    return;
  }
  page.Raw("<table><caption>");
  page.Text(caption);
  page.Raw("</caption><tr><th>Reason</th><th class=\"n\">Events</th></tr>");
  for (size_t i = 0; i < reasons.size(); ++i) {
    std::string item = fmt::format("{}[{}]", path, i);
    page.Raw("<tr>");
    page.FigureCell(item + ".reason", StringV(reasons[i].reason), "");
    page.FigureCell(item + ".events", IntV(reasons[i].events));
    page.Raw("</tr>");
  }
  page.Raw("</table>\n");
}

void PhasesTable(Page& page, const Report& report) {
  page.Raw("<h3>Phases</h3>\n");
  if (report.phases.empty()) {
    page.Raw("<p class=\"muted\">No phases.</p>\n");
    return;
  }
  // (Wide: it scrolls inside its box rather than widening the page.)
  page.Raw(
      "<div class=\"scroll\"><table class=\"phases\"><tr><th>Phase / operation</th><th "
      "class=\"n\">Start s</th>"
      "<th class=\"n\">Duration s</th><th class=\"n\">Offered/s</th><th class=\"n\">Served/s</th>");
  CountsHeader(page);
  page.Raw("<th class=\"n\">Retry p99 ms</th></tr>\n");
  for (size_t p = 0; p < report.phases.size(); ++p) {
    const PhaseReport& phase = report.phases[p];
    std::string path = fmt::format("phases[{}]", p);
    page.Raw("<tr>");
    page.FigureCell(path + ".name", StringV(phase.name), "");
    page.FigureCell(path + ".start_seconds", SecondsV(phase.start_seconds));
    page.FigureCell(path + ".duration_seconds", SecondsV(phase.duration_seconds));
    page.FigureCell(path + ".offered_rate", RateV(phase.offered_rate));
    page.FigureCell(path + ".served_rate", RateV(phase.served_rate));
    CountsCells(page, path + ".counts", phase.counts);
    page.FigureCell(path + ".retry_delay.p99_ms", MsV(phase.retry_delay.p99_ms));
    page.Raw("</tr>\n");
    for (size_t o = 0; o < phase.operations.size(); ++o) {
      const OperationReport& op = phase.operations[o];
      std::string op_path = fmt::format("{}.operations[{}]", path, o);
      page.Raw("<tr class=\"op\"><td>");
      page.Figure(op_path + ".name", StringV(op.name));
      page.Raw(" &middot; ");
      page.Figure(op_path + ".table", StringV(op.table));
      if (op.index) {
        page.Raw(" / ");
        page.Figure(op_path + ".index", StringV(*op.index));
      }
      page.Raw(" <span class=\"key\">");
      page.Figure(op_path + ".key", StringV(op.key));
      page.Raw("</span></td><td></td><td></td><td></td><td></td>");
      CountsCells(page, op_path + ".counts", op.counts);
      page.Raw("<td></td></tr>\n");
    }
  }
  page.Raw("</table></div>\n");
}

void TopKeys(Page& page, const ResourceReport& resource, const std::string& path) {
  page.Raw("<h4>Top keys (Contributor Insights)</h4>\n");
  if (resource.top_keys.empty()) {
    page.Raw("<p class=\"muted\">No Contributor Insights rules.</p>\n");
    return;
  }
  page.Raw("<div class=\"grid\">\n");
  for (size_t i = 0; i < resource.top_keys.size(); ++i) {
    const TopKeyRule& rule = resource.top_keys[i];
    std::string rule_path = fmt::format("{}.top_keys[{}]", path, i);
    page.Raw("<table><caption>");
    page.Figure(rule_path + ".rule", StringV(rule.rule));
    page.Raw("</caption>");
    if (rule.keys.empty()) {
      page.Raw("<tr><td class=\"muted\">no keys</td></tr></table>\n");
      continue;
    }
    page.Raw("<tr><th>Key</th><th class=\"n\">Per minute</th><th class=\"n\">Minute</th></tr>");
    for (size_t k = 0; k < rule.keys.size(); ++k) {
      std::string key_path = fmt::format("{}.keys[{}]", rule_path, k);
      page.Raw("<tr>");
      page.FigureCell(key_path + ".key", StringV(rule.keys[k].key), "key");
      page.FigureCell(key_path + ".value", TrimmedV(rule.keys[k].value, 1));
      page.FigureCell(key_path + ".minute", IntV(rule.keys[k].minute));
      page.Raw("</tr>");
    }
    page.Raw("</table>\n");
  }
  page.Raw("</div>\n");
}

void ResourceSection(Page& page, const ResourceReport& resource, size_t index) {
  const std::string path = fmt::format("resources[{}]", index);
  page.Raw("<section class=\"resource\"><h3>");
  if (resource.index) {
    page.Raw("Index ");
    page.Figure(path + ".index", StringV(*resource.index));
    page.Raw(" on table ");
    page.Figure(path + ".table", StringV(resource.table));
  } else {
    page.Raw("Table ");
    page.Figure(path + ".table", StringV(resource.table));
  }
  page.Raw("</h3>\n<p class=\"sub\">");
  page.Figure(path + ".billing_mode", StringV(resource.billing_mode));
  int64_t live = 0;
  for (const PartitionReport& partition : resource.partitions) live += !partition.retired_seconds;
  page.Raw(fmt::format(" &middot; {} partitions ({} live at the end) &middot; {} splits",
                       Int(static_cast<int64_t>(resource.partitions.size())), Int(live),
                       Int(static_cast<int64_t>(resource.splits.size()))));
  page.Raw(
      "</p>\n<div class=\"cols\"><table><tr><th></th><th class=\"n\">Read</th>"
      "<th class=\"n\">Write</th></tr>\n");
  auto row = [&](std::string_view label, std::string_view read_member, const Value& read,
                 std::string_view write_member, const Value& write) {
    page.Raw("<tr><th>");
    page.Text(label);
    page.Raw("</th>");
    page.FigureCell(path + "." + std::string(read_member), read);
    page.FigureCell(path + "." + std::string(write_member), write);
    page.Raw("</tr>\n");
  };
  row("Provisioned units/s", "read_capacity", IntV(resource.read_capacity), "write_capacity",
      IntV(resource.write_capacity));
  row("Consumed units (RCU / WCU, the run)", "consumed_read_units",
      UnitsV(resource.consumed_read_units), "consumed_write_units",
      UnitsV(resource.consumed_write_units));
  row("Peak units/s (busiest second)", "peak_read_units", UnitsV(resource.peak_read_units),
      "peak_write_units", UnitsV(resource.peak_write_units));
  row("Requests admitted", "read_requests", IntV(resource.read_requests), "write_requests",
      IntV(resource.write_requests));
  row("Requests throttled", "throttled_read_requests", IntV(resource.throttled_read_requests),
      "throttled_write_requests", IntV(resource.throttled_write_requests));
  page.Raw("</table>\n<div>");
  ReasonTable(page, path + ".throttle_events", resource.throttle_events, "Throttle events");
  page.Raw("</div>\n<div>");
  if (resource.splits.empty()) {
    page.Raw("<p class=\"muted\">No splits.</p>\n");
  } else {
    page.Raw(
        "<table><caption>Splits</caption><tr><th class=\"n\">Time s</th>"
        "<th class=\"n\">Parent</th><th class=\"n\">Left</th><th class=\"n\">Right</th>"
        "<th>Reason</th></tr>\n");
    for (size_t i = 0; i < resource.splits.size(); ++i) {
      const SplitReport& split = resource.splits[i];
      std::string split_path = fmt::format("{}.splits[{}]", path, i);
      page.Raw("<tr>");
      page.FigureCell(split_path + ".time_seconds", SecondsV(split.time_seconds));
      page.FigureCell(split_path + ".parent_id", IntV(split.parent_id));
      page.FigureCell(split_path + ".left_id", IntV(split.left_id));
      page.FigureCell(split_path + ".right_id", IntV(split.right_id));
      page.FigureCell(split_path + ".reason", StringV(split.reason), "");
      page.Raw("</tr>\n");
    }
    page.Raw("</table>\n");
  }
  page.Raw("</div></div>\n");

  if (!resource.partitions.empty()) {
    page.Raw(
        fmt::format("<details><summary>Partitions ({})</summary>\n<table><tr>"
                    "<th class=\"n\">Id</th><th>Hash range</th><th class=\"n\">Created s</th>"
                    "<th class=\"n\">Split at s</th><th class=\"n\">Items</th>"
                    "<th class=\"n\">Bytes</th><th class=\"n\">Read units (RCU)</th>"
                    "<th class=\"n\">Write units (WCU)</th><th class=\"n\">Throttled reads</th>"
                    "<th class=\"n\">Throttled writes</th></tr>\n",
                    Int(static_cast<int64_t>(resource.partitions.size()))));
    for (size_t i = 0; i < resource.partitions.size(); ++i) {
      const PartitionReport& partition = resource.partitions[i];
      std::string p = fmt::format("{}.partitions[{}]", path, i);
      page.Raw("<tr>");
      page.FigureCell(p + ".id", IntV(partition.id));
      page.Raw("<td class=\"key\">");
      page.Figure(p + ".hash_range_start", StringV(partition.hash_range_start));
      page.Raw("&ndash;");
      page.Figure(p + ".hash_range_end", StringV(partition.hash_range_end));
      page.Raw("</td>");
      page.FigureCell(p + ".created_seconds", SecondsV(partition.created_seconds));
      if (partition.retired_seconds) {
        page.FigureCell(p + ".retired_seconds", SecondsV(*partition.retired_seconds));
      } else {
        page.Raw("<td class=\"n muted\">live</td>");
      }
      page.FigureCell(p + ".item_count", IntV(partition.item_count));
      page.FigureCell(p + ".size_bytes", IntV(partition.size_bytes));
      page.FigureCell(p + ".consumed_read_units", UnitsV(partition.consumed_read_units));
      page.FigureCell(p + ".consumed_write_units", UnitsV(partition.consumed_write_units));
      page.FigureCell(p + ".throttled_read_requests", IntV(partition.throttled_read_requests));
      page.FigureCell(p + ".throttled_write_requests", IntV(partition.throttled_write_requests));
      page.Raw("</tr>\n");
    }
    page.Raw("</table></details>\n");
  }

  CapacityChart(page, resource, path);
  page.Raw("<h4>Heat map: consumed capacity per partition and ");
  page.Figure(path + ".heat_map.bucket_seconds", IntV(resource.heat_map.bucket_seconds));
  page.Raw(" s bucket (");
  page.Figure(path + ".heat_map.columns", IntV(resource.heat_map.columns));
  page.Raw(" buckets)</h4>\n");
  HeatMapLegend(page);
  HeatMapSvg(page, resource, path);
  TopKeys(page, resource, path);
  page.Raw("</section>\n");
}

// The bill (pricing.h): the run's total, a month at its rate, and each table and GSI's billed
// quantities and costs.
void CostTable(Page& page, const Bill& bill) {
  page.Raw("<h3>Cost</h3>\n<p class=\"sub\">");
  page.Figure("cost.total", FixedV(bill.total, 4));
  page.Raw(" ");
  page.Figure("cost.currency", StringV(bill.currency));
  page.Raw(" for the run &middot; ");
  page.Figure("cost.monthly_estimate", FixedV(bill.monthly_estimate, 2));
  page.Raw(" a month (730 hours) at this rate &middot; ");
  page.Figure("cost.region", StringV(bill.region));
  page.Raw(" prices (");
  page.Figure("cost.prices", StringV(bill.prices));
  page.Raw(
      "). On-demand bills the request units consumed (RRU, WRU); provisioned bills capacity-unit-"
      "hours (RCU-h, WCU-h); storage bills GB-months (item bytes + 100 bytes an item).</p>\n"
      "<div class=\"scroll\"><table><tr><th>Table / index</th><th>Class</th><th>Billing</th>"
      "<th class=\"n\">Reads billed</th><th class=\"n\">Read cost</th>"
      "<th class=\"n\">Writes billed</th><th class=\"n\">Write cost</th>"
      "<th class=\"n\">Storage (GB-months)</th><th class=\"n\">Storage cost</th>"
      "<th class=\"n\">Total</th></tr>\n");
  for (size_t i = 0; i < bill.resources.size(); ++i) {
    const ResourceCost& c = bill.resources[i];
    const std::string path = fmt::format("cost.resources[{}]", i);
    const bool on_demand = c.billing_mode == "PAY_PER_REQUEST";
    page.Raw("<tr><td>");
    page.Text(c.index ? c.table + " / " + *c.index : c.table);
    page.Raw("</td>");
    page.FigureCell(path + ".table_class", StringV(c.table_class), "");
    page.FigureCell(path + ".billing_mode", StringV(c.billing_mode), "");
    if (on_demand) {
      page.FigureCell(path + ".read_request_units", UnitsV(c.read_request_units));
    } else {
      page.FigureCell(path + ".read_capacity_unit_hours", FixedV(c.read_capacity_unit_hours, 2));
    }
    page.FigureCell(path + ".read_cost", FixedV(c.read_cost, 4));
    if (on_demand) {
      page.FigureCell(path + ".write_request_units", UnitsV(c.write_request_units));
    } else {
      page.FigureCell(path + ".write_capacity_unit_hours", FixedV(c.write_capacity_unit_hours, 2));
    }
    page.FigureCell(path + ".write_cost", FixedV(c.write_cost, 4));
    page.FigureCell(path + ".storage_gb_months", FixedV(c.storage_gb_months, 6));
    page.FigureCell(path + ".storage_cost", FixedV(c.storage_cost, 4));
    page.FigureCell(path + ".total", FixedV(c.total, 4));
    page.Raw("</tr>\n");
  }
  page.Raw("</table></div>\n");
}

// The caches in front of tables (TableSpec::cache): what they answered and what they saved.
void CachesTable(Page& page, const Report& report) {
  if (report.caches.empty()) return;
  page.Raw(
      "<h3>Caches</h3>\n<p class=\"sub\">A cache in front of the table (DynamoDB Accelerator's "
      "semantics): hits never reached a partition. Read units saved: the hits times the table's "
      "mean units per read it served (an estimate); dollars only for on-demand tables.</p>\n"
      "<div class=\"scroll\"><table><tr><th>Table</th><th class=\"n\">Hit ratio</th>"
      "<th class=\"n\">Item hits</th><th class=\"n\">'No such item' hits</th>"
      "<th class=\"n\">Page hits</th><th class=\"n\">Item misses</th>"
      "<th class=\"n\">Page misses</th><th class=\"n\">Read units saved</th>"
      "<th class=\"n\">Cost saved</th></tr>\n");
  for (size_t i = 0; i < report.caches.size(); ++i) {
    const CacheReport& c = report.caches[i];
    const std::string path = fmt::format("caches[{}]", i);
    page.Raw("<tr>");
    page.FigureCell(path + ".table", StringV(c.table), "");
    page.FigureCell(path + ".hit_ratio", FixedV(c.hit_ratio, 4));
    page.FigureCell(path + ".item_hits", IntV(c.item_hits));
    page.FigureCell(path + ".negative_hits", IntV(c.negative_hits));
    page.FigureCell(path + ".query_hits", IntV(c.query_hits));
    page.FigureCell(path + ".item_misses", IntV(c.item_misses));
    page.FigureCell(path + ".query_misses", IntV(c.query_misses));
    page.FigureCell(path + ".read_units_saved", FixedV(c.read_units_saved, 1));
    page.FigureCell(path + ".cost_saved", FixedV(c.cost_saved, 4));
    page.Raw("</tr>\n");
  }
  page.Raw("</table></div>\n");
}

void RunSection(Page& page, const Report& report, size_t index, bool compare) {
  page.Raw(fmt::format("<section class=\"run\" id=\"run-{}\">\n<h2>", index + 1));
  if (compare) page.Raw(fmt::format("Run {}: ", index + 1));
  page.Figure("workload", StringV(report.workload));
  page.Raw("</h2>\n");
  if (!report.description.empty()) {
    page.Raw("<p class=\"desc\">");
    page.Figure("description", StringV(report.description));
    page.Raw("</p>\n");
  }
  page.Raw("<p class=\"sub\">seed ");
  page.Figure("seed", UintV(report.seed));
  page.Raw(" &middot; ");
  page.Figure("simulated_seconds", SecondsV(report.simulated_seconds));
  page.Raw(" s of simulated time &middot; ");
  page.Figure("timeline_bucket_seconds", IntV(report.timeline_bucket_seconds));
  page.Raw(" s buckets</p>\n");

  page.Raw("<div class=\"summary\"><h3>What happened</h3>\n");
  for (const std::string& sentence : Summary(report)) {
    page.Raw("<p>");
    page.Text(sentence);
    page.Raw("</p>\n");
  }
  page.Raw("<p class=\"muted\">Terms: see the <a href=\"#glossary\">glossary</a>.</p></div>\n");
  SummaryCards(page, report);
  page.Raw("<h3>Requests</h3>\n<table><caption>Requests (counts over the run)</caption><tr>");
  CountsHeader(page);
  page.Raw("</tr><tr>");
  CountsCells(page, "totals", report.totals);
  page.Raw("</tr></table>\n<div class=\"cols\">");
  RetryDelayTable(page, "retry_delay", report.retry_delay);
  ReasonTable(page, "throttle_events", report.throttle_events,
              "Throttle events by reason (all tables and indexes)");
  page.Raw("</div>\n");

  TimelineChart(page, report);
  PhasesTable(page, report);
  CostTable(page, report.cost);
  std::vector<CostRow> rows;
  for (size_t i = 0; i < report.cost.resources.size(); ++i) {
    const ResourceCost& c = report.cost.resources[i];
    rows.push_back({.label = c.index ? c.table + " / " + *c.index : c.table,
                    .path = page.prefix() + fmt::format("cost.resources[{}]", i),
                    .read = c.read_cost,
                    .write = c.write_cost,
                    .storage = c.storage_cost});
  }
  CostChart(page, rows, report.cost.currency, "The bill by table and index");
  CachesTable(page, report);
  for (size_t i = 0; i < report.resources.size(); ++i)
    ResourceSection(page, report.resources[i], i);

  if (!report.errors.empty()) {
    page.Raw("<h3>Errors</h3>\n<table><tr><th>Message</th><th class=\"n\">Count</th></tr>\n");
    for (size_t i = 0; i < report.errors.size(); ++i) {
      std::string path = fmt::format("errors[{}]", i);
      page.Raw("<tr>");
      page.FigureCell(path + ".message", StringV(report.errors[i].message), "msg");
      page.FigureCell(path + ".count", IntV(report.errors[i].count));
      page.Raw("</tr>\n");
    }
    page.Raw("</table>\n");
  }
  page.Raw("</section>\n");
}

// The terms the page uses (report_summary.h).
void GlossarySection(Page& page) {
  page.Raw("<section class=\"glossary\" id=\"glossary\"><h2>Glossary</h2>\n<dl>");
  for (const GlossaryEntry& entry : Glossary()) {
    page.Raw("<dt>");
    page.Text(entry.term);
    page.Raw("</dt><dd>");
    page.Text(entry.meaning);
    page.Raw("</dd>");
  }
  page.Raw("</dl></section>\n");
}

// Compare mode: the runs' key figures side by side.
void CompareTable(Page& page, const std::vector<Report>& runs) {
  page.Raw("<h2>Side by side</h2>\n<table class=\"compare\"><tr><th></th>");
  for (size_t i = 0; i < runs.size(); ++i) {
    page.Raw(fmt::format("<th class=\"n\"><a href=\"#run-{0}\">Run {0}</a></th>", i + 1));
  }
  page.Raw("</tr>\n");
  auto row = [&](std::string_view label, std::string_view member, auto value_of,
                 std::string_view cls = "n") {
    page.Raw("<tr><th>");
    page.Text(label);
    page.Raw("</th>");
    for (size_t i = 0; i < runs.size(); ++i) {
      page.set_prefix(fmt::format("runs[{}].", i));
      page.FigureCell(member, value_of(runs[i]), cls);
    }
    page.set_prefix("");
    page.Raw("</tr>\n");
  };
  row(
      "Workload", "workload", [](const Report& r) { return StringV(r.workload); }, "");
  row("Seed", "seed", [](const Report& r) { return UintV(r.seed); });
  row("Simulated seconds", "simulated_seconds",
      [](const Report& r) { return SecondsV(r.simulated_seconds); });
  row("Offered rate /s", "offered_rate", [](const Report& r) { return RateV(r.offered_rate); });
  row("Served rate /s", "served_rate", [](const Report& r) { return RateV(r.served_rate); });
  // The served rate relative to the first run's: derived, so not a figure of the JSON report.
  page.Raw("<tr><th>Served rate vs run 1</th>");
  for (const Report& run : runs) {
    double base = runs.front().served_rate;
    page.Raw("<td class=\"n ratio\">");
    page.Text(base > 0 ? Fixed(run.served_rate / base, 2) + "\xc3\x97" : "\xe2\x80\x93");
    page.Raw("</td>");
  }
  page.Raw("</tr>\n");
  row("Throttle rate", "throttle_rate", [](const Report& r) { return PercentV(r.throttle_rate); });
  for (const CountField& field : kCountFields) {
    row(field.label, std::string("totals.") + field.name,
        [&](const Report& r) { return IntV(r.totals.*field.member); });
  }
  row("Retry delay mean ms", "retry_delay.mean_ms",
      [](const Report& r) { return MsV(r.retry_delay.mean_ms); });
  row("Retry delay p50 ms", "retry_delay.p50_ms",
      [](const Report& r) { return MsV(r.retry_delay.p50_ms); });
  row("Retry delay p99 ms", "retry_delay.p99_ms",
      [](const Report& r) { return MsV(r.retry_delay.p99_ms); });
  row("Retry delay max ms", "retry_delay.max_ms",
      [](const Report& r) { return MsV(r.retry_delay.max_ms); });
  row("Cost of the run", "cost.total", [](const Report& r) { return FixedV(r.cost.total, 4); });
  row("Cost a month at this rate", "cost.monthly_estimate",
      [](const Report& r) { return FixedV(r.cost.monthly_estimate, 2); });
  // Throttle events by reason, every reason any run has (in order of first appearance).
  std::vector<std::string> reasons;
  for (const Report& run : runs) {
    for (const ReasonCount& reason : run.throttle_events) {
      if (std::find(reasons.begin(), reasons.end(), reason.reason) == reasons.end()) {
        reasons.push_back(reason.reason);
      }
    }
  }
  for (const std::string& reason : reasons) {
    page.Raw("<tr><th>");
    page.Text(reason);
    page.Raw(" events</th>");
    for (size_t i = 0; i < runs.size(); ++i) {
      const std::vector<ReasonCount>& events = runs[i].throttle_events;
      auto found = std::find_if(events.begin(), events.end(),
                                [&](const ReasonCount& r) { return r.reason == reason; });
      if (found == events.end()) {
        page.Raw("<td class=\"n muted\">0</td>");
        continue;
      }
      page.set_prefix(fmt::format("runs[{}].", i));
      page.FigureCell(fmt::format("throttle_events[{}].events", found - events.begin()),
                      IntV(found->events));
      page.set_prefix("");
    }
    page.Raw("</tr>\n");
  }
  page.Raw("</table>\n");
}

}  // namespace html

std::string HtmlReport(const std::vector<Report>& runs) {
  using namespace html;  // NOLINT(google-build-using-namespace): the page's own machinery
  Page page;
  const bool compare = runs.size() > 1;
  page.Raw(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
  if (runs.empty()) {
    page.Raw("partstore simulation");
  } else if (!compare) {
    page.Text("partstore simulation: " + runs.front().workload);
  } else {
    std::string names;
    for (const Report& run : runs) names += (names.empty() ? "" : " vs ") + run.workload;
    page.Text("partstore simulation: " + names);
  }
  page.Raw("</title>\n<style>");
  page.Raw(kStyle);
  for (size_t k = 0; k < kHeatColors.size(); ++k) {
    page.Raw(fmt::format(".u{0}{{fill:{1};background:{1}}}", k, kHeatColors[k]));
  }
  page.Raw(fmt::format(".heatmap .cells{{fill:{}}}", kHeatColors[0]));
  page.Raw(
      "\n</style>\n</head>\n<body>\n<main>\n<header><h1>partstore simulation report</h1>\n"
      "<p class=\"muted\">");
  if (runs.empty()) {
    page.Raw("No runs.</p></header>\n");
  } else if (!compare) {
    page.Raw("One run on the simulated clock; rates are per simulated second.</p></header>\n");
  } else {
    page.Raw(
        fmt::format("{} runs compared; rates are per simulated second.</p>\n<nav>", runs.size()));
    for (size_t i = 0; i < runs.size(); ++i) {
      page.Raw(fmt::format("<a href=\"#run-{}\">Run {}: ", i + 1, i + 1));
      page.Text(runs[i].workload);
      page.Raw("</a>");
    }
    page.Raw("</nav></header>\n");
    CompareTable(page, runs);
    std::vector<CostRow> bills;
    for (size_t i = 0; i < runs.size(); ++i) {
      const Bill& bill = runs[i].cost;
      bills.push_back({.label = fmt::format("Run {}: {}", i + 1, runs[i].workload),
                       .path = fmt::format("runs[{}].cost", i),
                       .read = bill.read_cost,
                       .write = bill.write_cost,
                       .storage = bill.storage_cost});
    }
    CostChart(page, bills, runs.front().cost.currency, "The runs' bills side by side");
  }
  for (size_t i = 0; i < runs.size(); ++i) {
    page.set_prefix(compare ? fmt::format("runs[{}].", i) : "");
    RunSection(page, runs[i], i, compare);
  }
  page.set_prefix("");
  GlossarySection(page);
  page.Raw(
      "<footer>Generated by partstore simulate. Every figure is a function of the workload "
      "and its seed (simulated time only).</footer>\n</main>\n</body>\n</html>\n");
  return std::move(page.out());
}

}  // namespace partstore::sim
