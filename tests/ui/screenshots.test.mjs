// Why JavaScript: `node --test` with playwright-core drives Chromium (the house test runner).
// Screenshots of the popup and the consent window, light and dark, from canned answers that look
// like a real setup. They land in docs/screenshots/ with APC_SCREENSHOTS=1 (to refresh the docs);
// otherwise in a temporary directory, so an ordinary test run leaves the tree clean but still
// renders every page in both schemes.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../browser/lib/chromium.mjs';
import { launch, openWithFake } from './lib/fake-background.mjs';
import * as canned from './lib/canned.mjs';

const TO_DOCS = process.env.APC_SCREENSHOTS === '1';
let browser;
let outDir;

before(async () => {
  browser = await launch();
  outDir = TO_DOCS ? path.join(REPO_ROOT, 'docs/screenshots') : await mkdtemp(path.join(tmpdir(), 'apc-ui-shots-'));
  await mkdir(outDir, { recursive: true });
});

after(async () => {
  await browser?.close();
  if (!TO_DOCS && outDir) await rm(outDir, { recursive: true, force: true });
});

async function shoot(page, name, target = 'body') {
  const file = path.join(outDir, `${name}.png`);
  await page.locator(target).screenshot({ path: file, animations: 'disabled' });
  assert.ok((await stat(file)).size > 1000, `${name}.png is empty`);
}

async function popup(state, colorScheme) {
  const page = await openWithFake(
    browser,
    'popup/popup.html',
    { ping: canned.pong, popup_state: state, popup_refresh: state },
    { colorScheme, viewport: { width: 360, height: 600 } },
  );
  await page.waitForSelector('body[data-state="ready"]');
  await page.waitForFunction(() => window.__fake.requests.some((r) => r.type === 'popup_refresh'));
  await page.waitForSelector('#refresh-status:empty', { state: 'attached' });
  return page;
}

for (const scheme of ['light', 'dark']) {
  const suffix = scheme === 'dark' ? '-dark' : '';

  test(`popup with pairings (${scheme})`, async () => {
    const page = await popup(canned.state(), scheme);
    assert.equal(await page.$$eval('#pairings > li', (l) => l.length), 2);
    await shoot(page, `popup-pairings${suffix}`);
    await page.close();
  });

  test(`popup, empty state (${scheme})`, async () => {
    const page = await popup(canned.state({ pairings: [] }), scheme);
    assert.equal(await page.isVisible('#empty-state'), true);
    await shoot(page, `popup-empty${suffix}`);
    await page.close();
  });

  test(`consent window (${scheme})`, async () => {
    const page = await openWithFake(
      browser,
      'consent/consent.html?id=cs_4hTz8QmR2pXa',
      { consent_get: canned.consent() },
      { colorScheme: scheme, viewport: { width: 440, height: 540 } },
    );
    await page.waitForSelector('body[data-state="asking"]');
    await page.screenshot({ path: path.join(outDir, `consent${suffix}.png`), animations: 'disabled' });
    await page.close();
  });
}
