// Why JavaScript: `node --test` with playwright-core drives Chromium (the house test runner).
// The toolbar popup against canned background answers: what it renders from `popup_state` and
// `popup_refresh`, and exactly which messages each of the person's actions sends.

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

const VIEWPORT = { width: 360, height: 700 };

async function openPopup(answers) {
  const page = await openWithFake(browser, 'popup/popup.html', { ping: canned.pong, ...answers }, { viewport: VIEWPORT });
  await page.waitForSelector('body[data-state="ready"]');
  return page;
}

const item = (id) => `#pairings > li[data-pairing-id="${id}"]`;
const text = async (page, selector) => (await page.textContent(selector)).replace(/\s+/g, ' ').trim();

test('pairings render with the hub domain first and each pin and hub state', async () => {
  const pairings = [
    canned.claude(),
    canned.cursor({ hub: canned.hubState.unreachable('connection refused', canned.iso(5000)) }),
    canned.claude({ id: 'pr_rev', agent_name: 'Aider', agent_handle: 'aider', ...canned.hubGone, hub: canned.hubState.revokedBy('the dock page') }),
    canned.claude({ id: 'pr_gone', hub_display: 'hub.example.net', hub_loopback: false, agent_name: 'Zed', agent_handle: 'zed', ...canned.hubGone, hub: canned.hubState.forgotten() }),
    canned.claude({ id: 'pr_new', agent_name: 'Codex', agent_handle: 'codex', ...canned.noPin, hub: canned.hubState.unknown() }),
  ];
  const page = await openPopup({ popup_state: canned.state({ pairings }), popup_refresh: { gate: true } });
  await page.waitForSelector(item('pr_new'));

  // Domain first: it comes before the agent's name in the item, and the item's text starts with it.
  for (const p of pairings) {
    const order = await page.$eval(item(p.id), (li) => {
      const hub = li.querySelector('.hub-domain');
      const agent = li.querySelector('.agent-name');
      return {
        first: li.textContent.trim().startsWith(hub.textContent),
        before: Boolean(hub.compareDocumentPosition(agent) & Node.DOCUMENT_POSITION_FOLLOWING),
        hub: hub.textContent,
        agent: agent.textContent,
      };
    });
    assert.deepEqual(order, { first: true, before: true, hub: p.hub_display, agent: p.agent_name });
  }

  const claude = item(canned.claude().id);
  const cursor = item(canned.cursor().id);
  assert.match(await text(page, `${claude} .pin-state`), /^Unread pin, pointed 2 minutes ago$/);
  assert.match(await text(page, `${claude} .since`), /^Paired 3 days ago$/);
  assert.match(await text(page, `${claude} .agent-handle`), /claude-code/);
  assert.equal(await page.isVisible(`${claude} .command-default`), true);
  assert.equal(await text(page, `${claude} .command-default`), 'Keyboard shortcut');
  assert.equal(await page.$(`${claude} .hub-elsewhere`), null);
  assert.equal(await text(page, `${item('pr_gone')} .hub-elsewhere`), 'Not on this computer');
  assert.equal(await text(page, `${claude} .hub-state`), 'Hub reachable');

  assert.match(await text(page, `${cursor} .pin-state`), /^Pin read 3 hours ago$/);
  assert.match(await text(page, `${cursor} .since`), /^Paired \S.*\d{4}$/, 'older than a week: a date');
  assert.equal(await page.$(`${cursor} .command-default`), null);
  assert.equal(await text(page, `${cursor} .hub-state`), 'Hub not reachable: connection refused');

  assert.equal(await text(page, `${item('pr_rev')} .pin-state`), 'No pin');
  assert.equal(await text(page, `${item('pr_rev')} .hub-state`), 'Revoked on the hub by the dock page');
  assert.equal(await text(page, `${item('pr_gone')} .hub-state`), 'The hub forgot this pairing');
  assert.equal(await text(page, `${item('pr_new')} .hub-state`), 'Hub not checked yet');

  // Unpin only with a pin; Point disabled where the hub no longer holds the pairing.
  assert.equal(await page.$$eval('#pairings button[data-action="unpin"]', (b) => b.length), 2);
  assert.equal(await page.$(`${item('pr_rev')} button[data-action="unpin"]`), null);
  assert.equal(await page.isEnabled(`${claude} button[data-action="point"]`), true);
  assert.equal(await page.isDisabled(`${item('pr_rev')} button[data-action="point"]`), true);
  assert.equal(await page.isDisabled(`${item('pr_gone')} button[data-action="point"]`), true);
  assert.equal(await page.isEnabled(`${item('pr_gone')} button[data-action="revoke"]`), true);
  assert.equal(await page.isVisible('#empty-state'), false);
  assert.equal(await page.isVisible('#point-note'), false);
  await page.close();
});

test('a hub state is shown in the words the background chose, with when it was checked as its tooltip', async () => {
  const never = canned.claude({ hub: canned.hubState.unknown() });
  const odd = canned.cursor({ hub: { state: 'reachable', text: { key: 'hubForgotten', subs: [] }, checked_at: canned.iso(5 * 60_000) } });
  const page = await openPopup({ popup_state: canned.state({ pairings: [never, odd] }), popup_refresh: { gate: true } });
  await page.waitForSelector(item(odd.id));
  // The words follow the view's message, not the mark: popup.js chooses no text of its own.
  assert.equal(await text(page, `${item(odd.id)} .hub-state`), 'The hub forgot this pairing');
  assert.equal(await page.getAttribute(`${item(odd.id)} .hub-state`, 'title'), 'Checked 5 minutes ago');
  assert.equal(await page.getAttribute(`${item(never.id)} .hub-state`, 'title'), null);
  await page.close();
});

test('the cached state renders at once, then the refresh replaces it', async () => {
  const unknown = canned.state({ pairings: [canned.claude({ hub: canned.hubState.unknown() })] });
  const page = await openPopup({ popup_state: unknown, popup_refresh: { gate: true } });
  const claude = item(canned.claude().id);
  await page.waitForSelector(claude);
  assert.equal(await text(page, `${claude} .hub-state`), 'Hub not checked yet');
  await page.waitForFunction(() => window.__fake.waiting('popup_refresh') === 1);
  assert.equal(await text(page, '#refresh-status'), 'Checking hubs…');

  await page.evaluate((answer) => window.__fake.release('popup_refresh', answer), canned.state({ pairings: [canned.claude()] }));
  await page.waitForSelector(`${claude}[data-hub-state="reachable"]`);
  assert.equal(await text(page, `${claude} .hub-state`), 'Hub reachable');
  assert.equal(await text(page, '#refresh-status'), '');
  assert.deepEqual(
    (await requests(page)).map((r) => r.type),
    ['ping', 'popup_state', 'popup_refresh'],
  );
  await page.close();
});

test('Point is disabled with a reason when the tab cannot be pointed at', async () => {
  const pairings = [canned.claude(canned.noPage), canned.cursor(canned.noPage)];
  const page = await openPopup({ popup_state: canned.state({ pairings, can_point: false }), popup_refresh: { gate: true } });
  await page.waitForSelector('#pairings > li');
  assert.equal(await page.isVisible('#point-note'), true);
  assert.match(await text(page, '#point-note'), /select text on a web page/i);
  for (const button of await page.$$('#pairings button[data-action="point"]')) {
    assert.equal(await button.isDisabled(), true);
    assert.match(await button.getAttribute('aria-describedby'), /point-note/);
  }
  await page.close();
});

test('Point sends point_selection; an error answer shows its message in the alert region', async () => {
  const message = 'The page did not answer. Reload it and try again.';
  const page = await openPopup({
    popup_state: canned.state(),
    popup_refresh: { gate: true },
    point_selection: [{ ok: false, error: 'page_unreachable', message }, { ok: true }],
  });
  const cursor = item(canned.cursor().id);
  await page.click(`${cursor} button[data-action="point"]`);
  const sent = await waitForRequests(page, 'point_selection');
  assert.deepEqual(sent, [{ type: 'point_selection', pairing: canned.cursor().id }]);
  await page.waitForSelector('#alert:not(:empty)');
  assert.equal(await page.getAttribute('#alert', 'role'), 'alert');
  assert.match(await text(page, '#alert'), new RegExp(`^${message.replace(/\./g, '\\.')}`));
  assert.match(await text(page, '#alert'), /page_unreachable/);
  assert.equal(await page.isVisible('#alert'), true);

  // The next try succeeds: the alert goes, the status says so, the state is asked again.
  await page.click(`${cursor} button[data-action="point"]`);
  await waitForRequests(page, 'point_selection', 2);
  await page.waitForSelector('#status-line:has-text("Pinned for Cursor.")');
  assert.equal(await text(page, '#alert'), '');
  assert.equal((await requests(page, 'popup_state')).length, 3);
  await page.close();
});

test('Unpin sends unpin for that pairing and re-renders', async () => {
  const page = await openPopup({
    popup_state: [canned.state(), canned.state({ pairings: [canned.claude({ pin: null }), canned.cursor()] })],
    popup_refresh: { gate: true },
    unpin: { ok: true },
  });
  const claude = item(canned.claude().id);
  await page.focus(`${claude} button[data-action="unpin"]`);
  await page.keyboard.press('Enter');
  assert.deepEqual(await waitForRequests(page, 'unpin'), [{ type: 'unpin', pairing: canned.claude().id }]);
  await page.waitForSelector(`${claude}[data-pin-state="none"]`);
  assert.equal(await text(page, `${claude} .pin-state`), 'No pin');
  // The Unpin button is gone: focus stays in the same pairing, not lost to the page.
  assert.equal(
    await page.evaluate(() => document.activeElement?.closest('li')?.dataset.pairingId),
    canned.claude().id,
  );
  await page.close();
});

test('Revoke needs a second click within the window: one click then waiting sends nothing', async () => {
  const page = await openPopup({
    popup_state: canned.state({ revoke_confirm_ms: 300 }),
    popup_refresh: { gate: true },
    revoke: { ok: true, give_back: 'done' },
  });
  const revoke = `${item(canned.claude().id)} button[data-action="revoke"]`;
  await page.click(revoke);
  assert.equal(await text(page, revoke), 'Confirm revoke?');
  assert.equal(await page.getAttribute(revoke, 'data-confirming'), 'true');
  assert.equal(await text(page, '#status-line'), 'Click “Confirm revoke?” within a few seconds to revoke Claude Code.');
  // The window passes: the button is back to plain Revoke, and nothing was sent.
  await page.waitForSelector(`${revoke}:not([data-confirming])`);
  assert.equal(await text(page, revoke), 'Revoke');
  assert.deepEqual(await requests(page, 'revoke'), []);
  // A click after the window starts over: it asks again, it does not revoke.
  await page.click(revoke);
  assert.equal(await page.getAttribute(revoke, 'data-confirming'), 'true');
  assert.deepEqual(await requests(page, 'revoke'), []);
  await page.close();
});

test('Revoke twice within the window sends revoke once; a pending give back is listed', async () => {
  const afterRevoke = canned.state({
    pairings: [canned.cursor()],
    give_backs: [
      { state: 'waiting', pairing_id: canned.claude().id, hub_display: '127.0.0.1:7410', agent_name: 'Claude Code', revoked_at: canned.iso(0), attempts: 1, last_error: 'connection refused', next_try_at: canned.iso(-2 * 60_000) },
    ],
  });
  const page = await openPopup({
    popup_state: [canned.state(), afterRevoke],
    popup_refresh: { gate: true },
    revoke: { ok: true, give_back: 'pending' },
  });
  assert.equal(await page.isVisible('#give-backs'), false);
  const revoke = `${item(canned.claude().id)} button[data-action="revoke"]`;
  // Keyboard: focus Revoke, Enter, Enter.
  await page.focus(revoke);
  await page.keyboard.press('Enter');
  assert.equal(await page.getAttribute(revoke, 'data-confirming'), 'true');
  assert.deepEqual(await requests(page, 'revoke'), []);
  await page.keyboard.press('Enter');
  assert.deepEqual(await waitForRequests(page, 'revoke'), [{ type: 'revoke', pairing: canned.claude().id }]);

  await page.waitForSelector('#give-backs:not([hidden])');
  assert.equal(await page.$(item(canned.claude().id)), null);
  assert.match(await text(page, '#give-backs'), /Telling 127\.0\.0\.1:7410 that Claude Code is revoked… next try in 2 minutes/);
  assert.match(await text(page, '#give-backs'), /Attempts: 1 · Last error: connection refused/);
  assert.match(await text(page, '#status-line'), /hub has not heard yet/);
  // Focus moved to the pairing that is left.
  assert.equal(
    await page.evaluate(() => document.activeElement?.closest('li')?.dataset.pairingId),
    canned.cursor().id,
  );
  assert.equal((await requests(page, 'revoke')).length, 1);
  await page.close();
});

test('Pair with a code: both fields required, then pair_code with hub and code', async () => {
  const page = await openPopup({
    popup_state: canned.state({ pairings: [] }),
    popup_refresh: { gate: true },
    pair_code: [
      { ok: false, error: 'ticket_expired', message: 'This code has expired. Ask the dock page for a new one.', field: 'code' },
      { ok: true, consent: 'cs_4hTz8QmR2pXa' },
    ],
  });
  assert.equal(await page.inputValue('#pair-code-form input[name=hub]'), canned.HUB);

  // Empty code: said in the form's alert, nothing sent.
  await page.click('#pair-code-form button[type=submit]');
  assert.equal(await text(page, '#pair-code-error'), 'Enter the code the dock page shows.');
  assert.equal(await page.getAttribute('#pair-code-error', 'role'), 'alert');
  assert.equal(await page.evaluate(() => document.activeElement?.name), 'code');
  assert.deepEqual(await requests(page, 'pair_code'), []);

  // Empty hub: same.
  await page.fill('#pair-code-form input[name=hub]', '  ');
  await page.fill('#pair-code-form input[name=code]', 'K7M-4QX');
  await page.click('#pair-code-form button[type=submit]');
  assert.equal(await text(page, '#pair-code-error'), "Enter the hub's address.");
  assert.deepEqual(await requests(page, 'pair_code'), []);

  // Both: sent as typed (trimmed); the background's refusal is shown.
  await page.fill('#pair-code-form input[name=hub]', 'http://127.0.0.1:7410 ');
  await page.press('#pair-code-form input[name=code]', 'Enter');
  assert.deepEqual(await waitForRequests(page, 'pair_code'), [
    { type: 'pair_code', hub: 'http://127.0.0.1:7410', code: 'K7M-4QX' },
  ]);
  await page.waitForSelector('#pair-code-error:has-text("expired")');
  assert.match(await text(page, '#pair-code-error'), /This code has expired\. Ask the dock page for a new one\. \(ticket_expired\)/);

  await page.press('#pair-code-form input[name=code]', 'Enter');
  await waitForRequests(page, 'pair_code', 2);
  await page.waitForSelector('#pair-code-status:has-text("Answer in the window that opened.")');
  assert.equal(await text(page, '#pair-code-error'), '');
  await page.close();
});

test('a pair_code error goes to the field the background names', async () => {
  const page = await openPopup({
    popup_state: canned.state({ pairings: [] }),
    popup_refresh: { gate: true },
    pair_code: { ok: false, error: 'hub_unreachable', message: 'the hub could not be reached: connection refused', field: 'hub' },
  });
  await page.fill('#pair-code-form input[name=code]', 'ABCDE-FGHJK-MNPQR-STVWX');
  await page.click('#pair-code-form button[type=submit]');
  await page.waitForSelector('#pair-code-error:has-text("could not be reached")');
  assert.equal(await page.getAttribute('#pair-code-form input[name=hub]', 'aria-invalid'), 'true');
  assert.equal(await page.getAttribute('#pair-code-form input[name=code]', 'aria-invalid'), null);
  await page.close();
});

test('a give back the extension stopped says so and can be dismissed', async () => {
  const stopped = { state: 'stopped', pairing_id: 'pr_old', hub_display: '127.0.0.1:7410', agent_name: 'Aider', revoked_at: canned.iso(5 * 3_600_000), attempts: 10, last_error: 'connection refused', stopped_at: canned.iso(60_000) };
  const page = await openPopup({
    popup_state: [canned.state({ give_backs: [stopped] }), canned.state()],
    popup_refresh: { gate: true },
    dismiss_give_back: { ok: true },
  });
  await page.waitForSelector('#give-backs:not([hidden])');
  assert.match(await text(page, '#give-backs'), /127\.0\.0\.1:7410 never heard that Aider is revoked\. The extension stopped trying/);
  await page.click('#give-backs button[data-action="dismiss-give-back"]');
  assert.deepEqual(await waitForRequests(page, 'dismiss_give_back'), [{ type: 'dismiss_give_back', pairing: 'pr_old' }]);
  await page.waitForSelector('#give-backs[hidden]', { state: 'attached' });
  await page.close();
});

test('with no pairings, the empty state says how to start', async () => {
  const page = await openPopup({ popup_state: canned.state({ pairings: [] }), popup_refresh: { gate: true } });
  await page.waitForSelector('#empty-state:not([hidden])');
  assert.equal(await page.isVisible('#pairings-section'), false);
  assert.equal(await page.$$eval('#pairings > li', (l) => l.length), 0);
  const empty = await text(page, '#empty-state');
  assert.match(empty, /No agents paired yet/);
  assert.match(empty, /Start apc-hub and open its dock page: http:\/\/127\.0\.0\.1:7410/);
  assert.match(empty, /Drag an agent's mark onto any text on a page, or pair with the code the dock shows\./);
  assert.equal(await page.getAttribute('#empty-hub-link', 'href'), canned.HUB);
  assert.equal(await page.isVisible('#pair-code-form'), true);
  await page.close();
});

test('a failed popup_state is said in the alert region, and the header still works', async () => {
  const page = await openPopup({ popup_state: { ok: false, error: 'storage_unavailable', message: 'extension storage is not available' } });
  await page.waitForSelector('#alert:not(:empty)');
  assert.match(await text(page, '#alert'), /Could not load your agents: extension storage is not available/);
  assert.equal(await text(page, '#standard-version'), '0.7.0');
  assert.equal(await page.isVisible('#empty-state'), false);
  assert.deepEqual((await requests(page)).map((r) => r.type).sort(), ['ping', 'popup_state']);
  await page.close();
});

test('a failed refresh is said, and the cached state is asked again and shown', async () => {
  const page = await openPopup({
    popup_state: [
      canned.state({ pairings: [canned.claude({ hub: canned.hubState.unknown() })] }),
      canned.state({ pairings: [canned.claude({ hub: canned.hubState.unreachable('it answered HTTP 503') })] }),
    ],
    popup_refresh: { ok: false, error: 'storage_unavailable', message: 'could not save what the hubs said' },
  });
  const claude = item(canned.claude().id);
  await page.waitForSelector(`${claude}[data-hub-state="unreachable"]`);
  assert.equal(await text(page, `${claude} .hub-state`), 'Hub not reachable: it answered HTTP 503');
  assert.match(await text(page, '#alert'), /could not save what the hubs said \(storage_unavailable\)/);
  assert.deepEqual((await requests(page)).map((r) => r.type).filter((t) => t !== 'ping'), ['popup_state', 'popup_refresh', 'popup_state']);
  await page.close();
});
