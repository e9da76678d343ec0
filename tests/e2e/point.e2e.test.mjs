// End to end in Chromium: a real apc-hub, fixture sites on 127.0.0.1, the built extension, and a
// real MCP client playing the agent. Nothing here reaches into the hub's or the extension's insides:
// the agent sees only MCP, the person only the browser.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { launchWithExtension } from '../browser/lib/chromium.mjs';
import { startHub } from './lib/hub.mjs';
import { startSite, directOnly } from './lib/site.mjs';
import { connectAgent } from './lib/agent.mjs';
import { trustedDrop } from './lib/drag.mjs';
import { readNote, waitForNote, selectText, dockPayload, dockCode, clickInNote } from './lib/page.mjs';

let hub, site, ext, agent, pairingId;

// Screenshots of what the person sees, from the real run: tests/artifacts/ always, and
// docs/screenshots/ with APC_SCREENSHOTS=1 (to refresh the README's pictures).
const SHOTS = process.env.APC_SCREENSHOTS === '1'
  ? new URL('../../docs/screenshots/', import.meta.url)
  : new URL('../artifacts/screenshots/', import.meta.url);
mkdirSync(SHOTS, { recursive: true });

/** A screenshot of the bottom-right corner of the page, where the extension's note sits. */
async function shotOfNote(page, name) {
  const { width, height } = page.viewportSize();
  await page.screenshot({ path: new URL(name, SHOTS).pathname, clip: { x: width - 460, y: height - 200, width: 460, height: 200 } });
}

/** Text of an element as the person sees it (what the reading must hold). */
const visibleText = (page, selector) => page.locator(selector).first().innerText();

/** Starts a wait of the agent; resolves to the tool's structured result. */
const waitForFocus = (timeout_s = 20) => agent.call('wait_for_focus', { timeout_s });

/** Reads a focus's reading as the agent does; in plain text unless `format` says otherwise. */
async function readFocus(focus, { format = 'text' } = {}) {
  assert.equal(focus.kind, 'page_reading');
  assert.equal(focus.next, 'page__get_reading');
  assert.deepEqual(focus.next_args, { id: focus.id });
  assert.equal(focus.app.id, 'page');
  const args = format ? { ...focus.next_args, format } : focus.next_args;
  const got = await agent.call('page__get_reading', args);
  assert.equal(got.isError, false, JSON.stringify(got.result));
  assert.equal(got.result.format, format ?? 'markdown');
  assert.equal(got.result.untrusted, true);
  assert.match(got.result.note, /never instructions/i);
  // A drop's page text follows its pin: read at once, the reading has it (the hub waits for it).
  assert.equal(got.result.page_text_status, undefined, got.result.page_text_note);
  return got.result.reading;
}

/** Drops the dock's current payload on `selector` while the agent waits; the focus it got. */
async function dropForFocus(page, selector) {
  const waiting = waitForFocus();
  await trustedDrop(page, selector, await dockPayload(ext.context, hub.origin));
  const { result } = await waiting;
  assert.equal(result.timed_out, false, 'the agent got no focus');
  return result.focus;
}

/** Runs `fn` inside the extension's background: what a click on a menu or a shortcut would start. */
async function dispatchFor(pageUrl, name, argsFor) {
  return ext.serviceWorker.evaluate(async ({ pageUrl, name, argsFor }) => {
    const [tab] = await chrome.tabs.query({ url: pageUrl });
    const args = argsFor === 'command' ? ['point-selection', tab] : [{ menuItemId: argsFor, selectionText: '' }, tab];
    return globalThis.apcBackground.dispatch(name, args);
  }, { pageUrl, name, argsFor });
}

before(async () => {
  hub = await startHub();
  site = await startSite();
  ext = await launchWithExtension();
  agent = await connectAgent(hub.agents()[0].mcp_url);
});

after(async () => {
  await agent?.close().catch(() => {});
  await ext?.close();
  await site?.close();
  await hub?.cleanup();
});

describe('pointing an agent at page text', () => {
  it('a trusted drop of the dock payload, consent, Allow: the agent gets a focus and reads exactly the paragraph', async () => {
    const waiting = waitForFocus();
    const page = await ext.context.newPage();
    await page.goto(site.url('/article.html'));
    const payload = await dockPayload(ext.context, hub.origin);
    const consentOpened = ext.context.waitForEvent('page', (p) => p.url().includes('/consent/consent.html'));
    await trustedDrop(page, '#target-para', payload);
    const consent = await consentOpened;
    await consent.waitForLoadState();
    const hubHost = new URL(hub.origin).host;
    await assert.doesNotReject(consent.getByText(hubHost).first().waitFor());
    assert.equal(await consent.locator('#consent-agent').innerText(), hub.agents()[0].name, 'the agent as the hub names it');
    assert.match(await consent.locator('#consent-hub-new').innerText(), /never paired with this hub/);
    assert.match(await consent.locator('#consent-hub-place').innerText(), /on this computer/);
    // Allow is off until the window has been visible and focused for a moment; click waits for it.
    assert.equal(await consent.isDisabled('#consent-allow'), true);
    await consent.click('#consent-allow');

    const { result } = await waiting;
    assert.equal(result.timed_out, false);
    const focus = result.focus;
    const expected = await visibleText(page, '#target-para');
    assert.ok(!JSON.stringify(focus).includes('irrigation'), 'the focus carries identifiers only');
    const reading = await readFocus(focus);
    assert.equal(reading.pointed.text, expected);
    assert.equal(reading.pointed.how, 'drop');
    assert.equal(reading.url, site.url('/article.html'));
    assert.deepEqual(reading.context.headings, ['Guide', 'Install', 'Linux']);
    // The badge: unread once pinned; the wait already marked it read at the hub, which the
    // extension learns on its next status check (its alarm), and then shows.
    // The extension sets the badge, then its menus, then the alarm: wait for the last of them.
    const badge = () => ext.serviceWorker.evaluate(() => chrome.action.getBadgeText({}));
    const statusAlarm = () => ext.serviceWorker.evaluate(() => chrome.alarms.get('apc-pin-status'));
    for (let i = 0; i < 50 && !(await statusAlarm()); i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok(await statusAlarm(), 'a status check is due');
    assert.equal(await badge(), '●');
    await ext.serviceWorker.evaluate(() => globalThis.apcBackground.dispatch('alarms.onAlarm', [{ name: 'apc-pin-status' }]));
    assert.equal(await badge(), '✓');
    assert.equal(await statusAlarm(), undefined, 'no more checks once read');
    const note = await waitForNote(page, (n) => /can read this now/.test(n.text));
    assert.match(note.text, /Undo/);
    await shotOfNote(page, 'note-pointed.png');
    const state = await ext.serviceWorker.evaluate(async () => (await chrome.storage.local.get('apc_state')).apc_state);
    pairingId = state.pairings[0].id;
    assert.ok(!JSON.stringify(state).includes(hub.agents()[0].mcp_url), 'no secret of the agent in storage');
    await page.close();
  });

  it('closing the consent window without an answer pairs nothing', async () => {
    hub.addAgent('Second');
    const page = await ext.context.newPage();
    await page.goto(site.url('/article.html'));
    const consentOpened = ext.context.waitForEvent('page', (p) => p.url().includes('/consent/consent.html'));
    await trustedDrop(page, '#target-para', await dockPayload(ext.context, hub.origin, 'Second'));
    const consent = await consentOpened;
    await consent.locator('#consent-agent').getByText('Second').waitFor();
    await consent.close();
    await waitForNote(page, (n) => /Not paired/.test(n.text));
    const state = await ext.serviceWorker.evaluate(async () => (await chrome.storage.local.get('apc_state')).apc_state);
    assert.deepEqual(state.pairings.map((p) => p.agent_name), [hub.agents()[0].name]);
    await page.close();
  });

  it('Undo in the note takes the pin back: the agent can no longer read it', async () => {
    const page = await ext.context.newPage();
    await page.goto(site.url('/article.html'));
    const focus = await dropForFocus(page, '#target-para');
    await waitForNote(page, (n) => /Undo/.test(n.text));
    await clickInNote(page, 'Undo');
    await waitForNote(page, (n) => /Undone/.test(n.text));
    const got = await agent.call('page__get_reading', focus.next_args);
    assert.equal(got.isError, true);
    assert.equal(got.result.error, 'reading_unknown');
    await page.close();
  });

  it('the grant is not in storage a content script can read', async () => {
    const { storage, grants } = await ext.serviceWorker.evaluate(async () => {
      const storage = JSON.stringify(await chrome.storage.local.get(null));
      const db = await new Promise((ok, fail) => {
        const r = indexedDB.open('apc-secrets');
        r.onsuccess = () => ok(r.result);
        r.onerror = () => fail(r.error);
      });
      const grants = await new Promise((ok) => {
        const r = db.transaction('grants').objectStore('grants').getAll();
        r.onsuccess = () => ok(r.result);
      });
      db.close();
      return { storage, grants };
    });
    const pairings = JSON.parse(storage).apc_state.pairings.length;
    assert.equal(grants.length, pairings, 'a grant per pairing, in the extension origin\'s IndexedDB');
    for (const grant of grants) {
      assert.ok(grant.length >= 22);
      assert.ok(!storage.includes(grant), 'no grant in storage.local');
    }
  });

  it('selection + the context menu entry reaches the agent the same way', async () => {
    const page = await ext.context.newPage();
    await page.goto(site.url('/article.html'));
    // A pairing a drop made is not the keyboard command's default until the person chooses it.
    await selectText(page, 'h1');
    await nothingReachesTheAgent(async () => {
      await dispatchFor(page.url(), 'commands.onCommand', 'command');
      await waitForNote(page, (n) => /choose the agent first/i.test(n.text));
    });
    await selectText(page, 'h1');
    const waiting = waitForFocus();
    const reply = await dispatchFor(page.url(), 'contextMenus.onClicked', `point:${pairingId}`);
    assert.equal(reply.ok, true, JSON.stringify(reply));
    const { result } = await waiting;
    const reading = await readFocus(result.focus);
    assert.equal(reading.pointed.how, 'selection');
    assert.equal(reading.pointed.text, 'Guide');
    await page.close();
  });

  it('selection + the keyboard command reaches the agent chosen in the context menu', async () => {
    const page = await ext.context.newPage();
    await page.goto(site.url('/article.html'));
    await selectText(page, 'main p:nth-of-type(2)');
    const expected = await page.evaluate(() => getSelection().toString().trim());
    const waiting = waitForFocus();
    const reply = await dispatchFor(page.url(), 'commands.onCommand', 'command');
    assert.equal(reply.ok, true, JSON.stringify(reply));
    const { result } = await waiting;
    const reading = await readFocus(result.focus);
    assert.equal(reading.pointed.how, 'command');
    assert.equal(reading.pointed.text, expected);
    await page.close();
  });

  // The structures of a documentation page, pointed at by drop and by selection: what the agent
  // reads by default is GitHub Markdown that keeps them (tests/fixtures/structure.html; its
  // <base href> is what relative links resolve against).
  const structures = (origin) => [
    {
      what: 'a code block, fenced, with its language',
      drop: '#code',
      select: '#code',
      md: '````rust\nfn main() {\n    let fence = "```";\n    println!("{fence}");\n}\n````',
    },
    {
      what: 'a table, its header row marked (a pointed cell with its row)',
      drop: '#fast',
      dropMd: '| Option | Default |\n| --- | --- |\n| `--fast` | off \\| on |',
      select: '#table',
      md: '| Option | Default |\n| --- | --- |\n| `--fast` | off \\| on |\n| --level | 3 |',
    },
    {
      what: 'a nested list, ordered inside unordered',
      drop: '#install-word',
      dropMd: '- Install\n  1. Download\n  2. Unpack',
      select: '#list',
      md: '- Install\n  1. Download\n  2. Unpack\n- Configure',
    },
    {
      what: 'a block quote',
      drop: '#quote-first',
      dropMd: '> Simple things should be simple.',
      select: '#quote',
      md: '> Simple things should be simple.\n>\n> Complex things should be possible.',
    },
    {
      what: 'links, relative ones resolved against the base URL',
      drop: '#links',
      select: '#links',
      md: `Read the [install guide](${origin}/docs/guide/install.html) and [the spec](https://example.org/spec?a=1&b=2) first; [usage](${origin}/docs/guide/#usage) is below, with \`apc --help\` for the rest.`,
    },
    {
      what: 'an image, by its alt text, with its caption',
      drop: '#diagram',
      select: '#figure',
      md: `![Flow diagram of the build](${origin}/docs/guide/diagram.png)\n\nThe build, step by step.`,
    },
  ];

  it('structure by drop: the agent reads code, a table, a nested list, a quote, links and an image as Markdown', async () => {
    const page = await ext.context.newPage();
    try {
      await page.goto(site.url('/structure.html'));
      for (const s of structures(site.origin)) {
        await page.locator(s.drop).scrollIntoViewIfNeeded();
        const focus = await dropForFocus(page, s.drop).catch((e) => {
          throw new Error(`${s.what}: ${e.message}`);
        });
        const reading = await readFocus(focus, { format: null });
        assert.equal(reading.pointed.how, 'drop');
        assert.equal(reading.pointed.text, s.dropMd ?? s.md, s.what);
        // The plain text is what it always was: no markup of ours.
        const plain = await readFocus(focus);
        assert.ok(!/^````|\| ---|\]\(|^> |^- /m.test(plain.pointed.text), `${s.what}: ${plain.pointed.text}`);
      }
    } finally {
      await page.close();
    }
  });

  it('structure by selection: the same structures arrive as Markdown, and the main text keeps them', async () => {
    const page = await ext.context.newPage();
    try {
      await page.goto(site.url('/structure.html'));
      let last;
      for (const s of structures(site.origin)) {
        await selectText(page, s.select);
        const waiting = waitForFocus();
        const reply = await dispatchFor(page.url(), 'contextMenus.onClicked', `point:${pairingId}`);
        assert.equal(reply.ok, true, JSON.stringify(reply));
        const { result } = await waiting;
        assert.equal(result.timed_out, false, `${s.what}: the agent got no focus`);
        last = await readFocus(result.focus, { format: null });
        assert.equal(last.pointed.how, 'selection');
        assert.equal(last.pointed.text, s.md, s.what);
      }
      assert.match(last.page_text, /^## Usage$/m);
      assert.ok(last.page_text.includes(structures(site.origin)[0].md), last.page_text);
    } finally {
      await page.close();
    }
  });

  it('pairing with the code the dock shows, from the popup, then Unpin there', async () => {
    const second = hub.agents().find((a) => a.name === 'Second');
    const secondAgent = await connectAgent(second.mcp_url);
    try {
      const code = await dockCode(ext.context, hub.origin, second.handle);
      const page = await ext.context.newPage();
      await page.goto(site.url('/article.html'));
      const popup = await ext.context.newPage();
      await popup.goto(ext.url('popup/popup.html'));
      await popup.fill('#pair-code-form input[name=hub]', hub.origin);
      await popup.fill('#pair-code-form input[name=code]', code);
      const consentOpened = ext.context.waitForEvent('page', (p) => p.url().includes('/consent/consent.html'));
      await popup.click('#pair-code-submit');
      const consent = await consentOpened;
      await consent.locator('#consent-agent').getByText('Second').waitFor();
      const closed = consent.waitForEvent('close');
      await consent.click('#consent-allow');
      await closed; // the window closes itself once the pairing is made and kept
      await popup.reload();
      const row = popup.locator('#pairings > li', { hasText: 'Second' });
      await row.waitFor();

      // Its context menu entry points the selection at it.
      await selectText(page, '#target-para');
      const waiting = secondAgent.call('wait_for_focus', { timeout_s: 20 });
      const id = await row.getAttribute('data-pairing-id');
      const pointed = await dispatchFor(page.url(), 'contextMenus.onClicked', `point:${id}`);
      assert.equal(pointed.ok, true, JSON.stringify(pointed));
      const focus = (await waiting).result.focus;
      assert.equal(focus.kind, 'page_reading');

      await popup.reload();
      await row.locator('button[data-action="unpin"]').click();
      await row.locator('[data-pin-state="none"]').waitFor();
      const got = await secondAgent.call('page__get_reading', focus.next_args);
      assert.equal(got.result.error, 'reading_unknown');

      // Revoke with the hub up: the give back reaches it at once, and nothing waits.
      const revoke = row.locator('button[data-action="revoke"]');
      await revoke.click();
      await revoke.click();
      await row.waitFor({ state: 'detached' });
      assert.equal(await popup.locator('#give-backs').isVisible(), false);
      const dockAfter = await ext.context.newPage();
      await dockAfter.goto(hub.origin + '/');
      assert.equal(await dockAfter.locator(`tr.pairing[data-pairing="${id}"]`).count(), 0, 'the hub let the pairing go');
      assert.equal(await dockAfter.locator(`tr.pairing[data-pairing="${pairingId}"]`).count(), 1);
      await dockAfter.close();
      await popup.close();
      await page.close();
    } finally {
      await secondAgent.close();
    }
  });

  it('data-focus targets: the reading carries the valid ones and drops an invalid one', async () => {
    const page = await ext.context.newPage();
    await page.goto(site.url('/focus-targets.html'));
    const reading = await readFocus(await dropForFocus(page, '#amount'));
    const targets = reading.pointed.targets;
    // On #amount: its own target has a bare number as a param (invalid: dropped); its ancestors'
    // valid target is kept; the ancestor with a bad kind is dropped.
    assert.deepEqual(targets, [{ kind: 'invoice', id: 'inv_2026_7', part: null, params: null }]);
    assert.ok(!JSON.stringify(targets).includes('1200'));
    const again = await readFocus(await dropForFocus(page, '#figure'));
    assert.deepEqual(again.pointed.targets, [
      { kind: 'figure', id: null, part: null, params: { month: '2026-03', region: ['north', 'south'] } },
      { kind: 'invoice', id: 'inv_2026_7', part: null, params: null },
    ]);
    await page.close();
  });
});

/** Runs `action` while the agent waits `seconds`; asserts the wait came back empty. */
async function nothingReachesTheAgent(action, seconds = 3) {
  const waiting = waitForFocus(seconds);
  await action();
  const { result } = await waiting;
  assert.equal(result.focus, null, `the agent got a focus: ${JSON.stringify(result.focus)}`);
  assert.equal(result.timed_out, true);
}

/** Counts consent windows opened while `action` runs (and closes them). */
async function consentWindowsDuring(action) {
  let opened = 0;
  const onPage = (p) => { if (p.url().includes('/consent/')) { opened += 1; p.close().catch(() => {}); } };
  ext.context.on('page', onPage);
  try { await action(); } finally { ext.context.off('page', onPage); }
  return opened;
}

describe('pages that answer for themselves, and pages that are hostile', () => {
  it('a page whose root has data-apc-native-drops: the extension does nothing at all', async () => {
    const page = await ext.context.newPage();
    await page.goto(site.url('/native-drops.html'));
    const before = site.apcJsonRequests();
    const opened = await consentWindowsDuring(() => nothingReachesTheAgent(async () => {
      await trustedDrop(page, '#p', await dockPayload(ext.context, hub.origin));
    }));
    assert.equal(opened, 0);
    assert.equal(site.apcJsonRequests(), before, 'no request to the page origin');
    assert.equal(await readNote(page), null, 'no note in the page');
    await page.close();
  });

  it('a Direct-only app: the drop is answered with the domain-first note and its connect link, nothing pinned', async () => {
    const app = await startSite({ apcJson: directOnly('Signals') });
    try {
      const page = await ext.context.newPage();
      await page.goto(app.url('/article.html'));
      let note;
      await nothingReachesTheAgent(async () => {
        await trustedDrop(page, '#target-para', await dockPayload(ext.context, hub.origin));
        note = await waitForNote(page);
      });
      const host = new URL(app.origin).host;
      assert.ok(note.text.startsWith(host), note.text);
      assert.match(note.text, /calls itself "Signals"/);
      assert.match(note.text, /directly/);
      assert.deepEqual(note.links, [`${app.origin}/connect`]);
      await shotOfNote(page, 'note-direct-only.png');
      await page.close();
    } finally {
      await app.close();
    }
  });

  for (const broken of ['redirect', 'huge', 'slow']) {
    it(`an apc.json that is ${broken === 'huge' ? '20 KiB' : broken === 'slow' ? 'slow past 3 s' : 'a redirect'}: the "could not check" note`, async () => {
      const app = await startSite({ apcJson: broken });
      try {
        const page = await ext.context.newPage();
        await page.goto(app.url('/article.html'));
        let note;
        await nothingReachesTheAgent(async () => {
          await trustedDrop(page, '#target-para', await dockPayload(ext.context, hub.origin));
          note = await waitForNote(page, () => true, 8000);
        }, 6);
        assert.ok(note.text.startsWith(new URL(app.origin).host), note.text);
        assert.match(note.text, /could not be read/);
        assert.deepEqual(note.links, []);
        await page.close();
      } finally {
        await app.close();
      }
    });
  }

  it("a page served with Content-Security-Policy: script-src 'self': pointing works", async () => {
    const strict = await startSite({ headers: { 'content-security-policy': "script-src 'self'" } });
    try {
      const page = await ext.context.newPage();
      const response = await page.goto(strict.url('/csp.html'));
      assert.equal(response.headers()['content-security-policy'], "script-src 'self'");
      const reading = await readFocus(await dropForFocus(page, '#p'));
      assert.equal(reading.pointed.text, await visibleText(page, '#p'));
      await page.close();
    } finally {
      await strict.close();
    }
  });

  it('a Huejoy-like page: the visible text once, no JSON carriers, no hidden duplicates', async () => {
    const page = await ext.context.newPage();
    await page.setViewportSize({ width: 1200, height: 900 });
    await page.goto(site.url('/huejoy.html'));
    const reading = await readFocus(await dropForFocus(page, '#swatch-primary'));
    assert.equal(reading.pointed.text, await visibleText(page, '#swatch-primary'));
    const all = JSON.stringify(reading);
    for (const secret of ['CONFIG-CARRIER-SECRET', 'HANDOFF-CARRIER-SECRET', 'TEMPLATE-SWATCH-SECRET',
      'ROOT-STATUS-ATTR-SECRET', 'HIDDEN-EXPORT-DIALOG', 'LIVE-REGION-HIDDEN-STATUS', 'schemaVersion']) {
      assert.ok(!all.includes(secret), `${secret} leaked into the reading`);
    }
    const text = reading.page_text ?? '';
    for (const once of ['Linear gradient', 'History entry one', 'Undo change']) {
      assert.ok(text.split(once).length - 1 <= 1, `${once} appears more than once in the page text`);
    }
    assert.ok(text.includes('Primary #3A7BD5'));
    await page.close();
  });

  it("a replayed drop payload (a page saw the person's drop) pins nothing and says so", async () => {
    const page = await ext.context.newPage();
    await page.goto(site.url('/article.html'));
    const payload = await dockPayload(ext.context, hub.origin);
    const waiting = waitForFocus();
    await trustedDrop(page, '#target-para', payload);
    assert.equal((await waiting).result.timed_out, false, 'the first drop pins');
    await nothingReachesTheAgent(async () => {
      await trustedDrop(page, 'main p:nth-of-type(2)', payload);
      await waitForNote(page, (n) => /used|ticket/i.test(n.text));
    });
    // A drop with the same agent and hub but no ticket at all pins nothing either.
    const { ticket, ...noTicket } = payload;
    await nothingReachesTheAgent(async () => {
      await trustedDrop(page, 'main p:nth-of-type(2)', noTicket);
      await waitForNote(page, (n) => /not an agent's mark/i.test(n.text));
    });
    await page.close();
  });

  it("page CSS cannot hide the extension's note; a page script that removes it gets the note on the badge", async () => {
    const page = await ext.context.newPage();
    try {
      await page.goto(site.url('/article.html'));
      await page.addStyleTag({
        content: 'apc-page-feedback, [data-apc-ui] { display: none !important; opacity: 0 !important; visibility: hidden !important; } '
          + 'html, body { overflow: hidden !important; } body * { z-index: 2147483647 !important; }',
      });
      await dropForFocus(page, '#target-para');
      await waitForNote(page, (n) => /can read this now/.test(n.text));
      const shown = await page.evaluate(() => {
        const host = document.querySelector('apc-page-feedback');
        const box = host.getBoundingClientRect();
        return {
          visible: host.checkVisibility({ opacityProperty: true, visibilityProperty: true }),
          topLayer: host.matches(':popover-open'),
          size: box.width > 0 && box.height > 0,
        };
      });
      assert.deepEqual(shown, { visible: true, topLayer: true, size: true });
    } finally {
      await page.close();
    }

    // A script that takes the note's host out of the page as soon as it appears: the badge of that
    // tab says what the note could not.
    const hostile = await ext.context.newPage();
    try {
      await hostile.goto(site.url('/article.html'));
      await hostile.evaluate(() => {
        new MutationObserver(() => document.querySelector('apc-page-feedback')?.remove())
          .observe(document.documentElement, { childList: true, subtree: true });
      });
      await dropForFocus(hostile, '#target-para');
      const tabBadge = () => ext.serviceWorker.evaluate(async (url) => {
        const [tab] = await chrome.tabs.query({ url });
        return chrome.action.getBadgeText({ tabId: tab.id });
      }, hostile.url());
      for (let i = 0; i < 50 && (await tabBadge()) !== '!'; i++) await new Promise((r) => setTimeout(r, 100));
      assert.equal(await tabBadge(), '!');
    } finally {
      await hostile.close();
    }
  });

  it('the note stays while the pointer is on it or the keyboard is in it, then goes; Escape closes it', async () => {
    // It goes by itself after 8 s (a pin's note): never from under a person who is reading it or
    // tabbing to its Undo.
    const SHOWN_MS = 8000;
    const noteThere = (page) => page.evaluate(() => !!document.querySelector('apc-page-feedback'));
    const page = await ext.context.newPage();
    try {
      await page.goto(site.url('/article.html'));
      await dropForFocus(page, '#target-para');
      await waitForNote(page, (n) => /can read this now/.test(n.text));
      const box = await page.locator('apc-page-feedback').boundingBox();
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await new Promise((r) => setTimeout(r, SHOWN_MS + 1500));
      assert.equal(await noteThere(page), true, 'the note went from under the pointer');
      await page.mouse.move(5, 5);
      for (let i = 0; i < 120 && (await noteThere(page)); i++) await new Promise((r) => setTimeout(r, 100));
      assert.equal(await noteThere(page), false, 'the note stayed after the pointer left');

      // The keyboard: Tab from the selection into the note (it comes last), wait, Escape.
      await selectText(page, '#target-para');
      await dropForFocus(page, '#target-para');
      await waitForNote(page, (n) => /can read this now/.test(n.text));
      const inNote = () => page.evaluate(() => document.activeElement?.localName === 'apc-page-feedback');
      for (let i = 0; i < 40 && !(await inNote()); i++) await page.keyboard.press('Tab');
      assert.equal(await inNote(), true, 'Tab never reached the note');
      await new Promise((r) => setTimeout(r, SHOWN_MS + 1500));
      assert.equal(await noteThere(page), true, 'the note went while the keyboard was in it');
      await page.keyboard.press('Escape');
      assert.equal(await noteThere(page), false, 'Escape in the note did not close it');
    } finally {
      await page.close();
    }
  });

  it('trusted drops with bad payloads pin nothing, open no consent window, and say why', async () => {
    const page = await ext.context.newPage();
    await page.goto(site.url('/article.html'));
    const good = await dockPayload(ext.context, hub.origin);
    const hubUrl = new URL(hub.origin);
    const bad = {
      'not JSON': 'agent=ada&hub=' + hub.origin,
      'v is 2': JSON.stringify({ ...good, v: 2 }),
      '1 MiB': JSON.stringify({ ...good, pad: 'x'.repeat(1024 * 1024) }),
      'a hub with a path': JSON.stringify({ ...good, hub: `${hub.origin}/page/pair` }),
      'a hub with credentials': JSON.stringify({ ...good, hub: `http://user:pw@${hubUrl.host}` }),
      'a javascript: hub': JSON.stringify({ ...good, hub: 'javascript:alert(1)' }),
      'an agent that is a URL': JSON.stringify({ ...good, agent: 'https://evil.example/agent' }),
    };
    const said = {};
    for (const [what, raw] of Object.entries(bad)) {
      const opened = await consentWindowsDuring(() => nothingReachesTheAgent(async () => {
        await trustedDrop(page, '#target-para', raw);
        const note = await waitForNote(page, (n) => n.text.length > 0);
        assert.doesNotMatch(note.text, /can read this now|Answer in the extension's window/, what);
        said[what] = note.text;
      }, 2));
      assert.equal(opened, 0, `${what}: a consent window opened`);
    }
    // Each one is refused as a drag that is not an agent's mark.
    for (const [what, text] of Object.entries(said)) assert.match(text, /agent's mark|hub/i, `${what}: ${text}`);
    await page.close();
  });

  it('a flood of trusted drops with forged tickets pins nothing, and the next real drop still pins', async () => {
    const page = await ext.context.newPage();
    await page.goto(site.url('/article.html'));
    const good = await dockPayload(ext.context, hub.origin);
    const opened = await consentWindowsDuring(() => nothingReachesTheAgent(async () => {
      for (let i = 0; i < 100; i++) {
        const ticket = `FORGED${String(i).padStart(14, '0')}`;
        await trustedDrop(page, '#target-para', { ...good, ticket });
      }
    }, 5));
    assert.equal(opened, 0, 'a flood opened a consent window');
    // The background kept up: the person's next real drop pins as before.
    const reading = await readFocus(await dropForFocus(page, '#target-para'));
    assert.equal(reading.pointed.text, await visibleText(page, '#target-para'));
    await page.close();
  });

  it('a DragEvent dispatched by page script with a valid payload: nothing happens', async () => {
    const page = await ext.context.newPage();
    await page.goto(site.url('/article.html'));
    const payload = JSON.stringify(await dockPayload(ext.context, hub.origin));
    const before = site.apcJsonRequests();
    const opened = await consentWindowsDuring(() => nothingReachesTheAgent(async () => {
      await page.evaluate((data) => {
        const target = document.querySelector('#target-para');
        const dt = new DataTransfer();
        dt.setData('application/x-apc-agent', data);
        for (const type of ['dragenter', 'dragover', 'drop']) {
          target.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: dt }));
        }
      }, payload);
    }));
    assert.equal(opened, 0);
    assert.equal(site.apcJsonRequests(), before);
    assert.equal(await readNote(page), null);
    await page.close();
  });
});

describe('any text on any page (issue 21): through the real extension', () => {
  it('a drop on a line two shadow roots deep: the agent reads exactly that line', async () => {
    const page = await ext.context.newPage();
    await page.goto(site.url('/shadow-dom.html'));
    // Playwright's CSS locators reach into open shadow roots, as the person's pointer does.
    const reading = await readFocus(await dropForFocus(page, '#line-2'));
    assert.equal(reading.pointed.text, 'Cover the kale with fleece on the coldest nights.');
    assert.deepEqual(reading.context.headings, ['Raised beds in winter']);
    await page.close();
  });

  it('a drop on a closed shadow root: the note says it is out of reach, in the extension\'s words, and nothing is pinned', async () => {
    const page = await ext.context.newPage();
    await page.goto(site.url('/shadow-dom.html'));
    let note;
    await nothingReachesTheAgent(async () => {
      // The real chrome.dom.openOrClosedShadowRoot tells the collector the card is closed.
      await trustedDrop(page, '#closed', await dockPayload(ext.context, hub.origin));
      note = await waitForNote(page, (n) => n.text.length > 0);
    });
    assert.match(note.text, /closed part of the page that the extension does not read/);
    await page.close();
  });

  it('a drop on an SVG chart label: the agent reads the label (no internal error reaches the page)', async () => {
    const page = await ext.context.newPage();
    await page.goto(site.url('/svg-text.html'));
    const reading = await readFocus(await dropForFocus(page, '#label-nov'));
    assert.equal(reading.pointed.text, 'November harvest');
    assert.deepEqual(reading.context.headings, ['Harvest', 'Kale by month']);
    await page.close();
  });

  it('a selection in a textarea and the context menu: the agent reads the selected text as a field\'s value; a password field is refused', async () => {
    const page = await ext.context.newPage();
    await page.goto(site.url('/form-fields.html'));
    const selectInField = (selector, from, to) => page.evaluate(([sel, a, b]) => {
      const field = document.querySelector(sel);
      const start = field.value.indexOf(a);
      field.focus();
      field.setSelectionRange(start, field.value.indexOf(b, start) + b.length);
    }, [selector, from, to]);
    await selectInField('#draft', 'Second line', 'point of it');
    const waiting = waitForFocus();
    const reply = await dispatchFor(page.url(), 'contextMenus.onClicked', `point:${pairingId}`);
    assert.equal(reply.ok, true, JSON.stringify(reply));
    const reading = await readFocus((await waiting).result.focus);
    assert.equal(reading.pointed.text, 'Second line of the draft, with the point of it');
    assert.equal(reading.pointed.field, 'textarea');
    assert.ok(!(reading.page_text ?? '').includes('Second line'), 'a field\'s value is no page text');

    await selectInField('#password', 'PASSWORD', 'hunter2');
    await nothingReachesTheAgent(async () => {
      // The menu's event is handled either way; the refusal is told in the page's note.
      await dispatchFor(page.url(), 'contextMenus.onClicked', `point:${pairingId}`);
      await waitForNote(page, (n) => /looks like it holds a password or a code/.test(n.text));
    });
    await page.close();
  });
});

/** A stand-in on the hub's port while the hub is down: records every request, answers 503. */
async function recorderOn(port) {
  const { createServer } = await import('node:http');
  const seen = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method, path: req.url, authorization: req.headers.authorization ?? null });
    res.writeHead(503, { 'content-type': 'application/json' });
    res.end('{"error":"down","message":"the hub is down"}');
  });
  await new Promise((ok, fail) => { server.once('error', fail); server.listen(port, '127.0.0.1', ok); });
  return { seen, close: () => new Promise((ok) => { server.closeAllConnections(); server.close(ok); }) };
}

describe('revoke in the popup', () => {
  it('holds at once with the hub down, sends nothing more with that grant, and is given back once the hub is up', async () => {
    const page = await ext.context.newPage();
    await page.goto(site.url('/article.html'));
    const readingId = (await dropForFocus(page, '#target-para')).id;
    await agent.close();

    const { dataDir, port } = hub;
    await hub.stop();
    const recorder = await recorderOn(port);
    let popup;
    try {
      popup = await ext.context.newPage();
      await popup.setViewportSize({ width: 380, height: 520 });
      await popup.goto(ext.url('popup/popup.html'));
      const row = popup.locator(`li[data-pairing-id="${pairingId}"]`);
      // The popup asks the hub how the pin stands when it opens; with the hub down that says so.
      await row.locator('[data-hub-state="unreachable"]').first().waitFor();
      // The row may say so from what the background already knew (the drop's page text could not
      // be sent to the stopped hub), before the popup's own refresh has asked: wait until that
      // refresh (a GET of the grant, made while the grant is live) has been answered, so that it is
      // not counted as sent after the revoke.
      for (const until = Date.now() + 10000; ; await new Promise((ok) => setTimeout(ok, 50))) {
        const asked = recorder.seen.some((r) => r.method === 'GET' && r.path === '/page/grant' && r.authorization);
        const refreshing = (await popup.locator('#refresh-status').innerText()).trim() !== '';
        if (asked && !refreshing) break;
        assert.ok(Date.now() < until, 'the popup refreshed the pin state against the stopped hub');
      }
      const sinceRevoke = recorder.seen.length;
      const revoke = row.locator('button[data-action="revoke"]');
      await revoke.click();
      await revoke.click();
      await popup.locator('#give-backs').waitFor({ state: 'visible' });
      await popup.screenshot({ path: new URL('popup-give-back-pending.png', SHOTS).pathname });
      assert.equal(await popup.locator(`li[data-pairing-id="${pairingId}"]`).count(), 1, 'listed once, as a give back');
      assert.match(await popup.locator('#give-backs').innerText(), /127\.0\.0\.1/);

      // Everything that would use a live grant: the keyboard command, a refresh of the popup.
      await selectText(page, 'h1');
      await dispatchFor(page.url(), 'commands.onCommand', 'command');
      await popup.reload();
      await popup.locator('#give-backs').waitFor({ state: 'visible' });
      await waitForNote(page, (n) => /no agent is paired/i.test(n.text));
      const withBearer = recorder.seen.slice(sinceRevoke).filter((r) => r.authorization);
      assert.ok(withBearer.length >= 1, 'the give back was tried');
      for (const r of withBearer) {
        assert.deepEqual([r.method, r.path], ['DELETE', '/page/grant'], `a request carried the grant: ${JSON.stringify(r)}`);
      }
    } finally {
      await recorder.close();
    }

    hub = await startHub({ dataDir, listen: `127.0.0.1:${port}` });
    await popup.reload();
    await popup.locator('#give-backs').waitFor({ state: 'hidden', timeout: 15000 });
    agent = await connectAgent(hub.agents()[0].mcp_url);
    const got = await agent.call('page__get_reading', { id: readingId });
    assert.equal(got.isError, true);
    assert.equal(got.result.error, 'reading_unknown');
    await popup.close();
    await page.close();
  });
});
