// Why JavaScript: the Chromium tests run under `node --test` with playwright-core (the house
// test runners). Shared helpers: launch Debian's Chromium with the built extension loaded, find its
// id, and read the standard's version from Rust core so tests compare against the source of truth.

import { mkdtemp, rm, readFile, access } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const DIST_EXTENSION = path.join(REPO_ROOT, 'dist/extension');
export const CHROMIUM = process.env.APC_CHROMIUM ?? '/usr/bin/chromium';

/** `APC_STANDARD_VERSION` as `crates/core/src/lib.rs` declares it. */
export async function standardVersionFromCore() {
  const source = await readFile(path.join(REPO_ROOT, 'crates/core/src/lib.rs'), 'utf8');
  const match = source.match(/pub const APC_STANDARD_VERSION: &str = "([^"]+)";/);
  if (!match) throw new Error('APC_STANDARD_VERSION not found in crates/core/src/lib.rs');
  return match[1];
}

/**
 * Launch headless Chromium (a fresh temporary profile) with the unpacked extension at
 * `extensionDir` loaded. Returns `{ context, extensionId, serviceWorker, url(path), close() }`.
 */
export async function launchWithExtension({ extensionDir = DIST_EXTENSION, headless = true, args = [] } = {}) {
  try {
    await access(path.join(extensionDir, 'wasm/apc_background_bg.wasm'));
  } catch {
    throw new Error(`no built extension at ${extensionDir}: run scripts/build-extension.sh first`);
  }
  const userDataDir = await mkdtemp(path.join(tmpdir(), 'apc-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless,
    args: [
      `--disable-extensions-except=${extensionDir}`,
      `--load-extension=${extensionDir}`,
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...args,
    ],
  });
  try {
    const serviceWorker =
      context.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://')) ??
      (await context.waitForEvent('serviceworker', (w) => w.url().startsWith('chrome-extension://')));
    const extensionId = new URL(serviceWorker.url()).host;
    return {
      context,
      extensionId,
      serviceWorker,
      url: (p) => `chrome-extension://${extensionId}/${p.replace(/^\//, '')}`,
      close: async () => {
        await context.close();
        await rm(userDataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await context.close();
    await rm(userDataDir, { recursive: true, force: true });
    throw error;
  }
}
