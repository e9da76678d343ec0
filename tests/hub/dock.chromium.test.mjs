// Why JavaScript: the dock page is a web page; this drives it in Debian's Chromium with playwright-core
// under `node --test` (the house runner), against a real apc-hub binary. It checks what a person sees
// and does: the marks visible under the dock's strict CSP in light and dark, a ticket minted only when
// the person reaches for a mark (hover, keyboard focus, press) or asks for a code, the pairings list
// following pairings, pins and revokes live, and an agent's connect instructions shown when the person
// opens them. Screenshots go to tests/artifacts/screenshots/ (ignored), or with APC_SCREENSHOTS=1 to
// the committed tests/hub/screenshots/ (to refresh them).
//   node --test tests/hub/dock.chromium.test.mjs   (APC_HUB_BIN, else $CARGO_TARGET_DIR/debug/apc-hub)

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const HUB_BIN = process.env.APC_HUB_BIN ?? path.join(process.env.CARGO_TARGET_DIR ?? path.join(ROOT, 'target'), 'debug/apc-hub');
const CHROMIUM = process.env.APC_CHROMIUM ?? '/usr/bin/chromium';
const SHOTS = path.join(ROOT, process.env.APC_SCREENSHOTS === '1' ? 'tests/hub/screenshots' : 'tests/artifacts/screenshots');
const EXT = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';

let hub;
let browser;
let dataDir;

async function startHub() {
  dataDir = mkdtempSync(path.join(tmpdir(), 'apc-hub-dock-'));
  const child = spawn(HUB_BIN, ['--listen', '127.0.0.1:0', '--data-dir', dataDir, '--log', 'warn'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const origin = await new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`apc-hub did not start: ${out}`)), 15000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = /^apc-hub listening on (http:\/\/\S+)$/m.exec(out);
      if (m) { clearTimeout(timer); ok(m[1]); }
    });
  });
  return { origin, child };
}

/** Plays the extension: pairs with `ticket`, returns the pairing. */
async function pair(ticket, agent) {
  const res = await fetch(`${hub.origin}/page/pair`, {
    method: 'POST',
    headers: { origin: EXT, 'content-type': 'application/json' },
    body: JSON.stringify({ ticket, agent }),
  });
  assert.equal(res.status, 201);
  return (await res.json()).pairing;
}

async function pinBySelection(grant) {
  const reading = { url: 'https://example.com/a', title: 'A', pointed: { text: 'words', how: 'selection', targets: [] }, made_at: new Date().toISOString() };
  const res = await fetch(`${hub.origin}/page/pin`, {
    method: 'PUT',
    headers: { origin: EXT, authorization: `Bearer ${grant}`, 'content-type': 'application/json' },
    body: JSON.stringify({ reading }),
  });
  assert.equal(res.status, 200);
}

async function openDock(colorScheme) {
  const context = await browser.newContext({ colorScheme, viewport: { width: 900, height: 700 } });
  const page = await context.newPage();
  const violations = [];
  page.on('console', (m) => { if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text()); });
  await page.goto(`${hub.origin}/`);
  return { context, page, violations };
}

before(async () => {
  hub = await startHub();
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  mkdirSync(SHOTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  hub?.child.kill('SIGTERM');
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

for (const scheme of ['light', 'dark']) {
  test(`the mark is visible and styled under the dock's CSP (${scheme})`, async () => {
    const { context, page, violations } = await openDock(scheme);
    const mark = page.locator('.agent-mark').first();
    const look = await mark.evaluate((el) => {
      const s = getComputedStyle(el);
      const initial = getComputedStyle(el.querySelector('.mark'));
      return { border: s.borderTopColor, borderWidth: s.borderTopWidth, background: s.backgroundColor, color: s.color, circle: initial.backgroundColor, initial: initial.color, hue: s.getPropertyValue('--hue').trim(), cls: el.className };
    });
    assert.match(look.cls, /\bhue-\d+\b/);
    assert.notEqual(look.hue, '', 'the hue comes from the stylesheet');
    assert.notEqual(look.borderWidth, '0px');
    for (const c of [look.border, look.background, look.circle]) {
      assert.ok(!/rgba\(0, 0, 0, 0\)|transparent/.test(c), `a visible colour, not ${c}`);
    }
    assert.notEqual(look.circle, look.initial, 'the initial stands out from its circle');
    assert.notEqual(look.background, look.color, 'the label stands out from the mark');
    assert.equal(await mark.getAttribute('draggable'), 'true');
    assert.match(await mark.innerText(), /Drag .+ onto a page/);
    assert.deepEqual(violations, []);
    await page.screenshot({ path: path.join(SHOTS, `dock-chromium-${scheme}.png`), fullPage: true });
    await context.close();
  });
}

test('a ticket is minted only when the person reaches for a mark or asks for a code', async () => {
  const { context, page } = await openDock('light');
  const mark = page.locator('.agent-mark').first();
  assert.equal(await mark.getAttribute('data-ticket'), null, 'viewing the dock mints nothing');
  assert.equal((await page.locator('.ticket-code').first().innerText()).trim(), '(none yet)');
  // Keyboard: Tab to the mark.
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('agent-mark')), true);
  await page.waitForFunction(() => document.querySelector('.agent-mark').dataset.ticket?.length === 20);
  const first = await mark.getAttribute('data-ticket');
  // Hovering again reuses the fresh ticket.
  await mark.hover();
  await page.waitForTimeout(200);
  assert.equal(await mark.getAttribute('data-ticket'), first);
  // "New code" shows a code the person can type.
  await page.locator('.new-code').first().click();
  await page.waitForFunction(() => /^[0-9A-Z]{5}(-[0-9A-Z]{5}){3}$/.test(document.querySelector('.ticket-code').textContent.trim()));
  await context.close();
});

test('the pairings list follows pairings, pins and revokes live', async () => {
  const { context, page } = await openDock('light');
  const mark = page.locator('.agent-mark').first();
  await mark.hover();
  await page.waitForFunction(() => document.querySelector('.agent-mark').dataset.ticket?.length === 20);
  const ticket = await mark.getAttribute('data-ticket');
  const agent = await mark.getAttribute('data-agent');
  const pairing = await pair(ticket, agent);
  const row = page.locator(`tr.pairing[data-pairing="${pairing.id}"]`);
  await row.waitFor({ timeout: 10000 });
  assert.equal(await row.getAttribute('data-status'), 'active');
  assert.equal(await row.getAttribute('data-pin'), 'none');
  await pinBySelection(pairing.grant);
  await page.waitForSelector(`tr.pairing[data-pairing="${pairing.id}"][data-pin="unread"]`, { timeout: 10000 });
  // Revoke from the page itself (a plain form): the list shows it revoked.
  await row.locator('button.revoke').click();
  await page.waitForURL(`${hub.origin}/`);
  await page.waitForSelector(`tr.pairing[data-pairing="${pairing.id}"][data-status="revoked"]`, { timeout: 10000 });
  await context.close();
});

test("an agent's connect instructions show when the person opens them, each client with the agent's URL", async () => {
  const { context, page, violations } = await openDock('light');
  const entry = page.locator('li.agent').first();
  const url = (await entry.locator('code.mcp-url').textContent()).trim();
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/mcp\/\S+$/);
  let fetched = 0;
  page.on('request', (r) => { if (new URL(r.url()).pathname === '/dock/connect') fetched += 1; });
  const list = entry.locator('details.connect dl.clients');
  assert.equal(await list.isVisible(), false, 'closed until the person opens it');
  // By keyboard: Tab to the summary, Enter opens it.
  await entry.locator('details.connect summary').focus();
  await page.keyboard.press('Enter');
  const clients = list.locator('dd.client');
  await clients.first().waitFor({ timeout: 10000 });
  assert.equal(await clients.count(), 7);
  for (const id of ['claude-code', 'cursor', 'vscode', 'windsurf', 'codex', 'gemini']) {
    assert.ok((await list.locator(`dd.client[data-client="${id}"]`).innerText()).includes(url), id);
  }
  assert.match(await list.locator('dd.client[data-client="claude-desktop"]').innerText(), /"mcp"/);
  assert.equal(await list.locator('dt').first().innerText(), 'Claude Code');
  assert.ok(await list.locator('dd.client[data-client="claude-code"] code').first().isVisible());
  // Closed and opened again: the same list, fetched once.
  await entry.locator('details.connect summary').click();
  await entry.locator('details.connect summary').click();
  await entry.locator('details.connect[open]').waitFor();
  assert.equal(await clients.count(), 7);
  assert.equal(fetched, 1);
  assert.equal((await page.locator('#status').innerText()).trim(), '');
  assert.deepEqual(violations, []);
  await context.close();
});
