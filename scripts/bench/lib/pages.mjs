// Why JavaScript: the reader's benchmarks drive a real browser (Debian's Chromium through
// playwright-core) and run the extension's content script in it. This module is what the
// benchmarks of the reader share (scripts/bench/reader.mjs on the article corpus,
// scripts/bench/wcxb.mjs on WCXB): the content script's source as the manifest lists it, the
// Readability.js baseline, a loopback server of saved pages with page scripts off, a page loaded
// offline with an isolated world made over CDP (as the browser runs a content script), where a
// person points, and the batch bridge to the same Rust the background runs.

import http from "node:http";
import { readFile } from "node:fs/promises";
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";
import { chromium } from "playwright-core";
import { contentScriptSource as joinedContentScript } from "../../lib/content-script.mjs";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** The content script as the browser evaluates it (scripts/lib/content-script.mjs). */
export async function contentScriptSource() {
  return joinedContentScript(ROOT);
}

/** @mozilla/readability's source and version, from node_modules. */
export async function readability() {
  const dir = path.join(ROOT, "node_modules/@mozilla/readability");
  return {
    source: await readFile(path.join(dir, "Readability.js"), "utf8"),
    version: JSON.parse(await readFile(path.join(dir, "package.json"), "utf8")).version,
  };
}

/**
 * Serves pages on 127.0.0.1: `lookup(pathname)` resolves to an HTML body (Buffer or string) or
 * null (404). Every page is sent with `script-src 'none'`: the page's own scripts stay off.
 */
export function servePages(lookup) {
  const server = http.createServer(async (req, res) => {
    let body = null;
    try {
      body = await lookup(new URL(req.url, "http://x").pathname);
    } catch {
      body = null;
    }
    if (body === null || body === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": "script-src 'none'",
    }).end(body);
  });
  return new Promise((ok) => server.listen(0, "127.0.0.1", () => ok(server)));
}

/** Debian's Chromium, headless, without the network chatter a fresh profile makes. */
export function launchChromium() {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync",
    ],
  });
}

/**
 * Loads `url` (on `origin`; every other request is refused: offline) in a fresh 1280×900 context,
 * waits until it is laid out and painted once, and makes an isolated world in it where `preludes`
 * are evaluated. Resolves to { page, run(expression, awaitPromise), close }.
 */
export async function openInWorld(browser, origin, url, preludes, worldName = "apc-bench") {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    await page.route("**/*", (route) => {
      if (route.request().url().startsWith(origin)) route.continue();
      else route.abort();
    });
    await page.goto(url, { waitUntil: "load", timeout: 60000 });
    await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0))));
    const cdp = await context.newCDPSession(page);
    const { frameTree } = await cdp.send("Page.getFrameTree");
    const { executionContextId } = await cdp.send("Page.createIsolatedWorld", {
      frameId: frameTree.frame.id,
      worldName,
    });
    const run = async (expression, awaitPromise = false) => {
      const { result, exceptionDetails } = await cdp.send("Runtime.evaluate", {
        expression,
        contextId: executionContextId,
        returnByValue: true,
        awaitPromise,
      });
      if (exceptionDetails) throw new Error(exceptionDetails.exception?.description || exceptionDetails.text);
      return result.value;
    };
    await run(`${preludes.join("\n;\n")}\n;true`);
    return { page, run, close: () => context.close() };
  } catch (e) {
    await context.close();
    throw e;
  }
}

/**
 * In the page: selects the first 20 characters of its longest visible text node, where a person
 * points (a selection gives every page a reading, whatever its layout). False when there is none.
 */
export const POINT = () => {
  let best = null;
  let bestLen = 0;
  const w = document.createTreeWalker(document.body || document.documentElement, NodeFilter.SHOW_TEXT);
  for (let n = w.nextNode(); n; n = w.nextNode()) {
    const len = n.data.trim().length;
    if (len <= bestLen) continue;
    const el = n.parentElement;
    if (!el || (el.checkVisibility && !el.checkVisibility({ opacityProperty: true, visibilityProperty: true }))) continue;
    if (["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE"].includes(el.tagName)) continue;
    // Hidden from people by the page's own markup (a cookie dialog whose CSS did not load).
    if (el.closest("[aria-hidden=true], [hidden], [inert]")) continue;
    best = n;
    bestLen = len;
  }
  const sel = getSelection();
  sel.removeAllRanges();
  if (!best) return false;
  const start = best.data.length - best.data.trimStart().length;
  const range = document.createRange();
  range.setStart(best, start);
  range.setEnd(best, Math.min(best.data.length, start + 20));
  sel.addRange(range);
  return true;
};

/**
 * Runs `bin` (apc-content's `reading` example) with `--batch`: one observation (JSON) per line in,
 * one answer per line out, `{ reading, parse_us, build_us }` or `{ error, message }`.
 */
export function readingBatch(bin, observations) {
  return new Promise((ok, fail) => {
    const child = spawn(bin, ["--batch", "2026-11-29T00:00:00Z"], { stdio: ["pipe", "pipe", "inherit"] });
    const answers = [];
    createInterface({ input: child.stdout }).on("line", (line) => answers.push(JSON.parse(line)));
    child.on("error", fail);
    child.on("close", () => ok(answers));
    for (const o of observations) child.stdin.write(`${o}\n`);
    child.stdin.end();
  });
}

/** Order statistics over a list of numbers. */
export function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  if (!s.length) return NaN;
  const at = (s.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return s[lo] + (s[hi] - s[lo]) * (at - lo);
}
export const median = (xs) => quantile(xs, 0.5);
