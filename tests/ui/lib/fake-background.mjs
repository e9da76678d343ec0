// Why JavaScript: `node --test` with playwright-core drives Chromium (the house test runner).
// The extension's pages are tested against canned background answers: before a page's own script
// runs, its `runtime.sendMessage` is replaced by a fake that answers from a table and records every
// request. Shipped code stays untouched: the fake arrives through Playwright's init script, which
// runs in chrome-extension:// pages before any of their scripts.

import { launchWithExtension, DIST_EXTENSION } from '../../browser/lib/chromium.mjs';

/** The built extension to load: `APC_EXTENSION_DIR`, or `dist/extension`. */
export const EXTENSION_DIR = process.env.APC_EXTENSION_DIR ?? DIST_EXTENSION;

export function launch() {
  return launchWithExtension({ extensionDir: EXTENSION_DIR });
}

/**
 * Runs in the page before its scripts. `answers` maps a message `type` to:
 * - an answer object (answered every time),
 * - an array of answers (one per request, the last one repeats),
 * - `{ gate: true }`: held until the test calls `window.__fake.release(type, answer)`.
 * A type with no entry answers `{ ok: false, error: "unknown_type" }` like the real router.
 */
function installFake(answers) {
  const table = answers;
  const requests = [];
  const gates = {};
  const fake = async (message) => {
    requests.push(JSON.parse(JSON.stringify(message)));
    const type = message?.type;
    let entry = table[type];
    if (Array.isArray(entry)) entry = entry.length > 1 ? entry.shift() : entry[0];
    if (entry === undefined) return { ok: false, error: 'unknown_type', message: `unknown message type "${type}"` };
    if (entry?.gate === true) {
      return new Promise((resolve) => (gates[type] ??= []).push(resolve));
    }
    return JSON.parse(JSON.stringify(entry));
  };
  window.__fake = {
    requests,
    closed: false,
    set(type, answer) {
      table[type] = answer;
    },
    /** Answers the oldest held request of `type`; true if there was one. */
    release(type, answer) {
      const resolve = gates[type]?.shift();
      resolve?.(answer);
      return Boolean(resolve);
    },
    waiting(type) {
      return gates[type]?.length ?? 0;
    },
  };
  chrome.runtime.sendMessage = fake;
  if (globalThis.browser?.runtime) globalThis.browser.runtime.sendMessage = fake;
  // A window that closes itself would take the record with it: note the wish instead.
  window.close = () => {
    window.__fake.closed = true;
  };
}

/**
 * A new tab on the extension page `pagePath` (e.g. "popup/popup.html") with the fake background.
 * Options: `colorScheme` ("light" | "dark"), `viewport` ({ width, height }).
 */
export async function openWithFake(browser, pagePath, answers, { colorScheme = 'light', viewport } = {}) {
  const page = await browser.context.newPage();
  if (viewport) await page.setViewportSize(viewport);
  await page.emulateMedia({ colorScheme });
  await page.addInitScript(installFake, answers);
  await page.goto(browser.url(pagePath));
  return page;
}

/** The requests the page sent so far, optionally only of one type. */
export async function requests(page, type) {
  const all = await page.evaluate(() => window.__fake.requests);
  return type ? all.filter((r) => r?.type === type) : all;
}

/** Waits until the page has sent `count` requests of `type`; returns them. */
export async function waitForRequests(page, type, count = 1) {
  await page.waitForFunction(
    ([type, count]) => window.__fake.requests.filter((r) => r?.type === type).length >= count,
    [type, count],
  );
  return requests(page, type);
}
