#!/usr/bin/env python3
"""The HTML report (`partstore simulate --html`) rendered by headless Chromium, checked against
the JSON report of the same run.

Usage:
  html_report_check.py PARTSTORE WORKLOAD.toml WORKDIR
      runs `PARTSTORE simulate WORKLOAD.toml --json WORKDIR/r.json --html WORKDIR/r.html --quiet`
      (twice: the HTML must be byte-identical), then checks WORKDIR/r.html against WORKDIR/r.json.
  html_report_check.py --html FILE --json FILE [--workdir DIR]
      checks the given files (a single report, or {"runs": [...]} for a comparison).

Checks:
  1. The page source is self-contained: no <script>, no http:// or https:// URL (the SVG namespace
     http://www.w3.org/2000/svg is the only one allowed), no url(), @import, src=, <link>.
  2. Chromium (`chromium`, or `chromium-browser`; --headless=new --no-sandbox, 120 s per call)
     renders a 1400 x 2400 screenshot of the page that is not blank: enough distinct colours and
     enough non-white pixels.
  3. The heat maps are drawn. The 1400 x 2400 screenshot shows only the top of a long page, so the
     heat maps are checked on a second screenshot of a variant of the page (WORKDIR/heatmaps.html:
     the same file with one more style rule that hides everything but the heat maps, and a window
     as tall as they are). Its pixels in each colour of the heat map scale (read from the page's
     own style sheet, .uK{fill:...}) are compared with the area the JSON report's cells of that
     colour class cover (cell size from the map's scale(w h) transform): the warm colours
     together, and each colour covering a sizeable area, must show at least half of their
     expected pixels (throttled cells' outlines cover some), and all colours together no more
     than 1.2 times.
  4. The DOM Chromium dumps (--dump-dom): every data-figure="PATH" data-value="RAW" pair is
     resolved in the JSON report (PATH: member names, dots and [i]; runs[i]. with several runs):
     numbers equal within a relative 1e-9, strings exactly, null as "null"; the visible text
     agrees with the value within the rounding it shows (thousands separators required from
     1,000; a trailing % means a ratio shown as a percentage). At least 30 figures, and the key
     ones (totals, rates, every phase, every resource) among them.
  5. One <svg class="heatmap" data-resource="Table" or "Table/Index"> per resource, in report
     order, with one <rect> (each with a <title>) per cell whose partition existed
     (utilization >= 0; cells with utilization -1 draw nothing), in the colour class of its
     utilization (group class uK, K = floor(8 * utilization), 8 from 1.0; u0 is the default), the
     throttled cells (throttled > 0) in groups of class "t".
  6. One <svg class="chart capacity"> per provisioned resource (each with its capacity_minutes),
     with its 4 lines (read and write capacity, read and write consumption) and one dashed line per
     auto scaling action in effect before the run's end.

  7. One <svg class="chart cost"> per run (its bill by table and GSI) and, with several runs, one
     more (the runs' bills): one <rect class="cost-part"> per positive read, write or storage
     cost, its data-cost equal to the JSON member its data-figure-path names.

Needs Debian's python3-pil and chromium (tools/run test installs them). When the python3 running
this cannot import PIL (a pyenv one), the script re-runs itself with /usr/bin/python3.
"""

import html.parser
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import time

try:
    from PIL import Image
except ImportError:
    system_python = "/usr/bin/python3"
    if (os.path.exists(system_python) and not os.environ.get("HTML_REPORT_CHECK_REEXEC") and
            os.path.realpath(sys.executable) != os.path.realpath(system_python)):
        os.environ["HTML_REPORT_CHECK_REEXEC"] = "1"
        os.execv(system_python, [system_python] + sys.argv)
    sys.exit("simulator.html_report: cannot import PIL; install Debian's python3-pil "
             "(tools/run test does)")

NAME = "simulator.html_report"
CHROMIUM_TIMEOUT = 120
SIMULATE_TIMEOUT = 240
MIN_FIGURES = 30
SVG_NAMESPACE = "http://www.w3.org/2000/svg"
VOID_ELEMENTS = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                 "source", "track", "wbr"}


class CheckFailed(Exception):
    pass


def fail(message):
    raise CheckFailed(message)


def run(command, timeout, what):
    """Runs command in its own process group (killed whole on timeout); returns (rc, out, err)."""
    started = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               start_new_session=True)
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        fail(f"{what} did not finish within {timeout} s: {' '.join(command)}")
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    return process.returncode, out, err, time.monotonic() - started


# --- 1. the page source -----------------------------------------------------------------------

def check_source(source):
    lowered = source.lower()
    if "<script" in lowered:
        fail("the page has a <script> element")
    for scheme in ("http://", "https://"):
        rest = lowered.replace(SVG_NAMESPACE, "") if scheme == "http://" else lowered
        at = rest.find(scheme)
        if at >= 0:
            fail(f"the page has an external URL: ...{rest[max(0, at - 40):at + 60]!r}...")
    for needle in ("url(", "@import", " src=", "<link", "<iframe", "<object", "<embed"):
        if needle in lowered:
            fail(f"the page is not self-contained: it has {needle!r}")


# --- 2./3. Chromium -----------------------------------------------------------------------------

def find_chromium():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    fail("no chromium or chromium-browser on PATH; install Debian's chromium "
         "(tools/run test does)")


def chromium(browser, workdir, extra, what):
    command = [browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
               "--force-device-scale-factor=1", "--no-first-run", "--disable-extensions",
               "--user-data-dir=" + os.path.join(workdir, "chromium-profile")] + extra
    rc, out, err, seconds = run(command, CHROMIUM_TIMEOUT, what)
    if rc != 0:
        fail(f"{what} failed (exit {rc}): {' '.join(command)}\n{err.decode(errors='replace')[-2000:]}")
    return out, seconds


def screenshot(browser, workdir, page, png, width, height, what):
    if os.path.exists(png):
        os.remove(png)
    _, seconds = chromium(browser, workdir, [f"--window-size={width},{height}",
                                             "--screenshot=" + png, "file://" + page], what)
    if not os.path.exists(png) or os.path.getsize(png) == 0:
        fail(f"{what}: Chromium wrote no screenshot {png}")
    image = Image.open(png).convert("RGB")
    if image.size != (width, height):
        fail(f"{what}: screenshot is {image.size[0]} x {image.size[1]}, not {width} x {height}")
    return image, seconds


def check_not_blank(image):
    colors = image.getcolors(maxcolors=1 << 24)
    distinct = len(colors)
    total = image.size[0] * image.size[1]
    white = sum(count for count, rgb in colors if rgb == (255, 255, 255))
    inked = total - white
    if distinct < 32:
        fail(f"the screenshot looks blank: only {distinct} distinct colours")
    if inked < total // 100:
        fail(f"the screenshot looks blank: only {inked} of {total} pixels are not white")
    return distinct, inked / total


def palette(source):
    """The heat map scale from the page's style sheet: {class K: (r, g, b)}."""
    colors = {}
    for k, hex_color in re.findall(r"\.u(\d+)\{fill:#([0-9a-fA-F]{6})", source):
        colors[int(k)] = tuple(int(hex_color[i:i + 2], 16) for i in (0, 2, 4))
    if len(colors) < 2:
        fail("the page's style sheet has no heat map colour classes (.uK{fill:#rrggbb})")
    return colors


def heat_class(utilization, classes):
    if utilization >= 1.0:
        return classes - 1
    return max(0, min(classes - 2, math.floor(utilization * (classes - 1))))


def check_heatmap_pixels(browser, workdir, source, runs, maps):
    """Renders the heat-maps-only variant and compares colour areas with the JSON's cells."""
    colors = palette(source)
    classes = max(colors) + 1
    expected = [0] * classes
    for (report, resource), svg in zip(resources_in_order(runs), maps):
        cell_w, cell_h = svg.cell_size
        heat = resource.get("heat_map", {})
        for row in heat.get("utilization", []):
            for u in row[:heat.get("columns", 0)]:
                if u is not None and u >= 0:
                    expected[heat_class(u, classes)] += round(cell_w * cell_h)
    if sum(expected) == 0:
        return None
    width = max([1400] + [svg.width + 80 for svg in maps])
    height = min(16000, 60 + sum(svg.height + 12 for svg in maps))
    style = ("<style>main :not(svg.heatmap):not(svg.heatmap *):not(:has(svg.heatmap))"
             "{display:none !important}main{padding:8px !important}"
             "svg.heatmap{max-width:none !important;margin:0 0 12px !important}</style>")
    at = source.find("</head>")
    if at < 0:
        fail("the page has no </head>")
    variant = os.path.join(workdir, "heatmaps.html")
    with open(variant, "w", encoding="utf-8") as f:
        f.write(source[:at] + style + source[at:])
    image, seconds = screenshot(browser, workdir, variant, os.path.join(workdir, "heatmaps.png"),
                                width, height, "the heat maps screenshot")
    counts = dict.fromkeys(range(classes), 0)
    for count, rgb in image.getcolors(maxcolors=1 << 24):
        for k, color in colors.items():
            if all(abs(a - b) <= 6 for a, b in zip(rgb, color)):
                counts[k] += count
                break
    observed = [counts[k] for k in range(classes)]
    warm_expected, warm_observed = sum(expected[1:]), sum(observed[1:])
    detail = ", ".join(f"u{k} {observed[k]}/{expected[k]}" for k in range(classes))
    if warm_expected and warm_observed < 0.5 * warm_expected:
        fail(f"heat map colours missing in the screenshot: {warm_observed} warm pixels for "
             f"{warm_expected} expected (observed/expected per class: {detail})")
    for k in range(classes):
        if expected[k] >= 400 and observed[k] < 0.4 * expected[k]:
            fail(f"heat map colour class u{k} shows {observed[k]} pixels for {expected[k]} "
                 f"expected ({detail})")
    if sum(observed) > 1.2 * sum(expected) + 500:
        fail(f"more heat map colour than the cells cover: {sum(observed)} pixels for "
             f"{sum(expected)} ({detail})")
    return warm_observed, warm_expected, seconds, detail


# --- 4./5. the DOM --------------------------------------------------------------------------------

class HeatMapSvg:
    def __init__(self, resource, attrs):
        self.resource = resource
        self.width = int(float(attrs.get("width", "0")))
        self.height = int(float(attrs.get("height", "0")))
        self.cell_size = (0, 0)
        self.rects = 0
        self.titled_rects = 0
        self.by_class = {}      # colour class -> rects
        self.throttled = 0      # rects in a "t" group


class DomParser(html.parser.HTMLParser):
    """Collects figures (path, value, text) and the heat map <svg>s with their cells."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []          # open elements: (tag, attrs, figure or None)
        self.figures = []        # [path, value, text]
        self.heatmaps = []
        self.timelines = 0
        self.capacity_charts = []  # {"polylines": n, "actions": n} per capacity chart, in order
        self.cost_charts = []      # [(data-figure-path, data-cost)] per cost chart, in order
        self.current_map = None
        self.open_rects = []     # rects whose <title> we wait for

    def handle_starttag(self, tag, attr_list):
        attrs = dict(attr_list)
        classes = (attrs.get("class") or "").split()
        figure = None
        if "data-figure" in attrs:
            if "data-value" not in attrs:
                fail(f"data-figure={attrs['data-figure']!r} has no data-value")
            figure = [attrs["data-figure"], attrs["data-value"], ""]
            self.figures.append(figure)
        if tag == "svg" and "heatmap" in classes:
            self.current_map = HeatMapSvg(attrs.get("data-resource"), attrs)
            self.heatmaps.append(self.current_map)
        if tag == "svg" and "timeline" in classes:
            self.timelines += 1
        if tag == "svg" and "capacity" in classes:
            self.capacity_charts.append({"polylines": 0, "actions": 0})
        if tag == "svg" and "cost" in classes:
            self.cost_charts.append([])
        if tag == "rect" and "cost-part" in classes:
            if not self.cost_charts:
                fail("a cost bar outside a cost chart")
            self.cost_charts[-1].append((attrs.get("data-figure-path"), attrs.get("data-cost")))
        if self.capacity_charts and any(t == "svg" and "capacity" in (a.get("class") or "").split()
                                        for t, a, _ in self.stack):
            if tag == "polyline":
                self.capacity_charts[-1]["polylines"] += 1
            if tag == "line" and "phase" in classes:
                self.capacity_charts[-1]["actions"] += 1
        if self.current_map is not None:
            if tag == "g" and "cells" in classes:
                m = re.search(r"scale\(\s*([\d.]+)[\s,]+([\d.]+)\s*\)", attrs.get("transform", ""))
                if not m:
                    fail(f"heat map {self.current_map.resource}: no scale(w h) on g.cells")
                self.current_map.cell_size = (float(m.group(1)), float(m.group(2)))
            if tag == "rect":
                color, throttled = 0, False
                for _, open_attrs, _ in reversed(self.stack):
                    open_classes = (open_attrs.get("class") or "").split()
                    throttled = throttled or "t" in open_classes
                    found = [c for c in open_classes if re.fullmatch(r"u\d+", c)]
                    if found and color == 0:
                        color = int(found[0][1:])
                    if "cells" in open_classes:
                        break
                own = [c for c in classes if re.fullmatch(r"u\d+", c)]
                if own:
                    color = int(own[0][1:])
                throttled = throttled or "t" in classes
                self.current_map.rects += 1
                self.current_map.by_class[color] = self.current_map.by_class.get(color, 0) + 1
                self.current_map.throttled += throttled
            if tag == "title" and self.stack and self.stack[-1][0] == "rect":
                self.current_map.titled_rects += 1
        if tag not in VOID_ELEMENTS:
            self.stack.append((tag, attrs, figure))

    def handle_startendtag(self, tag, attr_list):
        self.handle_starttag(tag, attr_list)
        if tag not in VOID_ELEMENTS:
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if tag in VOID_ELEMENTS:
            return
        # Pop up to the matching element (the DOM Chromium serialises is well formed).
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break
        if tag == "svg" and self.current_map is not None and not any(
                t == "svg" for t, _, _ in self.stack):
            self.current_map = None

    def handle_data(self, data):
        for _, _, figure in self.stack:
            if figure is not None:
                figure[2] += data


PATH_TOKEN = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\.")


def resolve(document, path):
    value, pos = document, 0
    while pos < len(path):
        m = PATH_TOKEN.match(path, pos)
        if not m or m.end() == pos:
            raise KeyError(f"bad path syntax at {path[pos:]!r}")
        pos = m.end()
        if m.group(1) is not None:
            if not isinstance(value, dict) or m.group(1) not in value:
                raise KeyError(f"no member {m.group(1)!r}")
            value = value[m.group(1)]
        elif m.group(2) is not None:
            index = int(m.group(2))
            if not isinstance(value, list) or index >= len(value):
                raise KeyError(f"no element [{index}]")
            value = value[index]
    return value


NUMBER_TEXT = re.compile(r"\s*(-?)(\d[\d,]*)(?:\.(\d+))?\s*(%?)\s*")


def check_figure(document, path, raw, text):
    try:
        value = resolve(document, path)
    except KeyError as e:
        fail(f"figure {path}: not in the JSON report ({e})")
    if isinstance(value, str):
        if raw != value:
            fail(f"figure {path}: data-value {raw!r}, the JSON report has {value!r}")
        if text != value:
            fail(f"figure {path}: shows {text!r}, the JSON report has {value!r}")
        return
    if value is None:
        if raw != "null" or text.strip() != "n/a":
            fail(f"figure {path}: the JSON report has null, the page {raw!r} shown as {text!r}")
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        fail(f"figure {path}: the JSON report has {value!r}, not a number or a string")
    try:
        shown_raw = int(raw) if isinstance(value, int) and re.fullmatch(r"-?\d+", raw) else float(raw)
    except ValueError:
        fail(f"figure {path}: data-value {raw!r} is not a number (JSON: {value!r})")
    if isinstance(value, int) and isinstance(shown_raw, int):
        if shown_raw != value:
            fail(f"figure {path}: data-value {raw}, the JSON report has {value}")
    elif not math.isclose(shown_raw, value, rel_tol=1e-9, abs_tol=1e-12):
        fail(f"figure {path}: data-value {raw}, the JSON report has {value!r}")
    m = NUMBER_TEXT.fullmatch(text)
    if not m:
        fail(f"figure {path}: shows {text!r}, not a number")
    sign, whole, decimals, percent = m.groups()
    if "," in whole and not re.fullmatch(r"\d{1,3}(,\d{3})+", whole):
        fail(f"figure {path}: shows {text!r}, misplaced thousands separators")
    digits = whole.replace(",", "")
    if len(digits) > 3 and "," not in whole:
        fail(f"figure {path}: shows {text!r} without thousands separators")
    shown = float(sign + digits + ("." + decimals if decimals else ""))
    tolerance = 0.5 * 10 ** -len(decimals or "")
    if percent:
        shown, tolerance = shown / 100, tolerance / 100
    if abs(shown - value) > tolerance * (1 + 1e-9) + 1e-9 * abs(value):
        fail(f"figure {path}: shows {text!r}, the JSON report has {value!r}")


def resources_in_order(runs):
    return [(report, resource) for report in runs for resource in report.get("resources", [])]


def check_dom(dom, document, runs, prefixes):
    parser = DomParser()
    parser.feed(dom)
    parser.close()
    figures = parser.figures
    for path, raw, text in figures:
        check_figure(document, path, raw, text)
    if len(figures) < MIN_FIGURES:
        fail(f"only {len(figures)} figures (data-figure) in the page, expected at least {MIN_FIGURES}")
    paths = {path for path, _, _ in figures}
    for prefix, report in zip(prefixes, runs):
        wanted = [prefix + p for p in ("workload", "seed", "simulated_seconds", "offered_rate",
                                       "served_rate", "throttle_rate", "totals.offered",
                                       "totals.served", "totals.throttled", "totals.retries",
                                       "totals.gave_up", "retry_delay.p99_ms")]
        for i, phase in enumerate(report.get("phases", [])):
            wanted += [f"{prefix}phases[{i}].name", f"{prefix}phases[{i}].counts.throttled"]
            for o in range(len(phase.get("operations", []))):
                wanted.append(f"{prefix}phases[{i}].operations[{o}].counts.served")
        for i, resource in enumerate(report.get("resources", [])):
            wanted += [f"{prefix}resources[{i}].table", f"{prefix}resources[{i}].heat_map.columns",
                       f"{prefix}resources[{i}].consumed_write_units"]
            for r in range(len(resource.get("throttle_events", []))):
                wanted.append(f"{prefix}resources[{i}].throttle_events[{r}].events")
        for i in range(len(report.get("throttle_events", []))):
            wanted.append(f"{prefix}throttle_events[{i}].events")
        missing = [p for p in wanted if p not in paths]
        if missing:
            fail(f"the page does not show these figures: {', '.join(missing[:12])}")

    # Heat maps: one per resource, in order, with their cells.
    expected = resources_in_order(runs)
    if len(parser.heatmaps) != len(expected):
        fail(f"{len(parser.heatmaps)} heat map <svg>s in the page for {len(expected)} resources")
    cells_total = 0
    for (report, resource), svg in zip(expected, parser.heatmaps):
        name = resource["table"] + ("/" + resource["index"] if "index" in resource else "")
        if svg.resource != name:
            fail(f"heat map data-resource={svg.resource!r} where {name!r} was expected")
        heat = resource["heat_map"]
        columns = heat["columns"]
        classes = {}
        throttled = 0
        for r, row in enumerate(heat["utilization"]):
            if len(row) != columns:
                fail(f"{name}: heat_map.utilization[{r}] has {len(row)} columns, not {columns}")
            for c, u in enumerate(row):
                if u is None or u < 0:
                    continue
                k = heat_class(u, 9)
                classes[k] = classes.get(k, 0) + 1
                throttled += heat["throttled"][r][c] > 0
        cells = sum(classes.values())
        if len(heat["partition_ids"]) != len(heat["utilization"]):
            fail(f"{name}: {len(heat['partition_ids'])} partition ids for "
                 f"{len(heat['utilization'])} heat map rows")
        if svg.rects != cells:
            fail(f"heat map {name}: {svg.rects} <rect>s for {cells} cells whose partition existed "
                 f"({len(heat['partition_ids'])} partitions x {columns} buckets)")
        if svg.titled_rects != svg.rects:
            fail(f"heat map {name}: {svg.rects - svg.titled_rects} cells without a <title>")
        if svg.by_class != classes:
            fail(f"heat map {name}: cells per colour class {sorted(svg.by_class.items())}, "
                 f"the JSON's utilization gives {sorted(classes.items())}")
        if svg.throttled != throttled:
            fail(f"heat map {name}: {svg.throttled} cells marked throttled, the JSON has {throttled}")
        if cells and svg.cell_size == (0, 0):
            fail(f"heat map {name}: no cell size")
        cells_total += cells
    provisioned = [(report, resource) for report, resource in expected
                   if resource.get("capacity_minutes")]
    if len(parser.capacity_charts) != len(provisioned):
        fail(f"{len(parser.capacity_charts)} capacity charts for {len(provisioned)} provisioned "
             f"resources")
    for (report, resource), chart in zip(provisioned, parser.capacity_charts):
        name = resource["table"] + ("/" + resource["index"] if resource.get("index") else "")
        end = resource["capacity_minutes"][-1]["start_seconds"] + 60
        in_effect = sum(1 for a in resource.get("scaling_actions", [])
                        if a["effective_seconds"] <= end)
        if chart["polylines"] != 4 or chart["actions"] != in_effect:
            fail(f"capacity chart {name}: {chart['polylines']} lines and {chart['actions']} "
                 f"actions drawn, 4 and {in_effect} expected")
    compare = len(runs) > 1
    if len(parser.cost_charts) != len(runs) + (1 if compare else 0):
        fail(f"{len(parser.cost_charts)} cost charts for {len(runs)} run(s)")
    parts = [(f"{prefix}cost.resources[{i}].{part}_cost", resource[f"{part}_cost"])
             for report, prefix in zip(runs, prefixes)
             for i, resource in enumerate(report["cost"]["resources"])
             for part in ("read", "write", "storage") if resource[f"{part}_cost"] > 0]
    if compare:
        parts += [(f"runs[{i}].cost.{part}_cost", report["cost"][f"{part}_cost"])
                  for i, report in enumerate(runs)
                  for part in ("read", "write", "storage") if report["cost"][f"{part}_cost"] > 0]
    drawn = [bar for chart in parser.cost_charts for bar in chart]
    if sorted(path for path, _ in drawn) != sorted(path for path, _ in parts):
        fail(f"cost bars drawn for {sorted(p for p, _ in drawn)}, the JSON's positive costs are "
             f"{sorted(p for p, _ in parts)}")
    for path, raw in drawn:
        value = resolve(document, path)
        if not math.isclose(float(raw), value, rel_tol=1e-9, abs_tol=1e-12):
            fail(f"cost bar {path}: data-cost {raw}, the JSON has {value}")
    scaled = sum(len(resource.get("scaling_actions", [])) for _, resource in expected)
    with_timeline = sum(1 for report in runs if report.get("timeline"))
    if parser.timelines != with_timeline:
        fail(f"{parser.timelines} timeline charts for {with_timeline} runs with a timeline")
    return parser, len(figures), cells_total, scaled


# --- main ---------------------------------------------------------------------------------------

def check(html_path, json_path, workdir):
    html_path, json_path = os.path.abspath(html_path), os.path.abspath(json_path)
    with open(html_path, encoding="utf-8") as f:
        source = f.read()
    with open(json_path, encoding="utf-8") as f:
        document = json.load(f)
    if isinstance(document, dict) and "runs" in document:
        runs = document["runs"]
        prefixes = [f"runs[{i}]." for i in range(len(runs))]
    else:
        runs, prefixes = [document], [""]

    check_source(source)
    browser = find_chromium()
    shot, shot_seconds = screenshot(browser, workdir, html_path, os.path.join(workdir, "shot.png"),
                                    1400, 2400, "the page screenshot")
    distinct, inked = check_not_blank(shot)
    dom_bytes, dom_seconds = chromium(browser, workdir, ["--dump-dom", "file://" + html_path],
                                      "chromium --dump-dom")
    dom = dom_bytes.decode("utf-8")
    if "data-figure" not in dom:
        fail("the DOM Chromium dumped has no figures")
    parser, figures, cells, scaled = check_dom(dom, document, runs, prefixes)
    pixels = check_heatmap_pixels(browser, workdir, source, runs, parser.heatmaps)

    print(f"{NAME}: {os.path.basename(html_path)}: {len(source):,} bytes, {len(runs)} run(s), "
          f"self-contained")
    print(f"  screenshot 1400x2400: {distinct:,} distinct colours, {inked:.0%} of pixels inked "
          f"(Chromium {shot_seconds:.1f} s)")
    print(f"  DOM (Chromium {dom_seconds:.1f} s): {figures} figures match the JSON report; "
          f"{len(parser.heatmaps)} heat maps, {cells:,} cells, all with tooltips and colour "
          f"classes as the JSON's utilization gives; {len(parser.capacity_charts)} capacity "
          f"charts, {scaled} auto scaling action(s); {len(parser.cost_charts)} cost charts")
    if pixels:
        warm_observed, warm_expected, seconds, detail = pixels
        print(f"  heat maps screenshot (Chromium {seconds:.1f} s): {warm_observed:,} warm pixels "
              f"for {warm_expected:,} expected; per class observed/expected: {detail}")
    else:
        print("  heat maps screenshot: skipped (no cells)")


def main(argv):
    args = argv[1:]
    if args and args[0] == "--html":
        options = dict(zip(args[0::2], args[1::2]))
        if len(args) % 2 or set(options) - {"--html", "--json", "--workdir"} or \
                "--json" not in options:
            sys.exit(__doc__)
        workdir = os.path.abspath(options.get("--workdir") or
                                  os.path.dirname(os.path.abspath(options["--html"])))
        os.makedirs(workdir, exist_ok=True)
        check(options["--html"], options["--json"], workdir)
        return
    if len(args) != 3:
        sys.exit(__doc__)
    partstore, workload, workdir = (os.path.abspath(a) for a in args)
    os.makedirs(workdir, exist_ok=True)
    if not os.access(partstore, os.X_OK):
        fail(f"not an executable: {partstore}")
    html_path, json_path = os.path.join(workdir, "r.html"), os.path.join(workdir, "r.json")
    outputs = []
    for attempt in range(2):
        for path in (html_path, json_path):
            if os.path.exists(path):
                os.remove(path)
        command = [partstore, "simulate", workload, "--json", json_path, "--html", html_path,
                   "--quiet"]
        rc, out, err, seconds = run(command, SIMULATE_TIMEOUT, "partstore simulate")
        if rc != 0:
            fail(f"{' '.join(command)} exited {rc}:\n{err.decode(errors='replace')[-3000:]}")
        for path in (html_path, json_path):
            if not os.path.exists(path):
                fail(f"{' '.join(command)} wrote no {path}")
        with open(html_path, "rb") as f:
            outputs.append(f.read())
        if attempt == 0:
            print(f"{NAME}: partstore simulate took {seconds:.1f} s")
    if outputs[0] != outputs[1]:
        fail("two runs of the same workload wrote different HTML reports")
    check(html_path, json_path, workdir)


if __name__ == "__main__":
    try:
        main(sys.argv)
    except CheckFailed as e:
        print(f"{NAME}: FAILED: {e}", file=sys.stderr)
        sys.exit(1)
