// The content script's collector in a real browser (Debian's chromium, via playwright-core),
// piped through the same Rust the background runs (apc-content's `reading` example).
//
// The collector runs in an isolated world made over CDP (`Page.createIsolatedWorld`), as a content
// script does: the page's scripts cannot see it, and the page's CSP does not apply to it (see the CSP
// test: `page.addScriptTag` is refused there, the isolated world is not).
//
// Run: node --test tests/content/   (builds the example once first)

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { buildReadingExample, launchChromium, openInIsolatedWorld, pointIn, reading, serveFixtures } from "./lib/harness.mjs";

const CSP = "script-src 'self'";
const headersFor = (name) => (name === "csp.html" ? { "content-security-policy": CSP } : {});

let site;
let browser;

before(async () => {
  buildReadingExample();
  site = await serveFixtures(/^[a-z0-9-]+\.html$/, headersFor);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await site?.close();
});

const open = (name) => openInIsolatedWorld(browser, `${site.origin}/${name}`, "apc-content-test");

async function dropObservation(t, selector) {
  const { x, y } = await pointIn(t.page, selector);
  return t.inWorld(`collectObservation({ how: "drop", x: ${x}, y: ${y} })`);
}

/** Selects from the start of `from` to the end of `to`, each the text of one text node. */
async function select(page, from, to) {
  await page.evaluate(([a, b]) => {
    const find = (needle) => {
      const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = w.nextNode(); n; n = w.nextNode()) {
        const at = n.data.indexOf(needle);
        if (at !== -1) return [n, at];
      }
      throw new Error(`no text ${needle}`);
    };
    const [sn, so] = find(a);
    const [en, eo] = find(b);
    const range = document.createRange();
    range.setStart(sn, so);
    range.setEnd(en, eo + b.length);
    const sel = getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
  }, [from, to]);
}


const allText = (r) => [r.pointed.text, r.context.before, r.context.after, r.page_text ?? "", r.title].join("\n");

test("article: a drop on a paragraph points at exactly that paragraph, with its headings and target", async () => {
  const t = await open("article.html");
  try {
    const r = reading(await dropObservation(t, "#target-para"));
    assert.equal(
      r.pointed.text,
      "Raised beds on a Linux-powered irrigation timer water themselves at dawn, every day, without fuss.",
    );
    assert.equal(r.pointed.how, "drop");
    assert.deepEqual(r.context.headings, ["Guide", "Install", "Linux"]);
    assert.deepEqual(r.pointed.targets, [
      { kind: "doc", id: "garden_linux", part: "section:install", params: null },
    ]);
    assert.equal(r.url, `${site.origin}/article.html`);
    assert.equal(r.title, "Field guide to tidy gardens");
    assert.equal(r.lang, "en");
    assert.match(r.context.before, /wheelbarrow\.\s*Linux$/);
    assert.match(r.context.after, /^After a week/);
    // Main text: the article, not the nav, aside or footer; never scripts, JSON or hidden text.
    assert.match(r.page_text, /^Guide\n/);
    assert.match(r.page_text, /Window boxes/);
    for (const secret of ["Home", "Related: composting", "Copyright", "LDJSON-HEADLINE-SECRET",
      "SCRIPT-TEXT-SECRET", "SCREEN-READER-ONLY", "OFFSCREEN"]) {
      assert.ok(!r.page_text.includes(secret), `page_text has ${secret}`);
    }
    assert.equal(r.truncated, undefined);
  } finally {
    await t.page.close();
  }
});

test("article: a selection across blocks is the visible text inside it", async () => {
  const t = await open("article.html");
  try {
    await select(t.page, "Installing the beds", "water themselves");
    const obs = await t.inWorld(`collectObservation({ how: "selection" })`);
    const r = reading(obs);
    assert.equal(
      r.pointed.text,
      "Installing the beds takes an afternoon, two people, and a wheelbarrow.\n\nLinux\n\n" +
        "Raised beds on a Linux-powered irrigation timer water themselves",
    );
    assert.equal(r.pointed.how, "selection");
    assert.deepEqual(r.context.headings, ["Guide", "Install"]);
    assert.deepEqual(r.pointed.targets.map((x) => x.id), ["garden_linux"]);
  } finally {
    await t.page.close();
  }
});

test("no selection: the collector says so", async () => {
  const t = await open("article.html");
  try {
    const code = await t.inWorld(`(() => { try { collectObservation({ how: "command" }); return "none"; } catch (e) { return e.code; } })()`);
    assert.equal(code, "no_selection");
  } finally {
    await t.page.close();
  }
});

test("focus targets: valid ones kept nearest first, invalid ones dropped, duplicates once", async () => {
  const t = await open("focus-targets.html");
  try {
    await select(t.page, "Billing address", "this target is invalid.");
    let r = reading(await t.inWorld(`collectObservation({ how: "selection" })`));
    assert.deepEqual(r.pointed.targets, [
      { kind: "customer", id: "cus_0042", part: "address", params: null },
      { kind: "figure", id: null, part: null, params: { month: "2026-03", region: ["north", "south"] } },
      { kind: "invoice", id: "inv_2026_7", part: null, params: null },
    ]);
    // Drops: the paragraph's own target first, then the section's; the invalid ones never.
    r = reading(await dropObservation(t, "#amount"));
    assert.deepEqual(r.pointed.targets.map((x) => x.id), ["inv_2026_7"]);
    r = reading(await dropObservation(t, "#badjson"));
    assert.deepEqual(r.pointed.targets.map((x) => x.id), ["inv_2026_7"]);
    r = reading(await dropObservation(t, "#dup"));
    assert.deepEqual(r.pointed.targets.map((x) => x.id), ["cus_0042", "inv_2026_7"]);
  } finally {
    await t.page.close();
  }
});

test("huejoy: hidden duplicate controls count once, JSON carriers and root state never", async () => {
  const t = await open("huejoy.html");
  try {
    const obs = await dropObservation(t, "#swatch-primary");
    const r = reading(obs);
    assert.equal(r.pointed.text, "Primary #3A7BD5 — the brand blue, used for links and buttons.");
    assert.deepEqual(r.context.headings, ["Huejoy", "Palette"]);
    // Select everything: each visible control once, the hidden surface never.
    await t.page.evaluate(() => getSelection().selectAllChildren(document.body));
    const all = reading(await t.inWorld(`collectObservation({ how: "selection" })`));
    const text = all.pointed.text;
    const count = (s) => text.split(s).length - 1;
    assert.equal(count("Apply seed"), 1, text);
    assert.equal(count("Undo change"), 1);
    assert.equal(count("History entry one"), 1);
    assert.equal(count("Open tools"), 0, "the mobile surface is hidden on a wide screen");
    for (const secret of ["CONFIG-CARRIER-SECRET", "HANDOFF-CARRIER-SECRET", "schemaVersion",
      "ROOT-STATUS-ATTR-SECRET", "HIDDEN-EXPORT-DIALOG", "LIVE-REGION-HIDDEN-STATUS", "TEMPLATE-SWATCH-SECRET"]) {
      assert.ok(!allText(all).includes(secret), `reading has ${secret}`);
      assert.ok(!allText(r).includes(secret), `drop reading has ${secret}`);
    }
    // The collector does not even carry the text of what cannot show (collection caps, issue 12.3):
    // the carriers' script text, nor the children of the display: none mobile surface (its
    // element is recorded with its display, so Rust still decides it is hidden).
    const json = JSON.stringify(obs);
    assert.ok(!json.includes("CARRIER-SECRET"));
    assert.ok(!json.includes("Open tools"));
    assert.ok(obs.nodes.some((n) => n.style?.display === "none"));
  } finally {
    await t.page.close();
  }
});

test("huejoy on a narrow screen: the mobile surface shows, the desktop one does not", async () => {
  const t = await open("huejoy.html");
  try {
    await t.page.setViewportSize({ width: 400, height: 800 });
    await t.page.evaluate(() => getSelection().selectAllChildren(document.body));
    const text = reading(await t.inWorld(`collectObservation({ how: "selection" })`)).pointed.text;
    assert.equal(text.split("Apply seed").length - 1, 1);
    assert.equal(text.split("Open tools").length - 1, 1);
  } finally {
    await t.page.close();
  }
});

test("a page with Content-Security-Policy script-src 'self' still collects", async () => {
  const t = await open("csp.html");
  try {
    // The page's CSP refuses an inline script tag (what addScriptTag inserts)…
    const refused = await t.page
      .addScriptTag({ content: "window.__injected = true" })
      .then(() => t.page.evaluate(() => window.__injected === true))
      .catch(() => false);
    assert.equal(refused, false, "the CSP should have refused the inline script");
    // …but not the isolated world a content script runs in.
    const r = reading(await dropObservation(t, "#p"));
    assert.equal(r.pointed.text, "This page is served with script-src 'self', so inline scripts and eval are refused.");
    assert.deepEqual(r.context.headings, ["Locked down"]);
  } finally {
    await t.page.close();
  }
});

test("a huge page: the collector stops at its caps, keeps the pointed paragraph, and says truncated", async () => {
  const t = await open("article.html");
  try {
    await t.page.evaluate(() => {
      const main = document.querySelector("article");
      const frag = document.createDocumentFragment();
      for (let i = 0; i < 40000; i++) {
        const p = document.createElement("p");
        p.textContent = `Filler paragraph ${i}, long enough to matter for the text budget of the collector.`;
        frag.appendChild(p);
      }
      const last = document.createElement("p");
      last.id = "far";
      last.setAttribute("data-focus", "doc:far_away");
      last.textContent = "The paragraph far beyond the collector's node cap.";
      frag.appendChild(last);
      main.appendChild(frag);
    });
    const obs = await dropObservation(t, "#far");
    assert.equal(obs.truncated, true);
    assert.ok(obs.nodes.length <= 30000 + 3000 + 64, `nodes: ${obs.nodes.length}`);
    const r = reading(obs);
    assert.equal(r.pointed.text, "The paragraph far beyond the collector's node cap.");
    assert.deepEqual(r.pointed.targets.map((x) => x.id), ["far_away"]);
    // The context is the neighbourhood of the pointed paragraph, kept from the reserve.
    assert.match(r.context.before, /Filler paragraph 39999, long enough/);
    assert.equal(r.truncated, true);
    assert.ok(Buffer.byteLength(JSON.stringify(r)) <= 256 * 1024);
  } finally {
    await t.page.close();
  }
});

// Pages far bigger than a reading (issue 10): the collection is sized from the reading (256 KiB),
// not from the page, and what the reading needs around the point is collected however far the
// point lies past the main walk.

/** Replaces the body with a generated page of `count` paragraphs of six elements each (the point
 * benchmark's heavy page), with headings at the given paragraph numbers. */
async function heavyBody(page, { count, headings = {}, extra = "" }) {
  await page.evaluate(([count, headings, extra]) => {
    const parts = ["<nav><a href='/'>Home</a></nav><main><h1>Heavy guide</h1>"];
    for (let i = 0; i < count; i++) {
      if (headings[i]) parts.push(headings[i]);
      parts.push(`<p id="p${i}">Paragraph ${i} of the heavy page, with <a href="#p${i}">a link</a>, ` +
        `<em>some emphasis</em>, <strong>a strong word</strong>, <span>a span of prose</span> and ` +
        `<code>code()</code>, enough words to read like an article body.</p>`);
    }
    parts.push(`</main>${extra}`);
    document.body.innerHTML = parts.join("\n");
  }, [count, headings, extra]);
}

const HEAVY_PARA = (i) => `Paragraph ${i} of the heavy page, with a link, some emphasis, a strong word, ` +
  "a span of prose and code(), enough words to read like an article body.";

test("a 5,000-paragraph page dropped on in the middle: the paragraph, its headings and context, truncated, an observation the size of a reading", async () => {
  const t = await open("article.html");
  try {
    await heavyBody(t.page, {
      count: 5000,
      headings: {
        2000: "<h2>Second half</h2>",
        2300: "<h3>Chapter 23</h3>",
        2400: "<h3>Chapter 24</h3>",
        2450: "<h4 style='display: none'>A hidden heading</h4>",
        2480: "<div role='heading' aria-level='4'>Section 24.8</div>",
      },
    });
    const obs = await dropObservation(t, "#p2500");
    assert.equal(obs.truncated, true);
    // Sized from the reading, not from the page (the page is ~85,000 nodes and ~1.2 M units):
    // the node cap (16,000) and the reserve around the point (2,000), and about 1.5 readings of
    // text with its nodes' facts.
    assert.ok(obs.nodes.length <= 18000, `nodes: ${obs.nodes.length}`);
    const kib = Buffer.byteLength(JSON.stringify(obs)) / 1024;
    assert.ok(kib <= 768, `observation: ${kib.toFixed(0)} KiB`);
    const r = reading(obs);
    assert.equal(r.pointed.text, HEAVY_PARA(2500));
    // The headings before the point lie far past the main walk: collected all the same (H1), and
    // the hidden one is still Rust's to drop.
    assert.deepEqual(r.context.headings, ["Heavy guide", "Second half", "Chapter 24", "Section 24.8"]);
    assert.ok(r.context.before.endsWith("enough words to read like an article body."), r.context.before);
    assert.match(r.context.before, /Paragraph 2499 of the heavy page/);
    assert.match(r.context.after, /^Paragraph 2501 of the heavy page/);
    assert.equal(r.truncated, true);
    // The main text is the page's from its start, cut.
    assert.match(r.page_text, /^Heavy guide\n\nParagraph 0 of the heavy page/);
    assert.ok(Buffer.byteLength(JSON.stringify(r)) <= 256 * 1024);
  } finally {
    await t.page.close();
  }
});

/** The reading's pointed part: what a drop's first message (around the point only) must get right. */
const pointedPart = (r) => ({ url: r.url, title: r.title, lang: r.lang, pointed: r.pointed, context: r.context });

test("a drop's first observation, around the point only, gives the pointed part the whole page's gives, from a small share of the nodes", async () => {
  const t = await open("article.html");
  try {
    // The small article first: the same pointed part, heading path and target.
    const { x: ax, y: ay } = await pointIn(t.page, "#target-para");
    const [small, smallAround] = await t.inWorld(`[collectObservation({ how: "drop", x: ${ax}, y: ${ay} }),
      collectObservation({ how: "drop", x: ${ax}, y: ${ay} }, { aroundOnly: true })]`);
    assert.equal(smallAround.truncated, true);
    assert.deepEqual(pointedPart(reading(smallAround)), pointedPart(reading(small)));

    await heavyBody(t.page, {
      count: 5000,
      headings: {
        2000: "<h2>Second half</h2>",
        2400: "<h3>Chapter 24</h3>",
        2450: "<h4 style='display: none'>A hidden heading</h4>",
        2480: "<div role='heading' aria-level='4'>Section 24.8</div>",
      },
    });
    for (const at of [2500, 3, 4999]) {
      const { x, y } = await pointIn(t.page, `#p${at}`);
      const [whole, around] = await t.inWorld(`[collectObservation({ how: "drop", x: ${x}, y: ${y} }),
        collectObservation({ how: "drop", x: ${x}, y: ${y} }, { aroundOnly: true })]`);
      const first = reading(around);
      assert.equal(first.pointed.text, HEAVY_PARA(at));
      assert.deepEqual(pointedPart(first), pointedPart(reading(whole)), `paragraph ${at}`);
      // What lies around the point only: far fewer nodes than the page's walk, a small message.
      assert.ok(around.nodes.length * 3 < whole.nodes.length, `${around.nodes.length} vs ${whole.nodes.length}`);
      const kib = Buffer.byteLength(JSON.stringify(around)) / 1024;
      assert.ok(kib < 96, `first observation: ${kib.toFixed(0)} KiB`);
    }
  } finally {
    await t.page.close();
  }
});

/** The paragraph numbers of an observation's text, read in tree order (root, then `kids`). */
function paragraphOrder(obs) {
  const seen = [];
  const stack = [obs.root];
  while (stack.length) {
    const n = obs.nodes[stack.pop()];
    if (n.text !== undefined) {
      const m = /^Paragraph (\d+) of the heavy page/.exec(n.text);
      if (m) seen.push(Number(m[1]));
    }
    if (n.kids) for (let i = n.kids.length - 1; i >= 0; i--) stack.push(n.kids[i]);
  }
  return seen;
}

test("around the point, the nodes added out of order are put back in document order, near and far past the main walk", async () => {
  const t = await open("article.html");
  try {
    await heavyBody(t.page, { count: 5000 });
    // The main walk ends around paragraph 350: a drop just past it (its neighbourhood follows what
    // the walk collected) and one far past it (the pointed paragraph alone, then each side).
    for (const at of [352, 2500, 4999]) {
      const obs = await dropObservation(t, `#p${at}`);
      assert.equal(obs.truncated, true);
      const order = paragraphOrder(obs);
      assert.ok(order.includes(at) && order.includes(at - 1), `drop on ${at}: ${order.slice(-40)}`);
      for (let i = 1; i < order.length; i++) {
        assert.ok(order[i] > order[i - 1], `drop on ${at}: paragraph ${order[i]} follows ${order[i - 1]} in the tree`);
      }
      // Every node has one parent and is listed in it (the root none).
      const parents = new Array(obs.nodes.length).fill(0);
      obs.nodes.forEach((n) => (n.kids || []).forEach((k) => parents[k]++));
      assert.equal(parents.filter((c, i) => i !== obs.root && c !== 1).length, 0);
      assert.equal(reading(obs).pointed.text, HEAVY_PARA(at));
    }
  } finally {
    await t.page.close();
  }
});

test("past the main walk, a long pointed block with many children is collected whole", async () => {
  const t = await open("article.html");
  try {
    const words = Array.from({ length: 400 }, (_, i) => `<span>word${i}</span>`).join(" ");
    await heavyBody(t.page, { count: 3000, extra: `<p id="long">${words}</p><p>After the long one.</p>` });
    const { x, y } = await t.page.evaluate(() => {
      const s = document.querySelectorAll("#long span")[200];
      s.scrollIntoView({ block: "center" });
      const b = s.getBoundingClientRect();
      return { x: b.left + 2, y: b.top + b.height / 2 };
    });
    const obs = await t.inWorld(`collectObservation({ how: "drop", x: ${x}, y: ${y} })`);
    assert.equal(obs.truncated, true);
    const r = reading(obs);
    assert.equal(r.pointed.text, Array.from({ length: 400 }, (_, i) => `word${i}`).join(" "));
    assert.match(r.context.after, /^After the long one\./);
  } finally {
    await t.page.close();
  }
});

test("a shop page whose menus come first: its product grid past 6,000 nodes of menu is collected and read", async () => {
  const t = await open("article.html");
  try {
    // A mega menu of 1,200 entries (six nodes each, ~7,200 in all) before the content, as WCXB's
    // shops and collections have: the grid must not be left to the reserve around the point.
    await t.page.evaluate(() => {
      const menu = ["<header><nav><ul>"];
      for (let i = 0; i < 1200; i++) menu.push(`<li><a href="/c/${i}"><span>Dept</span> <b>${i}</b></a></li>`);
      menu.push("</ul></nav></header><main><h1>Wool sweaters</h1><ul class='grid'>");
      for (let i = 0; i < 60; i++) {
        menu.push(`<li class="card"><a href="/p/${i}">Sweater number ${i} in merino wool</a> <span>$${90 + i}</span></li>`);
      }
      menu.push("</ul></main>");
      document.body.innerHTML = menu.join("\n");
    });
    const obs = await dropObservation(t, "main h1");
    assert.equal(obs.truncated, false);
    const r = reading(obs);
    for (const i of [0, 30, 59]) assert.match(r.page_text, new RegExp(`Sweater number ${i} in merino wool`), r.page_text);
  } finally {
    await t.page.close();
  }
});

test("a page the size of the largest dev-corpus page is collected whole (not truncated)", async () => {
  const t = await open("article.html");
  try {
    // ~3,900 nodes and ~200,000 units of text (the corpus's largest: ~3,800 nodes, ~210 KiB of JSON).
    await t.page.evaluate(() => {
      const parts = ["<main><h1>Big article</h1>"];
      for (let i = 0; i < 780; i++) {
        parts.push(`<p id="b${i}">Body paragraph ${i}: <em>long</em> enough prose ${"to fill a page ".repeat(14)}end ${i}.</p>`);
      }
      parts.push("</main>");
      document.body.innerHTML = parts.join("\n");
    });
    const obs = await dropObservation(t, "#b390");
    assert.equal(obs.truncated, false);
    assert.ok(obs.nodes.length >= 3900, `nodes: ${obs.nodes.length}`);
    const r = reading(obs);
    assert.equal(r.truncated, undefined);
    assert.match(r.page_text, /Body paragraph 779: long enough prose .* end 779\.$/);
  } finally {
    await t.page.close();
  }
});

test("on a page cut by the caps, the sliced collection gives the same observation as the one-task one", async () => {
  const t = await open("article.html");
  try {
    await heavyBody(t.page, { count: 3000, headings: { 1500: "<h2>Later part</h2>" } });
    const { x, y } = await pointIn(t.page, "#p2000");
    const [sync, slow] = await t.inWorld(`Promise.all([
      collectObservation({ how: "drop", x: ${x}, y: ${y} }),
      collectObservationAsync({ how: "drop", x: ${x}, y: ${y} }, { sliceMs: 0.01 }),
    ])`);
    assert.equal(sync.truncated, true);
    assert.deepEqual(slow, sync);
    assert.deepEqual(reading(slow).context.headings, ["Heavy guide", "Later part"]);
  } finally {
    await t.page.close();
  }
});

// The wiring, with a stand-in for the extension runtime in the isolated world and real (trusted)
// drags dispatched through CDP.
const FAKE_RUNTIME = `
  globalThis.__sent = globalThis.__sent || [];
  globalThis.chrome = { runtime: { id: "test-extension",
    sendMessage(m) {
      globalThis.__sent.push(JSON.parse(JSON.stringify(m)));
      // A drop's first message: the background pinned, and waits for the page text (unless a test says otherwise).
      const answer = m.type === "page.drop" && m.drop_id ? (globalThis.__answerDrop ?? { ok: true, pinned: {}, send_page_text: true }) : undefined;
      return Promise.resolve(answer);
    },
    onMessage: { addListener(f) { globalThis.__listener = f; } } } };`;

async function trustedDrop(t, selector, items) {
  const { x, y } = await pointIn(t.page, selector);
  const data = { items, dragOperationsMask: 1 };
  for (const type of ["dragEnter", "dragOver", "drop"]) {
    await t.cdp.send("Input.dispatchDragEvent", { type, x, y, data });
  }
}

const PAYLOAD = JSON.stringify({ v: 1, agent: "ada", hub: "http://127.0.0.1:7777", ticket: "tk_test" });

/** The messages the content script has sent, once there are `count` (the drop's collection runs in
 * slices after the event, so its message comes a little later). */
async function sentMessages(t, count) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const sent = await t.inWorld("globalThis.__sent");
    if (sent.length >= count || Date.now() > deadline) return sent;
    await new Promise((ok) => setTimeout(ok, 25));
  }
}

test("wiring: a trusted drop of an agent's mark sends page.drop with the raw payload and an observation", async () => {
  const t = await open("article.html");
  try {
    await t.inWorld("true", { prelude: FAKE_RUNTIME });
    await t.page.evaluate(() => {
      // The page's own drop zone: it accepts any drag.
      window.__pageSawDrop = false;
      document.addEventListener("dragover", (e) => e.preventDefault());
      document.addEventListener("drop", (e) => { e.preventDefault(); window.__pageSawDrop = true; });
    });
    await trustedDrop(t, "#target-para", [{ mimeType: "application/x-apc-agent", data: PAYLOAD }]);
    // Two messages: what lies around the point first (pinned at once), then the whole page.
    const sent = await sentMessages(t, 2);
    assert.equal(sent.length, 2);
    assert.equal(sent[0].type, "page.drop");
    assert.equal(sent[0].payload, PAYLOAD);
    assert.match(sent[0].drop_id, /^[A-Za-z0-9_.-]{1,64}$/);
    // The observation travels as JSON text, so the background can check its size before reading it.
    assert.equal(typeof sent[0].observation, "string");
    const first = JSON.parse(sent[0].observation);
    assert.equal(first.truncated, true, "around the point only");
    assert.match(reading(first).pointed.text, /^Raised beds/);
    assert.equal(sent[1].type, "page.drop_text");
    assert.equal(sent[1].drop_id, sent[0].drop_id);
    assert.equal(sent[1].payload, undefined, "the ticket travels once");
    const page = JSON.parse(sent[1].observation);
    assert.equal(page.truncated, false, "the whole page");
    assert.ok(page.nodes.length >= first.nodes.length); // a small page: all of it is around the point
    assert.deepEqual(pointedPart(reading(page)), pointedPart(reading(first)));
    assert.equal(await t.page.evaluate(() => window.__pageSawDrop), false, "our drop is ours");

    // A background that pinned nothing (or wants no page text) gets no second message.
    await t.inWorld(`globalThis.__answerDrop = { ok: false, error: "ticket_used", message: "used" }`);
    await trustedDrop(t, "#target-para", [{ mimeType: "application/x-apc-agent", data: PAYLOAD }]);
    assert.equal((await sentMessages(t, 3)).length, 3);
    await new Promise((ok) => setTimeout(ok, 300));
    const after = await t.inWorld("globalThis.__sent");
    assert.deepEqual(after.map((m) => m.type), ["page.drop", "page.drop_text", "page.drop"]);
    await t.inWorld("globalThis.__answerDrop = undefined");

    // Another kind of drag is the page's own business.
    await trustedDrop(t, "#target-para", [{ mimeType: "text/plain", data: "hello" }]);
    assert.equal((await t.inWorld("globalThis.__sent")).length, 3);
    assert.equal(await t.page.evaluate(() => window.__pageSawDrop), true);

    // A synthetic (untrusted) drop is ignored.
    await t.page.evaluate(() => {
      const dt = new DataTransfer();
      dt.setData("application/x-apc-agent", "{}");
      document.getElementById("target-para").dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true }));
    });
    assert.equal((await t.inWorld("globalThis.__sent")).length, 3);
  } finally {
    await t.page.close();
  }
});

test("wiring: a page with data-apc-native-drops gets nothing from the extension", async () => {
  const t = await open("native-drops.html");
  try {
    await t.inWorld("true", { prelude: FAKE_RUNTIME });
    await trustedDrop(t, "#p", [{ mimeType: "application/x-apc-agent", data: PAYLOAD }]);
    // The root is read when an event arrives (at document_start it may not exist yet): the drop is
    // left to the page, and a request to collect is refused.
    const answer = await t.inWorld(
      `new Promise((ok) => globalThis.__listener({ type: "page.collect", how: "selection" }, {}, ok))`);
    assert.deepEqual(answer, { ok: false, error: "native_drops" });
    assert.equal((await t.inWorld("globalThis.__sent")).length, 0);
  } finally {
    await t.page.close();
  }
});

test("wiring: page.collect answers with the selection; page.feedback renders in a closed shadow root", async () => {
  const t = await open("article.html");
  try {
    await t.inWorld("true", { prelude: FAKE_RUNTIME });
    const ask = (message) =>
      t.inWorld(`new Promise((ok) => globalThis.__listener(${JSON.stringify(message)}, {}, ok))`);
    assert.deepEqual(await ask({ type: "page.collect", how: "selection" }), { ok: false, error: "no_selection" });
    await select(t.page, "Pick a sunny spot", "after rain.");
    const answer = await ask({ type: "page.collect", how: "command" });
    assert.equal(answer.ok, true);
    const observation = JSON.parse(answer.observation);
    assert.equal(observation.how, "command");
    assert.equal(reading(observation).pointed.text, "Pick a sunny spot, away from large trees, with soil that drains well after rain.");

    await t.inWorld(`globalThis.__listener({ type: "page.feedback", kind: "pointed",
      text: "<b>Pointed</b> Ada at this", undo_token: "u1", link: "https://example.com/help" }, {}, () => {})`);
    const host = await t.page.evaluate(() => {
      const h = document.querySelector("[data-apc-ui]");
      return h && { open: h.shadowRoot !== null, inBodyText: document.body.innerText.includes("Pointed") };
    });
    assert.deepEqual(host, { open: false, inBodyText: false });
    // The feedback is not page text: a fresh observation's reading does not hold it.
    await t.page.evaluate(() => getSelection().selectAllChildren(document.documentElement));
    const r = reading(await t.inWorld(`collectObservation({ how: "selection" })`));
    assert.ok(!r.pointed.text.includes("Ada at this"));
  } finally {
    await t.page.close();
  }
});
