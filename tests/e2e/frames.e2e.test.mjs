// End to end in Chromium, in frames: a real apc-hub, the built extension, a real MCP client as the
// agent, and a fixture page on 127.0.0.1 (tests/fixtures/frames.html) whose frames come from another
// site (localhost, so Chromium runs them out of process, as a comment widget or an ad is). Trusted
// drops through CDP (Input.dispatchDragEvent) land in whichever frame is under the point, as a
// person's do. Firefox's side is tests/realinput/test_realinput_frames.py and
// tests/browser/test_firefox_pairing.py.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchWithExtension } from '../browser/lib/chromium.mjs';
import { startHub } from './lib/hub.mjs';
import { startSite } from './lib/site.mjs';
import { connectAgent } from './lib/agent.mjs';
import { APC_DRAG_MIME } from './lib/drag.mjs';
import { readNote, waitForNote, dockPayload } from './lib/page.mjs';

let hub, site, childSite, ext, agent, childOrigin, pairingId;

/** The fixture page, its frames from the other site. */
const framesUrl = () => site.url(`/frames.html?child=${encodeURIComponent(childOrigin)}`);

/** Drops `payload` on the element `selector` finds in the frame `frameSelector` of `page` (or in the
 * page itself without one): CDP's trusted drag at that point of the page, in page coordinates. */
async function dropOn(page, frameSelector, selector, payload) {
  const scope = frameSelector ? page.frameLocator(frameSelector) : page;
  const box = await scope.locator(selector).first().boundingBox();
  assert.ok(box, `no box for ${selector}`);
  const x = box.x + Math.min(box.width / 2, 40);
  const y = box.y + box.height / 2;
  const cdp = await page.context().newCDPSession(page);
  const data = { items: [{ mimeType: APC_DRAG_MIME, data: JSON.stringify(payload) }], dragOperationsMask: 1 | 2 | 16 };
  try {
    for (const type of ['dragEnter', 'dragOver', 'drop']) await cdp.send('Input.dispatchDragEvent', { type, x, y, data });
  } finally {
    await cdp.detach();
  }
}

/** The frame of `page` whose URL starts with `prefix`. */
function frameOf(page, prefix) {
  const frame = page.frames().find((f) => f.url().startsWith(prefix));
  assert.ok(frame, `no frame at ${prefix}: ${page.frames().map((f) => f.url()).join(', ')}`);
  return frame;
}

/** What the page's own script in `frame` saw of the agent's drags (window.__saw). */
const sawInFrame = (frame) => frame.evaluate(() => window.__saw);

const waitForFocus = (timeout_s = 20) => agent.call('wait_for_focus', { timeout_s });

async function readFocus(focus) {
  assert.equal(focus.kind, 'page_reading');
  // The plain texts, as pinned (the default is the reading's Markdown), which these tests compare.
  const got = await agent.call('page__get_reading', { ...focus.next_args, format: 'text' });
  assert.equal(got.isError, false, JSON.stringify(got.result));
  assert.equal(got.result.untrusted, true);
  return got.result.reading;
}

/** The focus a wait got; without one, fails with what the page's note said. */
async function focusOf(waiting, page) {
  const { result } = await waiting;
  if (!result.focus) assert.fail(`the agent got no focus; the note: ${JSON.stringify(await readNote(page))}`);
  return result.focus;
}

async function nothingReachesTheAgent(action, seconds = 3) {
  const waiting = waitForFocus(seconds);
  await action();
  const { result } = await waiting;
  assert.equal(result.focus, null, `the agent got a focus: ${JSON.stringify(result.focus)}`);
}

/** Runs a browser event in the extension's background, as a menu click or the shortcut would. */
function dispatch(pageUrl, name, args) {
  return ext.serviceWorker.evaluate(async ({ pageUrl, name, args }) => {
    const tab = (await chrome.tabs.query({})).find((t) => t.url === pageUrl);
    return globalThis.apcBackground.dispatch(name, [...args, tab]);
  }, { pageUrl, name, args });
}

/** The extension's id of the frame of `pageUrl` showing `frameUrl`, as contextMenus.onClicked
 * gives it: the frame whose content script answers for its selection with that URL. Chromium's
 * frame ids are its frame tree nodes', counted across every tab of the browser (not from 1 in each
 * tab), so the ids a run has used so far are all asked, at once. */
function frameIdOf(pageUrl, frameUrl) {
  return ext.serviceWorker.evaluate(async ({ pageUrl, frameUrl }) => {
    const tab = (await chrome.tabs.query({})).find((t) => t.url === pageUrl);
    const ask = async (frameId) => {
      try {
        const answer = await chrome.tabs.sendMessage(tab.id, { type: 'page.collect', how: 'selection' }, { frameId });
        return answer?.ok && JSON.parse(answer.observation).url === frameUrl ? frameId : null;
      } catch {
        return null; // no such frame in this tab
      }
    };
    const ids = await Promise.all(Array.from({ length: 4096 }, (_, i) => ask(i + 1)));
    return ids.find((id) => id !== null) ?? null;
  }, { pageUrl, frameUrl });
}

before(async () => {
  hub = await startHub();
  site = await startSite();
  childSite = await startSite();
  // Another site, not only another origin: Chromium runs the frames out of process.
  childOrigin = childSite.origin.replace('127.0.0.1', 'localhost');
  ext = await launchWithExtension();
  agent = await connectAgent(hub.agents()[0].mcp_url);
});

after(async () => {
  await agent?.close().catch(() => {});
  await ext?.close();
  await childSite?.close();
  await site?.close();
  await hub?.cleanup();
});

describe('frames: every frame the person can see, and only those', () => {
  it("a drop in a cross-site frame: the consent window names the frame's host and the page's, the agent reads the frame's text, and no page script saw the drag", async () => {
    const page = await ext.context.newPage();
    await page.setViewportSize({ width: 900, height: 1000 });
    await page.goto(framesUrl());
    const widget = frameOf(page, `${childOrigin}/frame-child.html?widget`);
    await widget.waitForLoadState();
    const waiting = waitForFocus();
    const consentOpened = ext.context.waitForEvent('page', { predicate: (p) => p.url().includes('/consent/consent.html'), timeout: 10000 });
    await dropOn(page, '#widget', '#comment', await dockPayload(ext.context, hub.origin));
    const consent = await consentOpened.catch(async (e) => { throw new Error(`${e.message}; the note: ${JSON.stringify(await readNote(page))}`); });
    await consent.locator('#consent-request').waitFor();
    assert.equal(await consent.locator('#consent-page').innerText(), new URL(site.origin).host, "the top page's host");
    assert.equal(await consent.locator('#consent-frame').innerText(), new URL(childOrigin).host, "the frame's host");
    await consent.click('#consent-allow');
    const { result } = await waiting;
    assert.equal(result.timed_out, false, 'the agent got no focus');
    const reading = await readFocus(result.focus);
    assert.equal(reading.pointed.text, await widget.locator('#comment').innerText());
    assert.equal(reading.pointed.how, 'drop');
    assert.equal(reading.url, framesUrl(), "the page the person is on");
    assert.equal(reading.title, 'A story with frames');
    assert.deepEqual(reading.frame, { url: widget.url(), origin: childOrigin, title: 'Comments on the story' });
    // Its context comes from the frame.
    assert.deepEqual(reading.context.headings, ['Comments']);
    assert.match(reading.page_text ?? '', /Grace replied/);
    assert.doesNotMatch(reading.page_text ?? '', /top page's own paragraph/);
    assert.deepEqual(await sawInFrame(widget), [], "the frame's own script saw nothing of the agent's drag");
    const state = await ext.serviceWorker.evaluate(async () => (await chrome.storage.local.get('apc_state')).apc_state);
    pairingId = state.pairings[0].id;
    await page.close();
  });

  it('a frame the person cannot see where the drop lands (laid over the page at opacity 0, or under a veil) takes no drop, and says why', async () => {
    const page = await ext.context.newPage();
    await page.setViewportSize({ width: 900, height: 1000 });
    await page.goto(framesUrl());
    const ghost = frameOf(page, `${childOrigin}/frame-child.html?ghost`);
    const veiled = frameOf(page, `${childOrigin}/frame-child.html?veiled`);
    await ghost.waitForLoadState();
    await veiled.waitForLoadState();
    // The person drops on the top page's own paragraph; the invisible frame over it gets the drop.
    await nothingReachesTheAgent(async () => {
      await dropOn(page, null, '#top-para', await dockPayload(ext.context, hub.origin));
      await waitForNote(page, (n) => /could not see/i.test(n.text));
    });
    assert.deepEqual(await sawInFrame(ghost), [], 'the invisible frame saw nothing of the drag');
    // Under the page's veil (which pointer events pass through), Chromium gives the drop to the
    // frame (which then says it could not be seen there) or to the page the veil is part of (where
    // nothing visible is under the point): either way nothing is pointed, and the person is told.
    await nothingReachesTheAgent(async () => {
      await dropOn(page, '#veiled', '#comment', await dockPayload(ext.context, hub.origin));
      await waitForNote(page, (n) => /could not see|no text there to point at/i.test(n.text));
    });
    assert.deepEqual(await sawInFrame(veiled), [], 'the veiled frame saw nothing of the drag');
    await page.close();
  });

  it("the page's own frames with no address (one it scripted before the extension could, one it rewrote with document.open, a srcdoc one): the drop is the extension's, the page sees nothing", async () => {
    const page = await ext.context.newPage();
    await page.setViewportSize({ width: 900, height: 1000 });
    await page.goto(framesUrl());
    await page.evaluate(() => {
      // The top page's own listeners, for what the page could see of a drag over itself.
      window.__sawTop = [];
      for (const type of ['dragenter', 'dragover', 'drop']) {
        addEventListener(type, (e) => {
          if ([...e.dataTransfer.types].includes('application/x-apc-agent')) window.__sawTop.push(type);
        }, true);
      }
    });
    let waiting = waitForFocus();
    await dropOn(page, '#written', '#written-para', await dockPayload(ext.context, hub.origin));
    let reading = await readFocus(await focusOf(waiting, page));
    assert.match(reading.pointed.text, /^A note the page wrote into its own blank frame/);
    assert.equal(reading.url, framesUrl());
    assert.deepEqual(reading.frame, { url: null, origin: site.origin, title: 'Written note' });
    assert.deepEqual(reading.context.headings, ['Written']);
    assert.deepEqual(await page.evaluate(() => document.querySelector('#written').contentWindow.__saw), [],
      'the page listened in its own blank frame before the extension, and still saw nothing');

    // document.open() erased the extension's listeners with the page's: they are back.
    waiting = waitForFocus();
    await dropOn(page, '#reopened', '#reopened-para', await dockPayload(ext.context, hub.origin));
    reading = await readFocus(await focusOf(waiting, page));
    assert.equal(reading.pointed.text, 'A note the page wrote with document.open and document.write.');
    assert.deepEqual(reading.frame, { url: null, origin: site.origin, title: 'Reopened note' });

    waiting = waitForFocus();
    await dropOn(page, '#inline', '#inline-para', await dockPayload(ext.context, hub.origin));
    reading = await readFocus(await focusOf(waiting, page));
    assert.equal(reading.pointed.text, 'A note the page wrote into a srcdoc frame of its own.');
    assert.deepEqual(reading.frame, { url: null, origin: site.origin, title: 'Inline note' });

    waiting = waitForFocus();
    await dropOn(page, null, 'h1', await dockPayload(ext.context, hub.origin));
    reading = await readFocus(await focusOf(waiting, page));
    assert.equal(reading.pointed.text, 'A story with frames');
    assert.equal(reading.frame, undefined, 'the top page is no frame');
    assert.deepEqual(await page.evaluate(() => window.__sawTop), [], "the top page's script saw nothing of the agent's drag");
    await page.close();
  });

  it('a selection in a cross-site frame: the context menu entry (its frame) and the keyboard command (the frame with the focus) point at it', async () => {
    const page = await ext.context.newPage();
    await page.setViewportSize({ width: 900, height: 1000 });
    await page.goto(framesUrl());
    const widget = frameOf(page, `${childOrigin}/frame-child.html?widget`);
    await widget.waitForLoadState();
    // The person clicks into the frame (it takes the focus) and selects a line there.
    await page.frameLocator('#widget').locator('#reply').click();
    const select = (selector) => widget.evaluate((sel) => {
      const range = document.createRange();
      range.selectNodeContents(document.querySelector(sel));
      getSelection().removeAllRanges();
      getSelection().addRange(range);
    }, selector);
    await select('#reply');
    const frameId = await frameIdOf(page.url(), widget.url());
    assert.ok(frameId, 'the widget frame has a content script');
    let waiting = waitForFocus();
    const menu = await dispatch(page.url(), 'contextMenus.onClicked',
      [{ menuItemId: `point:${pairingId}`, frameId, frameUrl: widget.url(), selectionText: '' }]);
    assert.equal(menu.ok, true, JSON.stringify(menu));
    let reading = await readFocus(await focusOf(waiting, page));
    assert.equal(reading.pointed.how, 'selection');
    assert.equal(reading.pointed.text, 'Grace replied: mine too, though I moved it into the shade.');
    assert.equal(reading.url, framesUrl());
    assert.equal(reading.frame?.url, widget.url());

    // The menu made that agent the command's default; the command finds the frame with the focus.
    await select('#comment');
    waiting = waitForFocus();
    const command = await dispatch(page.url(), 'commands.onCommand', ['point-selection']);
    assert.equal(command.ok, true, JSON.stringify(command));
    reading = await readFocus(await focusOf(waiting, page));
    assert.equal(reading.pointed.how, 'command');
    assert.match(reading.pointed.text, /^Ada wrote: the irrigation timer/);
    assert.deepEqual(reading.frame, { url: widget.url(), origin: childOrigin, title: 'Comments on the story' });
    await page.close();
  });
});
