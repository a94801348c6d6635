// The HTML report's SVG charts: the timeline and the partition x time heat map
// (report_html_page.h; the heat map's encoding is described in report_html.cc).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "tools/simulator/report_html_page.h"

namespace partstore::sim::html {

// The client's offered, served and throttled requests per second over time, with the phases.
namespace {

// A line chart's frame: the plot area inside its margins, the scales, and the grid, axes and
// labels both charts draw.
struct Frame {
  int top = 22;
  int height = 280;
  double end = 1;     // seconds at the right edge
  double y_max = 1;   // value at the top
  double y_step = 1;  // between grid lines
  static constexpr int kLeft = 70, kRight = 16, kBottom = 36, kWidth = 1100;
  int plot_w() const { return kWidth - kLeft - kRight; }
  int plot_h() const { return height - top - kBottom; }
  double X(double t) const { return kLeft + t / end * plot_w(); }
  double Y(double v) const { return top + plot_h() - v / y_max * plot_h(); }

  // The horizontal grid with the y labels, `y_label` along the y axis, the time axis.
  void DrawAxes(std::string& out, std::string_view y_label) const {
    for (double v = 0; v <= y_max + y_step / 2; v += y_step) {
      const double y = Y(v);
      out += fmt::format("<line class=\"grid\" x1=\"{}\" x2=\"{}\" y1=\"{:.1f}\" y2=\"{:.1f}\"/>",
                         kLeft, kLeft + plot_w(), y, y);
      out += fmt::format("<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\" dy=\".35em\">", kLeft - 6,
                         y);
      AppendEscaped(out, Trimmed(v, 2));
      out += "</text>\n";
    }
    out += fmt::format(
        "<text x=\"14\" y=\"{0}\" transform=\"rotate(-90 14 {0})\" text-anchor=\"middle\">",
        top + plot_h() / 2);
    AppendEscaped(out, y_label);
    out += "</text>\n";
    const double x_step = NiceStep(end, 10);
    for (double t = 0; t <= end + 1e-9; t += x_step) {
      const double x = X(t);
      out +=
          fmt::format("<line class=\"axis\" x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{1}\" y2=\"{2}\"/>",
                      x, top + plot_h(), top + plot_h() + 4);
      out += fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">", x,
                         top + plot_h() + 16);
      AppendEscaped(out, Trimmed(t, 2));
      out += "</text>";
    }
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">time (s)</text>\n",
                       kLeft + plot_w() / 2, height - 4);
  }
  // The plot's left and bottom edges.
  void DrawEdges(std::string& out) const {
    out += fmt::format("<path class=\"axis\" d=\"M{0} {1}V{2}H{3}\"/>\n", kLeft, top,
                       top + plot_h(), kLeft + plot_w());
  }
};

}  // namespace

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

  const Frame frame{.top = 22, .height = 280, .end = end, .y_max = y_max, .y_step = y_step};
  const int top = frame.top, width = Frame::kWidth, height = frame.height;
  const int plot_w = frame.plot_w(), plot_h = frame.plot_h();
  auto x_of = [&](double t) { return frame.X(t); };
  auto y_of = [&](double rate) { return frame.Y(rate); };

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
  frame.DrawAxes(out, "per second");
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
  frame.DrawEdges(out);
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
      "exist</span><span><span class=\"sw thr\"></span> requests throttled</span></div>\n"
      "<p class=\"muted\">Rows: partitions in hash-key order, the lowest hashes on top; a "
      "partition that split is followed by its two halves. Row labels are partition ids, "
      "numbered in creation order (so they need not be in sequence).</p>\n");
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

void CapacityChart(Page& page, const ResourceReport& resource, const std::string& path) {
  if (resource.capacity_minutes.empty()) return;
  page.Raw("<h4>Provisioned vs consumed units a second, per minute</h4>\n");
  const auto& minutes = resource.capacity_minutes;
  const double end = std::max(60.0, minutes.back().start_seconds + 60);
  double max_units = 1;
  for (const CapacityMinute& m : minutes) {
    max_units = std::max({max_units, static_cast<double>(m.read_capacity),
                          static_cast<double>(m.write_capacity), m.consumed_read_per_second,
                          m.consumed_write_per_second});
  }
  const double y_step = NiceStep(max_units, 5);
  const double y_max = std::ceil(max_units / y_step) * y_step;
  const Frame frame{.top = 14, .height = 240, .end = end, .y_max = y_max, .y_step = y_step};
  const int top = frame.top, plot_h = frame.plot_h();
  auto x_of = [&](double t) { return frame.X(t); };
  auto y_of = [&](double units) { return frame.Y(units); };
  constexpr const char* kWriteColor = "#c2255c";
  constexpr const char* kReadColor = "#1971c2";
  page.Raw(fmt::format(
      "<div class=\"legend\"><span><span class=\"sw line\" style=\"background:{0}\"></span> "
      "write capacity (solid) and consumed WCU/s (dotted)</span><span><span class=\"sw line\" "
      "style=\"background:{1}\"></span> read capacity (solid) and consumed RCU/s (dotted)</span>"
      "<span>dashed lines: auto scaling's changes taking effect</span></div>\n",
      kWriteColor, kReadColor));
  std::string& out = page.out();
  out += fmt::format(
      "<svg class=\"chart capacity\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" height=\"{1}\" "
      "role=\"img\" aria-label=\"provisioned and consumed units per second over time\">\n",
      Frame::kWidth, frame.height);
  frame.DrawAxes(out, "units / s");
  for (const ScalingActionReport& a : resource.scaling_actions) {
    if (a.effective_seconds > end) continue;
    const double x = x_of(a.effective_seconds);
    out += fmt::format(
        "<line class=\"phase\" x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{1}\" y2=\"{2}\"><title>", x, top,
        top + plot_h);
    AppendEscaped(out, fmt::format("{} s: {} {} -> {} ({})", Trimmed(a.effective_seconds, 0),
                                   a.dimension, a.from, a.to, a.reason));
    out += "</title></line>\n";
  }
  // Capacity: steps at the minutes' starts; consumption: the minutes' middles.
  auto line = [&](const char* color, bool dotted, auto value_of, bool step, const char* name) {
    out += fmt::format(
        "<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{} stroke-linejoin=\"round\" "
        "points=\"",
        color, dotted ? " stroke-dasharray=\"2 3\"" : "");
    bool first = true;
    for (const CapacityMinute& m : minutes) {
      const double v = value_of(m);
      if (!first) out += ' ';
      first = false;
      if (step) {
        out += fmt::format("{:.1f},{:.1f} {:.1f},{:.1f}", x_of(m.start_seconds), y_of(v),
                           x_of(std::min(end, m.start_seconds + 60)), y_of(v));
      } else {
        out += fmt::format("{:.1f},{:.1f}", x_of(m.start_seconds + 30), y_of(v));
      }
    }
    out += fmt::format("\"><title>{}</title></polyline>\n", name);
  };
  line(
      kWriteColor, false, [](const CapacityMinute& m) { return double(m.write_capacity); }, true,
      "write capacity");
  line(
      kWriteColor, true, [](const CapacityMinute& m) { return m.consumed_write_per_second; }, false,
      "consumed WCU/s");
  line(
      kReadColor, false, [](const CapacityMinute& m) { return double(m.read_capacity); }, true,
      "read capacity");
  line(
      kReadColor, true, [](const CapacityMinute& m) { return m.consumed_read_per_second; }, false,
      "consumed RCU/s");
  frame.DrawEdges(out);
  out += "</svg>\n";

  if (resource.scaling_actions.empty()) {
    page.Raw("<p class=\"muted\">No auto scaling actions.</p>\n");
    return;
  }
  page.Raw(
      "<table><caption>Auto scaling actions (target tracking)</caption><tr><th class=\"n\">Alarm "
      "at (s)</th><th class=\"n\">In effect at (s)</th><th>Dimension</th><th class=\"n\">From "
      "(units/s)</th><th class=\"n\">To (units/s)</th><th class=\"n\">Consumed that minute "
      "(units/s)</th><th>Action</th></tr>\n");
  for (size_t i = 0; i < resource.scaling_actions.size(); ++i) {
    const ScalingActionReport& a = resource.scaling_actions[i];
    const std::string item = fmt::format("{}.scaling_actions[{}]", path, i);
    page.Raw("<tr>");
    page.FigureCell(item + ".time_seconds", SecondsV(a.time_seconds));
    page.FigureCell(item + ".effective_seconds", SecondsV(a.effective_seconds));
    page.FigureCell(item + ".dimension", StringV(a.dimension), "");
    page.FigureCell(item + ".from", IntV(a.from));
    page.FigureCell(item + ".to", IntV(a.to));
    page.FigureCell(item + ".consumed_per_second", UnitsV(a.consumed_per_second));
    page.FigureCell(item + ".reason", StringV(a.reason), "");
    page.Raw("</tr>\n");
  }
  page.Raw("</table>\n");
}

void CostChart(Page& page, const std::vector<CostRow>& rows, std::string_view currency,
               std::string_view caption) {
  if (rows.empty()) return;
  page.Raw("<h4>");
  page.Text(caption);
  page.Raw("</h4>\n");
  struct Part {
    const char* name;
    const char* color;
    double CostRow::*member;
  };
  static constexpr Part kParts[] = {{"read", "#1971c2", &CostRow::read},
                                    {"write", "#c2255c", &CostRow::write},
                                    {"storage", "#868e96", &CostRow::storage}};
  page.Raw("<div class=\"legend\">");
  for (const Part& part : kParts) {
    page.Raw(fmt::format("<span><span class=\"sw\" style=\"background:{}\"></span> {} cost</span>",
                         part.color, part.name));
  }
  page.Raw("</div>\n");
  double max_total = 0;
  for (const CostRow& row : rows)
    max_total = std::max(max_total, row.read + row.write + row.storage);
  if (!(max_total > 0)) max_total = 1;
  constexpr int kLabel = 240, kBar = 760, kRow = 24, kTop = 6, kAxis = 34, kWidth = 1100;
  const int height = kTop + kRow * static_cast<int>(rows.size()) + kAxis;
  std::string& out = page.out();
  out += fmt::format(
      "<svg class=\"chart cost\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" height=\"{1}\" "
      "role=\"img\" aria-label=\"",
      kWidth, height);
  AppendEscaped(out, caption);
  out += "\">\n";
  const double step = NiceStep(max_total, 5);
  const double top_value = std::ceil(max_total / step) * step;
  auto x_of = [&](double cost) { return kLabel + cost / top_value * kBar; };
  const int axis_y = kTop + kRow * static_cast<int>(rows.size());
  for (double v = 0; v <= top_value + step / 2; v += step) {
    out += fmt::format(
        "<line class=\"grid\" x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{1}\" y2=\"{2}\"/>"
        "<text x=\"{0:.1f}\" y=\"{3}\" text-anchor=\"middle\">",
        x_of(v), kTop, axis_y, axis_y + 14);
    AppendEscaped(out, Trimmed(v, 6));
    out += "</text>\n";
  }
  out +=
      fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">", kLabel + kBar / 2, height - 4);
  AppendEscaped(out, fmt::format("cost ({})", currency));
  out += "</text>\n";
  for (size_t i = 0; i < rows.size(); ++i) {
    const CostRow& row = rows[i];
    const int y = kTop + kRow * static_cast<int>(i);
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\" dy=\".35em\">", kLabel - 8,
                       y + kRow / 2);
    AppendEscaped(out, row.label);
    out += "</text>\n";
    double at = 0;
    for (const Part& part : kParts) {
      const double cost = row.*part.member;
      if (!(cost > 0)) continue;
      out += fmt::format(
          "<rect class=\"cost-part\" data-figure-path=\"{}.{}_cost\" data-cost=\"{}\" "
          "x=\"{:.2f}\" y=\"{}\" width=\"{:.2f}\" height=\"{}\" fill=\"{}\"><title>",
          row.path, part.name, cost, x_of(at), y + 3, x_of(at + cost) - x_of(at), kRow - 6,
          part.color);
      AppendEscaped(
          out, fmt::format("{}: {} cost {} {}", row.label, part.name, Trimmed(cost, 6), currency));
      out += "</title></rect>\n";
      at += cost;
    }
  }
  out += fmt::format("<path class=\"axis\" d=\"M{0} {1}V{2}H{3}\"/>\n</svg>\n", kLabel, kTop,
                     axis_y, kLabel + kBar);
}

}  // namespace partstore::sim::html
