// The HTML report's page machinery, shared by report_html.cc (the page and its tables) and
// report_html_charts.cc (the SVG heat map and timeline): escaping and number formats, Value (a
// figure's raw value and its text), the colour scale, and Page, which writes figures with their
// JSON paths (data-figure / data-value). Internal to tools/simulator/report_html*.cc.
//
// Thread safety: a Page is used by one call of HtmlReport.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tools/simulator/report.h"

namespace partstore::sim::html {

// --- text --------------------------------------------------------------------------------------

inline void AppendEscaped(std::string& out, std::string_view text) {
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
inline std::string WithCommas(std::string text) {
  size_t start = !text.empty() && text[0] == '-' ? 1 : 0;
  size_t end = text.find('.');
  if (end == std::string::npos) end = text.size();
  for (size_t i = end; i > start + 3; i -= 3) text.insert(i - 3, ",");
  return text;
}

// A negative zero ("-0.0") prints as zero.
inline std::string NoNegativeZero(std::string text) {
  if (!text.empty() && text[0] == '-' && text.find_first_not_of("0.", 1) == std::string::npos) {
    text.erase(0, 1);
  }
  return text;
}

inline std::string Int(int64_t v) { return WithCommas(std::to_string(v)); }

// Fixed decimals, thousands separators.
inline std::string Fixed(double v, int decimals) {
  if (!std::isfinite(v)) return "n/a";
  return WithCommas(NoNegativeZero(fmt::format("{:.{}f}", v, decimals)));
}

// At most `decimals` decimals, trailing zeros dropped: 20 -> "20", 20.25 -> "20.25".
inline std::string Trimmed(double v, int decimals) {
  if (!std::isfinite(v)) return "n/a";
  std::string text = fmt::format("{:.{}f}", v, decimals);
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  return WithCommas(NoNegativeZero(text));
}

// The data-value spelling: the shortest text that reads back as the same double.
inline std::string RawNumber(double v) {
  if (!std::isfinite(v)) return "null";  // as the JSON report writes it
  return fmt::format("{}", v);
}

// A figure: its raw value and its text.
struct Value {
  std::string raw;
  std::string text;
};

inline Value IntV(int64_t v) { return {std::to_string(v), Int(v)}; }
inline Value UintV(uint64_t v) { return {std::to_string(v), WithCommas(std::to_string(v))}; }
inline Value FixedV(double v, int decimals) { return {RawNumber(v), Fixed(v, decimals)}; }
inline Value TrimmedV(double v, int decimals) { return {RawNumber(v), Trimmed(v, decimals)}; }
inline Value PercentV(double ratio) {
  return {RawNumber(ratio), std::isfinite(ratio) ? Fixed(ratio * 100, 2) + "%" : "n/a"};
}
inline Value StringV(const std::string& s) { return {s, s}; }

// Rates per second: 1 decimal; durations in ms: 1 decimal; seconds: up to 3 decimals.
inline Value RateV(double v) { return FixedV(v, 1); }
inline Value MsV(double v) { return FixedV(v, 1); }
inline Value SecondsV(double v) { return TrimmedV(v, 3); }
inline Value UnitsV(double v) { return FixedV(v, 1); }

// A compact number for tooltips: "950", "12", "0.3", "1,200".
inline std::string Compact(double v) {
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

inline int HeatClass(double utilization) {
  if (utilization >= 1.0) return 8;
  return std::clamp(static_cast<int>(std::floor(utilization * 8)), 0, 7);
}

// A round step for about `target` ticks up to `max`.
inline double NiceStep(double max, int target) {
  if (!(max > 0) || !std::isfinite(max)) return 1;
  double raw = max / target;
  double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (raw <= m * magnitude) return m * magnitude;
  }
  return 10 * magnitude;
}

// --- the page ----------------------------------------------------------------------------------

class Page {
 public:
  explicit Page(std::string prefix = "") : prefix_(std::move(prefix)) {}

  std::string& out() { return out_; }
  void Raw(std::string_view text) { out_ += text; }
  void Text(std::string_view text) { AppendEscaped(out_, text); }
  void set_prefix(std::string prefix) { prefix_ = std::move(prefix); }
  const std::string& prefix() const { return prefix_; }

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

inline std::string ResourceName(const ResourceReport& resource) {
  return resource.index ? resource.table + "/" + *resource.index : resource.table;
}

// The charts (report_html_charts.cc).
// The client's offered, served and throttled requests per second over time, with the phases.
void TimelineChart(Page& page, const Report& report);
// The heat map's colour legend, and one table's or GSI's partition x time heat map.
void HeatMapLegend(Page& page);
void HeatMapSvg(Page& page, const ResourceReport& resource, const std::string& path);
// A provisioned table's or GSI's provisioned vs consumed units per minute, with auto scaling's
// actions, and the actions' table.
void CapacityChart(Page& page, const ResourceReport& resource, const std::string& path);
// One horizontal bar per row, its read, write and storage costs stacked (each <rect> carries its
// cost in data-cost, and its JSON member in data-figure-path): a run's bill by table and GSI, or
// the runs' bills side by side.
struct CostRow {
  std::string label;
  std::string path;  // the JSON object holding read_cost, write_cost, storage_cost
  double read = 0;
  double write = 0;
  double storage = 0;
};
void CostChart(Page& page, const std::vector<CostRow>& rows, std::string_view currency,
               std::string_view caption);

}  // namespace partstore::sim::html
