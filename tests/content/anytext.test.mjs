// Issue 21's "any text on any page" cases in Chromium (Debian's chromium through CDP): text inside
// open shadow roots at any depth, closed ones refused as out of reach, form fields (and their
// secrets refused), SVG text, a one-million-character text node, and text exactly as shown (code
// blocks, generated ::before/::after text). The cases are tests/content/anytext-cases.json, which
// tests/browser/test_firefox_anytext.py runs in Firefox ESR the same way.
//
// Each case points as a person does (a drop at a point, a mouse drag, a selection in a field), the
// collector runs in an isolated world as the content script does, once for the whole page and once
// around the point only (a drop's first message), and both go through the background's Rust
// (apc-content's `reading` example).
//
// Run: node --test tests/content/anytext.test.mjs   (builds the example once first)

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { ROOT, buildReadingExample, launchChromium, openInIsolatedWorld, serveFixtures } from "./lib/harness.mjs";

const CASES = JSON.parse(readFileSync(path.join(ROOT, "tests/content/anytext-cases.json"), "utf8")).cases;
const PAGE_HELPER = readFileSync(path.join(ROOT, "tests/content/lib/anytext-page.js"), "utf8");
const READING_BIN = path.join(process.env.CARGO_TARGET_DIR || path.join(ROOT, "target"), "debug/examples/reading");
// A stand-in for chrome.dom.openOrClosedShadowRoot (the extension's API, which an isolated world
// made over CDP does not have): it knows the fixture's closed card.
const CLOSED_SHADOW_API = `globalThis.chrome = Object.assign(globalThis.chrome || {}, { dom: {
  openOrClosedShadowRoot(el) { return el.localName === "closed-card" ? { mode: "closed" } : el.shadowRoot; } } });`;

let site;
let browser;

before(async () => {
  buildReadingExample();
  site = await serveFixtures(/^[a-z0-9-]+\.html$/);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await site?.close();
});

/** The reading of an observation, or the refusal `{ error, message }`. */
function readingOrRefusal(observation) {
  const out = spawnSync(READING_BIN, ["2026-11-29T00:00:00Z"], {
    input: JSON.stringify(observation),
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(out.stdout);
}

/** Runs one case's act in the page; the request the collector is then asked. */
async function act(t, c) {
  const prepared = await t.page.evaluate(`${PAGE_HELPER}\n;anytextPrepare(${JSON.stringify(c)})`);
  if (prepared.mouse) {
    const { from, to } = prepared.mouse;
    await t.page.mouse.move(from.x, from.y);
    await t.page.mouse.down();
    await t.page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 4 });
    await t.page.mouse.move(to.x, to.y, { steps: 4 });
    await t.page.mouse.up();
  }
  return prepared.request;
}

/** What a case expects of a reading (or of its refusal), and of the observation behind it. */
function check(c, observation, r, what) {
  const want = c.expect;
  const json = JSON.stringify(observation);
  for (const secret of want.absentFromObservation ?? []) assert.ok(!json.includes(secret), `${what}: the observation holds ${secret}`);
  if (want.error) {
    assert.equal(r.error, want.error, `${what}: ${JSON.stringify(r).slice(0, 400)}`);
    return;
  }
  assert.equal(r.error, undefined, `${what}: refused: ${r.message}`);
  if (want.text !== undefined) assert.equal(r.pointed.text, want.text, what);
  if (want.contains !== undefined) assert.ok(r.pointed.text.includes(want.contains), `${what}: ${r.pointed.text.slice(0, 200)}`);
  if (want.headings) assert.deepEqual(r.context.headings, want.headings, what);
  assert.equal(r.pointed.field, want.field, `${what}: field`);
  if (want.truncated !== undefined) assert.equal(r.truncated, want.truncated, `${what}: truncated`);
  const all = JSON.stringify(r);
  for (const secret of want.absent ?? []) assert.ok(!all.includes(secret), `${what}: the reading holds ${secret}`);
}

for (const c of CASES) {
  test(c.name, async () => {
    const t = await openInIsolatedWorld(browser, `${site.origin}/${c.page}`, "apc-anytext-test");
    try {
      const request = await act(t, c);
      const prelude = c.closedShadowApi ? CLOSED_SHADOW_API : "";
      const [whole, around] = await t.inWorld(`(() => {
        const ask = (options) => { try { return collectObservation(${JSON.stringify(request)}, options); } catch (e) { return { collectError: e.code || String(e) }; } };
        return [ask(), ask({ aroundOnly: true })];
      })()`, { prelude });
      assert.equal(whole.collectError, undefined, `the collector threw: ${whole.collectError}`);
      check(c, whole, readingOrRefusal(whole), "the whole page's observation");
      // What a drop sends first (around the point only) points at the same text.
      check(c, around, readingOrRefusal(around), "the observation around the point");
    } finally {
      await t.page.close();
    }
  });
}
