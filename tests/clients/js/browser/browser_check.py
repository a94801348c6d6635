#!/usr/bin/env python3
"""CORS with a real browser: headless Chromium loads a page served from another origin that uses
the AWS SDK for JavaScript v3 against `partstore serve` (issue 50, item 1).

Usage:
  browser_check.py PARTSTORE WORKDIR

Bundles tests/clients/js/browser/page.mjs with esbuild (tests/clients/js/node_modules, installed by
`npm ci`; tools/run test does it) into WORKDIR, serves WORKDIR on one port with Python's static
server (the page's origin) and `partstore serve` on another (the SDK's endpoint), and has Chromium
(--headless=new) run the page. The page creates a table, writes and reads an item and provokes a
ResourceNotFoundException; the DOM Chromium dumps must hold what it got: the item, the request id
(read from an exposed header) and the error's name and status. Without CORS the browser refuses
every answer and the page records the failure.
"""

import functools
import html
import http.server
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import threading

NAME = "clients.browser"
HERE = os.path.dirname(os.path.abspath(__file__))
JS = os.path.dirname(HERE)


def fail(message):
    print(f"{NAME}: FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    binary, workdir = sys.argv[1], sys.argv[2]
    os.makedirs(workdir, exist_ok=True)
    esbuild = os.path.join(JS, "node_modules", ".bin", "esbuild")
    if not os.access(esbuild, os.X_OK):
        fail(f"no {esbuild}: run 'npm ci --prefix {JS}' (tools/run test does)")
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        fail("no chromium on PATH; install Debian's chromium (tools/run test does)")
    bundled = subprocess.run([esbuild, os.path.join(HERE, "page.mjs"), "--bundle",
                              "--format=iife", "--platform=browser", "--log-level=warning",
                              "--outfile=" + os.path.join(workdir, "page.js")],
                             capture_output=True, text=True, timeout=120)
    if bundled.returncode != 0:
        fail(f"esbuild: {bundled.stderr[-2000:]}")
    with open(os.path.join(workdir, "page.html"), "w") as out:
        out.write('<!doctype html><html><head><meta charset="utf-8"><title>SDK</title></head>'
                  '<body><pre id="result">running</pre><script src="page.js"></script>'
                  '</body></html>')

    # The page's origin: a static server of WORKDIR on a port of its own.
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = functools.partial(Quiet, directory=workdir)
    static = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=static.serve_forever, daemon=True).start()
    page_origin = f"http://127.0.0.1:{static.server_address[1]}"

    server = subprocess.Popen([binary, "serve", "--port", "0"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    try:
        ready, _, _ = select.select([server.stdout], [], [], 20)
        line = server.stdout.readline() if ready else ""
        match = re.match(r"^partstore serve: listening on (http://\S+)$", line.strip())
        if not match:
            fail(f"partstore serve did not start: {line!r}")
        endpoint = match.group(1)
        url = f"{page_origin}/page.html?endpoint={endpoint}"
        # Chromium dumps the page when its virtual time budget is spent; on a loaded machine
        # (CI's tests run two at a time) that came before the SDK's calls had finished. A page
        # still "running" is loaded again, up to three times, each with a fresh table name; a
        # page that finished is judged on its first answer.
        for attempt in range(3):
            dom = subprocess.run(
                [browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-extensions", "--virtual-time-budget=30000",
                 "--user-data-dir=" + os.path.join(workdir, f"chromium-profile-{attempt}"),
                 "--dump-dom", f"{url}&attempt={attempt}"],
                capture_output=True, text=True, timeout=120)
            if dom.returncode != 0:
                fail(f"chromium failed: {dom.stderr[-2000:]}")
            match = re.search(r'<pre id="result"[^>]*>(.*?)</pre>', dom.stdout, re.S)
            if not match:
                fail(f"no result in the page: {dom.stdout[-2000:]}")
            text = html.unescape(match.group(1))
            if text != "running":
                break
        if text == "running":
            fail("the page's script did not finish within Chromium's time budget (3 loads)")
        result = json.loads(text)
        if "failed" in result:
            fail(f"the SDK's calls failed in the browser: {result['failed']}")
        if result["origin"] == endpoint.rstrip("/"):
            fail("the page was served from the endpoint's own origin: not a cross-origin test")
        if result["item"] != {"PK": {"S": "page"}, "n": {"N": "42"}}:
            fail(f"the item read back: {result['item']}")
        if not result["requestId"]:
            fail("the SDK could not read x-amzn-RequestId (Access-Control-Expose-Headers)")
        if result["error"] != {"name": "ResourceNotFoundException", "status": 400}:
            fail(f"the error the SDK saw: {result['error']}")
        print(f"{NAME}: a page from {page_origin} created a table, wrote and read an item and "
              f"got a ResourceNotFoundException through the JS SDK against {endpoint}")
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
        static.shutdown()


if __name__ == "__main__":
    main()
