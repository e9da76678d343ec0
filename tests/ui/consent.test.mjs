// Why JavaScript: `node --test` with playwright-core drives Chromium (the house test runner).
// The consent window against canned background answers: the hub's domain before the agent's name,
// Don't allow focused, and the exact `consent_answer` each way of answering sends.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openWithFake, requests, waitForRequests } from './lib/fake-background.mjs';
import * as canned from './lib/canned.mjs';

let browser;

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

const ID = 'cs_4hTz8QmR2pXa';
const VIEWPORT = { width: 440, height: 560 };

async function openConsent(answers, id = ID) {
  const query = id === null ? '' : `?id=${encodeURIComponent(id)}`;
  const page = await openWithFake(browser, `consent/consent.html${query}`, answers, { viewport: VIEWPORT });
  await page.waitForSelector('body:not([data-state="loading"])');
  return page;
}

const text = async (page, selector) => (await page.textContent(selector)).replace(/\s+/g, ' ').trim();

test('the hub domain comes first and large, then the agent, then the page; Don\'t allow has focus', async () => {
  const page = await openConsent({ consent_get: canned.consent() });
  assert.equal(await page.getAttribute('body', 'data-state'), 'asking');
  assert.deepEqual(await requests(page), [{ type: 'consent_get', id: ID }]);

  assert.equal(await text(page, '#consent-hub'), '127.0.0.1:7410');
  assert.equal(await text(page, '#consent-agent'), 'Claude Code');
  assert.match(await text(page, '#consent-handle'), /claude-code/);
  const layout = await page.evaluate(() => {
    const hub = document.getElementById('consent-hub');
    const agent = document.getElementById('consent-agent');
    const page = document.getElementById('consent-page');
    const size = (el) => parseFloat(getComputedStyle(el).fontSize);
    return {
      hubBeforeAgent: Boolean(hub.compareDocumentPosition(agent) & Node.DOCUMENT_POSITION_FOLLOWING),
      agentBeforePage: Boolean(agent.compareDocumentPosition(page) & Node.DOCUMENT_POSITION_FOLLOWING),
      hubAbove: hub.getBoundingClientRect().bottom <= agent.getBoundingClientRect().top,
      hubLarger: size(hub) > size(agent),
      focused: document.activeElement?.id,
    };
  });
  assert.deepEqual(layout, { hubBeforeAgent: true, agentBeforePage: true, hubAbove: true, hubLarger: true, focused: 'consent-deny' });

  const meaning = await text(page, '.meaning');
  assert.match(meaning, /read the text you point it at/);
  assert.match(meaning, /Nothing else on your pages/);
  assert.match(meaning, /revoke it any time in the toolbar popup/);
  assert.equal(await text(page, '#consent-page'), 'en.wikipedia.org');
  assert.match(await text(page, '#consent-origin'), /You dropped the agent's mark on a page of: en\.wikipedia\.org/);
  await page.close();
});

test("a drop in a frame of the page: the frame's host beside the page's, and a frame with none said so", async () => {
  let page = await openConsent({ consent_get: canned.consent() });
  assert.equal(await page.isHidden('#consent-frame-line'), true, 'a drop on the page itself names no frame');
  await page.close();
  page = await openConsent({ consent_get: canned.consent({ from_frame: true, frame_display: 'comments.example' }) });
  assert.match(await text(page, '#consent-origin'), /en\.wikipedia\.org/);
  assert.equal(await page.isVisible('#consent-frame-line'), true);
  assert.equal(await text(page, '#consent-frame-line'), 'Inside a frame from: comments.example');
  const order = await page.evaluate(() => Boolean(document.getElementById('consent-page')
    .compareDocumentPosition(document.getElementById('consent-frame')) & Node.DOCUMENT_POSITION_FOLLOWING));
  assert.equal(order, true, "the page's host first, then the frame's");
  await page.close();
  page = await openConsent({ consent_get: canned.consent({ from_frame: true, frame_display: null }) });
  assert.equal(await text(page, '#consent-frame-line'), 'Inside a frame of that page with no address of its own.');
  await page.close();
});

test('Allow sends consent_answer with allow: true, shows the outcome, then closes', async () => {
  const page = await openConsent({
    consent_get: canned.consent(),
    consent_answer: { ok: true, paired: true, pinned: true, agent_name: 'Claude Code' },
  });
  await page.click('#consent-allow');
  assert.deepEqual(await waitForRequests(page, 'consent_answer'), [{ type: 'consent_answer', id: ID, allow: true }]);
  await page.waitForSelector('#consent-result:has-text("Paired with Claude Code. The text is pinned for it.")');
  assert.equal(await page.isDisabled('#consent-allow'), true);
  assert.equal(await page.isDisabled('#consent-deny'), true);
  await page.waitForFunction(() => window.__fake.closed === true);
  // A second press of anything sends nothing more.
  await page.keyboard.press('Escape');
  assert.equal((await requests(page, 'consent_answer')).length, 1);
  await page.close();
});

test('Allow is off until the window has been shown and focused for the time the background says', async () => {
  const page = await openConsent({
    consent_get: canned.consent({ allow_after_ms: 1500 }),
    consent_answer: { ok: true, paired: true, pinned: true, agent_name: 'Claude Code' },
  });
  assert.equal(await page.isDisabled('#consent-allow'), true);
  assert.equal(await page.isVisible('#consent-allow-wait'), true);
  // A click that lands now (a page timing a click for the window's opening) sends nothing.
  await page.click('#consent-allow', { force: true });
  assert.deepEqual(await requests(page, 'consent_answer'), []);
  await page.waitForSelector('#consent-allow:not([disabled])');
  assert.equal(await page.isVisible('#consent-allow-wait'), false);
  await page.click('#consent-allow');
  assert.deepEqual(await waitForRequests(page, 'consent_answer'), [{ type: 'consent_answer', id: ID, allow: true }]);
  await page.close();
});

test('a hub never paired before, and one not on this computer, are said plainly', async () => {
  const page = await openConsent({ consent_get: canned.consent({ hub_new: true, hub_loopback: false, hub_display: 'hub.example.net' }) });
  assert.equal(await text(page, '#consent-hub-new'), 'You have never paired with this hub before.');
  assert.match(await text(page, '#consent-hub-place'), /not on this computer/);
  await page.close();
  const known = await openConsent({ consent_get: canned.consent() });
  assert.equal(await known.isVisible('#consent-hub-new'), false);
  assert.equal(await text(known, '#consent-hub-place'), 'This hub runs on this computer.');
  await known.close();
});

test('Escape sends consent_answer with allow: false', async () => {
  const page = await openConsent({
    consent_get: canned.consent(),
    consent_answer: { ok: true, paired: false, pinned: false },
  });
  await page.keyboard.press('Escape');
  assert.deepEqual(await waitForRequests(page, 'consent_answer'), [{ type: 'consent_answer', id: ID, allow: false }]);
  await page.waitForSelector('#consent-result:has-text("Nothing was paired.")');
  await page.waitForFunction(() => window.__fake.closed === true);
  await page.close();
});

test('Enter on the focused default answers Don\'t allow, never Allow', async () => {
  const page = await openConsent({
    consent_get: canned.consent(),
    consent_answer: { ok: true, paired: false, pinned: false },
  });
  await page.keyboard.press('Enter');
  assert.deepEqual(await waitForRequests(page, 'consent_answer'), [{ type: 'consent_answer', id: ID, allow: false }]);
  await page.close();
});

test('a code request without a page says it came from a code', async () => {
  const page = await openConsent({ consent_get: canned.consent({ how: 'code', page_display: null, agent_name: 'Cursor', agent_handle: 'cursor' }) });
  assert.equal(await text(page, '#consent-agent'), 'Cursor');
  assert.equal(await text(page, '#consent-origin'), "You entered a code from the hub's dock page.");
  assert.equal(await text(page, '#consent-page'), '');
  await page.close();
});

test('an unknown or expired request says so and offers Close', async () => {
  const page = await openConsent({
    consent_get: { ok: false, error: 'consent_unknown', message: 'no consent request cs_old (expired or answered)' },
  }, 'cs_old');
  assert.equal(await page.getAttribute('body', 'data-state'), 'gone');
  assert.equal(await page.isVisible('#consent-request'), false);
  assert.equal(await page.isVisible('#consent-allow'), false);
  assert.match(await text(page, '#consent-error'), /This request is no longer open.*Nothing was paired\./);
  assert.match(await text(page, '#consent-error'), /no consent request cs_old \(expired or answered\) \(consent_unknown\)/);
  assert.equal(await page.getAttribute('#consent-error', 'role'), 'alert');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'consent-close');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.__fake.closed === true);
  assert.deepEqual(await requests(page, 'consent_answer'), []);
  await page.close();
});

test('no id at all: nothing is asked, the same clear message', async () => {
  const page = await openConsent({}, null);
  assert.deepEqual(await requests(page), []);
  assert.match(await text(page, '#consent-error'), /This request is no longer open/);
  await page.close();
});

test('a failed answer shows the background\'s message in the alert region', async () => {
  const message = 'The hub at 127.0.0.1:7410 did not answer.';
  const page = await openConsent({
    consent_get: canned.consent(),
    consent_answer: { ok: false, error: 'hub_unreachable', message },
  });
  await page.waitForSelector('#consent-allow:not([disabled])');
  await page.focus('#consent-allow');
  await page.keyboard.press('Enter');
  await waitForRequests(page, 'consent_answer');
  await page.waitForSelector('#consent-error:not(:empty)');
  assert.match(await text(page, '#consent-error'), /The hub at 127\.0\.0\.1:7410 did not answer\. \(hub_unreachable\)/);
  assert.equal(await page.isVisible('#consent-close'), true);
  assert.equal(await page.evaluate(() => window.__fake.closed), false);
  await page.close();
});

test('a typed code: no agent name yet, so the window says which agent it means without inventing one', async () => {
  const page = await openConsent({
    consent_get: canned.consent({ how: 'code', page_display: null, agent_name: '', agent_handle: '' }),
    consent_answer: { ok: true, paired: true, pinned: false, agent_name: 'Cursor' },
  });
  assert.equal(await text(page, '#consent-hub'), '127.0.0.1:7410');
  assert.equal(await text(page, '#consent-agent'), 'The agent this code was made for');
  assert.match(await text(page, '#consent-handle'), /The hub names it once you allow/);
  await page.click('#consent-allow');
  assert.deepEqual(await waitForRequests(page, 'consent_answer'), [{ type: 'consent_answer', id: ID, allow: true }]);
  // The name comes with the answer.
  await page.waitForSelector('#consent-result:has-text("Paired with Cursor.")');
  await page.close();
});
