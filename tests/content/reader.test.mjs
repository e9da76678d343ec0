// The reader on pages shaped like issue 12's cases, in a real browser (Debian's chromium, via
// playwright-core): the visibility facts the collector records and the main-text rules, through
// the same Rust the background runs (apc-content's `reading` example).
//
// Run: node --test tests/content/reader.test.mjs   (builds the example once first)

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { buildReadingExample, launchChromium, openInIsolatedWorld, pointIn, reading, serveFixtures } from "./lib/harness.mjs";

let site;
let browser;

before(async () => {
  buildReadingExample();
  site = await serveFixtures(/^reader-[a-z0-9-]+\.html$/);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await site?.close();
});

const open = (name) => openInIsolatedWorld(browser, `${site.origin}/${name}`, "apc-reader-test");


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

test("folded content: the main text reads every tab panel, a closed details and a closed accordion section (named by its toggle in the document or a shadow root, by a silent toggle that labels it, or known by its class), the pointed text only what shows", async () => {
  const t = await open("reader-tabs.html");
  try {
    const r = await selectAll(t);
    for (const shown of ["INTRO-1", "PYTHON-PANEL", "DETAILS-SUMMARY", "ACCORDION-QUESTION", "LABELLED-QUESTION", "OUTRO-1"]) assert.ok(r.pointed.text.includes(shown), `${shown} missing from ${r.pointed.text}`);
    for (const hidden of ["NODE-PANEL", "GO-PANEL", "DETAILS-FOLDED", "ACCORDION-ANSWER", "SHADOW-ANSWER", "PLAIN-ANSWER", "COLLAPSE-ANSWER", "LABELLED-ANSWER", "NOISE-"]) assert.ok(!r.pointed.text.includes(hidden), `${hidden} in ${r.pointed.text}`);
    const main = r.page_text;
    for (const kept of ["INTRO-2", "PYTHON-PANEL", "NODE-PANEL", "GO-PANEL", "DETAILS-FOLDED", "ACCORDION-ANSWER", "SHADOW-QUESTION", "SHADOW-ANSWER", "PLAIN-ANSWER", "COLLAPSE-ANSWER", "LABELLED-ANSWER", "OUTRO-1"]) assert.ok(main.includes(kept), `${kept} missing from ${main}`);
    // A hidden block that is no panel, a details that is a dropdown, a collapsed menu and a
    // drawer its opener names but that is labelled by its own title stay out.
    assert.ok(!main.includes("NOISE-"), main);
    // The panels come in their document order, each a block of its own.
    assert.match(main, /PYTHON-PANEL[^\n]*\n+NODE-PANEL[^\n]*\n+GO-PANEL/);
  } finally {
    await t.page.close();
  }
});

test("the page behind a modal consent: a drop in its aria-hidden main points at what it hits, and the main text is that page, not the consent", async () => {
  const t = await open("reader-modal-consent.html");
  try {
    const { x, y } = await pointIn(t.page, "#spec");
    const r = reading(await t.inWorld(`collectObservation({ how: "drop", x: ${x}, y: ${y} })`));
    assert.equal(r.pointed.text, "MODAL-SPEC Condition: used and tested, shipped in its original box.");
    const main = r.page_text;
    for (const kept of ["MODAL-TITLE", "MODAL-PRICE", "MODAL-SPEC", "MODAL-ITEM Plate diameter"]) assert.ok(main.includes(kept), `${kept} missing from ${main}`);
    assert.ok(!main.includes("NOISE-"), main);
  } finally {
    await t.page.close();
  }
});

test("faded-in parts: the main text reads sections a scroll reveal keeps at opacity 0 or hidden by visibility where they stand, not what lies over the page so hidden", async () => {
  const t = await open("reader-fade-in.html");
  try {
    const { x, y } = await pointIn(t.page, "#intro");
    const r = reading(await t.inWorld(`collectObservation({ how: "drop", x: ${x}, y: ${y} })`));
    assert.match(r.pointed.text, /^INTRO-1/);
    const main = r.page_text;
    for (const kept of ["INTRO-1", "INTRO-2", "REVEAL-HEADING", "REVEAL-1", "REVEAL-2", "SLIDE-SHOWN", "REVEAL-4", "REVEAL-3"]) assert.ok(main.includes(kept), `${kept} missing from ${main}`);
    // A dropdown, a slide of a fading carousel and a dialog at opacity 0, a tooltip hidden by
    // visibility, stay out.
    assert.ok(!main.includes("NOISE-"), main);
    // In their document order, each a block of its own.
    assert.match(main, /REVEAL-HEADING[^\n]*\n+REVEAL-1[^\n]*\n+REVEAL-2[^\n]*\n+SLIDE-SHOWN[^\n]*\n+REVEAL-4[^\n]*\n+REVEAL-3/);
    // What the person sees is the page as shown: a selection of everything holds no faded part.
    const all = await selectAll(t);
    assert.ok(!all.pointed.text.includes("REVEAL-"), all.pointed.text);
    assert.ok(!all.pointed.text.includes("NOISE-"), all.pointed.text);
    assert.ok(all.pointed.text.includes("SLIDE-SHOWN"), all.pointed.text);
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
  ["reader-link-dense.html", "LINKY", 12],
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

// Issue 19's failure classes: pages that are not one article. Each fixture marks what the main
// text must hold (and what it must not: NOISE-…).
const PAGE_KINDS = [
  ["reader-forum-posts.html", "many posts", ["POST-1", "POST-2", "POST-3", "POST-4", "POST-5"]],
  ["reader-forum-long-question.html", "a long question and short replies, no declared main, a sidebar of other threads",
    ["QUESTION-1", "QUESTION-5", "REPLY-1", "REPLY-2", "REPLY-3"]],
  ["reader-listing-cards.html", "cards", ["CARD-INTRO", "CARD-1", "CARD-3", "CARD-6"]],
  ["reader-service-sections.html", "sections", ["SECTION-1", "SECTION-2", "SECTION-3", "SECTION-4", "SECTION-5", "SECTION-6", "SECTION-7"]],
  ["reader-product-variants.html", "a product's description beside its variant table, its reviews and other products", ["Men's Wool Runner", "$105", "DESCRIPTION-1", "DESCRIPTION-2"]],
  ["reader-catalog-index.html", "a catalog's index: its content a block of links, no prose", ["CATALOG-TITLE", "CATALOG-LINE", "CAT-1", "CAT-5", "CAT-9"]],
];
for (const [name, kind, kept] of PAGE_KINDS) {
  test(`main text: ${name} (${kind}) is read whole, without its boilerplate`, async () => {
    const t = await open(name);
    try {
      const main = (await selectAll(t)).page_text;
      for (const k of kept) assert.ok(main.includes(k), `${k} missing from ${main}`);
      assert.ok(!/NOISE-/.test(main), `boilerplate in ${main}`);
    } finally {
      await t.page.close();
    }
  });
}

test("noscript: a tab with JavaScript off shows a noscript's posts and the reading has them; with JavaScript on it has none", async () => {
  const url = `${site.origin}/reader-noscript.html`;
  const off = await openInIsolatedWorld(browser, url, "apc-reader-test", { javaScript: false });
  try {
    const r = await selectAll(off);
    assert.match(r.page_text, /NOSCRIPT-FIRST-POST/);
    assert.match(r.page_text, /NOSCRIPT-SECOND-POST/);
  } finally {
    await off.page.close();
  }
  const on = await open("reader-noscript.html");
  try {
    const r = await selectAll(on);
    for (const hidden of ["NOSCRIPT-FIRST-POST", "NOSCRIPT-SECOND-POST", "PLANTED-IN-NOSCRIPT"]) {
      assert.ok(!r.page_text.includes(hidden), `${hidden} in ${r.page_text}`);
      assert.ok(!r.pointed.text.includes(hidden), `${hidden} in the pointed text`);
    }
    assert.match(r.pointed.text, /Loading the thread/);
  } finally {
    await on.page.close();
  }
});
