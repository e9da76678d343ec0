// Page-side helpers for the end-to-end tests: the extension's in-page note (in a closed shadow
// root, so read through CDP's pierce), selections, and the dock's current drag payload.

/** The extension's note in the page, or null: its text and links, read through closed shadow roots. */
export async function readNote(page) {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = await cdp.send('DOM.getDocument', { depth: -1, pierce: true });
    let host = null;
    const find = (node) => {
      if (host) return;
      if (node.nodeName === 'APC-PAGE-FEEDBACK') { host = node; return; }
      for (const child of [...(node.children ?? []), ...(node.shadowRoots ?? [])]) find(child);
    };
    find(root);
    if (!host) return null;
    const texts = [];
    const links = [];
    const walk = (node) => {
      if (node.nodeName === 'STYLE') return;
      if (node.nodeType === 3) texts.push(node.nodeValue);
      if (node.nodeName === 'A') {
        const attrs = node.attributes ?? [];
        const i = attrs.indexOf('href');
        if (i >= 0) links.push(attrs[i + 1]);
      }
      for (const child of [...(node.children ?? []), ...(node.shadowRoots ?? [])]) walk(child);
    };
    walk(host);
    return { text: texts.join(' ').replace(/\s+/g, ' ').trim(), links };
  } finally {
    await cdp.detach();
  }
}

/** Waits until the note matches `predicate` (default: any note), and returns it. */
export async function waitForNote(page, predicate = () => true, timeoutMs = 10000) {
  const until = Date.now() + timeoutMs;
  let last = null;
  while (Date.now() < until) {
    last = await readNote(page);
    if (last && predicate(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no matching note within ${timeoutMs} ms; last: ${JSON.stringify(last)}`);
}

/** Selects the whole text of the first element matching `selector`. */
export async function selectText(page, selector) {
  await page.evaluate((sel) => {
    const el = document.querySelector(sel);
    const range = document.createRange();
    range.selectNodeContents(el);
    const selection = getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }, selector);
}

/**
 * The drag payload the dock page would set for its first agent's mark, with a fresh ticket. The dock
 * mints a ticket when the person reaches for a mark (pointer over it, pointer down, focus), not per
 * page view: so this reaches for the mark and waits for the ticket, as a person's drag does. Every
 * call gives a new single-use ticket.
 */
export async function dockPayload(context, hubOrigin, agentName = null) {
  const dock = await context.newPage();
  try {
    await dock.goto(hubOrigin + '/');
    const marks = dock.locator('.agent-mark');
    const mark = agentName ? marks.and(dock.locator(`[data-name="${agentName}"]`)) : marks.first();
    await mark.hover();
    await mark.focus();
    await dock.waitForFunction((el) => Boolean(el.dataset.ticket), await mark.elementHandle());
    const payload = {
      v: 1,
      agent: await mark.getAttribute('data-agent'),
      hub: await mark.getAttribute('data-hub'),
      ticket: await mark.getAttribute('data-ticket'),
    };
    return payload;
  } finally {
    await dock.close();
  }
}

/** A fresh pairing code for an agent from the dock page ("New code"), as a person reads it. */
export async function dockCode(context, hubOrigin, handle) {
  const dock = await context.newPage();
  try {
    await dock.goto(hubOrigin + '/');
    const code = dock.locator(`.ticket-code[data-agent="${handle}"]`);
    const before = (await code.innerText()).trim();
    await dock.click(`.new-code[data-agent="${handle}"]`);
    await dock.waitForFunction(
      ([el, old]) => el.textContent.trim() !== old,
      [await code.elementHandle(), before],
    );
    return (await code.innerText()).trim();
  } finally {
    await dock.close();
  }
}

/** Clicks the button labelled `label` in the extension's note (inside its closed shadow root). */
export async function clickInNote(page, label) {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = await cdp.send('DOM.getDocument', { depth: -1, pierce: true });
    let button = null;
    const walk = (node, inNote) => {
      if (button) return;
      const here = inNote || node.nodeName === 'APC-PAGE-FEEDBACK';
      if (here && node.nodeName === 'BUTTON' && (node.children ?? []).some((c) => c.nodeValue?.trim() === label)) {
        button = node;
        return;
      }
      for (const child of [...(node.children ?? []), ...(node.shadowRoots ?? [])]) walk(child, here);
    };
    walk(root, false);
    if (!button) throw new Error(`no "${label}" button in the note`);
    const { model } = await cdp.send('DOM.getBoxModel', { backendNodeId: button.backendNodeId });
    const [x1, y1, , , x3, y3] = model.content;
    const x = (x1 + x3) / 2;
    const y = (y1 + y3) / 2;
    for (const type of ['mousePressed', 'mouseReleased']) {
      await cdp.send('Input.dispatchMouseEvent', { type, x, y, button: 'left', clickCount: 1 });
    }
  } finally {
    await cdp.detach();
  }
}
