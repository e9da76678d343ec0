// What the content-script tests share: the content script's source, fixture pages served on
// 127.0.0.1, Debian's chromium, the content script run in an isolated world made over CDP (as the
// browser runs a content script: the page's scripts cannot see it and the page's CSP does not apply
// to it), and the same Rust the background runs, as apc-content's `reading` example.
import http from "node:http";
import { readFile } from "node:fs/promises";
import { execFileSync, spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { contentScriptSource } from "../../../scripts/lib/content-script.mjs";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
export const FIXTURES = path.join(ROOT, "tests/fixtures");
// The content script as the manifest loads it (its files in order, one isolated world).
export const SOURCE = contentScriptSource(ROOT);
const TARGET_DIR = process.env.CARGO_TARGET_DIR || path.join(ROOT, "target");
const READING_BIN = path.join(TARGET_DIR, "debug/examples/reading");

/** Builds apc-content's `reading` example (once per test file, before its tests). */
export function buildReadingExample() {
  execFileSync("cargo", ["build", "-q", "-p", "apc-content", "--example", "reading"], {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, CARGO_TARGET_DIR: TARGET_DIR },
  });
}

/** The reading the background would make of `observation`; throws with the refusal if refused. */
export function reading(observation) {
  const out = spawnSync(READING_BIN, ["2026-11-29T00:00:00Z"], {
    input: JSON.stringify(observation),
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (out.status !== 0) throw new Error(`reading refused: ${out.stdout}`);
  return JSON.parse(out.stdout);
}

/**
 * Serves the fixtures whose names match `names` (a RegExp) on 127.0.0.1; `headersFor(name)` may add
 * response headers. Resolves to { origin, close }.
 */
export async function serveFixtures(names, headersFor = () => ({})) {
  const server = http.createServer(async (req, res) => {
    const name = path.basename(new URL(req.url, "http://x").pathname);
    if (!names.test(name)) {
      res.writeHead(404).end();
      return;
    }
    try {
      const body = await readFile(path.join(FIXTURES, name));
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", ...headersFor(name) }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((ok) => server.close(ok)),
  };
}

/** Debian's chromium, headless, without the network chatter a fresh profile makes. */
export function launchChromium() {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
  });
}

/**
 * Opens `url` in a new page and makes an isolated world in it. `inWorld(expression, { prelude })`
 * runs `expression` there after (re)defining the content script (and `prelude` before it), awaits
 * it, and gives its value. `javaScript: false` opens it as a tab with JavaScript off (the page's
 * scripts do not run; the isolated world still does). Resolves to { page, cdp, inWorld }.
 */
export async function openInIsolatedWorld(browser, url, worldName, { javaScript = true } = {}) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, javaScriptEnabled: javaScript });
  await page.goto(url);
  const cdp = await page.context().newCDPSession(page);
  const { frameTree } = await cdp.send("Page.getFrameTree");
  const { executionContextId } = await cdp.send("Page.createIsolatedWorld", {
    frameId: frameTree.frame.id,
    worldName,
  });
  const inWorld = async (expression, { prelude = "" } = {}) => {
    const { result, exceptionDetails } = await cdp.send("Runtime.evaluate", {
      expression: `${prelude}\n${SOURCE}\n;(${expression})`,
      contextId: executionContextId,
      returnByValue: true,
      awaitPromise: true,
    });
    if (exceptionDetails) throw new Error(exceptionDetails.exception?.description || exceptionDetails.text);
    return result.value;
  };
  return { page, cdp, inWorld };
}

/** The centre-left of an element's first line, in viewport coordinates (scrolled into view). */
export async function pointIn(page, selector) {
  await page.locator(selector).first().scrollIntoViewIfNeeded();
  return page.evaluate((sel) => {
    const r = document.querySelector(sel).getClientRects()[0];
    return { x: r.left + 4, y: r.top + r.height / 2 };
  }, selector);
}
