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
 * null (404). Every page is sent with `script-src 'none'`: should a context run scripts, the
 * page's own still stay off (openInWorld turns JavaScript off).
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
 * Loads `url` (on `origin`; every other request is refused: offline) in a fresh 1280×900 context
 * with JavaScript off, lays it out, shows it as the person's tab did where a missing resource
 * or a script made it so ([`AS_SHOWN`]), and makes an isolated world in it where `preludes` are
 * evaluated. Resolves to { page, run(expression, awaitPromise), shown (what AS_SHOWN did), close }.
 *
 * JavaScript off is a mode a person's browser has, and the saved pages' closest offline image of
 * what their tab showed: `<noscript>` renders (a Discourse thread's posts, a site's "no-js"
 * styles), the page's own scripts (absent offline anyway) do not run, and every run shows the
 * same page. Blocking scripts by CSP instead leaves scripting on, so `<noscript>` stays hidden and
 * such a page shows nothing; running only the inline scripts made runs differ. The extension's
 * content script runs in a page with JavaScript off (content scripts are the extension's, not the
 * page's), as the isolated world here does. Every extractor that reads this page load
 * (the product, Readability.js) reads the same DOM. With JavaScript off no timer fires, in the
 * isolated world too (a message on a MessageChannel still arrives): a page made for timing
 * tasks (which has no scripts of its own) is opened with `javaScript: true`, its page scripts
 * still off by the server's CSP.
 */
export async function openInWorld(browser, origin, url, preludes, { worldName = "apc-bench", javaScript = false } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: javaScript });
  try {
    const page = await context.newPage();
    await page.route("**/*", (route) => {
      if (route.request().url().startsWith(origin)) route.continue();
      else route.abort();
    });
    await page.goto(url, { waitUntil: "load", timeout: 60000 });
    // With JavaScript off no callback runs (no requestAnimationFrame): reading styles and boxes
    // lays the page out, which is all the collector needs.
    const shown = await page.evaluate(AS_SHOWN);
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
    return { page, run, shown, close: () => context.close() };
  } catch (e) {
    await context.close();
    throw e;
  }
}

/**
 * In the page (JavaScript off, so synchronous; returns what it did): the page as the person's tab
 * showed it, where what made it so was a script or stylesheet the saved page lacks or cannot run.
 * Two steps, each only where the page itself says it was done:
 *   1. a streamed React page's segments put in place. Such a page is sent in pieces: a suspense
 *      boundary's fallback in place, its real content later in a `<div hidden id="S:n">`, and an
 *      inline script `$RC("B:n","S:n")` (a boundary) or `$RS("S:n","P:n")` (a segment) that moves
 *      it in. Each such call in the page's inline scripts is applied, in their order, as React's
 *      does (the fallback removed up to the boundary's end comment, the content moved in); a
 *      segment left with a place of its number (a saved page without those scripts) goes there.
 *      Likewise Marko's async fragments (eBay's pages): a part sent late in a `display: none`
 *      `#af<name><n>`, which an inline `$af<name>(n)` moves into its place `#af<name>ph<n>`.
 *   2. a blank page shown: when no text on the page is visible (every text is under something of
 *      opacity 0 or visibility hidden: an anti-flicker `body { opacity: 0 }`, a framework's
 *      wrapper hidden until it hydrates, which the missing stylesheet or script would undo), the
 *      hiding element that covers the most text is shown, again while the text still hidden
 *      under such elements outweighs the visible (at most 50 times). A page with any visible text
 *      is left as it is: its hidden parts stay hidden.
 */
export const AS_SHOWN = () => {
  const done = { segments: 0, revealed: 0 };
  // 1. React's streamed segments.
  const boundary = (markerId, contentId) => {
    // $RC(boundary, content): the boundary's comment `$?` precedes the template `B:n`.
    const content = document.getElementById(contentId);
    const marker = document.getElementById(markerId);
    if (!content || !marker || !marker.parentNode) return;
    content.remove();
    const start = marker.previousSibling;
    if (!start || start.nodeType !== Node.COMMENT_NODE) {
      // A saved page without comments: the fallback's end is unknown, the content takes the
      // template's place.
      while (content.firstChild) marker.parentNode.insertBefore(content.firstChild, marker);
      marker.remove();
      done.segments += 1;
      return;
    }
    const parent = start.parentNode;
    let node = start.nextSibling;
    let depth = 0;
    while (node) {
      if (node.nodeType === Node.COMMENT_NODE) {
        if (node.data === "/$") {
          if (depth === 0) break;
          depth -= 1;
        } else if (["$", "$?", "$!"].includes(node.data)) {
          depth += 1;
        }
      }
      const next = node.nextSibling;
      node.remove();
      node = next;
    }
    while (content.firstChild) parent.insertBefore(content.firstChild, node);
    start.data = "$";
    done.segments += 1;
  };
  const segment = (contentId, placeholderId) => {
    // $RS(segment, placeholder).
    const content = document.getElementById(contentId);
    const placeholder = document.getElementById(placeholderId);
    if (!content || !placeholder || !placeholder.parentNode) return;
    content.remove();
    while (content.firstChild) placeholder.parentNode.insertBefore(content.firstChild, placeholder);
    placeholder.remove();
    done.segments += 1;
  };
  for (const script of document.querySelectorAll("script:not([src])")) {
    for (const [, kind, first, second] of script.textContent.matchAll(/\$R([CS])\(\s*["']([^"']+)["']\s*,\s*["']([^"']+)["']/g)) {
      if (kind === "C") boundary(first, second);
      else segment(first, second);
    }
  }
  // A saved page whose inline scripts were stripped keeps its segments and their places: each
  // segment goes to the place of its number, as the calls above name them.
  for (const content of document.querySelectorAll('div[hidden][id^="S:"]')) {
    const n = content.id.slice(2);
    if (document.getElementById(`B:${n}`)) boundary(`B:${n}`, content.id);
    else if (document.getElementById(`P:${n}`)) segment(content.id, `P:${n}`);
  }
  // 1b. Marko's async fragments (eBay): a part sent late, in a `display: none` element
  // `#af<name><n>` at the end of the body, that an inline call `$af<name>(n)` moves into the
  // place `#af<name>ph<n>` (a loader, or an empty element, which it replaces). Each such call in
  // the page's inline scripts is applied, as the page's own function does.
  for (const script of document.querySelectorAll("script:not([src])")) {
    for (const [, name, n] of script.textContent.matchAll(/\$af([A-Za-z0-9_]*)\(\s*(\d+)\s*[,)]/g)) {
      const content = document.getElementById(`af${name}${n}`);
      const place = document.getElementById(`af${name}ph${n}`);
      if (!content || !place || !place.parentNode) continue;
      const moved = document.createDocumentFragment();
      while (content.firstChild) moved.appendChild(content.firstChild);
      place.parentNode.replaceChild(moved, place);
      done.segments += 1;
    }
  }
  // 2. A blank page.
  const texts = [];
  const walker = document.createTreeWalker(document.body || document.documentElement, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    const len = n.data.trim().length;
    if (!el || !len || ["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE"].includes(el.tagName)) continue;
    if (!el.checkVisibility()) continue; // display: none and the like: never shown, not blank
    texts.push([n, len]);
  }
  const seen = (el) => el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
  // The outermost element that hides `el` itself (opacity 0, or visibility hidden set on it).
  const hider = (el) => {
    let found = null;
    for (let e = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      const parent = e.parentElement ? getComputedStyle(e.parentElement) : null;
      if (s.opacity === "0" || (s.visibility !== "visible" && (!parent || parent.visibility === "visible"))) found = e;
    }
    return found;
  };
  if (texts.some(([n]) => seen(n.parentElement))) return done;
  for (let round = 0; round < 50; round += 1) {
    let visible = 0;
    const hidden = new Map();
    for (const [n, len] of texts) {
      if (seen(n.parentElement)) {
        visible += len;
        continue;
      }
      const h = hider(n.parentElement);
      if (h) hidden.set(h, (hidden.get(h) || 0) + len);
    }
    let best = null;
    let most = 0;
    let under = 0;
    for (const [h, len] of hidden) {
      under += len;
      if (len > most) [best, most] = [h, len];
    }
    if (!best || (visible > 0 && under <= visible)) break;
    best.style.setProperty("opacity", "1", "important");
    best.style.setProperty("visibility", "visible", "important");
    done.revealed += 1;
  }
  return done;
};

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
