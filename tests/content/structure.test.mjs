// The reading's Markdown of a documentation page's structures (tests/fixtures/structure.html) as
// the content script collects them in a real browser (Debian's chromium) and the background's Rust
// reads them (apc-content's `reading` example): code with its language, a table with its header,
// a nested list, a quote, links resolved against the page's <base href>, an image by its alt text;
// by drop and by selection. The plain texts stay plain.
//
// Run: node --test tests/content/structure.test.mjs

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { buildReadingExample, launchChromium, openInIsolatedWorld, pointIn, reading, serveFixtures } from "./lib/harness.mjs";

let site;
let browser;
let page;
let inWorld;

before(async () => {
  buildReadingExample();
  site = await serveFixtures(/^structure\.html$/);
  browser = await launchChromium();
  ({ page, inWorld } = await openInIsolatedWorld(browser, `${site.origin}/structure.html`, "apc-structure"));
});

after(async () => {
  await browser?.close();
  await site?.close();
});

const expected = (origin) => ({
  code: '````rust\nfn main() {\n    let fence = "```";\n    println!("{fence}");\n}\n````',
  cell: "| Option | Default |\n| --- | --- |\n| `--fast` | off \\| on |",
  table: "| Option | Default |\n| --- | --- |\n| `--fast` | off \\| on |\n| --level | 3 |",
  item: "- Install\n  1. Download\n  2. Unpack",
  list: "- Install\n  1. Download\n  2. Unpack\n- Configure",
  quoteFirst: "> Simple things should be simple.",
  quote: "> Simple things should be simple.\n>\n> Complex things should be possible.",
  links: `Read the [install guide](${origin}/docs/guide/install.html) and [the spec](https://example.org/spec?a=1&b=2) first; [usage](${origin}/docs/guide/#usage) is below, with \`apc --help\` for the rest.`,
  figure: `![Flow diagram of the build](${origin}/docs/guide/diagram.png)\n\nThe build, step by step.`,
});

async function dropOn(selector) {
  const { x, y } = await pointIn(page, selector);
  return reading(await inWorld(`collectObservation({ how: "drop", x: ${x}, y: ${y} })`));
}

async function select(selector) {
  await page.evaluate((sel) => {
    const range = document.createRange();
    range.selectNodeContents(document.querySelector(sel));
    getSelection().removeAllRanges();
    getSelection().addRange(range);
  }, selector);
  return reading(await inWorld(`collectObservation({ how: "selection" })`));
}

test("by drop: each structure's Markdown, and its plain text as before", async () => {
  const md = expected(site.origin);
  for (const [selector, want] of [
    ["#code", md.code],
    ["#fast", md.cell],
    ["#install-word", md.item],
    ["#quote-first", md.quoteFirst],
    ["#links", md.links],
    ["#diagram", md.figure],
  ]) {
    const r = await dropOn(selector);
    assert.equal(r.markdown.pointed, want, selector);
    assert.ok(!/````rust|\| ---|\]\(|^> |^- /m.test(r.pointed.text), `${selector}: ${r.pointed.text}`);
  }
});

test("by selection: each structure's Markdown; the main text's Markdown keeps them", async () => {
  const md = expected(site.origin);
  let r;
  for (const [selector, want] of [
    ["#code", md.code],
    ["#table", md.table],
    ["#list", md.list],
    ["#quote", md.quote],
    ["#links", md.links],
    ["#figure", md.figure],
  ]) {
    r = await select(selector);
    assert.equal(r.markdown.pointed, want, selector);
  }
  const page_md = r.markdown.page;
  assert.match(page_md, /^## Usage$/m);
  assert.ok(page_md.includes(md.code), page_md);
  assert.ok(!r.page_text.includes("````rust") && !r.page_text.includes("## Usage"), "the plain main text is plain");
});
