// Why JavaScript: the browser runs an extension page's script as JS. This consent window decides
// nothing: it asks the background (Rust, through runtime messages) what is being asked, renders it
// (the hub's domain first, whether the person has paired with it before and whether it is on this
// computer, then the agent as the hub names it), and sends back the person's answer. Whether the
// request exists, how long Allow waits, what pairing does and what happens after: all the background's.
// The one thing only this page can know is whether it is visible and focused: it times that.

import { $, t, localize, ask, ANSWER_WAIT_MS } from '../pages/background-link.js';

// Allow pairs with the hub (and may pin): a network round trip or two.
const PAIR_WAIT_MS = 15000;
// How long the outcome stays readable before the window closes itself.
const RESULT_SHOWN_MS = 1500;

const id = new URLSearchParams(location.search).get('id');
let consent = null;
let answered = false;

function show(state) {
  document.body.dataset.state = state;
  $('consent-loading').hidden = state !== 'loading';
  $('consent-request').hidden = state !== 'asking' && state !== 'answering' && state !== 'done';
}

/** An error from the background: its message, and a way out. */
function showError(answer, lead) {
  const box = $('consent-error');
  box.replaceChildren();
  if (lead) box.append(Object.assign(document.createElement('p'), { textContent: lead }));
  const detail = document.createElement('p');
  detail.className = 'detail';
  detail.textContent = `${answer.message || ''} (${answer.error || 'error'})`;
  box.append(detail);
  $('consent-close').hidden = false;
  $('consent-close').focus();
}

function render(c) {
  $('consent-hub').textContent = c.hub_display;
  const hubName = $('consent-hub-name');
  hubName.hidden = !c.hub_name;
  hubName.textContent = c.hub_name ? t('consentHubName', c.hub_name) : '';
  // A typed code does not say which agent it is for (the hub says so when it pairs).
  const agent = $('consent-agent');
  agent.textContent = c.agent_name || t('consentAgentFromCode');
  agent.classList.toggle('unnamed', !c.agent_name);
  $('consent-handle').textContent = c.agent_handle
    ? t('agentHandle', c.agent_handle)
    : c.agent_name
      ? ''
      : t('consentAgentFromCodeNote');
  $('consent-handle').hidden = !$('consent-handle').textContent;

  // Where the request came from: the page as a plain domain, never its words.
  const origin = $('consent-origin');
  if (c.page_display) {
    $('consent-how').textContent = c.how === 'drop' ? t('consentFromDrop') : t('consentFromPage');
    $('consent-page').textContent = c.page_display;
    origin.hidden = false;
  } else if (c.how === 'code') {
    $('consent-how').textContent = t('consentFromCode');
    $('consent-page').textContent = '';
    origin.hidden = false;
  } else {
    origin.hidden = true;
  }
  const frame = $('consent-frame-line');
  frame.hidden = c.from_frame !== true;
  $('consent-frame-how').textContent = c.from_frame !== true ? ''
    : c.frame_display ? t('consentInFrame') : t('consentInFrameNoHost');
  $('consent-frame').textContent = c.from_frame === true && c.frame_display ? c.frame_display : '';

  const isNew = $('consent-hub-new');
  isNew.hidden = c.hub_new !== true;
  isNew.textContent = c.hub_new === true ? t('consentHubNew') : '';
  const place = $('consent-hub-place');
  place.dataset.place = c.hub_loopback === true ? 'loopback' : 'elsewhere';
  place.textContent = c.hub_loopback === true ? t('consentHubLoopback') : t('consentHubElsewhere');

  document.title = `${t('consentTitle')} ${c.hub_display}`;
  show('asking');
  // Don't allow has focus: a keystroke meant for the page or the popup (an Enter, a Space) that
  // lands in this window as it opens must never pair. Allow takes a deliberate Tab or a click.
  $('consent-deny').focus();
  armAllow();
}

// Allow waits until this window has been visible and focused for the time the background says, so a
// click or key meant for the page (which a page can time to land here as the window opens) cannot
// allow. Losing focus or visibility starts the wait again.
let allowTimer = 0;
function armAllow() {
  clearTimeout(allowTimer);
  if (!consent || answered) return;
  $('consent-allow').disabled = true;
  $('consent-allow-wait').hidden = false;
  if (document.visibilityState !== 'visible' || !document.hasFocus()) return;
  allowTimer = setTimeout(() => {
    if (answered) return;
    $('consent-allow').disabled = false;
    $('consent-allow-wait').hidden = true;
  }, consent.allow_after_ms);
}
window.addEventListener('focus', armAllow);
window.addEventListener('blur', armAllow);
document.addEventListener('visibilitychange', armAllow);

async function answer(allow) {
  if (answered || !consent) return;
  if (allow && $('consent-allow').disabled) return;
  answered = true;
  clearTimeout(allowTimer);
  $('consent-allow-wait').hidden = true;
  $('consent-allow').disabled = true;
  $('consent-deny').disabled = true;
  show('answering');
  $('consent-result').textContent = allow ? t('consentPairing') : '';
  const reply = await ask({ type: 'consent_answer', id, allow }, allow ? PAIR_WAIT_MS : ANSWER_WAIT_MS);
  if (reply.ok !== true) {
    $('consent-result').textContent = '';
    show('done');
    showError(reply);
    return;
  }
  const agent = reply.agent_name || consent.agent_name;
  $('consent-result').textContent = !reply.paired
    ? t('consentDenied')
    : reply.pinned
      ? t('consentPairedPinned', agent)
      : t('consentPaired', agent);
  document.body.dataset.result = reply.paired ? 'paired' : 'not_paired';
  show('done');
  setTimeout(() => window.close(), RESULT_SHOWN_MS);
}

async function start() {
  show('loading');
  const reply = id ? await ask({ type: 'consent_get', id }) : { ok: false, error: 'consent_unknown', message: 'no request id' };
  if (reply.ok !== true || !reply.consent || typeof reply.consent !== 'object') {
    show('gone');
    showError(reply, reply.error === 'no_answer' ? null : t('consentGone'));
    return;
  }
  consent = reply.consent;
  render(consent);
}

localize();
$('consent-allow').addEventListener('click', () => answer(true));
$('consent-deny').addEventListener('click', () => answer(false));
$('consent-close').addEventListener('click', () => window.close());
document.addEventListener('keydown', (event) => {
  if (event.key !== 'Escape') return;
  event.preventDefault();
  if (consent && !answered) answer(false);
  else if (!$('consent-close').hidden) window.close();
});
start();
