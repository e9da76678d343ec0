// The content script's source as the browser runs it: the files of manifest.json's
// `content_scripts`, in their order, joined into one script for one isolated world. Tests and
// benchmarks evaluate this (never one file by name), so they load what the extension loads.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The manifest's content script files, as paths under extension/. */
export function contentScriptFiles(root = ROOT) {
  const manifest = JSON.parse(readFileSync(path.join(root, "extension/manifest.json"), "utf8"));
  const files = manifest.content_scripts.flatMap((entry) => entry.js);
  if (!files.length) throw new Error("manifest.json lists no content script");
  return files;
}

/** Their sources joined in order (each ends with a newline and a `;`, so none runs into the next). */
export function contentScriptSource(root = ROOT) {
  return contentScriptFiles(root)
    .map((file) => `${readFileSync(path.join(root, "extension", file), "utf8")}\n;`)
    .join("\n");
}
