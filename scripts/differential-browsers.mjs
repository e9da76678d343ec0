// Which side are the browsers on? JavaScript because the question is what a browser's own URL
// parser answers, and only a page can ask it: this runs the standard's reference functions
// (apc-oracle's modules, served from loopback) in a Chromium page (playwright-core, Debian's
// /usr/bin/chromium) and a Firefox ESR page (geckodriver's WebDriver, Debian's firefox-esr), on the
// cases where the core and node disagree, and counts per runtime how many answers equal the core's
// and how many node's. It decides nothing for the extension and is no test (figures only).
//
//   node scripts/differential-browsers.mjs --oracle DIR --cases FILE --core FILE --node FILE \
//       [--classes FILE] [--out FILE] [--browsers chromium,firefox]
//
// --cases: one case line per line ({"fn", "args"}); --core and --node: the answer of each line
// (conformance runner, oracle.mjs); --classes: a class name per line (idna, url-parser, host...).
// Answers compare as the differential run compares them: `out.detail` left out, a throw equals a
// throw.
import { createServer } from 'node:http';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const opt = {};
for (let i = 2; i < process.argv.length; i += 2) opt[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
for (const need of ['oracle', 'cases', 'core', 'node']) {
  if (!opt[need]) {
    console.error(`differential-browsers: --${need} is needed`);
    process.exit(2);
  }
}
const lines = (f) => readFileSync(f, 'utf8').split('\n').filter((l) => l.length > 0);
const cases = lines(opt.cases);
const core = lines(opt.core);
const node = lines(opt.node);
const classes = opt.classes ? lines(opt.classes) : cases.map(() => 'case');
if (core.length !== cases.length || node.length !== cases.length || classes.length !== cases.length) {
  console.error('differential-browsers: --cases, --core, --node and --classes must have one line per case');
  process.exit(2);
}
const browsers = (opt.browsers ?? 'chromium,firefox').split(',');
const CHROMIUM = process.env.APC_CHROMIUM ?? '/usr/bin/chromium';
const FIREFOX = process.env.APC_FIREFOX ?? '/usr/bin/firefox-esr';
const GECKODRIVER = process.env.APC_GECKODRIVER ?? 'geckodriver';

// The page: imports the reference's modules and answers every case as oracle.mjs does, then
// posts the answers back. Cases and answers travel as JSON lines over loopback HTTP.
const PAGE = `<!doctype html><meta charset="utf-8"><title>apc differential</title>
<script type="module">
import * as target from "/oracle/target.mjs";
import * as manifest from "/oracle/manifest.mjs";
import * as core from "/oracle/core.mjs";
const fns = { ...target, ...manifest, ...core };
const browser = new URLSearchParams(location.search).get("b");
const text = await (await fetch("/cases")).text();
const out = [];
for (const line of text.split("\\n")) {
  if (!line) continue;
  const { fn, args } = JSON.parse(line);
  try {
    const v = fns[fn](...args);
    out.push(JSON.stringify({ out: v === undefined ? null : v }));
  } catch (e) {
    out.push(JSON.stringify({ throws: String(e) }));
  }
}
await fetch("/answers?b=" + browser, { method: "POST", body: out.join("\\n") + "\\n" });
document.title = "done";
</script>`;

const waiting = new Map();
const answered = (b) => new Promise((resolve) => waiting.set(b, resolve));
const server = createServer((req, res) => {
  const url = new URL(req.url, 'http://127.0.0.1');
  if (req.method === 'POST' && url.pathname === '/answers') {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      res.end('ok');
      waiting.get(url.searchParams.get('b'))?.(body.split('\n').filter((l) => l.length > 0));
    });
    return;
  }
  const send = (type, text) => {
    res.writeHead(200, { 'content-type': `${type}; charset=utf-8` });
    res.end(text);
  };
  if (url.pathname === '/') return send('text/html', PAGE);
  if (url.pathname === '/cases') return send('text/plain', cases.join('\n') + '\n');
  const m = url.pathname.match(/^\/oracle\/([a-z]+\.mjs)$/);
  if (m) {
    try {
      return send('text/javascript', readFileSync(join(opt.oracle, m[1]), 'utf8'));
    } catch {
      /* fall through */
    }
  }
  res.writeHead(404);
  res.end();
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}/`;
const within = (p, ms, what) =>
  Promise.race([p, new Promise((_, no) => setTimeout(() => no(new Error(`${what}: no answer in ${ms / 1000} s`)), ms))]);

async function runChromium() {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true });
  try {
    const page = await browser.newPage();
    const done = answered('chromium');
    await page.goto(`${base}?b=chromium`);
    return { version: `Chromium ${browser.version()}`, answers: await within(done, 300_000, 'chromium') };
  } finally {
    await browser.close();
  }
}

// Firefox through geckodriver's W3C WebDriver endpoints (new session, navigate, delete).
async function runFirefox() {
  const port = 4400 + Math.floor(Math.random() * 1000);
  const profile = mkdtempSync(join(tmpdir(), 'apc-diff-ff-'));
  const driver = spawn(GECKODRIVER, ['--port', String(port), '--host', '127.0.0.1'], { stdio: 'ignore' });
  const wd = async (method, path, body) => {
    const r = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const v = await r.json();
    if (!r.ok) throw new Error(`geckodriver ${path}: ${JSON.stringify(v).slice(0, 300)}`);
    return v.value;
  };
  try {
    let session;
    for (let tries = 0; !session; tries++) {
      try {
        session = await wd('POST', '/session', {
          capabilities: {
            alwaysMatch: {
              browserName: 'firefox',
              'moz:firefoxOptions': { binary: FIREFOX, args: ['-headless', '-profile', profile] },
            },
          },
        });
      } catch (e) {
        if (tries > 50) throw e;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    const done = answered('firefox');
    await wd('POST', `/session/${session.sessionId}/url`, { url: `${base}?b=firefox` });
    const answers = await within(done, 300_000, 'firefox');
    await wd('DELETE', `/session/${session.sessionId}`).catch(() => {});
    return { version: `Firefox ${session.capabilities.browserVersion}`, answers };
  } finally {
    driver.kill();
    rmSync(profile, { recursive: true, force: true });
  }
}

// What may differ between two answers: out.detail (wording) and a throw's message.
const norm = (line) => {
  const v = JSON.parse(line);
  if ('throws' in v) return '{"throws":true}';
  if (v.out && typeof v.out === 'object' && !Array.isArray(v.out)) delete v.out.detail;
  return JSON.stringify(v);
};
const same = (a, b) => a === b || norm(a) === norm(b);

const results = { node: { version: `node ${process.version} (ICU ${process.versions.icu}, Ada ${process.versions.ada ?? '?'})`, answers: node } };
for (const b of browsers) {
  try {
    results[b] = b === 'chromium' ? await runChromium() : await runFirefox();
  } catch (e) {
    console.error(`differential-browsers: ${b}: ${e.message}`);
  }
}
server.close();

const classNames = [...new Set(classes)].sort();
const rows = [];
const detail = [];
for (const [name, r] of Object.entries(results)) {
  if (r.answers.length !== cases.length) {
    console.error(`differential-browsers: ${name} answered ${r.answers.length} of ${cases.length}`);
    continue;
  }
  for (const cls of classNames) {
    const t = { cases: 0, core: 0, node: 0, both: 0, neither: 0 };
    cases.forEach((c, i) => {
      if (classes[i] !== cls) return;
      const withCore = same(r.answers[i], core[i]);
      const withNode = same(r.answers[i], node[i]);
      t.cases++;
      if (withCore && withNode) t.both++;
      else if (withCore) t.core++;
      else if (withNode) t.node++;
      else t.neither++;
      if (name !== 'node' && !(withCore && !withNode)) detail.push({ runtime: name, class: cls, case: c, core: core[i], node: node[i], answer: r.answers[i] });
    });
    rows.push(`| ${r.version} | ${cls} | ${t.cases} | ${t.core} | ${t.node} | ${t.both} | ${t.neither} |`);
  }
}
console.log('| runtime | class | cases | as the core | as node | as both | as neither |');
console.log('|---|---|---:|---:|---:|---:|---:|');
for (const r of rows) console.log(r);
if (opt.out) {
  writeFileSync(opt.out, detail.map((d) => JSON.stringify(d)).join('\n') + '\n');
  console.log(`cases where a browser is not with the core alone: ${opt.out} (${detail.length} lines)`);
}
