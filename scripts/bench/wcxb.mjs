// Why JavaScript: this benchmark drives a real browser (Debian's Chromium through playwright-core),
// where the extension's content script and @mozilla/readability run on the same loaded DOM.
//
// The main text on WCXB's dev split (../shared/corpora/wcxb-dev: 1,497 pages of seven types), side
// by side in one run, scored by the benchmark's own evaluate.py (word-level F1), overall and per type:
//   - the product: each page served from loopback, every other request refused (offline), loaded
//     with JavaScript off and shown as the person's tab showed it (lib/pages.mjs `openInWorld`,
//     `AS_SHOWN`: `<noscript>` rendered, a streamed React page's segments in place, a blank page's
//     hiding undone), pointed at by a selection of its longest visible text,
//     `collectObservation` in an isolated world, then `Observation::from_json` + `build_reading`
//     (apc-content's `wcxb` example, release build, native) over the collected observations;
//   - @mozilla/readability on the same page load (`new Readability(document.cloneNode(true))`);
//   - PyPI trafilatura and rs-trafilatura on the page's saved HTML (scripts/bench/wcxb_extractors.py,
//     in the venv; scripts/bench/requirements.txt names them);
//   - road (b): the crate rs-trafilatura on HTML written from the observation with the product's
//     visibility rules applied (hidden parts removed), when the `wcxb` example has it.
//
// The browser's part is the slow one (about a second a page), so what it yields is cached: the
// observations and Readability's texts under CACHE/collect-<key>/, where the key is a hash of the
// content script, this script's in-page code, the page loading's and the browser's version (a changed collector is
// collected again), and the extractors' texts under CACHE/extractors-<versions>/. CACHE is
// --cache DIR, else $WCXB_CACHE, else ../wcxb-cache beside the checkout (never inside it).
//
// Prints a markdown section on stdout (scripts/bench.sh puts it into docs/BENCHMARKS.md).
// Options: --corpus DIR, --cache DIR, --only PREFIX (pages whose id starts so), --jobs N (pages
// loaded at once, default 1), --collect-only, --debug (the debug build of the example).

import { readFile, readdir, mkdir, writeFile, rename, copyFile, mkdtemp, symlink } from "node:fs/promises";
import { existsSync, readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import os from "node:os";
import path from "node:path";
import {
  ROOT, contentScriptSource, readability as readabilitySource, servePages, launchChromium, openInWorld, POINT, AS_SHOWN,
  median, quantile,
} from "./lib/pages.mjs";

const STARTED = Date.now();
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i === -1 ? dflt : args[i + 1];
};
const log = (...a) => console.error(...a);
const CORPUS = [opt("--corpus", null), path.join(ROOT, "../shared/corpora/wcxb-dev"), "/work/shared/corpora/wcxb-dev"]
  .filter(Boolean)
  .map((p) => path.resolve(p))
  .find((p) => existsSync(path.join(p, "html")));
const CACHE = path.resolve(opt("--cache", process.env.WCXB_CACHE || path.join(ROOT, "../wcxb-cache")));
const ONLY = opt("--only", null);
const JOBS = Math.max(1, Number(opt("--jobs", "1")));
const DEBUG = args.includes("--debug");
const COLLECT_ONLY = args.includes("--collect-only");
// --collected DIR: score the observations of a collect-*/ folder filled earlier (by the collector
// of the checkout that ran then) instead of loading the pages again; the section says so.
const COLLECTED = opt("--collected", process.env.WCXB_COLLECTED || null);
const TARGET_DIR = process.env.CARGO_TARGET_DIR || path.join(ROOT, "target");
const PROFILE = DEBUG ? "debug" : "release";
const PYTHON = ["/work/main/.venv/bin/python", path.join(ROOT, ".venv/bin/python")].find((p) => existsSync(p)) || "python3";
const TYPES = ["article", "forum", "product", "collection", "listing", "documentation", "service"];

if (!CORPUS) {
  log("wcxb: no corpus (../shared/corpora/wcxb-dev or --corpus DIR)");
  process.exit(1);
}

const CONTENT_JS = await contentScriptSource();
const READABILITY = await readabilitySource();

const IN_WORLD = `(() => {
  const t0 = performance.now();
  const obs = collectObservation({ how: "selection" });
  const collect_ms = performance.now() - t0;
  const json = JSON.stringify(obs);
  const t1 = performance.now();
  const article = new Readability(document.cloneNode(true)).parse();
  const readability_ms = performance.now() - t1;
  return { json, collect_ms, readability_ms, readability: article ? article.textContent : "", nodes: obs.nodes.length, truncated: obs.truncated };
})()`;

async function pageIds() {
  return (await readdir(path.join(CORPUS, "html")))
    .filter((f) => f.endsWith(".html.gz"))
    .map((f) => f.slice(0, -".html.gz".length))
    .filter((id) => !ONLY || id.startsWith(ONLY))
    .sort();
}

async function writeAtomic(file, data) {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, data);
  await rename(tmp, file);
}

// ---- the browser's part: observations and Readability, cached --------------------------------

async function collect(ids) {
  const server = await servePages(async (pathname) => {
    const m = /^\/p\/([0-9a-zA-Z_-]+)\.html$/.exec(pathname);
    return m ? gunzipSync(await readFile(path.join(CORPUS, "html", `${m[1]}.html.gz`))) : null;
  });
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await launchChromium();
  const version = browser.version();
  const key = createHash("sha256").update(CONTENT_JS).update(IN_WORLD).update(String(POINT)).update(String(openInWorld))
    .update(String(AS_SHOWN)).update(version)
    .update(READABILITY.version).digest("hex").slice(0, 12);
  const dir = path.join(CACHE, `collect-${key}`);
  for (const sub of ["obs", "readability", "meta"]) await mkdir(path.join(dir, sub), { recursive: true });
  const todo = ids.filter((id) => !existsSync(path.join(dir, "meta", `${id}.json`)));
  log(`wcxb: ${ids.length - todo.length} of ${ids.length} pages collected before (${dir}); collecting ${todo.length}`);
  let done = 0;
  const t0 = Date.now();
  // A page whose load timed out while others loaded beside it is tried again at the end, alone:
  // on two busy cores a heavy page (0203: 1.1 MB, 12,613 nodes) can miss the 60 s load timeout
  // that it meets in 10 s on its own. Only its second failure is cached.
  const later = [];
  const one = async (id, last = false) => {
    let meta;
    try {
      const world = await openInWorld(browser, origin, `${origin}/p/${id}.html`, [CONTENT_JS, READABILITY.source]);
      try {
        const pointed = await world.page.evaluate(POINT);
        const r = await world.run(IN_WORLD);
        await writeAtomic(path.join(dir, "obs", `${id}.json`), r.json);
        await writeAtomic(path.join(dir, "readability", `${id}.txt`), r.readability);
        meta = { pointed, shown: world.shown, collect_ms: r.collect_ms, readability_ms: r.readability_ms, nodes: r.nodes, truncated: r.truncated };
      } finally {
        await world.close();
      }
    } catch (e) {
      // A browser that is gone fails every page after it: that is the run's failure, not the
      // page's, and is not cached.
      if (!browser.isConnected()) throw e;
      if (!last && /Timeout/.test(e.message)) {
        log(`wcxb: ${id}: timed out; tried again alone at the end`);
        later.push(id);
        return;
      }
      meta = { failed: e.message.split("\n")[0] };
      log(`wcxb: ${id}: ${meta.failed}`);
    }
    await writeAtomic(path.join(dir, "meta", `${id}.json`), JSON.stringify(meta));
    done += 1;
    if (done % 50 === 0) log(`wcxb: ${done}/${todo.length} pages (${((Date.now() - t0) / done / 1000).toFixed(2)} s a page)`);
  };
  const queue = [...todo];
  await Promise.all(Array.from({ length: JOBS }, async () => {
    while (queue.length) await one(queue.shift());
  }));
  for (const id of later) await one(id, true);
  await browser.close();
  server.close();
  return { dir, version };
}

// ---- the extractors on the saved HTML (Python), cached ---------------------------------------

function extractors(ids) {
  let versions;
  try {
    versions = JSON.parse(execFileSync(PYTHON, [path.join(ROOT, "scripts/bench/wcxb_extractors.py"), "--versions"], { encoding: "utf8" }));
  } catch (e) {
    log(`wcxb: the Python extractors are not installed (scripts/bench/requirements.txt): ${String(e.message).split("\n")[0]}`);
    return null;
  }
  const dir = path.join(CACHE, `extractors-${Object.entries(versions).map(([k, v]) => `${k}-${v}`).join("_")}`);
  execFileSync(PYTHON, [path.join(ROOT, "scripts/bench/wcxb_extractors.py"), "--corpus", CORPUS, "--out", dir, ...ids], {
    stdio: ["ignore", "inherit", "inherit"],
    maxBuffer: 1 << 30,
  });
  return { dir, versions };
}

// ---- scoring -----------------------------------------------------------------------------------

// evaluate.py expects dev/ground-truth/ beside it: a folder linking the corpus's, restricted to
// the pages measured when --only is given.
async function scorer(ids) {
  const dir = await mkdtemp(path.join(os.tmpdir(), "apc-wcxb-"));
  await copyFile(path.join(CORPUS, "evaluate.py"), path.join(dir, "evaluate.py"));
  await mkdir(path.join(dir, "dev/ground-truth"), { recursive: true });
  for (const id of ids) await symlink(path.join(CORPUS, "ground-truth", `${id}.json`), path.join(dir, "dev/ground-truth", `${id}.json`));
  return async (name, texts) => {
    const file = path.join(dir, `${name}.json`);
    await writeFile(file, JSON.stringify(texts));
    const out = execFileSync(PYTHON, ["evaluate.py", "--split", "dev", "--results", file, "--per-type"], { cwd: dir, encoding: "utf8" });
    return parseEvaluate(out);
  };
}

// evaluate.py's printout: the overall block and the per-type table.
function parseEvaluate(text) {
  const num = (re) => Number((re.exec(text) || [])[1]);
  const res = {
    all: { n: num(/Overall \((\d+) pages\)/), f1: num(/F1:\s+([\d.]+)/), p: num(/Precision:\s+([\d.]+)/), r: num(/Recall:\s+([\d.]+)/) },
  };
  for (const line of text.split("\n")) {
    const m = /^\s+([a-z]+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*$/.exec(line);
    if (m && TYPES.includes(m[1])) res[m[1]] = { n: Number(m[2]), f1: Number(m[3]), p: Number(m[4]), r: Number(m[5]) };
  }
  return res;
}

// The installed browser's version, for a run that loads no page.
function chromiumVersion() {
  try {
    return execFileSync("/usr/bin/chromium", ["--version"], { encoding: "utf8" }).trim().replace(/^Chromium\s+/, "");
  } catch {
    return "(version unknown)";
  }
}

function backgroundWasmSize() {
  const f = path.join(ROOT, "dist/extension/wasm/apc_background_bg.wasm");
  try {
    return `${(readFileSync(f).length / 1024 / 1024).toFixed(2)} MiB (dist/extension, after wasm-opt)`;
  } catch {
    return "not built (scripts/build-extension.sh)";
  }
}

// ---- main --------------------------------------------------------------------------------------

const ids = await pageIds();
const collected = COLLECTED
  ? { dir: path.resolve(COLLECTED), version: chromiumVersion(), earlier: true }
  : await collect(ids);
if (COLLECT_ONLY) process.exit(0);

if (!DEBUG) {
  execFileSync("cargo", ["build", "-q", "--release", "-p", "apc-content", "--example", "wcxb"], {
    cwd: ROOT,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, CARGO_TARGET_DIR: TARGET_DIR },
  });
}
const productDir = await mkdtemp(path.join(os.tmpdir(), "apc-wcxb-product-"));
const runExample = (extra) => JSON.parse(execFileSync(path.join(TARGET_DIR, PROFILE, "examples/wcxb"),
  ["--obs", path.join(collected.dir, "obs"), "--out", productDir, ...extra, ...ids],
  { encoding: "utf8", maxBuffer: 1 << 30, stdio: ["ignore", "pipe", "inherit"] }));
const product = runExample([]);

// Road (b): rs-trafilatura (the crate) on the observation's visible HTML, natively, and its
// wasm32 build's size and time in V8 (node's, the engine of Chromium's extension background) on
// the same HTML.
function roadB() {
  const dir = path.join(ROOT, "scripts/bench/road-b");
  const env = { ...process.env, CARGO_TARGET_DIR: path.join(TARGET_DIR, "road-b") };
  try {
    execFileSync("cargo", ["build", "-q", "--release"], { cwd: dir, stdio: ["ignore", "inherit", "inherit"], env });
    execFileSync("cargo", ["build", "-q", "--release", "--lib", "--target", "wasm32-unknown-unknown"], { cwd: dir, stdio: ["ignore", "inherit", "inherit"], env });
  } catch (e) {
    log(`wcxb: road (b) did not build: ${String(e.message).split("\n")[0]}`);
    return null;
  }
  const htmlDir = path.join(productDir, "visible-html");
  const native = JSON.parse(execFileSync(path.join(TARGET_DIR, "road-b/release/road-b"),
    ["--obs", path.join(collected.dir, "obs"), "--out", productDir, "--html", htmlDir, ...ids],
    { encoding: "utf8", maxBuffer: 1 << 30, stdio: ["ignore", "pipe", "inherit"] }));
  const wasmFile = path.join(TARGET_DIR, "road-b/wasm32-unknown-unknown/release/road_b.wasm");
  return { native, wasmFile, htmlDir };
}
async function wasmTimes(wasmFile, htmlDir, sample) {
  const bytes = await readFile(wasmFile);
  const t0 = performance.now();
  // Its imports (wasm-bindgen's, pulled in by the workspace's crates) are never called by the
  // extraction: each is a stub that throws, so a call would fail the timing rather than fake it.
  const module = await WebAssembly.compile(bytes);
  const imports = {};
  for (const { module: m, name } of WebAssembly.Module.imports(module)) {
    (imports[m] ??= {})[name] = () => { throw new Error(`road (b) wasm called ${m}.${name}`); };
  }
  const instance = await WebAssembly.instantiate(module, imports);
  const instantiateMs = performance.now() - t0;
  const { memory, road_b_alloc: alloc, road_b_extract: extract } = instance.exports;
  const times = [];
  for (const id of sample) {
    const f = path.join(htmlDir, `${id}.html`);
    if (!existsSync(f)) continue;
    const html = await readFile(f);
    const t = performance.now();
    const ptr = alloc(html.length);
    new Uint8Array(memory.buffer, ptr, html.length).set(html);
    extract(ptr, html.length);
    times.push(performance.now() - t);
  }
  return { size: bytes.length, instantiateMs, times };
}
const roadBRun = roadB();
const metas = Object.fromEntries(await Promise.all(ids.map(async (id) =>
  [id, JSON.parse(await readFile(path.join(collected.dir, "meta", `${id}.json`), "utf8"))])));
const readTexts = async (file) => JSON.parse(await readFile(file, "utf8"));
const texts = {
  product: await readTexts(path.join(productDir, "product.json")),
  readability: Object.fromEntries(await Promise.all(ids.map(async (id) => {
    const f = path.join(collected.dir, "readability", `${id}.txt`);
    return [id, existsSync(f) ? await readFile(f, "utf8") : ""];
  }))),
};
let wasm = null;
if (roadBRun) {
  texts.road_b = await readTexts(path.join(productDir, "road_b.json"));
  // Every 5th page: a sample of the corpus's pages for the time in V8.
  wasm = await wasmTimes(roadBRun.wasmFile, roadBRun.htmlDir, ids.filter((_, k) => k % 5 === 0)).catch((e) => {
    log(`wcxb: road (b) wasm: ${e.message}`);
    return null;
  });
}
const ext = extractors(ids);
if (ext) {
  for (const name of ["trafilatura", "rs_trafilatura"]) {
    const f = path.join(ext.dir, `${name}.json`);
    if (existsSync(f)) texts[name] = await readTexts(f);
  }
}
const score = await scorer(ids);
const results = {};
for (const [name, t] of Object.entries(texts)) results[name] = await score(name, t);

const COLUMNS = [
  ["product", "product (rules over the observation)"],
  ["road_b", "rs-trafilatura crate on the observation's visible HTML (road b)"],
  ["readability", `Readability.js ${READABILITY.version} (same page load)`],
  ["trafilatura", `trafilatura ${ext?.versions?.trafilatura ?? ""} (saved HTML)`],
  ["rs_trafilatura", `rs-trafilatura ${ext?.versions?.rs_trafilatura ?? ""} (PyPI, saved HTML)`],
].filter(([k]) => results[k]);
const f = (x) => (Number.isFinite(x) ? x.toFixed(3) : "—");
const out = [];
out.push(`## Reader: main text on WCXB (dev split, ${ids.length} pages, seven types)`);
out.push("");
out.push(`WCXB, the Web Content eXtraction Benchmark (dev split, ${path.basename(CORPUS)}), each page loaded offline in headless ` +
  `Chromium ${collected.version} (JavaScript off, so \`<noscript>\` renders; a streamed React page's segments put in place ` +
  `and a page left blank by its missing stylesheet or script shown, as the person's tab showed them; 1280×900) and pointed at by a selection of its longest visible text; ` +
  `the product's \`page_text\` (\`collectObservation\` → \`build_reading\`, ${PROFILE} build, native) and Readability's ` +
  `\`textContent\` on the same page load; trafilatura and rs-trafilatura (PyPI) on the saved HTML. Scored by the benchmark's ` +
  `own \`evaluate.py\` (word-level F1 over \`\\w+\` tokens, mean over pages).`);
out.push("");
if (collected.earlier) {
  out.push(`**These observations were not collected by this run:** they are the cache \`${path.basename(collected.dir)}\` ` +
    `(\`--collected\` / \`WCXB_COLLECTED\`), filled earlier by the content script of the checkout that ran then; this ` +
    `checkout's \`build_reading\` and road (b) ran over them. A content script changed since then is not measured here.`);
  out.push("");
}
out.push(`| page type (pages) | ${COLUMNS.map(([, label]) => label).join(" | ")} |`);
out.push(`|---|${COLUMNS.map(() => "---").join("|")}|`);
for (const t of ["all", ...TYPES]) {
  const n = results.product[t]?.n;
  if (!n) continue;
  out.push(`| ${t} (${n}) | ${COLUMNS.map(([k]) => f(results[k][t]?.f1)).join(" | ")} |`);
}
out.push("");
out.push(`| precision / recall, all pages | ${COLUMNS.map(([, label]) => label).join(" | ")} |`);
out.push(`|---|${COLUMNS.map(() => "---").join("|")}|`);
out.push(`| precision | ${COLUMNS.map(([k]) => f(results[k].all.p)).join(" | ")} |`);
out.push(`| recall | ${COLUMNS.map(([k]) => f(results[k].all.r)).join(" | ")} |`);
out.push("");
// The goals of issue 19, each with this run's figure.
// Each road that ran is judged against the same goals.
const roads = [["product", "road (a), the product"], ["road_b", "road (b)"]].filter(([k]) => results[k]);
const goals = [];
const judged = (label, get) => goals.push([label, roads.map(([k]) => get(results[k]))]);
judged("overall F1 ≥ 0.92", (m) => [m.all.f1, m.all.f1 >= 0.92]);
if (results.rs_trafilatura) {
  for (const t of TYPES) {
    const theirs = results.rs_trafilatura[t]?.f1;
    if (!Number.isFinite(theirs)) continue;
    judged(`${t}: at or above rs-trafilatura (${f(theirs)})`, (m) => [m[t]?.f1, m[t]?.f1 >= theirs]);
  }
} else {
  judged("per type at or above rs-trafilatura (not installed: cannot be judged)", () => [NaN, false]);
}
out.push(`| goal | ${roads.map(([, label]) => `${label} | met`).join(" | ")} |`);
out.push(`|---|${roads.map(() => "---|---").join("|")}|`);
for (const [g, vs] of goals) out.push(`| ${g} | ${vs.map(([v, met]) => `${f(v)} | ${met ? "met" : "**NOT met**"}`).join(" | ")} |`);
out.push("");
const ok = ids.filter((id) => !metas[id].failed);
const truncated = ok.filter((id) => metas[id].truncated);
out.push(`Pages: ${ok.length} of ${ids.length} loaded and collected${ok.length < ids.length ? ` (failed: ${ids.filter((id) => metas[id].failed).join(", ")})` : ""}; ` +
  `${truncated.length} cut by the collector's caps (observation \`truncated\`); ` +
  `${product.refused} without a reading (refused: scored as empty).`);
out.push("");
const ms = (x) => (x < 10 ? x.toFixed(2) : x.toFixed(1));
const line = (label, xs) => `| ${label} | ${ms(median(xs))} | ${ms(quantile(xs, 0.95))} | ${ms(Math.max(...xs))} |`;
out.push(`| time per page | median ms | p95 ms | max ms |`);
out.push(`|---|---|---|---|`);
out.push(line("collectObservation (in the page)", ok.map((id) => metas[id].collect_ms)));
out.push(line("Readability parse + clone (in the page)", ok.map((id) => metas[id].readability_ms)));
out.push(line("build_reading (native)", product.build_ms));
if (roadBRun) out.push(line("road (b): visible HTML + rs-trafilatura extract (native)", roadBRun.native.ms));
if (wasm) out.push(line(`road (b): rs-trafilatura extract as wasm32 in V8 (node ${process.version}, ${wasm.times.length} pages)`, wasm.times));
out.push("");
if (wasm) {
  out.push(`Road (b)'s cost in the extension: the crate rs-trafilatura compiled for \`wasm32-unknown-unknown\` (opt-level s, LTO, ` +
    `before wasm-opt) is ${(wasm.size / 1024 / 1024).toFixed(2)} MiB of WebAssembly on its own (instantiated in ` +
    `${ms(wasm.instantiateMs)} ms); the background's module today: ${backgroundWasmSize()}.`);
  out.push("");
}
out.push(`This section's run took ${((Date.now() - STARTED) / 60000).toFixed(1)} min` +
  `${collected.earlier ? " (no page loaded: observations from the cache above)" : ""}.`);
out.push("");
console.log(out.join("\n"));
for (const [name, r] of Object.entries(results)) log(`wcxb: ${name}: F1 ${f(r.all.f1)} ${TYPES.map((t) => `${t} ${f(r[t]?.f1)}`).join(", ")}`);
