// Why JavaScript: Chromium is driven with playwright-core (the house browser driver) under node.
//
// Page-load cost of the extension. Serves a small page and a heavy one (5,000 paragraphs, ~30,000
// elements) on 127.0.0.1 and loads each, interleaved and repeated, in headless Chromium with:
//   none        no extension at all
//   empty       an extension that declares one empty content script (all http/https, document_start)
//   empty-idle  the same at document_idle (the manifest's run_at before it moved to document_start)
//   ours        the built extension (dist/extension)
// --explore adds variants that locate the cost (host permissions only, document_end, MAIN world,
// scripting.registerContentScripts); --cold loads the heavy page once per fresh browser instead.
// Prints a markdown section: the median `load` event time (navigation timing loadEventStart) per
// variant and page, its ratio to `none`, and the renderer main-thread time Chromium's trace gives to
// injecting each extension's content script (ScriptInjection::InjectJs).
//   node scripts/bench/pageload.mjs [--runs N] [--explore | --cold] [--only a,b] [--json]
import { createServer } from 'node:http';
import { mkdtemp, rm, mkdir, writeFile, cp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DIST = path.join(ROOT, 'dist/extension');
const CHROMIUM = process.env.APC_CHROMIUM ?? '/usr/bin/chromium';
const argv = process.argv.slice(2);
const RUNS = Number(argv[argv.indexOf('--runs') + 1]) || 15;
const EXPLORE = argv.includes('--explore');
const COLD = argv.includes('--cold');
const ONLY = argv.includes('--only') ? argv[argv.indexOf('--only') + 1].split(',') : null;

function smallPage() {
  return '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Small</title></head><body>' +
    '<h1>A small page</h1><p>One paragraph of text with a <a href="#x">link</a>.</p>' +
    '<p>Another paragraph.</p></body></html>';
}

function heavyPage() {
  const parts = ['<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Heavy</title></head><body><main>'];
  for (let i = 0; i < 5000; i++) {
    parts.push(`<p id="p${i}">Paragraph ${i} of a long page, <b>with</b> some <i>inline</i> ` +
      `<a href="#p${i}">markup</a> and <span>more</span> <em>text</em> to lay out.</p>`);
  }
  parts.push('</main></body></html>');
  return parts.join('\n');
}

async function serve() {
  const pages = { '/small': smallPage(), '/heavy': heavyPage() };
  const server = createServer((req, res) => {
    const body = pages[new URL(req.url, 'http://x').pathname];
    if (body === undefined) { res.writeHead(404); return res.end(); }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(body);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return { origin: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}

const BASE_MANIFEST = { manifest_version: 3, name: 'bench', version: '1.0' };

/** A minimal unpacked extension in `dir` from a manifest patch and files. */
async function makeExtension(dir, manifest, files = {}) {
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'manifest.json'), JSON.stringify({ ...BASE_MANIFEST, ...manifest }, null, 1));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
  return dir;
}

const ALL = ['http://*/*', 'https://*/*'];
const cs = (extra = {}) => ({
  host_permissions: ALL,
  content_scripts: [{ matches: ALL, js: ['c.js'], run_at: 'document_start', ...extra }],
});

async function variants(work) {
  const list = [
    { name: 'none', dir: null },
    { name: 'empty', dir: await makeExtension(path.join(work, 'empty'), cs(), { 'c.js': '' }) },
    { name: 'empty-idle', dir: await makeExtension(path.join(work, 'idle'), cs({ run_at: 'document_idle' }), { 'c.js': '' }) },
    { name: 'ours', dir: DIST },
  ];
  if (!EXPLORE) return list;
  list.push(
    { name: 'hostperm-only', dir: await makeExtension(path.join(work, 'hp'), { host_permissions: ALL }) },
    { name: 'empty-end', dir: await makeExtension(path.join(work, 'end'), cs({ run_at: 'document_end' }), { 'c.js': '' }) },
    { name: 'empty-main', dir: await makeExtension(path.join(work, 'main'), cs({ world: 'MAIN' }), { 'c.js': '' }) },
    {
      name: 'registered',
      dir: await makeExtension(path.join(work, 'reg'), {
        host_permissions: ALL,
        permissions: ['scripting'],
        background: { service_worker: 'bg.js' },
      }, {
        'c.js': '',
        'bg.js': `chrome.runtime.onInstalled.addListener(async () => {
          await chrome.scripting.registerContentScripts([{ id: 'c', matches: ${JSON.stringify(ALL)}, js: ['c.js'], runAt: 'document_start' }]);
          globalThis.registered = true;
        });`,
      }),
    },
  );
  return list;
}

async function launch(dir, { settle = true } = {}) {
  const userDataDir = await mkdtemp(path.join(tmpdir(), 'apc-pageload-'));
  const args = [
    '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
  ];
  if (dir) args.push(`--disable-extensions-except=${dir}`, `--load-extension=${dir}`);
  else args.push('--disable-extensions');
  const context = await chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, headless: true, args });
  if (dir && settle) {
    // The extension is loaded once its service worker (if any) is up; give it a moment to register.
    await new Promise((r) => setTimeout(r, 1500));
  }
  return { context, close: async () => { await context.close(); await rm(userDataDir, { recursive: true, force: true }); } };
}

async function measure(context, url) {
  const page = await context.newPage();
  try {
    await page.goto(url, { waitUntil: 'load' });
    return await page.evaluate(() => {
      const n = performance.getEntriesByType('navigation')[0];
      const fcp = performance.getEntriesByName('first-contentful-paint')[0];
      return {
        load: n.loadEventStart,
        dcl: n.domContentLoadedEventStart,
        response: n.responseEnd,
        fcp: fcp ? fcp.startTime : null,
        elements: document.getElementsByTagName('*').length,
      };
    });
  } finally {
    await page.close();
  }
}

/**
 * Renderer main-thread time of the content-script injection on one traced load of `url`: the sum of
 * ScriptInjection::InjectJs (compiling and running the script in its world) and of
 * DidCreateScriptContext (setting up the isolated world), in ms, median of a few loads.
 */
async function injectionCost(context, url, loads = 5) {
  const inject = [];
  const worlds = [];
  for (let i = 0; i < loads; i++) {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const events = [];
    cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
    const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
    await cdp.send('Tracing.start', { traceConfig: { includedCategories: ['extensions', 'navigation', 'toplevel', '__metadata'] } });
    await page.goto(url, { waitUntil: 'load' });
    await cdp.send('Tracing.end');
    await done;
    await page.close();
    const threads = {};
    for (const e of events) if (e.name === 'thread_name') threads[`${e.pid}:${e.tid}`] = e.args.name;
    const sum = (re) => events
      .filter((e) => e.ph === 'X' && re.test(e.name) && threads[`${e.pid}:${e.tid}`] === 'CrRendererMain')
      .reduce((t, e) => t + (e.dur ?? 0) / 1000, 0);
    inject.push(sum(/^ScriptInjection::InjectJs$/));
    worlds.push(sum(/^RenderFrameImpl::DidCreateScriptContext$/));
  }
  return { inject: median(inject), worlds: median(worlds) };
}

function reportInjection(injection) {
  const rows = Object.entries(injection);
  if (!rows.length) return;
  const out = ['', 'Renderer main-thread time of content-script injection on the heavy page (Chromium trace, median of 5 ' +
    'loads): `ScriptInjection::InjectJs` (compile and run the script), and `DidCreateScriptContext` (every script ' +
    'context the page gets, its own included).', '',
    '| variant | InjectJs (ms) | DidCreateScriptContext (ms) |', '|---|---:|---:|'];
  for (const [name, c] of rows) out.push(`| ${name} | ${c.inject.toFixed(2)} | ${c.worlds.toFixed(2)} |`);
  console.log(out.join('\n'));
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

async function main() {
  const work = await mkdtemp(path.join(tmpdir(), 'apc-pageload-ext-'));
  const site = await serve();
  let list = await variants(work);
  if (ONLY) list = list.filter((v) => ONLY.includes(v.name));
  if (list.some((v) => v.dir === DIST)) {
    try {
      await readFile(path.join(DIST, 'wasm/apc_background_bg.wasm'));
    } catch {
      throw new Error('no built extension in dist/extension: run scripts/build-extension.sh');
    }
  }
  if (COLD) return cold(list, site, work);
  const browsers = [];
  try {
    for (const v of list) browsers.push({ ...v, ...(await launch(v.dir)) });
    const pages = ['small', 'heavy'];
    const results = {};
    for (const b of browsers) for (const p of pages) results[`${b.name}/${p}`] = [];
    // Warm-up: one load of each page in each browser, not counted.
    for (const b of browsers) for (const p of pages) await measure(b.context, `${site.origin}/${p}`);
    let elements = {};
    for (let run = 0; run < RUNS; run++) {
      for (const p of pages) {
        // Interleaved, and the order rotates each run so no variant always goes first.
        for (let i = 0; i < browsers.length; i++) {
          const b = browsers[(i + run) % browsers.length];
          const m = await measure(b.context, `${site.origin}/${p}`);
          results[`${b.name}/${p}`].push(m);
          elements[p] = m.elements;
        }
      }
    }
    if (argv.includes('--json')) console.log(JSON.stringify(results));
    const injection = {};
    for (const b of browsers) if (b.dir) injection[b.name] = await injectionCost(b.context, `${site.origin}/heavy`);
    report(browsers.map((b) => b.name), pages, results, elements);
    reportInjection(injection);
  } finally {
    for (const b of browsers) await b.close().catch(() => {});
    site.close();
    await rm(work, { recursive: true, force: true });
  }
}

// A first page right after the browser starts: a fresh profile per load, navigating as soon as the
// browser is up, so the extension's own start (service worker, WASM) overlaps the page's load.
async function cold(list, site, work) {
  const results = {};
  const elements = {};
  const pages = ['heavy'];
  for (const v of list) results[`${v.name}/heavy`] = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      for (let i = 0; i < list.length; i++) {
        const v = list[(i + run) % list.length];
        const b = await launch(v.dir, { settle: false });
        try {
          const m = await measure(b.context, `${site.origin}/heavy`);
          results[`${v.name}/heavy`].push(m);
          elements.heavy = m.elements;
        } finally {
          await b.close();
        }
      }
    }
  } finally {
    site.close();
    await rm(work, { recursive: true, force: true });
  }
  report(list.map((v) => v.name), pages, results, elements, 'first page after browser start');
}

function report(names, pages, results, elements, mode = null) {
  const f = (x) => (x == null ? '–' : x.toFixed(0));
  const out = [];
  out.push(mode ? `### Page load (Chromium, ${mode})` : '## Page load (Chromium)', '');
  out.push(`Headless Chromium (${CHROMIUM}), pages served on 127.0.0.1, ${RUNS} interleaved runs per cell ` +
    `(order rotating), median \`load\` event time (navigation timing \`loadEventStart\`, ms) and its ratio to ` +
    `no extension. ` + (elements.small ? `Small page: ${elements.small} elements; ` : '') +
    `heavy page: 5,000 paragraphs, ${elements.heavy} elements.` +
    (mode ? ' Each load in a fresh browser and profile, navigating as soon as the browser is up.' : '') +
    ' Reading it: `empty` against `none` is what the browser charges for declaring any content script ' +
    '(its floor); `ours` against `empty` is what the content script itself costs; `empty-idle` against `empty` is ' +
    'what the run_at timing costs. Paired ratios divide each run by the `none` load of the same run.', '');
  out.push('| variant | page | load p50 (ms) | ratio of p50s | p50 of paired ratios | min–max (ms) | DOMContentLoaded p50 | load − DOMContentLoaded p50 | FCP p50 |');
  out.push('|---|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const p of pages) {
    const base = median(results[`none/${p}`].map((m) => m.load));
    for (const n of names) {
      const ms = results[`${n}/${p}`];
      const loads = ms.map((m) => m.load);
      const med = median(loads);
      const fcps = ms.map((m) => m.fcp).filter((x) => x != null);
      // Each run loads every variant back to back: its ratio to that run's `none` cancels slow drift
      // of a shared machine.
      const paired = median(loads.map((x, i) => x / results[`none/${p}`][i].load));
      out.push(`| ${n} | ${p} | ${f(med)} | ${(med / base).toFixed(2)} | ${paired.toFixed(2)} | ${f(Math.min(...loads))}–${f(Math.max(...loads))} | ` +
        `${f(median(ms.map((m) => m.dcl)))} | ${f(median(ms.map((m) => m.load - m.dcl)))} | ${fcps.length ? f(median(fcps)) : '–'} |`);
    }
  }
  console.log(out.join('\n'));
}

await main();
