// Writes the conformance cases (JSON lines {"fn", "args"}) to stdout: `node gen_cases.mjs > cases.jsonl`.
// JS because the cases are JSON that node writes exactly as the reference will read it; the cases
// are this project's own design (edge cases of every exported function of APC 0.7.0).
const cases = [];
const add = (fn, ...args) => cases.push({ fn, args });

// ---- parseParams ----
const tokens = ["a", "2026-03", "12", "-1.5", "+3", "1.2.3", "1e5", ".5", "5.", "0", "x|y", "a:b", "A-Z_09",
  "with space", "", "é", "x".repeat(80), "x".repeat(81), "-", "+", "1.", "1..2", "12a", "0x1f", "NaN", "Infinity"];
for (const t of tokens) add("parseParams", { k: t });
for (const t of tokens.slice(0, 10)) add("parseParams", { k: [t] });
add("parseParams", null);
add("parseParams");
add("parseParams", []);
add("parseParams", ["a"]);
add("parseParams", "a");
add("parseParams", 5);
add("parseParams", true);
add("parseParams", {});
add("parseParams", { K: "a" });
add("parseParams", { _k: "a" });
add("parseParams", { "1": "a" });
add("parseParams", { k1: "a", "2": "b" });
add("parseParams", { ["k".repeat(32)]: "a" });
add("parseParams", { ["k".repeat(33)]: "a" });
add("parseParams", { k: 12 });
add("parseParams", { k: null });
add("parseParams", { k: true });
add("parseParams", { k: {} });
add("parseParams", { k: [] });
add("parseParams", { k: [["a"]] });
add("parseParams", { k: ["a", 1] });
add("parseParams", { k: ["a", "12"] });
add("parseParams", { k: ["a", "b"], m: "2026-03", z: "q" });
add("parseParams", { z: "1", a: "2" });
add("parseParams", { z: "z1", a: "a1", m: ["m1"] });
const list = (n) => Array.from({ length: n }, (_, i) => `t${i}`);
add("parseParams", { ids: list(19) });
add("parseParams", { ids: list(20) });
add("parseParams", { ids: list(21) });
// The 1 KiB cap on JSON.stringify: fill keys with 80-char tokens, then size the last one.
function capped(total) {
  const out = {};
  let i = 0;
  while (JSON.stringify(out).length < total - 100) out[`k${i++}`] = "y".repeat(80);
  const len = JSON.stringify(out).length;
  out.kz = "z".repeat(total - len - 8);
  return out;
}
for (const n of [1000, 1023, 1024, 1025, 1030]) add("parseParams", capped(n));
add("parseParams", { ids: list(20).map((t) => t.padEnd(60, "x")) });

// ---- parseTarget ----
add("parseTarget", { kind: "customer", id: "cus_1" });
add("parseTarget", { kind: "customer", id: "cus_1", part: "seats" });
add("parseTarget", { kind: "customer", id: "cus_1", part: "step:new" });
add("parseTarget", { kind: "figure", params: { month: "2026-03" } });
add("parseTarget", { kind: "figure", id: null, params: { month: "2026-03" }, part: "total" });
add("parseTarget", { kind: "figure", params: {} });
add("parseTarget", { kind: "figure", params: null });
add("parseTarget", { kind: "figure", params: { month: "12" } });
add("parseTarget", { kind: "figure", id: "x", params: { month: "12" } });
add("parseTarget", { kind: "figure", id: "x", params: "a" });
add("parseTarget", { kind: "figure", id: "x", params: [] });
add("parseTarget", { kind: "customer" });
add("parseTarget", { kind: "customer", id: "" });
add("parseTarget", { kind: "customer", id: "", params: { a: "b" } });
add("parseTarget", { kind: "customer", id: 5 });
add("parseTarget", { kind: "customer", id: true });
add("parseTarget", { kind: "customer", id: "a b" });
add("parseTarget", { kind: "customer", id: "a/b" });
add("parseTarget", { kind: "customer", id: "A.b:c-D_9" });
add("parseTarget", { kind: "customer", id: "i".repeat(80) });
add("parseTarget", { kind: "customer", id: "i".repeat(81) });
add("parseTarget", { kind: "customer", id: "12" });
add("parseTarget", { kind: "Customer", id: "a" });
add("parseTarget", { kind: "1customer", id: "a" });
add("parseTarget", { kind: "_c", id: "a" });
add("parseTarget", { kind: "c_1", id: "a" });
add("parseTarget", { kind: "k".repeat(32), id: "a" });
add("parseTarget", { kind: "k".repeat(33), id: "a" });
add("parseTarget", { kind: "", id: "a" });
add("parseTarget", { kind: 5, id: "a" });
add("parseTarget", { id: "a" });
add("parseTarget", {});
add("parseTarget", "customer");
add("parseTarget", 7);
add("parseTarget", ["customer", "a"]);
add("parseTarget", null);
const parts = ["seats", "step:new", "a:b:c", "x_1:A.b|c-d", "Step", ":x", "step:", "1a", "a:" + "x".repeat(80), "a:" + "x".repeat(81),
  "p".repeat(32), "p".repeat(33), "a b", "a:b c", "a:é", "", 5, null, false];
for (const p of parts) add("parseTarget", { kind: "customer", id: "c1", part: p });
add("parseTarget", { kind: "customer", id: "c1", part: "seats", params: { b: "x", a: ["y", "z"] }, extra: 1 });

// ---- canonicalTarget ----
add("canonicalTarget", { kind: "k", id: "i", part: null, params: null });
add("canonicalTarget", { kind: "k", id: null, part: "p", params: { b: "2x", a: "1x" } });
add("canonicalTarget", { kind: "k", id: null, part: null, params: { a0: "x", a_: "y", b: "z", a: "w", a9: "v", a_b: "u" } });
add("canonicalTarget", { kind: "k", id: null, part: null, params: { b: "z", a_: "y", a0: "x" } });
add("canonicalTarget", { kind: "k", id: null, part: null, params: { month: ["2026-03", "2026-01"], region: "eu" } });
add("canonicalTarget", { kind: "k", id: "i", part: null, params: {} });
add("canonicalTarget", { kind: "k" });
add("canonicalTarget", { kind: "k", id: "i" });
add("canonicalTarget", {});
add("canonicalTarget", { kind: "k", id: "i", params: { z_z: "1", z1: "2", zz: "3", z: "4" } });
add("canonicalTarget", { kind: "k", id: "i", params: { "2": "a", "10": "b", x: "c" } });
add("canonicalTarget", { kind: "k", id: "i", params: ["x", "y"] });
add("canonicalTarget", { kind: "k", id: "i", params: "ab" });
add("canonicalTarget", { kind: "k", id: "i", params: 0 });
add("canonicalTarget", { kind: "k", id: 1.5, part: true, params: { a: 1e21 } });
add("canonicalTarget", null);

// ---- focusAttrs ----
add("focusAttrs", { kind: "customer", id: "cus_0042" });
add("focusAttrs", { kind: "customer", id: "cus_0042", part: "seats" });
add("focusAttrs", { kind: "figure", id: null, part: "total", params: { month: "2026-03", ids: ["a", "b"] } });
add("focusAttrs", { kind: "figure", params: { month: "2026-03" } });
add("focusAttrs", { kind: "figure", params: {} });
add("focusAttrs", { kind: "figure", id: "", part: "" });
add("focusAttrs", { kind: "figure", id: 0, part: 0 });
add("focusAttrs", { kind: "figure", id: 12, part: 7 });
add("focusAttrs", { kind: "figure", id: false, part: true, params: "p" });
add("focusAttrs", { id: "x" });
add("focusAttrs", {});
add("focusAttrs", { kind: ["a", "b"], id: { x: 1 } });
add("focusAttrs", { kind: "k", id: "i", params: { b: "x\u0001\"\\", "1": "y" } });
add("focusAttrs", null);

// ---- parseFocusAttrs ----
add("parseFocusAttrs", "customer:cus_1", null, null);
add("parseFocusAttrs", "customer:cus_1", "seats", null);
add("parseFocusAttrs", "customer:cus_1", "", "");
add("parseFocusAttrs", "figure:", "total", "{\"month\":\"2026-03\"}");
add("parseFocusAttrs", "figure:", null, null);
add("parseFocusAttrs", "figure:", null, "{}");
add("parseFocusAttrs", "figure:", null, "null");
add("parseFocusAttrs", "figure:", null, "{bad");
add("parseFocusAttrs", "figure:", null, "[\"a\"]");
add("parseFocusAttrs", "figure:", null, "5");
add("parseFocusAttrs", "figure:", null, " {\"m\":\"x1\"} ");
add("parseFocusAttrs", "figure:", null, "{\"m\":\"12\"}");
add("parseFocusAttrs", "figure:x", null, "{\"m\":\"x\",\"m\":\"y\"}");
add("parseFocusAttrs", "customer:a:b", null, null);
add("parseFocusAttrs", ":cus_1", null, null);
add("parseFocusAttrs", "customer", null, null);
add("parseFocusAttrs", "", null, null);
add("parseFocusAttrs", null, null, null);
add("parseFocusAttrs");
add("parseFocusAttrs", "Customer:a", null, null);
add("parseFocusAttrs", "customer:a b", null, null);
add("parseFocusAttrs", "customer:c1", "Bad", null);
add("parseFocusAttrs", "customer:c1", 5, null);
add("parseFocusAttrs", "customer:c1", null, 5);
add("parseFocusAttrs", "customer:c1", null, {});
add("parseFocusAttrs", "customer:c1", null, true);
add("parseFocusAttrs", ["customer", ":"], null, null);
add("parseFocusAttrs", 0, null, null);
add("parseFocusAttrs", 5, null, null);

// ---- urlOnOrigin ----
const O = "https://app.example";
const urls = [
  "https://app.example", "https://app.example/", "https://app.example/a?b#c", "https://APP.example/x", "https://app.example:443/x",
  "https://app.example:8443/x", "http://app.example/x", "blob:https://app.example/1", "https://u@app.example/", "https://u:p@app.example/",
  "https://:p@app.example/", "https://:@app.example/", "https://u:@app.example/", "/relative", "app.example", "", " https://app.example/ ",
  "https://app.example/\u00e9", "https://app.example/a b", "javascript:alert(1)", "data:text/html,x", "https://app.example.evil/",
  "https://app.example%2f@evil/", "https://app.example\\x", "https:app.example/x", "https:///app.example/x", "HTTPS://app.example",
  "https://app.example/" + "a".repeat(2020), "https://app.example/" + "a".repeat(2040), "https://app.example/" + "\u00e9".repeat(2028),
  "ws://app.example/", "https://app.example./",
];
for (const u of urls) add("urlOnOrigin", u, O);
add("urlOnOrigin", "http://127.0.0.1:7411/x", "http://127.0.0.1:7411");
add("urlOnOrigin", "http://localhost:7411/x", "http://localhost:7411");
add("urlOnOrigin", "http://[::1]:8080/", "http://[::1]:8080");
add("urlOnOrigin", "http://0x7f.1/", "http://127.0.0.1");
add("urlOnOrigin", "https://bücher.example/x", "https://xn--bcher-kva.example");
add("urlOnOrigin", "https://bücher.example/x", "https://bücher.example");
add("urlOnOrigin", "https://xn--bcher-kva.example/x", "https://xn--bcher-kva.example");
add("urlOnOrigin", "https://app.example/", "https://app.example/");
add("urlOnOrigin", "https://app.example/", null);
add("urlOnOrigin", "https://app.example/");
add("urlOnOrigin", 5, O);
add("urlOnOrigin", null, O);
add("urlOnOrigin", ["https://app.example/"], O);
add("urlOnOrigin", "file:///etc/passwd", "null");
add("urlOnOrigin", "foo://bar", "null");

// ---- compareStandard ----
const versions = [["0.5.0", "0.7.0"], ["0.7.0", "0.5.0"], ["0.7.0", "0.7.0"], ["01.2.3", "1.2.3"], ["0.10.0", "0.9.9"], ["1", "1.0.0"],
  ["1.0.0.5", "1.0.0"], ["", "0.0.0"], ["x.1.0", "x.1.0"], ["0.x.0", "0.1.0"], ["0.1.0", "0.x.0"], ["1..2", "1.0.2"], [" 1.2.3", "1.2.3"],
  ["0x10.0.0", "16.0.0"], ["1e2.0.0", "100.0.0"], ["1.5.0", "1.2.0"], ["Infinity.0.0", "1.0.0"], ["-1.0.0", "0.0.0"], ["0.0.1", "0.0.2"],
  ["9999.99999.999999", "0.0.0"], ["1.0.0-beta", "1.0.0"], ["0.7", "0.7.0"], ["0.7.0.", "0.7.0"], [".5.0", "0.5.0"], ["0.5.0", ""],
  ["1_0.0.0", "10.0.0"], ["0b11.0.0", "3.0.0"], ["0o17.0.0", "15.0.0"], ["+1.0.0", "1.0.0"], ["1.0.0", "1.0.0x"], ["\u00a01.0.0", "1.0.0"],
  ["1e400.0.0", "1.0.0"], ["0.30000000000000004.0", "0.1.0"], ["12345678901234567890.0.0", "0.0.0"]];
for (const [a, b] of versions) add("compareStandard", a, b);
add("compareStandard", 1, "1");
add("compareStandard", "1", null);

// ---- parseApcManifest ----
const base = {
  name: "Signals", standard: "0.5.0", origin: O, profiles: ["direct", "dock"], mcp: { path: "/mcp/" },
  direct: { connect: "https://app.example/?connect" },
};
const m = (patch) => {
  const out = { ...base, ...patch };
  for (const [k, v] of Object.entries(patch)) if (v === undefined) delete out[k];
  return out;
};
const hub = { name: "Dock", standard: "0.7.0", origin: O, profiles: ["hub"], mcp: { path: "/mcp/" },
  dock: { pair: "https://app.example/apc/pair", confirm: "https://app.example/apc/confirm" } };
add("parseApcManifest", base, O);
add("parseApcManifest", hub, O);
add("parseApcManifest", { ...hub, profiles: ["hub", "dock"] }, O);
add("parseApcManifest", { ...hub, profiles: ["dock", "hub"] }, O);
add("parseApcManifest", { ...hub, profiles: ["hub", "hub", "link"] }, O);
add("parseApcManifest", { ...hub, dock: { pair: "https://app.example/apc/pair" } }, O);
add("parseApcManifest", { ...hub, dock: { pair: "https://other.example/apc/pair", confirm: "https://app.example/c" } }, O);
add("parseApcManifest", { ...hub, dock: undefined }, O);
add("parseApcManifest", { ...hub, dock: [] }, O);
add("parseApcManifest", { ...hub, direct: { connect: "x" } }, O);
add("parseApcManifest", m({ profiles: ["dock"], direct: undefined }), O);
add("parseApcManifest", m({ profiles: ["direct"], direct: undefined }), O);
add("parseApcManifest", m({ profiles: ["direct"], direct: {} }), O);
add("parseApcManifest", m({ profiles: ["direct"], direct: [] }), O);
add("parseApcManifest", m({ profiles: ["direct"], direct: { connect: "/connect" } }), O);
add("parseApcManifest", m({ profiles: ["direct"], direct: { connect: "blob:https://app.example/1" } }), O);
add("parseApcManifest", m({ profiles: ["direct"], direct: { connect: "https://u:p@app.example/" } }), O);
add("parseApcManifest", m({ profiles: ["direct"], direct: { connect: "https://APP.example:443" } }), O);
add("parseApcManifest", m({ profiles: ["direct"], direct: { connect: "http://app.example/" } }), O);
add("parseApcManifest", m({ profiles: ["dock", "telepathy"] }), O);
add("parseApcManifest", m({ profiles: ["telepathy"] }), O);
add("parseApcManifest", m({ profiles: [] }), O);
add("parseApcManifest", m({ profiles: "dock" }), O);
add("parseApcManifest", m({ profiles: ["DOCK"] }), O);
add("parseApcManifest", m({ profiles: [1, null, "dock"] }), O);
add("parseApcManifest", m({ profiles: ["a", "b", "c", "d", "e", "f", "g", "dock"] }), O);
add("parseApcManifest", m({ profiles: ["a", "b", "c", "d", "e", "f", "g", "h", "dock"] }), O);
add("parseApcManifest", m({ profiles: ["dock", "direct", "dock"] }), O);
add("parseApcManifest", m({ profiles: undefined }), O);
for (const name of ["", "  ", "\u200b", " Signals ", "Sig\u202enals", "Sig\u0000nals", "\ufeffSignals\u00a0", "\u3000Signals\u2028", "x".repeat(60),
  "x".repeat(61), "\u00e9".repeat(60), "\u{1F600}".repeat(30), "\u{1F600}".repeat(31), " " + "x".repeat(60) + " ", 5, null, ["Signals"], "Sig\u0085nals",
  "a\u{E0041}b", "\u180eX\u180e", "\u0600\u061c\u06dd"])
  add("parseApcManifest", m({ name }), O);
add("parseApcManifest", m({ name: undefined }), O);
for (const standard of ["0.5.0", "0.7.0", "1.0.0", "01.2.3", "0.5", "0.5.0.1", "0.05.0", "10000.0.0", "9999.99999.999999", "9999.99999.1000000",
  "0.5.0 ", "v0.5.0", "0.5.0\n", "", 5, null, "١.٢.٣"])
  add("parseApcManifest", m({ standard }), O);
for (const origin of ["https://app.example/", "https://APP.example", "https://app.example:443", "https://app.example:8443", "http://app.example",
  "https://other.example", "app.example", "", "null", "blob:https://app.example/x", 5, null, "https://app.example/x", "https://app.example?x",
  "https://u@app.example", " https://app.example", "https://app.example#"])
  add("parseApcManifest", m({ origin }), O);
add("parseApcManifest", m({ origin: undefined }), O);
add("parseApcManifest", m({ origin: "https://xn--bcher-kva.example", direct: { connect: "https://bücher.example/c" } }), "https://xn--bcher-kva.example");
add("parseApcManifest", m({ origin: "https://bücher.example", direct: { connect: "https://bücher.example/c" } }), "https://xn--bcher-kva.example");
add("parseApcManifest", m({ origin: "https://xn--bcher-kva.example" }), "https://bücher.example");
add("parseApcManifest", m({ origin: "http://127.0.0.1:7411", direct: { connect: "http://127.0.0.1:7411/c" } }), "http://127.0.0.1:7411");
add("parseApcManifest", m({ origin: "http://[::1]:7411", direct: { connect: "http://[::1]:7411/c" } }), "http://[::1]:7411");
add("parseApcManifest", m({ origin: "http://localhost:7411", direct: { connect: "http://localhost:7411/" } }), "http://localhost:7411");
add("parseApcManifest", base, "https://other.example");
add("parseApcManifest", base, "https://app.example/");
add("parseApcManifest", base);
add("parseApcManifest", base, null);
for (const path of ["/", "/mcp/", "/mcp", "mcp/", "/a/b/", "//", "/a//b/", "/./", "/../", "/a/./", "/a/../", "/.x/", "/..x/", "/a b/", "/a%2f/",
  "/~u!$&'()*+,;=:@-._/", "/" + "p".repeat(198) + "/", "/" + "p".repeat(199) + "/", "/é/", "/a?b/", "/a#/", "\\mcp\\", 5, null, ""])
  add("parseApcManifest", m({ mcp: { path } }), O);
add("parseApcManifest", m({ mcp: undefined }), O);
add("parseApcManifest", m({ mcp: "/mcp/" }), O);
add("parseApcManifest", m({ mcp: ["/mcp/"] }), O);
add("parseApcManifest", m({ mcp: { path: "/mcp/", extra: true }, extra: { x: 1 } }), O);
add("parseApcManifest", null, O);
add("parseApcManifest", [], O);
add("parseApcManifest", "apc", O);
add("parseApcManifest", 5, O);
add("parseApcManifest", {}, O);
add("parseApcManifest");

// ---- declaresMcpUrl ----
const man = { origin: O, mcp: { path: "/mcp/" } };
const mcpUrls = ["https://app.example/mcp/g_123", "https://app.example/mcp/", "https://app.example/mcp", "https://app.example/mcpx/a",
  "https://app.example/mcp/a/b", "https://app.example/mcp/a?x=%2f", "https://app.example/mcp/a#%2e", "http://app.example/mcp/a",
  "https://other.example/mcp/a", "https://u:p@app.example/mcp/a", "blob:https://app.example/mcp/a", "https://APP.example:443/mcp/a",
  "https://app.example/mcp/a%2fb", "https://app.example/mcp/a%2Fb", "https://app.example/mcp/a%5cb", "https://app.example/mcp/a%5Cb",
  "https://app.example/mcp/a%2eb", "https://app.example/mcp/a%2Eb", "https://app.example/mcp/a%25b", "https://app.example/mcp/a%252eb",
  "https://app.example/mcp/%2e%2e/x", "https://app.example/mcp/%2E%2E/x", "https://app.example/mcp/x/%2e%2e/mcp/y", "https://app.example/mcp/x/%2E./y",
  "https://app.example/mcp/x/.%2e/y", "https://app.example/mcp/x/../y", "https://app.example/mcp/x/../../y", "https://app.example/mcp/./x",
  "https://app.example/mcp/x/.", "https://app.example/mcp/x/..", "https://app.example/mcp/a\\b", "https://app.example/mcp\\a",
  "https://app.example/%6dcp/a", "https://app.example/mcp/%61", "https://app.example/mcp/a b", "https://app.example/mcp/é",
  "https://app.example/mcp/a%2", "https://app.example/mcp/a%", "https://app.example/x/../mcp/a", "https://app.example/x/%2e%2e/mcp/a",
  "https://app.example/mcp/a?%2e#%2f", "https://app.example/mcp/a%3f", " https://app.example/mcp/a", "/mcp/a", "", "not a url",
  "https://app.example/mcp/%2e", "https://app.example/mcp/.%2E", "https://app.example/MCP/a", "https://app.example//mcp/a",
  "https://app.example/mcp//a", "https://app.example/mcp/%252f"];
for (const u of mcpUrls) add("declaresMcpUrl", man, u);
add("declaresMcpUrl", { origin: O, mcp: { path: "/" } }, "https://app.example/anything");
add("declaresMcpUrl", { origin: O, mcp: { path: "/" } }, "https://app.example/");
add("declaresMcpUrl", { origin: O, mcp: { path: "/a/b/" } }, "https://app.example/a/b/c");
add("declaresMcpUrl", { origin: O, mcp: { path: "/a/b/" } }, "https://app.example/a/b");
add("declaresMcpUrl", { origin: "https://xn--bcher-kva.example", mcp: { path: "/mcp/" } }, "https://bücher.example/mcp/a");
add("declaresMcpUrl", { origin: "http://127.0.0.1:7411", mcp: { path: "/mcp/" } }, "http://127.0.0.1:7411/mcp/a");
add("declaresMcpUrl", { origin: "https://app.example/", mcp: { path: "/mcp/" } }, "https://app.example/mcp/a");
add("declaresMcpUrl", { origin: O, mcp: { path: "/mcp/" } }, 5);
add("declaresMcpUrl", { origin: O, mcp: { path: "/mcp/" } }, null);
add("declaresMcpUrl", { origin: O, mcp: { path: "/mcp/" } });
add("declaresMcpUrl", { origin: O }, "https://app.example/mcp/a");
add("declaresMcpUrl", { origin: O }, "https://other.example/mcp/a");
add("declaresMcpUrl", null, "https://app.example/mcp/a");
add("declaresMcpUrl", null, "not a url");
add("declaresMcpUrl", { origin: 5, mcp: { path: "/mcp/" } }, "https://app.example/mcp/a");

// ---- hosts through the URL parser (IDNA, IPv4 forms, odd ports), in every function that parses URLs ----
const hosts = ["xn--a.com", "a..com", "\uff41\uff50\uff50.example", "app.example%2e", "1.2.3.4.5", "0x7f000001", "[::ffff:1.2.3.4]", "a.com:0",
  "a.com:65536", "\u00df.example", "fa\u00df.de", "a\u200db.com", "xn--ls8h.la", "\u2603.net", "a\u00adb.com", "%E2%98%83.net", "example.com.",
  "app.exa\tmple", "XN--BCHER-KVA.example", "a_b.com", "-a.com", "a-.com", "ab--c.com", "xn--zca.com", "1.2.3.256", "[1::]", "a%41.com",
  "\u0130.com", "\u01c5.com", "i\u0307.com", "x".repeat(64) + ".com", "x".repeat(63) + ".com", "xn--.com", "M\u00dcNCHEN.de", "a\u3002b.com",
  "\u2163.com", "fo\u0338o.com", "a.xn--", "1.1", "09.1.1.1", "4294967295", "4294967296", "a.1", "1.a", "\u0430pple.com"];
for (const h of hosts) {
  const u = `https://${h}/x`;
  let o;
  try { o = new URL(u).origin; } catch { o = O; }
  add("urlOnOrigin", u, o);
  add("urlOnOrigin", u, "https://" + h);
  add("parseApcManifest", { name: "N", standard: "0.5.0", origin: "https://" + h, profiles: ["dock"], mcp: { path: "/mcp/" } }, o);
  add("parseApcManifest", { name: "N", standard: "0.5.0", origin: o, profiles: ["dock"], mcp: { path: "/mcp/" } }, o);
  add("declaresMcpUrl", { origin: o, mcp: { path: "/" } }, u);
}

// ---- notes ----
for (const name of ["Signals", "", "A \"quoted\" name", "Sig\u202enals", "\u{1F600}", 5, null, ["a", "b"], { a: 1 }, 1.5, 1e21, true])
  for (const fn of ["directOnlyNote", "couldNotCheckNote"]) add(fn, name);
add("directOnlyNote");

// ---- revokedAnswer / isRevokedAnswer ----
add("revokedAnswer", "pulse.example", "2026-11-04T00:00:00Z");
add("revokedAnswer", "bücher.example:8443", "t");
add("revokedAnswer", "", "");
add("revokedAnswer", 5, null);
add("revokedAnswer", { "2": 1, a: 2, "1": 3 }, [1, 2]);
add("revokedAnswer", "pulse.example");
add("revokedAnswer");
add("isRevokedAnswer", { error: "revoked", revoked_by: "pulse.example", revoked_at: "t", message: "m" });
add("isRevokedAnswer", { error: "revoked", revoked_by: "" });
add("isRevokedAnswer", { error: "revoked" });
add("isRevokedAnswer", { error: "revoked", revoked_by: 5 });
add("isRevokedAnswer", { error: "revoked", revoked_by: null });
add("isRevokedAnswer", { error: "Revoked", revoked_by: "x" });
add("isRevokedAnswer", { error: "link_refused", revoked_by: "x" });
add("isRevokedAnswer", { revoked_by: "x" });
add("isRevokedAnswer", "revoked");
add("isRevokedAnswer", ["revoked"]);
add("isRevokedAnswer", null);
add("isRevokedAnswer", 0);
add("isRevokedAnswer");
add("isRevokedAnswer", { error: "revoked", revoked_by: "x", extra: [1] });

// ---- oppositePath ----
for (const p of ["direct", "dock", "hub", "Direct", "", null, 5]) add("oppositePath", p);
add("oppositePath");

// ---- found by the differential run (scripts/differential.sh, issue 11) ----
// localeCompare is ICU's root collation: a tab sorts before letters, accents and case come after
// the base letter, bidi controls and other format characters are ignored.
add("canonicalTarget", { kind: "figure", id: null, part: null, params: { z: ["b", "a"], a: "q", "\tk\tk\u2026": "x" } });
add("canonicalTarget", { kind: "k", id: "i", params: { "éa": "1", eb: "2", Ea: "3", ea: "4", "\u202a09g": "5", dkk: "6", "»z": "7", "\u{1F4A9}a": "8", "%E2": "9", " k": "a" } });
add("canonicalTarget", { kind: "k", id: "i", params: { "e\u0301": "x", "\u00e9": "y", "\u000bD": "z", b: "w", "𝔘i": "v", "\u{F0000}w": "u" } });
// A string's entries are its UTF-16 units: an astral character is two lone surrogates.
add("canonicalTarget", { kind: "k", params: "a\u{1F600}\u{E01EF}b" });
// Numbers read exactly (correctly rounded) and written as JavaScript writes them.
add("canonicalTarget", { kind: 6.595719372826452e-153, params: { a: "b" } });
add("directOnlyNote", 3.119725812915455e-110);
add("couldNotCheckNote", [1.5420739913948013e-183, 973398745153974293, ["0b11"]]);
add("revokedAnswer", 5.363755185807745e-91, true);
add("focusAttrs", { kind: "k", id: "i", params: 2.644675973621636e-159 });
// String() of an object with its own toString key throws (the key is never a function in JSON).
add("directOnlyNote", { toString: "constructor", a: 1 });
add("couldNotCheckNote", ["a", { toString: 1 }]);
add("revokedAnswer", { toString: null }, "t");
add("revokedAnswer", "host", { toString: null });
add("focusAttrs", { kind: { toString: 1 }, id: "x" });
add("focusAttrs", { kind: "k", id: [{ toString: 1 }] });
add("declaresMcpUrl", man, [{ toString: 1 }]);
add("parseApcManifest", base, { toString: null });
add("parseApcManifest", m({ origin: "http://app.example" }), { toString: {} });
// A drive-letter-like segment before ".." must not hide a walk out of mcp.path.
add("declaresMcpUrl", man, "https://app.example/mcp/j:/../../admin");
add("declaresMcpUrl", man, "https://app.example/mcp/x/J|/../../../admin/x");
// mcp.path's `.length` is an array's length (or undefined) when the path is no string.
add("declaresMcpUrl", { origin: "https://a.example", mcp: { path: [null] } }, "HTTPS://a.example");
add("declaresMcpUrl", { origin: "https://a.example", mcp: { path: [""] } }, "https://a.example/x");
add("declaresMcpUrl", { origin: O, mcp: { path: 5 } }, "https://app.example/5/x");
add("declaresMcpUrl", man, ["https://app.example/mcp/"]);
add("declaresMcpUrl", man, ["https://app.example/mcp/a"]);

// An `mcp.path` whose string conversion throws (an object with its own `toString` key): the
// reference throws from `startsWith` (found by the differential run, seed 20261130).
add("declaresMcpUrl", { origin: O, mcp: { path: { toString: true } } }, "https://app.example/mcp/a");
add("declaresMcpUrl", { origin: O, mcp: { path: [{ toString: 1 }] } }, "https://app.example/mcp/a");

// A Windows-drive-letter-like segment is an ordinary one outside file URLs: `..` pops it (url
// 2.5.8 did not; the project's patched url does, vendor/README.md).
add("declaresMcpUrl", man, "https://app.example/mcp/x/j:/../g_1");
add("declaresMcpUrl", man, "https://app.example/mcp/j:/../../admin");
add("urlOnOrigin", "https://app.example/a/J|/..", O);
add("urlOnOrigin", "https://app.example/a/c:/../b", O);

// Han keys: V8 orders ideographs by radical and stroke (ICU4X's compiled data alone: by code
// point), variants beside their ideograph, expansions as their decomposition (collate.rs).
add("canonicalTarget", { kind: "q", params: { d1: "a", "𠀀rfpe26lj": "+3", "本m": ".5", "4294967295": "c" } });
add("canonicalTarget", { kind: "b", id: "i", params: { "日rg": "U", "𠀀vvpp": ".I", "\u{F0000}e9": "x", "slø": "y" } });
add("canonicalTarget", { kind: "k", id: "i", params: { "本": 1, "㐀": 2, "日": 3, "一": 4, "𠀀": 5, "z": 6, "\u0378": 7, "\u{18CFF}": 8 } });
add("canonicalTarget", { kind: "k", id: "i", params: { "⼀": 1, "一": 2, "丁": 3, "㊀": 4, "⺀": 5, "丶": 6, "\uF900": 7, "\u8C48": 8 } });
add("canonicalTarget", { kind: "k", id: "i", params: { "㍻": 1, "平成": 2, "平戈": 3, "㈠": 4, "(一)": 5, "a本": 6, "a日": 7 } });
add("canonicalTarget", { kind: "k", id: "i", params: { "日\u0301": 1, "日": 2, "本": 3, "日a": 4, "日A": 5, "\u{2F800}": 6, "丽": 7 } });

// A host holding a character new in Unicode 18 (U+0558, U+1FACC, U+3D000): the url crate's IDNA
// data accepts it; node's, Chromium's and Firefox's URL parsers (Unicode 17) refuse it, as the
// core now does (url_parse.rs). Also in punycode, and as an apc.json origin.
add("urlOnOrigin", "https://a\u0558b.example/x", "https://xn--ab-lbd.example");
add("urlOnOrigin", "https://xn--ab-lbd.example/x", "https://xn--ab-lbd.example");
add("urlOnOrigin", "https://\u{1FACC}.example/", "https://xn--h29h.example");
add("declaresMcpUrl", { origin: "https://xn--ab-lbd.example", mcp: { path: "/mcp/" } }, "https://a\u0558b.example/mcp/x");
add("parseApcManifest", { name: "N", standard: "0.5.0", origin: "https://a\u{3D000}b.example", profiles: ["dock"], mcp: { path: "/mcp/" } }, "https://a\u{3D000}b.example");
add("urlOnOrigin", "https://a\u0561b.example/x", "https://xn--ab-dcd.example");

for (const c of cases) console.log(JSON.stringify(c));
