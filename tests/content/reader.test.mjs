// The reader on pages shaped like issue 12's cases, in a real browser (Debian's chromium, via
// playwright-core): the visibility facts the collector records and the main-text rules, through
// the same Rust the background runs (apc-content's `reading` example).
//
// Run: node --test tests/content/reader.test.mjs   (builds the example once first)

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { readFile } from "node:fs/promises";
import { execFileSync, spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const FIXTURES = path.join(ROOT, "tests/fixtures");
const SOURCE = await readFile(path.join(ROOT, "extension/content/content.js"), "utf8");
const TARGET_DIR = process.env.CARGO_TARGET_DIR || path.join(ROOT, "target");
const READING_BIN = path.join(TARGET_DIR, "debug/examples/reading");

let server;
let origin;
let browser;

before(async () => {
  execFileSync("cargo", ["build", "-q", "-p", "apc-content", "--example", "reading"], {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, CARGO_TARGET_DIR: TARGET_DIR },
  });
  server = http.createServer(async (req, res) => {
    const name = path.basename(new URL(req.url, "http://x").pathname);
    if (!/^reader-[a-z0-9-]+\.html$/.test(name)) {
      res.writeHead(404).end();
      return;
    }
    try {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(await readFile(path.join(FIXTURES, name)));
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  origin = `http://127.0.0.1:${server.address().port}`;
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync",
    ],
  });
});

after(async () => {
  await browser?.close();
  await new Promise((ok) => server?.close(ok));
});

async function open(name) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${origin}/${name}`);
  const cdp = await page.context().newCDPSession(page);
  const { frameTree } = await cdp.send("Page.getFrameTree");
  const { executionContextId } = await cdp.send("Page.createIsolatedWorld", {
    frameId: frameTree.frame.id,
    worldName: "apc-reader-test",
  });
  const inWorld = async (expression) => {
    const { result, exceptionDetails } = await cdp.send("Runtime.evaluate", {
      expression: `${SOURCE}\n;(${expression})`,
      contextId: executionContextId,
      returnByValue: true,
      awaitPromise: true,
    });
    if (exceptionDetails) throw new Error(exceptionDetails.exception?.description || exceptionDetails.text);
    return result.value;
  };
  return { page, inWorld };
}

async function pointIn(page, selector) {
  await page.locator(selector).first().scrollIntoViewIfNeeded();
  return page.evaluate((sel) => {
    const r = document.querySelector(sel).getClientRects()[0];
    return { x: r.left + 4, y: r.top + r.height / 2 };
  }, selector);
}

function reading(observation) {
  const out = spawnSync(READING_BIN, ["2026-11-29T00:00:00Z"], {
    input: JSON.stringify(observation),
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (out.status !== 0) throw new Error(`reading refused: ${out.stdout}`);
  return JSON.parse(out.stdout);
}

async function selectAll(t) {
  await t.page.evaluate(() => getSelection().selectAllChildren(document.body));
  return reading(await t.inWorld(`collectObservation({ how: "selection" })`));
}

test("visibility: a zero-height float at the top shows its links", async () => {
  const t = await open("reader-visibility.html");
  try {
    const all = await selectAll(t);
    assert.match(all.pointed.text, /Top link visible/);
    const { x, y } = await pointIn(t.page, "#toplink");
    const r = reading(await t.inWorld(`collectObservation({ how: "drop", x: ${x}, y: ${y} })`));
    assert.equal(r.pointed.text, "Top link visible");
  } finally {
    await t.page.close();
  }
});

test("visibility: height 0 or width 0 with overflow hidden, transparent text and clip-path inset(50%) are hidden", async () => {
  const t = await open("reader-visibility.html");
  try {
    const text = (await selectAll(t)).pointed.text;
    for (const hidden of ["HEIGHT0-HIDDEN", "WIDTH0-HIDDEN", "TRANSPARENT-HIDDEN", "FILL-HIDDEN", "CLIPPATH-HIDDEN", "CIRCLE-HIDDEN",
      "SKIP-LINK-HIDDEN", "SR-SPAN-HIDDEN"]) {
      assert.ok(!text.includes(hidden), `${hidden} in ${text}`);
    }
    for (const shown of ["A plain paragraph", "COLORED-CHILD shows", "The last paragraph"]) {
      assert.ok(text.includes(shown), `${shown} missing from ${text}`);
    }
  } finally {
    await t.page.close();
  }
});

test("collectObservationAsync gives the same observation as collectObservation", async () => {
  const t = await open("reader-visibility.html");
  try {
    const { x, y } = await pointIn(t.page, "#first");
    const [sync, slow] = await t.inWorld(`Promise.all([
      collectObservation({ how: "drop", x: ${x}, y: ${y} }),
      collectObservationAsync({ how: "drop", x: ${x}, y: ${y} }, { sliceMs: 0.01 }),
    ])`);
    assert.deepEqual(slow, sync);
    assert.equal(reading(slow).pointed.text, "A plain paragraph everyone can read.");
    const err = await t.inWorld(`collectObservationAsync({ how: "selection" }).then(() => "none", (e) => e.code)`);
    assert.equal(err, "no_selection");
  } finally {
    await t.page.close();
  }
});

// The five failure classes: the body in, the noise out.
const CLASSES = [
  ["reader-br-paragraphs.html", "READER-COMMENT", 7],
  ["reader-comments-in-main.html", "COMMENT", 4],
  ["reader-related-cards.html", "RELATED", 5],
  ["reader-headline-articles.html", "headline", 4],
  ["reader-link-dense.html", "LINKY", 3],
];
for (const [name, noise, sentences] of CLASSES) {
  test(`main text: ${name} has the body and not the ${noise} text`, async () => {
    const t = await open(name);
    try {
      const r = await selectAll(t);
      const main = r.page_text;
      for (let i = 1; i <= sentences; i++) assert.match(main, new RegExp(`BODY sentence ${i},`), main);
      assert.ok(!main.includes(noise), `${noise} in ${main}`);
    } finally {
      await t.page.close();
    }
  });
}
