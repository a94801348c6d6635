// The live page's HTML, CSS and JavaScript (live_page.h): everything inline, drawn in the browser
// from GET /ui/data once a second. Partitions are coloured with the simulator report's heat scale
// (tools/simulator/report_html_page.h), so both show a partition's heat the same way.
#include <fmt/format.h>

#include <string>
#include <string_view>

#include "tools/live/live_page.h"
#include "tools/simulator/report_html_page.h"

namespace partstore::live {
namespace {

constexpr std::string_view kHead = R"html(<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>@TITLE@ · live partitions</title>
<style>
:root{--fg:#1f2328;--muted:#656d76;--line:#d8dee4;--soft:#f6f8fa;--accent:#0969da;--read:#4c6ef5;--write:#2f9e44;--thr:@THROTTLED@}
*{box-sizing:border-box}
body{margin:0;color:var(--fg);font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif}
main{max-width:1320px;margin:0 auto;padding:20px 28px 40px}
h1{font-size:24px;margin:0 0 2px}h1 small{font-weight:400;color:var(--muted);font-size:15px}
h2{font-size:19px;margin:0 0 4px}h3{font-size:14px;margin:14px 0 6px}
.muted{color:var(--muted)}
section.resource{border:1px solid var(--line);border-radius:10px;padding:14px 18px;margin:16px 0}
.cards{display:flex;flex-wrap:wrap;gap:10px;margin:8px 0}
.card{border:1px solid var(--line);border-radius:8px;padding:6px 14px;background:var(--soft)}
.card .label{color:var(--muted);font-size:11px;text-transform:uppercase;letter-spacing:.04em}
.card .big{font-size:20px;font-weight:600;font-variant-numeric:tabular-nums}
.strip{display:flex;flex-wrap:wrap;gap:4px}
.part{min-width:92px;border:1px solid rgba(0,0,0,.15);border-radius:6px;padding:4px 8px;font-size:12px;font-variant-numeric:tabular-nums}
.part b{display:block;font-size:13px}
.part.hot{outline:3px solid #000;outline-offset:1px}
.part .tag{font-size:10px;text-transform:uppercase;font-weight:700}
@HEAT@
.u6,.u7,.u8{color:#fff}
table{border-collapse:collapse;margin:4px 0 8px;font-variant-numeric:tabular-nums}
th,td{border:1px solid var(--line);padding:3px 9px;text-align:left;vertical-align:top}
th{background:var(--soft)}td.n{text-align:right}
td.key{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;word-break:break-all;max-width:520px}
svg text{font-size:11px;fill:#3d444d}
.legend{display:flex;flex-wrap:wrap;gap:4px 14px;align-items:center;font-size:12px;color:var(--muted)}
.sw{display:inline-block;width:18px;height:11px;vertical-align:middle}
#off{border:1px solid #d4a72c;background:#fff8c5;border-radius:8px;padding:10px 14px}
</style></head>
<body><main>
<h1>@TITLE@ <small>live partitions</small></h1>
<p id="status" class="muted">Connecting…</p>
<div id="off" hidden>Capacity simulation is off: there are no partitions or throttles to show.
Start the server with <code>partstore serve --capacity on</code> (or <code>--clock manual</code>).</div>
<div id="resources"></div>
<p class="legend">Share of a partition's limit consumed in the last second:
)html";

constexpr std::string_view kTail = R"html(
</p><p class="muted">Data: <a href="/ui/data">/ui/data</a> (JSON, documented in the README); the
page reads it once a second.</p>
</main>
<script>
'use strict';
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;',"'":'&#39;'}[c]));
const num = (x) => Number.isInteger(x) ? x.toLocaleString('en-US') : x.toLocaleString('en-US', {maximumFractionDigits: 1});
const heat = (share) => share >= 1 ? 8 : Math.max(0, Math.min(7, Math.floor(share * 8)));
function value(v) {
  const [type, x] = Object.entries(v)[0];
  if (type === 'S' || type === 'N') return x;
  if (type === 'B') return 'b64:' + x;
  return JSON.stringify(x);
}
const keyText = (item) => Object.entries(item).map(([k, v]) => k + '=' + value(v)).join(', ') || '(no key)';

function chart(r, win) {
  const w = 640, h = 150, l = 44, b = 18, t = 8, s = r.series, n = s.read.length;
  const prov = r.provisioned || {read: 0, write: 0};
  const max = Math.max(1, ...s.read, ...s.write, prov.read, prov.write, ...s.throttled);
  const X = (i) => l + (n <= 1 ? 0 : i * (w - l - 8) / (n - 1));
  const Y = (v) => t + (h - t - b) * (1 - v / max);
  const line = (xs, colour, dash) => '<polyline fill="none" stroke="' + colour + '" stroke-width="1.6"' +
    (dash ? ' stroke-dasharray="5 4"' : '') + ' points="' + xs.map((v, i) => X(i).toFixed(1) + ',' + Y(v).toFixed(1)).join(' ') + '"/>';
  let out = '<svg viewBox="0 0 ' + w + ' ' + h + '" width="' + w + '" height="' + h + '" role="img">';
  out += '<text x="' + (l - 4) + '" y="' + (t + 8) + '" text-anchor="end">' + num(max) + '</text>';
  out += '<text x="' + (l - 4) + '" y="' + (h - b) + '" text-anchor="end">0</text>';
  out += '<text x="' + l + '" y="' + (h - 4) + '">−' + win + ' s</text><text x="' + (w - 8) + '" y="' + (h - 4) + '" text-anchor="end">now</text>';
  s.throttled.forEach((v, i) => { if (v > 0) out += '<rect x="' + (X(i) - 1.5) + '" y="' + Y(v) + '" width="3" height="' + (h - b - Y(v)) + '" fill="var(--thr)"/>'; });
  if (r.provisioned) { out += line(s.read.map(() => prov.read), 'var(--read)', true) + line(s.write.map(() => prov.write), 'var(--write)', true); }
  out += line(s.read, 'var(--read)') + line(s.write, 'var(--write)') + '</svg>';
  return out;
}

function resource(r, win) {
  const name = esc(r.table) + (r.index ? ' <span class="muted">/ GSI ' + esc(r.index) + '</span>' : '');
  let out = '<section class="resource" data-table="' + esc(r.table) + '"' + (r.index ? ' data-index="' + esc(r.index) + '"' : '') + '>';
  out += '<h2>' + name + '</h2><p class="muted">' + (r.billing_mode === 'PROVISIONED' && r.provisioned
    ? 'Provisioned: ' + num(r.provisioned.read) + ' RCU, ' + num(r.provisioned.write) + ' WCU'
    : 'On-demand') + ' · ' + r.partitions.length + ' partition' + (r.partitions.length === 1 ? '' : 's') + '</p>';
  if (r.throttled_requests) {
    out += '<div class="cards"><div class="card"><div class="label">Throttled reads since start</div><div class="big" data-metric="throttled-read">' +
      r.throttled_requests.read + '</div></div><div class="card"><div class="label">Throttled writes since start</div><div class="big" data-metric="throttled-write">' +
      r.throttled_requests.write + '</div></div></div>';
  }
  let hottest = null;
  for (const p of r.partitions) {
    const share = Math.max(p.read_share, p.write_share);
    if (share > 0 && (hottest === null || share > hottest.share)) hottest = {id: p.id, share};
  }
  out += '<h3>Partitions (last second: units consumed / what the partition may serve)</h3><div class="strip">';
  for (const p of r.partitions) {
    const share = Math.max(p.read_share, p.write_share);
    const hot = hottest && hottest.id === p.id;
    out += '<div class="part u' + heat(share) + (hot ? ' hot' : '') + '" data-partition="' + p.id + '" data-share="' + share + '" title="' +
      num(p.items) + ' items, ' + num(p.bytes) + ' bytes; ' + p.throttled + ' throttled in the last second">' +
      (hot ? '<span class="tag">hottest</span>' : '') + '<b>P' + p.id + '</b>R ' + num(p.read_units) + ' / ' + num(p.read_limit) +
      '<br>W ' + num(p.write_units) + ' / ' + num(p.write_limit) + '</div>';
  }
  out += '</div>';
  if (r.splits.length) {
    out += '<p class="muted">Splits: ' + r.splits.slice(-8).map((s) => 'P' + s.parent + ' → P' + s.left + ' + P' + s.right +
      ' at ' + num(s.time) + ' s (' + esc(s.reason) + ')').join('; ') + '</p>';
  }
  out += '<h3>Consumed units per second <span class="muted">(<span class="sw" style="background:var(--read)"></span> reads, ' +
    '<span class="sw" style="background:var(--write)"></span> writes' + (r.provisioned ? ', dashed: provisioned' : '') +
    ', <span class="sw" style="background:var(--thr)"></span> throttled requests)</span></h3>' + chart(r, win);
  if (r.throttles.length) {
    out += '<h3>Throttles by reason</h3><table><tr><th>Reason</th><th>Last second</th><th>Last ' + win + ' s</th><th>What it means, what fixes it</th></tr>';
    for (const t of r.throttles) {
      out += '<tr data-reason="' + esc(t.reason) + '"><td>' + esc(t.reason) + '</td><td class="n">' + t.per_second[t.per_second.length - 1] +
        '</td><td class="n">' + num(t.total) + '</td><td>' + esc(t.meaning) + '</td></tr>';
    }
    out += '</table>';
  }
  for (const rule of r.top_keys) {
    out += '<h3>' + esc(rule.rule) + '</h3><table><tr><th>Key</th><th>Per-minute maximum</th></tr>';
    for (const k of rule.keys) out += '<tr><td class="key" data-key>' + esc(keyText(k.key)) + '</td><td class="n">' + num(k.value) + '</td></tr>';
    out += '</table>';
  }
  if (r.recent_throttles.length) {
    out += '<h3>Last throttled requests</h3><table><tr><th>Time (s)</th><th>Partition</th><th>Reason</th><th>Key</th></tr>';
    for (const t of r.recent_throttles.slice(-8).reverse()) {
      out += '<tr><td class="n">' + num(t.time) + '</td><td>P' + t.partition + '</td><td>' + esc(t.reason) + '</td><td class="key">' + esc(keyText(t.key)) + '</td></tr>';
    }
    out += '</table>';
  }
  return out + '</section>';
}

let lastCache = null;
function cache(c) {
  const now = Date.now();
  const rate = (name) => lastCache && now > lastCache.at ? Math.max(0, (c[name] - lastCache.c[name]) * 1000 / (now - lastCache.at)) : null;
  const hits = rate('item_hits') === null ? null : rate('item_hits') + rate('negative_hits') + rate('query_hits');
  const misses = rate('item_misses') === null ? null : rate('item_misses') + rate('query_misses');
  lastCache = {at: now, c};
  const card = (label, value, metric) => '<div class="card"><div class="label">' + label + '</div><div class="big"' +
    (metric ? ' data-metric="' + metric + '"' : '') + '>' + value + '</div></div>';
  return '<section class="resource" data-cache><h2>Cache</h2><p class="muted">DynamoDB Accelerator\'s semantics in front of the upstream endpoint: no simulated partitions here.</p><div class="cards">' +
    card('Hit ratio since start', (100 * c.hit_ratio).toFixed(1) + '%', 'hit-ratio') +
    card('Hits / s', hits === null ? '…' : num(hits)) + card('Misses / s', misses === null ? '…' : num(misses)) +
    card('Upstream calls / s', rate('upstream_calls') === null ? '…' : num(rate('upstream_calls'))) +
    card('Upstream calls since start', num(c.upstream_calls), 'upstream-calls') +
    card('Upstream ms per call', num(c.upstream_ms_per_call)) + card('Memory', num(c.memory_bytes) + ' B') +
    card('Evicted', num(c.evicted_items)) + card('Stream lag', num(c.stream_lag_seconds) + ' s') + '</div></section>';
}

function render(d) {
  const status = document.getElementById('status');
  document.getElementById('off').hidden = d.capacity || Boolean(d.cache);
  if (d.cache) {
    status.textContent = 'A cache · updated ' + new Date().toLocaleTimeString();
    document.getElementById('resources').innerHTML = cache(d.cache);
    return;
  }
  if (!d.capacity) {
    status.textContent = d.tables_total + ' table' + (d.tables_total === 1 ? '' : 's') + '; no capacity simulation.';
    document.getElementById('resources').innerHTML = '';
    return;
  }
  status.innerHTML = 'Clock <b id="clock" data-now="' + d.now + '">' + num(d.now) + ' s</b> · ' + d.tables_shown + ' of ' +
    d.tables_total + ' tables (the busiest first) · updated ' + esc(new Date().toLocaleTimeString());
  document.getElementById('resources').innerHTML = d.resources.map((r) => resource(r, d.window_seconds)).join('') ||
    '<p class="muted">No tables yet.</p>';
  document.body.dataset.updated = String(d.now);
}

async function tick() {
  try {
    const answer = await fetch('/ui/data' + location.search, {cache: 'no-store'});
    const d = await answer.json();
    if (answer.ok) render(d); else document.getElementById('status').textContent = 'Error: ' + (d.message || d.Message || answer.status);
  } catch (e) {
    document.getElementById('status').textContent = 'The server does not answer (' + e + '); trying again.';
  }
  setTimeout(tick, 1000);
}
tick();
</script></body></html>
)html";

void Replace(std::string& text, std::string_view from, std::string_view to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

}  // namespace

std::string PageHtml(std::string_view title) {
  std::string heat;
  std::string legend;
  for (size_t k = 0; k < sim::html::kHeatColors.size(); ++k) {
    heat += fmt::format(".u{0}{{background:{1}}}", k, sim::html::kHeatColors[k]);
    legend += fmt::format("<span><span class=\"sw u{}\"></span> {}</span>", k,
                          k == 8 ? std::string("at or over the limit")
                                 : fmt::format("{}–{}%", k * 100 / 8, (k + 1) * 100 / 8));
  }
  std::string page(kHead);
  Replace(page, "@HEAT@", heat);
  Replace(page, "@THROTTLED@", sim::html::kThrottledColor);
  std::string escaped;
  sim::html::AppendEscaped(escaped, title);
  Replace(page, "@TITLE@", escaped);
  page += legend;
  page += kTail;
  return page;
}

}  // namespace partstore::live
