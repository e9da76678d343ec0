// Why JavaScript: `node --test` with playwright-core drives Chromium (the house test runner).
// The popup shows the APC standard version that Rust core gave the Rust background, which answered
// the popup's `ping` over runtime messaging.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchWithExtension, standardVersionFromCore } from './lib/chromium.mjs';

let browser;
let coreVersion;

before(async () => {
  coreVersion = await standardVersionFromCore();
  browser = await launchWithExtension();
});

after(async () => {
  await browser?.close();
});

async function openPopup() {
  const page = await browser.context.newPage();
  await page.goto(browser.url('popup/popup.html'));
  await page.waitForSelector('body:not([data-state="loading"])');
  return page;
}

test('the popup shows the standard version the background got from core', async () => {
  const page = await openPopup();
  const state = await page.getAttribute('body', 'data-state');
  const detail = await page.textContent('#status-error-detail');
  assert.equal(state, 'ready', `popup is in state ${state}: ${detail}`);
  assert.equal((await page.textContent('#standard-version')).trim(), coreVersion);
  assert.equal(await page.isVisible('#standard'), true);
  await page.close();
});

test('the background answers through Rust: ping, unknown types, non-messages', async () => {
  const page = await openPopup();
  const answers = await page.evaluate(async () => ({
    ping: await chrome.runtime.sendMessage({ type: 'ping' }),
    unknown: await chrome.runtime.sendMessage({ type: 'make_coffee' }),
    notAMessage: await chrome.runtime.sendMessage('ping'),
  }));
  assert.equal(answers.ping.ok, true);
  assert.equal(answers.ping.standard, coreVersion);
  assert.match(answers.ping.version, /^\d+\.\d+\.\d+$/);
  assert.equal(answers.unknown.ok, false);
  assert.equal(answers.unknown.error, 'unknown_type');
  assert.match(answers.unknown.message, /make_coffee/);
  assert.equal(answers.notAMessage.ok, false);
  assert.equal(answers.notAMessage.error, 'not_a_message');
  await page.close();
});

test('the popup says so when the background does not answer', async () => {
  const page = await browser.context.newPage();
  // Break the popup's line to the background before its script runs.
  await page.addInitScript(() => {
    chrome.runtime.sendMessage = () => Promise.reject(new Error('Receiving end does not exist.'));
  });
  await page.goto(browser.url('popup/popup.html'));
  await page.waitForSelector('body:not([data-state="loading"])');
  assert.equal(await page.getAttribute('body', 'data-state'), 'error');
  assert.equal(await page.isVisible('#status-error'), true);
  assert.match(await page.textContent('#status-error-detail'), /Receiving end does not exist/);
  assert.equal((await page.textContent('#standard-version')).trim(), '');
  assert.equal(await page.isVisible('#standard'), false);
  // Keyboard: the retry button has focus and asks again.
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'retry');
  await page.close();
});
