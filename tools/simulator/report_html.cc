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

namespace partstore::sim {
namespace {

// --- text --------------------------------------------------------------------------------------

void AppendEscaped(std::string& out, std::string_view text) {
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
}

// "1234567.5" -> "1,234,567.5".
std::string WithCommas(std::string text) {
  size_t start = !text.empty() && text[0] == '-' ? 1 : 0;
  size_t end = text.find('.');
  if (end == std::string::npos) end = text.size();
  for (size_t i = end; i > start + 3; i -= 3) text.insert(i - 3, ",");
  return text;
}

// A negative zero ("-0.0") prints as zero.
std::string NoNegativeZero(std::string text) {
  if (!text.empty() && text[0] == '-' && text.find_first_not_of("0.", 1) == std::string::npos) {
    text.erase(0, 1);
  }
  return text;
}

std::string Int(int64_t v) { return WithCommas(std::to_string(v)); }

// Fixed decimals, thousands separators.
std::string Fixed(double v, int decimals) {
  if (!std::isfinite(v)) return "n/a";
  return WithCommas(NoNegativeZero(fmt::format("{:.{}f}", v, decimals)));
}

// At most `decimals` decimals, trailing zeros dropped: 20 -> "20", 20.25 -> "20.25".
std::string Trimmed(double v, int decimals) {
  if (!std::isfinite(v)) return "n/a";
  std::string text = fmt::format("{:.{}f}", v, decimals);
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  return WithCommas(NoNegativeZero(text));
}

// The data-value spelling: the shortest text that reads back as the same double.
std::string RawNumber(double v) {
  if (!std::isfinite(v)) return "null";  // as the JSON report writes it
  return fmt::format("{}", v);
}

// A figure: its raw value and its text.
struct Value {
  std::string raw;
  std::string text;
};

Value IntV(int64_t v) { return {std::to_string(v), Int(v)}; }
Value UintV(uint64_t v) { return {std::to_string(v), WithCommas(std::to_string(v))}; }
Value FixedV(double v, int decimals) { return {RawNumber(v), Fixed(v, decimals)}; }
Value TrimmedV(double v, int decimals) { return {RawNumber(v), Trimmed(v, decimals)}; }
Value PercentV(double ratio) {
  return {RawNumber(ratio), std::isfinite(ratio) ? Fixed(ratio * 100, 2) + "%" : "n/a"};
}
Value StringV(const std::string& s) { return {s, s}; }

// Rates per second: 1 decimal; durations in ms: 1 decimal; seconds: up to 3 decimals.
Value RateV(double v) { return FixedV(v, 1); }
Value MsV(double v) { return FixedV(v, 1); }
Value SecondsV(double v) { return TrimmedV(v, 3); }
Value UnitsV(double v) { return FixedV(v, 1); }

// A compact number for tooltips: "950", "12", "0.3", "1,200".
std::string Compact(double v) {
  if (!std::isfinite(v)) return "n/a";
  return std::fabs(v) >= 10 ? Fixed(v, 0) : Trimmed(v, 1);
}

// --- request counts ----------------------------------------------------------------------------

struct CountField {
  const char* name;   // JSON member
  const char* label;  // column heading
  int64_t RequestCounts::*member;
};

constexpr std::array<CountField, 8> kCountFields = {{
    {"offered", "Offered", &RequestCounts::offered},
    {"attempts", "Attempts", &RequestCounts::attempts},
    {"served", "Served", &RequestCounts::served},
    {"throttled", "Throttled", &RequestCounts::throttled},
    {"retries", "Retries", &RequestCounts::retries},
    {"gave_up", "Gave up", &RequestCounts::gave_up},
    {"condition_failed", "Condition failed", &RequestCounts::condition_failed},
    {"errors", "Errors", &RequestCounts::errors},
}};

// --- colours -------------------------------------------------------------------------------------

// Heat map scale (ColorBrewer YlOrRd, 9 classes): class k covers utilization [k/8, (k+1)/8),
// class 8 is >= 1.0 (the partition at its limit).
constexpr std::array<const char*, 9> kHeatColors = {"#ffffcc", "#ffeda0", "#fed976",
                                                    "#feb24c", "#fd8d3c", "#fc4e2a",
                                                    "#e31a1c", "#bd0026", "#800026"};
constexpr const char* kBlankColor = "#e9ecef";  // partition did not exist
constexpr const char* kOfferedColor = "#4c6ef5";
constexpr const char* kServedColor = "#2f9e44";
constexpr const char* kThrottledColor = "#e03131";

int HeatClass(double utilization) {
  if (utilization >= 1.0) return 8;
  return std::clamp(static_cast<int>(std::floor(utilization * 8)), 0, 7);
}

// A round step for about `target` ticks up to `max`.
double NiceStep(double max, int target) {
  if (!(max > 0) || !std::isfinite(max)) return 1;
  double raw = max / target;
  double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (raw <= m * magnitude) return m * magnitude;
  }
  return 10 * magnitude;
}

// --- the page ----------------------------------------------------------------------------------

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
)css";

class Page {
 public:
  explicit Page(std::string prefix = "") : prefix_(std::move(prefix)) {}

  std::string& out() { return out_; }
  void Raw(std::string_view text) { out_ += text; }
  void Text(std::string_view text) { AppendEscaped(out_, text); }
  void set_prefix(std::string prefix) { prefix_ = std::move(prefix); }

  // <span class="figure" data-figure=PATH data-value=RAW>TEXT</span>
  void Figure(std::string_view path, const Value& value) {
    out_ += "<span class=\"figure\" data-figure=\"";
    Attributes(path, value);
    out_ += "</span>";
  }

  // <td class=CLASS data-figure=PATH data-value=RAW>TEXT</td>
  void FigureCell(std::string_view path, const Value& value, std::string_view cls = "n") {
    out_ += "<td";
    if (!cls.empty()) {
      out_ += " class=\"";
      out_ += cls;
      out_ += "\"";
    }
    out_ += " data-figure=\"";
    Attributes(path, value);
    out_ += "</td>";
  }

  // Writes PATH" data-value="RAW">TEXT (the opening quote of data-figure is the caller's).
  void Attributes(std::string_view path, const Value& value) {
    AppendEscaped(out_, prefix_);
    AppendEscaped(out_, path);
    out_ += "\" data-value=\"";
    AppendEscaped(out_, value.raw);
    out_ += "\">";
    AppendEscaped(out_, value.text);
  }

 private:
  std::string prefix_;
  std::string out_;
};

std::string ResourceName(const ResourceReport& resource) {
  return resource.index ? resource.table + "/" + *resource.index : resource.table;
}

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
  page.Raw(
      "<table class=\"phases\"><tr><th>Phase / operation</th><th class=\"n\">Start s</th>"
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
  page.Raw("</table>\n");
}

// The client's offered, served and throttled requests per second over time, with the phases.
void TimelineChart(Page& page, const Report& report) {
  page.Raw("<h3>Requests and throttles over time</h3>\n");
  if (report.timeline.empty()) {
    page.Raw("<p class=\"muted\">No timeline.</p>\n");
    return;
  }
  const double bucket = report.timeline_bucket_seconds > 0
                            ? static_cast<double>(report.timeline_bucket_seconds)
                            : 1.0;
  double end = report.simulated_seconds;
  double max_rate = 0;
  for (const TimelinePoint& point : report.timeline) {
    end = std::max(end, point.start_seconds + bucket);
    max_rate = std::max({max_rate, point.counts.offered / bucket, point.counts.served / bucket,
                         point.counts.throttled / bucket});
  }
  if (!(end > 0)) end = bucket;
  const double y_step = NiceStep(max_rate > 0 ? max_rate : 1, 5);
  const double y_max = std::max(1.0, std::ceil((max_rate > 0 ? max_rate : 1) / y_step)) * y_step;

  const int left = 70, right = 16, top = 22, bottom = 36;
  const int width = 1100, height = 280;
  const int plot_w = width - left - right, plot_h = height - top - bottom;
  auto x_of = [&](double t) { return left + t / end * plot_w; };
  auto y_of = [&](double rate) { return top + plot_h - rate / y_max * plot_h; };

  page.Raw(fmt::format(
      "<div class=\"legend\"><span><span class=\"sw line\" style=\"background:{}\"></span> "
      "offered/s</span><span><span class=\"sw line\" style=\"background:{}\"></span> "
      "served/s</span><span><span class=\"sw\" style=\"background:{}\"></span> "
      "throttled attempts/s</span><span>dashed lines: phase starts</span></div>\n",
      kOfferedColor, kServedColor, kThrottledColor));
  std::string& out = page.out();
  out += fmt::format(
      "<svg class=\"chart timeline\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" height=\"{1}\" "
      "role=\"img\" aria-label=\"requests per second over time\">\n",
      width, height);
  // Horizontal grid and y labels.
  for (double v = 0; v <= y_max + y_step / 2; v += y_step) {
    double y = y_of(v);
    out += fmt::format("<line class=\"grid\" x1=\"{}\" x2=\"{}\" y1=\"{:.1f}\" y2=\"{:.1f}\"/>",
                       left, left + plot_w, y, y);
    out +=
        fmt::format("<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\" dy=\".35em\">", left - 6, y);
    AppendEscaped(out, Trimmed(v, 2));
    out += "</text>\n";
  }
  out += fmt::format(
      "<text x=\"14\" y=\"{}\" transform=\"rotate(-90 14 {})\" text-anchor=\"middle\">"
      "per second</text>\n",
      top + plot_h / 2, top + plot_h / 2);
  // Time axis.
  const double x_step = NiceStep(end, 10);
  for (double t = 0; t <= end + 1e-9; t += x_step) {
    double x = x_of(t);
    out += fmt::format("<line class=\"axis\" x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{1}\" y2=\"{2}\"/>",
                       x, top + plot_h, top + plot_h + 4);
    out += fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">", x, top + plot_h + 16);
    AppendEscaped(out, Trimmed(t, 2));
    out += "</text>";
  }
  out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">time (s)</text>\n",
                     left + plot_w / 2, height - 4);
  // Phases.
  for (const PhaseReport& phase : report.phases) {
    double x = x_of(phase.start_seconds);
    out +=
        fmt::format("<line class=\"phase\" x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{1}\" y2=\"{2}\"/>",
                    x, top - 8, top + plot_h);
    out += fmt::format("<text x=\"{:.1f}\" y=\"{}\">", x + 4, top - 2);
    AppendEscaped(out, phase.name);
    out += "</text>\n";
  }
  // Throttled attempts per second: bars.
  const double bar_w = std::max(1.0, bucket / end * plot_w - (bucket / end * plot_w > 4 ? 1 : 0));
  out += fmt::format("<g fill=\"{}\" fill-opacity=\"0.8\">", kThrottledColor);
  for (const TimelinePoint& point : report.timeline) {
    if (point.counts.throttled <= 0) continue;
    double rate = point.counts.throttled / bucket;
    double y = y_of(rate);
    out += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\"><title>",
                       x_of(point.start_seconds), y, bar_w, top + plot_h - y);
    AppendEscaped(out, fmt::format("{}-{} s: {} throttled/s", Trimmed(point.start_seconds, 3),
                                   Trimmed(point.start_seconds + bucket, 3), Compact(rate)));
    out += "</title></rect>";
  }
  out += "</g>\n";
  // Offered and served per second: lines through the buckets' middles.
  auto polyline = [&](const char* color, int64_t RequestCounts::*member, const char* name) {
    out += fmt::format(
        "<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\" stroke-linejoin=\"round\" "
        "points=\"",
        color);
    bool first = true;
    for (const TimelinePoint& point : report.timeline) {
      if (!first) out += ' ';
      first = false;
      out += fmt::format("{:.1f},{:.1f}", x_of(point.start_seconds + bucket / 2),
                         y_of(point.counts.*member / bucket));
    }
    out += fmt::format("\"><title>{}</title></polyline>\n", name);
  };
  polyline(kOfferedColor, &RequestCounts::offered, "offered/s");
  polyline(kServedColor, &RequestCounts::served, "served/s");
  out += fmt::format("<path class=\"axis\" d=\"M{0} {1}V{2}H{3}\"/>\n", left, top, top + plot_h,
                     left + plot_w);
  out += "</svg>\n";
}

void HeatMapLegend(Page& page) {
  page.Raw(
      "<div class=\"legend\"><span>utilization of the partition's limit (max of read/3,000, "
      "write/1,000 per s):</span><span class=\"scale\">0%&nbsp;");
  for (size_t k = 0; k < kHeatColors.size(); ++k) {
    page.Raw(fmt::format(
        "<span class=\"sw u{}\" title=\"{}\"></span>", k,
        k == 8 ? std::string("&ge; 100%")
               : fmt::format("{}-{}%", Trimmed(k * 12.5, 1), Trimmed((k + 1) * 12.5, 1))));
  }
  page.Raw(
      "&nbsp;&ge;&nbsp;100%</span><span><span class=\"sw blank\"></span> partition did not "
      "exist</span><span><span class=\"sw thr\"></span> requests throttled</span></div>\n");
}

// Partitions (rows) x time buckets (columns); see the file comment for the cell rule.
void HeatMapSvg(Page& page, const ResourceReport& resource, const std::string& path) {
  const HeatMap& map = resource.heat_map;
  const int64_t rows = static_cast<int64_t>(map.partition_ids.size());
  const int64_t columns = std::max<int64_t>(0, map.columns);
  const int64_t bucket = map.bucket_seconds > 0 ? map.bucket_seconds : 1;

  const int cell_w =
      static_cast<int>(std::clamp<int64_t>(columns > 0 ? 1000 / columns : 24, 1, 24));
  const int cell_h = rows <= 8 ? 22 : rows <= 20 ? 16 : rows <= 48 ? 12 : rows <= 96 ? 10 : 6;
  const int label_every = cell_h >= 10 ? 1 : 2;
  const int left = 64, top = 20, bottom = 38, right = 12;
  const int64_t plot_w = columns * cell_w, plot_h = rows * cell_h;
  const int64_t width = std::max<int64_t>(left + plot_w + right, 320);
  const int64_t height = top + plot_h + bottom;

  std::string& out = page.out();
  out += "<svg class=\"heatmap\" data-resource=\"";
  AppendEscaped(out, ResourceName(resource));
  out += fmt::format(
      "\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" height=\"{1}\" role=\"img\" "
      "aria-label=\"consumed capacity per partition and second\">\n",
      width, height);
  out += fmt::format("<text x=\"{}\" y=\"12\" text-anchor=\"end\">partition</text>\n", left - 6);
  if (rows == 0 || columns == 0) {
    out += fmt::format("<text x=\"{}\" y=\"{}\">no data</text></svg>\n", left, top + 14);
    return;
  }
  out += fmt::format("<path fill=\"{}\" d=\"M{} {}h{}v{}h{}z\"/>\n", kBlankColor, left, top, plot_w,
                     plot_h, -plot_w);

  // Row labels: the partition ids.
  const int font = std::min(11, cell_h - 1 + (label_every - 1) * cell_h);
  for (int64_t r = 0; r < rows; r += label_every) {
    out += fmt::format(
        "<text x=\"{}\" y=\"{:.1f}\" dy=\".35em\" text-anchor=\"end\" style=\"font-size:{}px\" "
        "data-figure=\"",
        left - 6, top + (r + 0.5) * cell_h, font);
    page.Attributes(fmt::format("{}.heat_map.partition_ids[{}]", path, r),
                    IntV(map.partition_ids[static_cast<size_t>(r)]));
    out += "</text>";
  }
  out += "\n";

  // Cells: a group per row, in it a group per colour class (class u0 is the map's default fill).
  // Throttled cells come after all the others, in groups of their own, so that their outline is
  // drawn over their neighbours.
  auto at = [](const auto& grid, int64_t r, int64_t c, auto fallback) {
    if (r < static_cast<int64_t>(grid.size()) &&
        c < static_cast<int64_t>(grid[static_cast<size_t>(r)].size())) {
      return grid[static_cast<size_t>(r)][static_cast<size_t>(c)];
    }
    return fallback;
  };
  out += fmt::format("<g class=\"cells\" transform=\"translate({} {}) scale({} {})\">\n", left, top,
                     cell_w, cell_h);
  constexpr int kClasses = static_cast<int>(kHeatColors.size());
  std::array<std::vector<int64_t>, 2 * kClasses> by_class;  // [throttled * kClasses + class]
  for (int pass = 0; pass < 2; ++pass) {
    for (int64_t r = 0; r < rows; ++r) {
      for (auto& columns_of_class : by_class) columns_of_class.clear();
      for (int64_t c = 0; c < columns; ++c) {
        double utilization = at(map.utilization, r, c, -1.0);
        if (utilization < 0 || std::isnan(utilization)) continue;
        bool throttled = at(map.throttled, r, c, int64_t{0}) > 0;
        by_class[(throttled ? kClasses : 0) + HeatClass(utilization)].push_back(c);
      }
      bool row_open = false;
      for (int k = pass * kClasses; k < (pass + 1) * kClasses; ++k) {
        if (by_class[k].empty()) continue;
        if (!row_open) {
          out += fmt::format("<g transform=\"translate(0 {})\">", r);
          row_open = true;
        }
        const int color = k % kClasses;
        if (pass == 1) {
          out += fmt::format("<g class=\"u{} t\">", color);
        } else if (color != 0) {
          out += fmt::format("<g class=\"u{}\">", color);
        }
        for (int64_t c : by_class[k]) {
          double read = at(map.read_units, r, c, 0.0);
          double write = at(map.write_units, r, c, 0.0);
          int64_t throttled = at(map.throttled, r, c, int64_t{0});
          out +=
              fmt::format("<rect x=\"{}\"><title>partition {}, {}-{} s: ", c,
                          map.partition_ids[static_cast<size_t>(r)], c * bucket, (c + 1) * bucket);
          if (read == 0 && write == 0) {
            out += "idle";
          } else {
            if (write != 0) out += Compact(write) + " WCU/s";
            if (read != 0) out += (write != 0 ? ", " : "") + Compact(read) + " RCU/s";
          }
          if (throttled > 0) out += ", " + Int(throttled) + " throttled";
          out += "</title></rect>";
        }
        if (pass == 1 || color != 0) out += "</g>";
      }
      if (row_open) out += "</g>\n";
    }
  }
  out += "</g>\n";

  // Time axis: a tick every `step` buckets, at least 44 px apart.
  int64_t step = 1;
  for (int64_t candidate : {1, 2, 5, 10, 15, 20, 30, 60, 120, 300, 600, 1200, 1800, 3600}) {
    step = candidate;
    if (candidate * cell_w >= 44) break;
  }
  while (step * cell_w < 44) step *= 2;
  const int64_t axis_y = top + plot_h;
  out += fmt::format("<path class=\"axis\" d=\"M{} {}H{}\"/>", left, axis_y, left + plot_w);
  for (int64_t c = 0; c <= columns; c += step) {
    int64_t x = left + c * cell_w;
    out += fmt::format(
        "<line class=\"axis\" x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\"/><text x=\"{0}\" "
        "y=\"{3}\" text-anchor=\"middle\">{4}</text>",
        x, axis_y, axis_y + 4, axis_y + 16, Int(c * bucket));
  }
  out += fmt::format("\n<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">time (s)</text>\n",
                     left + plot_w / 2, height - 4);
  out += "</svg>\n";
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
  row("Consumed units", "consumed_read_units", UnitsV(resource.consumed_read_units),
      "consumed_write_units", UnitsV(resource.consumed_write_units));
  row("Peak units in a second", "peak_read_units", UnitsV(resource.peak_read_units),
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
                    "<th class=\"n\">Bytes</th><th class=\"n\">Read units</th>"
                    "<th class=\"n\">Write units</th><th class=\"n\">Throttled reads</th>"
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

  SummaryCards(page, report);
  page.Raw("<h3>Requests</h3>\n<table><tr>");
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

}  // namespace

std::string HtmlReport(const std::vector<Report>& runs) {
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
  }
  for (size_t i = 0; i < runs.size(); ++i) {
    page.set_prefix(compare ? fmt::format("runs[{}].", i) : "");
    RunSection(page, runs[i], i, compare);
  }
  page.Raw(
      "<footer>Generated by partstore simulate. Every figure is a function of the workload "
      "and its seed (simulated time only).</footer>\n</main>\n</body>\n</html>\n");
  return std::move(page.out());
}

}  // namespace partstore::sim
