"""Why Python: Firefox is driven through Selenium and geckodriver, the house Firefox driver (.venv).

Page-load cost of the extension in Firefox ESR, the same measure as pageload.mjs for Chromium: the
`load` event time (navigation timing loadEventStart) of a small page and of a heavy one (5,000
paragraphs) served on 127.0.0.1, with no extension, with an empty extension declaring one empty
content script (document_start, all http/https pages), the same at document_idle, and with ours (dist/extension), interleaved,
RUNS times each. Prints a markdown section on stdout. Figures only; asserts nothing.
  .venv/bin/python scripts/bench/pageload_firefox.py [runs]
"""

import http.server
import json
import os
import pathlib
import shutil
import statistics
import sys
import tempfile
import threading

from selenium import webdriver
from selenium.webdriver.firefox.options import Options
from selenium.webdriver.firefox.service import Service

os.environ.setdefault("SE_OFFLINE", "true")
ROOT = pathlib.Path(__file__).resolve().parents[2]
DIST = ROOT / "dist" / "extension"
FIREFOX = os.environ.get("APC_FIREFOX", "/usr/bin/firefox-esr")
GECKODRIVER = os.environ.get("APC_GECKODRIVER") or shutil.which("geckodriver") or str(
    pathlib.Path.home() / ".cargo" / "bin" / "geckodriver"
)
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 15


def small_page():
    return ('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Small</title></head><body>'
            '<h1>A small page</h1><p>One paragraph of text with a <a href="#x">link</a>.</p>'
            '<p>Another paragraph.</p></body></html>')


def heavy_page():
    parts = ['<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Heavy</title></head><body><main>']
    for i in range(5000):
        parts.append(f'<p id="p{i}">Paragraph {i} of a long page, <b>with</b> some <i>inline</i> '
                     f'<a href="#p{i}">markup</a> and <span>more</span> <em>text</em> to lay out.</p>')
    parts.append('</main></body></html>')
    return "\n".join(parts)


PAGES = {"/small": small_page().encode(), "/heavy": heavy_page().encode()}


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = PAGES.get(self.path.split("?")[0])
        if body is None:
            self.send_response(404)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("content-type", "text/html; charset=utf-8")
        self.send_header("cache-control", "no-store")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def empty_extension(directory, run_at="document_start"):
    directory.mkdir(parents=True, exist_ok=True)
    manifest = {
        "manifest_version": 3, "name": "bench", "version": "1.0",
        "host_permissions": ["http://*/*", "https://*/*"],
        "content_scripts": [{"matches": ["http://*/*", "https://*/*"], "js": ["c.js"], "run_at": run_at}],
        "browser_specific_settings": {"gecko": {"id": "pageload-bench@apc-extension.org"}},
    }
    (directory / "manifest.json").write_text(json.dumps(manifest))
    (directory / "c.js").write_text("")
    return directory


def firefox(extension):
    options = Options()
    options.binary_location = FIREFOX
    options.add_argument("-headless")
    service = Service(executable_path=GECKODRIVER, service_args=["--allow-system-access"])
    driver = webdriver.Firefox(options=options, service=service)
    if extension:
        driver.install_addon(str(extension), temporary=True)
    return driver


def measure(driver, url):
    driver.get(url)  # returns once `load` has fired (page load strategy "normal")
    return driver.execute_script(
        "const n = performance.getEntriesByType('navigation')[0];"
        "return {load: n.loadEventStart, dcl: n.domContentLoadedEventStart,"
        " elements: document.getElementsByTagName('*').length};")


def main():
    if not (DIST / "wasm" / "apc_background_bg.wasm").exists():
        sys.exit("no built extension in dist/extension: run scripts/build-extension.sh")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    work = pathlib.Path(tempfile.mkdtemp(prefix="apc-pageload-ff-"))
    variants = [
        ("none", None),
        ("empty", empty_extension(work / "empty")),
        ("empty-idle", empty_extension(work / "idle", "document_idle")),
        ("ours", DIST),
    ]
    drivers = []
    try:
        for name, ext in variants:
            drivers.append((name, firefox(ext)))
        pages = ["small", "heavy"]
        results = {(n, p): [] for n, _ in drivers for p in pages}
        elements = {}
        for _, d in drivers:
            for p in pages:
                measure(d, f"{origin}/{p}")  # warm-up, not counted
        for run in range(RUNS):
            for p in pages:
                for i in range(len(drivers)):
                    name, d = drivers[(i + run) % len(drivers)]
                    m = measure(d, f"{origin}/{p}?r={run}")
                    results[(name, p)].append(m)
                    elements[p] = m["elements"]
    finally:
        for _, d in drivers:
            d.quit()
        server.shutdown()
        shutil.rmtree(work, ignore_errors=True)
    version = os.popen(f"{FIREFOX} --version 2>/dev/null").read().strip()
    out = ["## Page load (Firefox)", "",
           f"Headless {version} through Selenium, the same pages and method as the Chromium table: {RUNS} "
           f"interleaved runs per cell (order rotating), median `load` event time (ms) and its ratio to no "
           f"extension. Small page: {elements['small']} elements; heavy page: {elements['heavy']} elements.", "",
           "| variant | page | load p50 (ms) | ratio of p50s | p50 of paired ratios | min–max (ms) | DOMContentLoaded p50 |",
           "|---|---|---:|---:|---:|---:|---:|"]
    for p in pages:
        base_runs = [m["load"] for m in results[("none", p)]]
        base = statistics.median(base_runs)
        for name, _ in drivers:
            loads = [m["load"] for m in results[(name, p)]]
            med = statistics.median(loads)
            paired = statistics.median(x / b for x, b in zip(loads, base_runs))
            dcl = statistics.median(m["dcl"] for m in results[(name, p)])
            out.append(f"| {name} | {p} | {med:.0f} | {med / base:.2f} | {paired:.2f} | "
                       f"{min(loads):.0f}–{max(loads):.0f} | {dcl:.0f} |")
    print("\n".join(out))


if __name__ == "__main__":
    main()
