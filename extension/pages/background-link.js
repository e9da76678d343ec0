// Why JavaScript: extension pages (the popup, the consent window) run JS. This module is what they
// share to talk to the background (Rust, through runtime messages) and to show localized strings;
// it decides nothing.

export const api = globalThis.browser ?? globalThis.chrome;

/** How long a page waits for the background before saying so (a starting worker answers in well under a second). */
export const ANSWER_WAIT_MS = 5000;

export const $ = (id) => document.getElementById(id);
export const t = (key, ...subs) => api.i18n.getMessage(key, subs.map(String)) || key;
/** A message of the background's view models (`{ key, subs }`, logic/views.rs `Msg`), localized. */
export const tm = (msg) => (typeof msg?.key === 'string' ? t(msg.key, ...(Array.isArray(msg.subs) ? msg.subs : [])) : '');
export const lang = api.i18n.getUILanguage();

/** Fills every `[data-i18n]` element with its string, and sets the page's language. */
export function localize() {
  document.documentElement.lang = lang;
  for (const el of document.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
}

/** Asks the background; resolves to its answer, or to `{ ok: false, ... }` if it did not answer. */
export async function ask(request, waitMs = ANSWER_WAIT_MS) {
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(
      () => resolve({ ok: false, error: 'no_answer', message: `no answer within ${waitMs} ms` }),
      waitMs,
    );
  });
  try {
    const answer = await Promise.race([api.runtime.sendMessage(request), timeout]);
    if (answer !== null && typeof answer === 'object') return answer;
    return { ok: false, error: 'no_answer', message: `the background answered ${JSON.stringify(answer)}` };
  } catch (error) {
    return { ok: false, error: 'no_answer', message: String(error?.message ?? error) };
  } finally {
    clearTimeout(timer);
  }
}
