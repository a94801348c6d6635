#!/usr/bin/env python3
"""The live page (`partstore serve`'s /ui) in headless Chromium while a hot key is throttled.

Usage:
  live_page_check.py PARTSTORE WORKDIR

Starts `PARTSTORE serve --port 0 --clock manual` (capacity simulation on its manual clock, so the
numbers hold still while the browser reads them), creates a provisioned table of two partitions
(1,500 WCU) with a GSI, writes to one partition key more each simulated second for 15 seconds,
then 1,500 items under it in one second (one partition's share is 750 WCU: many are throttled),
with some writes spread over other keys throughout, and moves the clock on. Then Chromium (`chromium` or `chromium-browser`, --headless=new) loads /ui with a virtual
time budget that lets the page poll its data a few times, and the DOM it dumps must show:
  - the table's section with its partitions, the hot one marked "hottest" (share >= 1) and the
    others cooler;
  - the throttle reason(s) of that second, with what each means;
  - the hot key among the top keys and in the last throttled requests;
  - the throttled writes since the start equal to /metrics'
    partstore_table_throttled_requests_total{table=...,operation="write"} read at the same moment
    (the clock does not move in between).
It also checks /ui/data's shape for the same second; that a cache (`serve --upstream` in front of
the server) shows its hit ratio and upstream calls on its page after one miss and nine hits; and
saves a 1280 x 1100 screenshot of the page
as WORKDIR/live-page.png (a CI artifact; the README's picture is made by this check:
`live_page_check.py build/release/partstore /tmp/x` then copy /tmp/x/live-page.png to
docs/images/live-page.png). The screenshot must not be blank.

Needs Debian's chromium and python3-pil (tools/run test installs them).
"""

import html.parser
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import time
import urllib.request

try:
    from PIL import Image
except ImportError:
    system_python = "/usr/bin/python3"
    if (os.path.exists(system_python) and not os.environ.get("LIVE_PAGE_CHECK_REEXEC") and
            os.path.realpath(sys.executable) != os.path.realpath(system_python)):
        os.environ["LIVE_PAGE_CHECK_REEXEC"] = "1"
        os.execv(system_python, [system_python] + sys.argv)
    sys.exit("server.live_page: cannot import PIL; install Debian's python3-pil")

NAME = "server.live_page"
TABLE = "HotShop"


class CheckFailed(Exception):
    pass


def fail(message):
    raise CheckFailed(message)


def call(endpoint, operation, body, target_prefix="DynamoDB_20120810"):
    request = urllib.request.Request(
        endpoint + "/", data=json.dumps(body).encode(), method="POST",
        headers={"X-Amz-Target": f"{target_prefix}.{operation}",
                 "Content-Type": "application/x-amz-json-1.0"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def get(endpoint, path):
    with urllib.request.urlopen(endpoint + path, timeout=30) as answer:
        return answer.read().decode()


def advance(endpoint, seconds):
    status, body = call(endpoint, "AdvanceClock", {"Seconds": seconds}, "Partstore_20261120")
    if status != 200:
        fail(f"Partstore.AdvanceClock: {status} {body}")


def load(endpoint):
    status, body = call(endpoint, "CreateTable", {
        "TableName": TABLE, "BillingMode": "PROVISIONED",
        "ProvisionedThroughput": {"ReadCapacityUnits": 100, "WriteCapacityUnits": 1500},
        "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": "PK", "AttributeType": "S"},
                                 {"AttributeName": "owner", "AttributeType": "S"}],
        "GlobalSecondaryIndexes": [{
            "IndexName": "ByOwner", "KeySchema": [{"AttributeName": "owner", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "KEYS_ONLY"},
            "ProvisionedThroughput": {"ReadCapacityUnits": 100, "WriteCapacityUnits": 1500}}]})
    if status != 200:
        fail(f"CreateTable: {status} {body}")
    advance(endpoint, 1)
    throttled = 0
    # Fifteen seconds of a key heating up (the chart's history), then the burst.
    for second in range(15):
        for i in range(40 + 25 * second):
            status, _ = call(endpoint, "PutItem", {"TableName": TABLE, "Item": {
                "PK": {"S": "product#viral"}, "owner": {"S": f"o{i % 50}"}}})
            throttled += status == 400
        for i in range(30):
            status, _ = call(endpoint, "PutItem", {"TableName": TABLE, "Item": {
                "PK": {"S": f"product#{second * 30 + i}"}}})
            throttled += status == 400
        advance(endpoint, 1)
    for i in range(1500):
        status, _ = call(endpoint, "PutItem", {"TableName": TABLE, "Item": {
            "PK": {"S": "product#viral"}, "owner": {"S": f"o{i % 50}"}, "n": {"N": str(i)}}})
        throttled += status == 400
    hot_throttled = throttled
    for i in range(200):
        status, _ = call(endpoint, "PutItem",
                         {"TableName": TABLE, "Item": {"PK": {"S": f"product#{i}"}}})
        throttled += status == 400
    if hot_throttled == 0:
        fail("the hot key was never throttled: the check's load is too light")
    advance(endpoint, 1)
    return throttled


def metric(text, table, operation):
    match = re.search(r'^partstore_table_throttled_requests_total\{table="%s",operation="%s"\} (\d+)$'
                      % (re.escape(table), operation), text, re.M)
    if not match:
        fail(f"/metrics has no throttled {operation} count for {table}:\n{text[-2000:]}")
    return int(match.group(1))


class Dom(html.parser.HTMLParser):
    """The elements of the dumped DOM that the checks read, with their text."""

    def __init__(self):
        super().__init__()
        self.stack = []
        self.elements = []  # (tag, attrs, text parts list, section attrs)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        section = next((a for t, a, _ in reversed(self.stack) if t == "section"), None)
        element = (tag, attrs, [], section)
        if tag not in ("br", "meta", "input", "img", "link", "hr"):
            self.stack.append((tag, attrs, element[2]))
        self.elements.append(element)

    def handle_endtag(self, tag):
        while self.stack:
            t, _, _ = self.stack.pop()
            if t == tag:
                break

    def handle_data(self, data):
        for _, _, text in self.stack:
            text.append(data)


def find_chromium():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    fail("no chromium or chromium-browser on PATH; install Debian's chromium (tools/run test does)")


def chromium(browser, workdir, extra):
    command = [browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
               "--force-device-scale-factor=1", "--no-first-run", "--disable-extensions",
               "--virtual-time-budget=4000",
               "--user-data-dir=" + os.path.join(workdir, "chromium-profile")] + extra
    process = subprocess.run(command, capture_output=True, timeout=120)
    if process.returncode != 0:
        fail(f"chromium failed (exit {process.returncode}): {process.stderr.decode()[-2000:]}")
    return process.stdout.decode()


def check_dom(dom_text, throttled_writes, data):
    dom = Dom()
    dom.feed(dom_text)
    table = [e for e in dom.elements if e[0] == "section" and e[1].get("data-table") == TABLE and
             "data-index" not in e[1]]
    if not table:
        fail("the page shows no section for the table (did its script run?)\n" + dom_text[-3000:])
    in_table = [e for e in dom.elements if e[3] is table[0][1]]
    parts = [e for e in in_table if "data-partition" in e[1]]
    if len(parts) != 2:
        fail(f"the table's section shows {len(parts)} partitions, not 2")
    hot = [e for e in parts if "hot" in e[1].get("class", "").split()]
    if len(hot) != 1 or float(hot[0][1]["data-share"]) < 1 or "hottest" not in "".join(hot[0][2]):
        fail(f"the hot partition is not marked: {[(e[1], ''.join(e[2])) for e in parts]}")
    cool = [e for e in parts if e is not hot[0]]
    if float(cool[0][1]["data-share"]) >= float(hot[0][1]["data-share"]):
        fail("the other partition is as hot as the hot one")
    reasons = [e[1]["data-reason"] for e in in_table if "data-reason" in e[1]]
    expected = {t["reason"] for t in data["throttles"]}
    if not reasons or set(reasons) != expected:
        fail(f"the page's throttle reasons {reasons} are not the data's {sorted(expected)}")
    text = " ".join("".join(e[2]) for e in in_table if e[0] == "tr")
    for t in data["throttles"]:
        if t["meaning"] not in text:
            fail(f"the meaning of {t['reason']} is not shown")
    keys = [" ".join(e[2]) for e in in_table if e[0] == "td" and "key" in e[1].get("class", "")]
    if not any("PK=product#viral" in k for k in keys):
        fail(f"the hot key is not shown among {keys[:10]}")
    shown = [e for e in in_table if e[1].get("data-metric") == "throttled-write"]
    if not shown or int("".join(shown[0][2]).replace(",", "")) != throttled_writes:
        fail(f"the page's throttled writes {[''.join(e[2]) for e in shown]} are not /metrics' "
             f"{throttled_writes}")


def check_screenshot(png):
    image = Image.open(png).convert("RGB")
    colours = image.getcolors(maxcolors=1 << 20) or []
    if len(colours) < 20:
        fail(f"the screenshot {png} is blank or nearly ({len(colours)} colours)")
    heat = {(0xbd, 0x00, 0x26), (0x80, 0x00, 0x26), (0xe3, 0x1a, 0x1c)}
    if not any(c in heat for _, c in colours):
        fail(f"the screenshot {png} shows no partition in the hot colours")


def check_cache(binary, upstream, browser, workdir):
    """A cache (`serve --upstream`) in front of the server: its page shows its hit ratio and
    upstream calls. Ten reads of one item: one miss, nine hits."""
    env = dict(os.environ, AWS_ACCESS_KEY_ID="AKIDLIVE", AWS_SECRET_ACCESS_KEY="live-secret",
               AWS_REGION="us-east-1")
    proxy = subprocess.Popen([binary, "serve", "--port", "0", "--upstream", upstream,
                              "--upstream-region", "us-east-1"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        ready, _, _ = select.select([proxy.stdout], [], [], 20)
        line = proxy.stdout.readline() if ready else ""
        match = re.match(r"^partstore serve: listening on (http://[^\s]+)$", line.strip())
        if not match:
            fail(f"partstore serve --upstream did not start: {line!r}")
        endpoint = match.group(1)
        for _ in range(10):
            status, body = call(endpoint, "GetItem", {"TableName": TABLE,
                                                      "Key": {"PK": {"S": "product#1"}}})
            if status != 200:
                fail(f"GetItem through the cache: {status} {body}")
        cache = json.loads(get(endpoint, "/ui/data"))["cache"]
        if (cache["item_hits"], cache["item_misses"]) != (9, 1) or cache["hit_ratio"] != 0.9:
            fail(f"the cache's counters after one miss and nine hits: {cache}")
        if cache["upstream_calls"] < 1:
            fail(f"no upstream call counted: {cache}")
        dom = Dom()
        dom.feed(chromium(browser, workdir, ["--dump-dom", endpoint + "/ui"]))
        shown = {e[1]["data-metric"]: "".join(e[2]) for e in dom.elements if "data-metric" in e[1]}
        if shown.get("hit-ratio") != "90.0%" or shown.get("upstream-calls") != str(
                cache["upstream_calls"]):
            fail(f"the cache's page shows {shown}, not its counters {cache}")
        return shown["hit-ratio"]
    finally:
        proxy.send_signal(signal.SIGTERM)
        try:
            proxy.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proxy.kill()


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    binary, workdir = sys.argv[1], sys.argv[2]
    os.makedirs(workdir, exist_ok=True)
    browser = find_chromium()
    server = subprocess.Popen([binary, "serve", "--port", "0", "--clock", "manual"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        ready, _, _ = select.select([server.stdout], [], [], 20)
        line = server.stdout.readline() if ready else ""
        match = re.match(r"^partstore serve: listening on (http://[^\s]+)$", line.strip())
        if not match:
            fail(f"partstore serve did not start: {line!r}")
        endpoint = match.group(1)
        throttled = load(endpoint)
        throttled_writes = metric(get(endpoint, "/metrics"), TABLE, "write")
        if throttled_writes != throttled:
            fail(f"/metrics counts {throttled_writes} throttled writes, the client saw {throttled}")
        document = json.loads(get(endpoint, "/ui/data"))
        data = next(r for r in document["resources"] if r["table"] == TABLE and "index" not in r)
        if data["throttled_requests"]["write"] != throttled_writes:
            fail(f"/ui/data says {data['throttled_requests']} throttled, /metrics {throttled_writes}")
        if not data["throttles"] or not data["recent_throttles"]:
            fail(f"/ui/data shows no throttles: {json.dumps(data)[:2000]}")
        started = time.monotonic()
        dom = chromium(browser, workdir, ["--dump-dom", endpoint + "/ui?window=30"])
        check_dom(dom, throttled_writes, data)
        png = os.path.join(workdir, "live-page.png")
        if os.path.exists(png):
            os.remove(png)
        chromium(browser, workdir, ["--window-size=1280,1100", "--screenshot=" + png,
                                    endpoint + "/ui?window=30"])
        check_screenshot(png)
        ratio = check_cache(binary, endpoint, browser, workdir)
        print(f"{NAME}: the page shows the hot partition, {len(data['throttles'])} throttle "
              f"reason(s), the hot key and {throttled_writes} throttled writes as /metrics does "
              f"(Chromium: {time.monotonic() - started:.1f} s); a cache's page its hit ratio "
              f"({ratio}); screenshot {png}")
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()


if __name__ == "__main__":
    try:
        main()
    except CheckFailed as error:
        print(f"{NAME}: FAILED: {error}", file=sys.stderr)
        sys.exit(1)
