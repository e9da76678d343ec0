// Trusted drags for tests: CDP Input.dispatchDragEvent makes events with isTrusted = true, as a
// person's drag from the dock would. (A DragEvent made by page script is isTrusted = false.)
export const APC_DRAG_MIME = 'application/x-apc-agent';

/** Drops `payload` (an object or a raw string) of type `mime` at the centre of `selector`. */
export async function trustedDrop(page, selector, payload, { mime = APC_DRAG_MIME } = {}) {
  const box = await page.locator(selector).first().boundingBox();
  if (!box) throw new Error(`no box for ${selector}`);
  const x = box.x + Math.min(box.width / 2, 40);
  const y = box.y + box.height / 2;
  const cdp = await page.context().newCDPSession(page);
  const data = {
    items: [{ mimeType: mime, data: typeof payload === 'string' ? payload : JSON.stringify(payload) }],
    dragOperationsMask: 1 | 2 | 16,
  };
  for (const type of ['dragEnter', 'dragOver', 'drop']) {
    await cdp.send('Input.dispatchDragEvent', { type, x, y, data });
  }
  await cdp.detach();
}
