// Why JS: the conformance CLI is a Node program; this preload only lets it start on Debian's Node 20.
// `@modelcontextprotocol/conformance` 0.1.16 imports `globSync` from `fs` (Node >= 22) and only uses it
// to gather `**/checks.json` files for its tier report, never in `server` scenarios. On an older Node
// this registers a resolve hook that hands the importers of `fs` a module that re-exports `node:fs`
// plus a small stand-in `globSync`. On Node >= 22 it does nothing.
import fs from "node:fs";
import { register } from "node:module";

if (typeof fs.globSync !== "function") {
  const shim = `
import fs from "node:fs";
import path from "node:path";
export * from "node:fs";
export default fs;
export function globSync(pattern, options = {}) {
  const cwd = options.cwd || process.cwd();
  const base = String(pattern).split("/").pop();
  const out = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(path.join(cwd, dir), { withFileTypes: true })) {
      const rel = dir ? dir + "/" + e.name : e.name;
      if (e.isDirectory()) walk(rel); else if (e.name === base) out.push(rel);
    }
  };
  walk("");
  return out;
}`;
  const shimUrl = "data:text/javascript," + encodeURIComponent(shim);
  const hooks = `
export async function resolve(specifier, context, next) {
  if ((specifier === "fs" || specifier === "node:fs") && context.parentURL && context.parentURL.includes("/@modelcontextprotocol/conformance/")) {
    return { url: ${JSON.stringify(shimUrl)}, shortCircuit: true };
  }
  return next(specifier, context);
}`;
  register("data:text/javascript," + encodeURIComponent(hooks));
}
