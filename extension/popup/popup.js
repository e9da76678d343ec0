// Why JavaScript: the browser runs a popup's page script as JS. This one decides nothing: it asks
// the background (Rust, through runtime messages) for the popup's view model and for every action
// the person takes, and renders the answers. Which pairings exist, what a pin is, what a hub state
// is and the words it is shown in, whether Point is possible and why not, how long Revoke waits for
// its confirmation, which form field an error is about: all of that comes in the view model
// (crates/background, logic/views.rs).

import { $, t, tm, lang, localize, ask, ANSWER_WAIT_MS } from '../pages/background-link.js';

// Acting and pairing by code reach a hub first (~3 s at most); refreshing asks every hub, so it
// may take longer still.
const SLOW_ANSWER_WAIT_MS = 12000;
const REFRESH_WAIT_MS = 30000;

// ---- Times, in the UI language -------------------------------------------------------------

const relative = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' });
const dateOnly = new Intl.DateTimeFormat(lang, { dateStyle: 'medium' });
const dateTime = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' });

/** `{ text, full }` for an ISO time: relative within a week, a date beyond. */
function when(iso) {
  const date = new Date(iso);
  if (typeof iso !== 'string' || Number.isNaN(date.getTime())) return { text: String(iso), full: String(iso) };
  const seconds = (date.getTime() - Date.now()) / 1000;
  const abs = Math.abs(seconds);
  let text;
  if (abs < 45) text = relative.format(0, 'second');
  else if (abs < 45 * 60) text = relative.format(Math.round(seconds / 60), 'minute');
  else if (abs < 22 * 3600) text = relative.format(Math.round(seconds / 3600), 'hour');
  else if (abs < 7 * 86400) text = relative.format(Math.round(seconds / 86400), 'day');
  else text = dateOnly.format(date);
  return { text, full: dateTime.format(date) };
}

// ---- DOM building (never innerHTML) ------------------------------------------------------

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'text') node.textContent = value;
    else if (name === 'dataset') Object.assign(node.dataset, value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

/** Text with a time inside a message: the message's text, the full time as a tooltip. */
function timed(key, iso, attrs = {}) {
  const w = when(iso);
  return el('span', { ...attrs, text: t(key, w.text), title: w.full });
}

// ---- State --------------------------------------------------------------------------------

let state = null; // the last popup_state / popup_refresh answer rendered
// Every action bumps the generation; a state answer to a request sent before the latest action
// ended is stale and is not rendered.
let generation = 0;
const confirming = new Map(); // pairing id -> timer of its "Confirm revoke?" window
const busy = new Set(); // pairing ids with an action in flight

function showAlert(answer) {
  const box = $('alert');
  box.replaceChildren();
  if (!answer) return;
  box.append(el('span', { text: answer.message || answer.error || '' }));
  if (answer.error) box.append(' ', el('span', { class: 'detail', text: t('errorCode', answer.error) }));
}

function say(text) {
  $('status-line').textContent = text ?? '';
}

function pinNode(pin) {
  switch (pin?.state) {
    case 'read':
      return timed('pinRead', pin.seen_at, { class: 'pin-state', 'data-pin-state': 'read' });
    case 'unread':
      return timed('pinUnread', pin.pinned_at, { class: 'pin-state', 'data-pin-state': 'unread' });
    default:
      return el('span', { class: 'pin-state', dataset: { pinState: 'none' }, text: t('pinNone') });
  }
}

// Why Point is off, as the view model says: the tooltip and what describes the button.
const POINT_BLOCKED_TEXT = { no_page: 'pointNoPage', hub_gone: 'pointNoHub' };

function pairingItem(p, index) {
  const titleId = `pairing-${index}-title`;
  const hubId = `pairing-${index}-hub-state`;
  const hubState = p.hub?.state ?? 'unknown';
  const pinState = p.pin?.state ?? 'none';

  const hubStateNode = el('p', { class: 'hub-state', id: hubId, 'data-hub-state': hubState }, el('span', { class: 'dot', 'aria-hidden': 'true' }), el('span', { text: tm(p.hub?.text) }));
  if (p.hub?.checked_at) hubStateNode.title = t('hubCheckedAt', when(p.hub.checked_at).text);

  const describedBy = { no_page: `${titleId} point-note`, hub_gone: `${titleId} ${hubId}` }[p.point_blocked] ?? titleId;
  const point = el('button', {
    type: 'button',
    class: 'primary',
    'data-action': 'point',
    'aria-describedby': describedBy,
    disabled: p.can_point !== true,
    text: t('pointButton'),
  });
  if (POINT_BLOCKED_TEXT[p.point_blocked]) point.title = t(POINT_BLOCKED_TEXT[p.point_blocked]);

  const isConfirming = confirming.has(p.id);
  const revoke = el('button', {
    type: 'button',
    class: isConfirming ? 'danger confirming' : 'danger',
    'data-action': 'revoke',
    'data-confirming': isConfirming ? 'true' : null,
    'aria-describedby': titleId,
    text: isConfirming ? t('revokeConfirmButton') : t('revokeButton'),
  });

  const unpin = p.can_unpin
    ? el('button', { type: 'button', 'data-action': 'unpin', 'aria-describedby': titleId, text: t('unpinButton') })
    : null;

  return el(
    'li',
    {
      class: 'pairing',
      'data-pairing-id': p.id,
      'data-hub-state': hubState,
      'data-pin-state': pinState,
      'data-command-default': p.command_default ? 'true' : null,
      'aria-busy': busy.has(p.id) ? 'true' : null,
    },
    el(
      'div',
      { class: 'pairing-title', id: titleId },
      el('span', { class: 'hub-domain', text: p.hub_display }),
      el('span', { class: 'visually-hidden', text: ' — ' }),
      el('span', { class: 'agent-name', text: p.agent_name }),
    ),
    el(
      'p',
      { class: 'meta' },
      el('span', { class: 'agent-handle', text: t('agentHandle', p.agent_handle) }),
      el('span', { class: 'sep', 'aria-hidden': 'true', text: ' · ' }),
      timed('pairingSince', p.created_at, { class: 'since' }),
      p.hub_loopback === false ? el('span', { class: 'badge hub-elsewhere', text: t('hubElsewhere') }) : null,
      p.command_default ? el('span', { class: 'badge command-default', text: t('pairingCommandDefault') }) : null,
    ),
    el('p', { class: 'pin' }, pinNode(p.pin)),
    hubStateNode,
    el('div', { class: 'actions' }, point, unpin, revoke),
  );
}

function giveBackItem(g) {
  const stopped = g.state === 'stopped';
  const text = stopped
    ? t('giveBackStopped', g.hub_display, g.agent_name)
    : t('giveBackWaiting', g.hub_display, g.agent_name, when(g.next_try_at).text);
  return el(
    'li',
    { 'data-pairing-id': g.pairing_id, 'data-give-back-state': g.state },
    el('span', { class: 'give-back-text', text }),
    el(
      'span',
      { class: 'detail' },
      t('giveBackAttempts', g.attempts ?? 0),
      g.last_error ? ` · ${t('giveBackLastError', g.last_error)}` : '',
    ),
    stopped ? el('button', { type: 'button', 'data-action': 'dismiss-give-back', text: t('giveBackDismiss') }) : null,
  );
}

/** Where focus is inside the list, so it can be put back after the list is rebuilt. */
function focusKey() {
  const active = document.activeElement;
  const item = active?.closest?.('#pairings > li');
  if (!item) return null;
  const items = [...$('pairings').children];
  return { id: item.dataset.pairingId, action: active.dataset.action, index: items.indexOf(item) };
}

function restoreFocus(key) {
  if (!key) return;
  const items = [...$('pairings').children];
  const same = items.find((li) => li.dataset.pairingId === key.id);
  const usable = (li) => li && [...li.querySelectorAll('button')].filter((b) => !b.disabled);
  if (same) {
    const buttons = usable(same);
    const target = buttons.find((b) => b.dataset.action === key.action) ?? buttons.at(-1);
    target?.focus();
    return;
  }
  // The pairing left (revoked): the next one, else the previous, else the code form.
  const neighbour = items[Math.min(key.index, items.length - 1)];
  const target = usable(neighbour)?.[0];
  if (target) target.focus();
  else $('pair-code-code').focus();
}

function render(next) {
  state = next;
  const pairings = Array.isArray(next.pairings) ? next.pairings : [];
  const giveBacks = Array.isArray(next.give_backs) ? next.give_backs : [];
  const key = focusKey();

  for (const id of [...confirming.keys()]) {
    if (!pairings.some((p) => p.id === id)) {
      clearTimeout(confirming.get(id));
      confirming.delete(id);
    }
  }

  $('pairings').replaceChildren(...pairings.map((p, i) => pairingItem(p, i)));
  $('pairings-section').hidden = pairings.length === 0;
  $('point-note').hidden = next.can_point === true || pairings.length === 0;
  $('empty-state').hidden = pairings.length !== 0;

  $('give-backs-list').replaceChildren(...giveBacks.map(giveBackItem));
  $('give-backs').hidden = giveBacks.length === 0;

  const link = $('empty-hub-link');
  const hub = typeof next.default_hub === 'string' ? next.default_hub : '';
  link.textContent = hub;
  // A link only to an http(s) address; anything else stays plain text.
  if (/^https?:\/\//i.test(hub)) link.href = hub;
  else link.removeAttribute('href');

  const hubInput = $('pair-code-hub');
  if (!hubInput.value && !hubInput.dataset.touched && hub) hubInput.value = hub;
  $('pair-code').hidden = false;

  restoreFocus(key);
}

async function loadState(type) {
  const mine = generation;
  const answer = await ask({ type }, type === 'popup_refresh' ? REFRESH_WAIT_MS : ANSWER_WAIT_MS);
  if (mine !== generation) return answer; // an action happened meanwhile; its own reload renders
  if (answer.ok === true) {
    render(answer);
  } else if (!state) {
    showAlert({ ...answer, message: t('stateError', answer.message ?? answer.error) });
  } else {
    showAlert(answer);
  }
  return answer;
}

// ---- Actions ------------------------------------------------------------------------------

function pairingById(id) {
  return state?.pairings?.find((p) => p.id === id);
}

async function act(id, request, onOk) {
  if (busy.has(id)) return;
  busy.add(id);
  generation += 1;
  showAlert(null);
  say('');
  const item = $('pairings').querySelector(`li[data-pairing-id="${CSS.escape(id)}"]`);
  item?.setAttribute('aria-busy', 'true');
  const answer = await ask(request, SLOW_ANSWER_WAIT_MS);
  busy.delete(id);
  item?.removeAttribute('aria-busy');
  if (answer.ok === true) say(onOk(answer));
  else showAlert(answer);
  generation += 1;
  await loadState('popup_state');
}

function startConfirm(p) {
  const ms = state.revoke_confirm_ms;
  confirming.set(
    p.id,
    setTimeout(() => {
      confirming.delete(p.id);
      const button = $('pairings').querySelector(`li[data-pairing-id="${CSS.escape(p.id)}"] button[data-action="revoke"]`);
      if (button) {
        button.textContent = t('revokeButton');
        button.classList.remove('confirming');
        delete button.dataset.confirming;
      }
      say('');
    }, ms),
  );
  const button = $('pairings').querySelector(`li[data-pairing-id="${CSS.escape(p.id)}"] button[data-action="revoke"]`);
  button.textContent = t('revokeConfirmButton');
  button.classList.add('confirming');
  button.dataset.confirming = 'true';
  say(t('revokeConfirmHint', p.agent_name));
}

$('pairings').addEventListener('click', (event) => {
  const button = event.target.closest('button[data-action]');
  const id = button?.closest('li[data-pairing-id]')?.dataset.pairingId;
  const p = id !== undefined && pairingById(id);
  if (!p || button.disabled) return;
  switch (button.dataset.action) {
    case 'point':
      act(p.id, { type: 'point_selection', pairing: p.id }, () => t('pointedStatus', p.agent_name));
      break;
    case 'unpin':
      act(p.id, { type: 'unpin', pairing: p.id }, () => t('unpinnedStatus'));
      break;
    case 'revoke':
      if (!confirming.has(p.id)) {
        startConfirm(p);
      } else {
        clearTimeout(confirming.get(p.id));
        confirming.delete(p.id);
        act(p.id, { type: 'revoke', pairing: p.id }, (answer) =>
          answer.give_back === 'pending' ? t('revokedPendingStatus') : t('revokedStatus'),
        );
      }
      break;
  }
});

$('give-backs-list').addEventListener('click', async (event) => {
  const button = event.target.closest('button[data-action="dismiss-give-back"]');
  const id = button?.closest('li[data-pairing-id]')?.dataset.pairingId;
  if (!id) return;
  button.disabled = true;
  const answer = await ask({ type: 'dismiss_give_back', pairing: id });
  if (answer.ok !== true) showAlert(answer);
  generation += 1;
  await loadState('popup_state');
});

// ---- Pair with a code --------------------------------------------------------------------

let pairing = false;

$('pair-code-hub').addEventListener('input', (event) => {
  event.target.dataset.touched = 'true';
});

$('pair-code-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  if (pairing) return;
  const form = event.currentTarget;
  const hub = form.elements.hub;
  const code = form.elements.code;
  const error = $('pair-code-error');
  const status = $('pair-code-status');
  error.textContent = '';
  status.textContent = '';
  hub.removeAttribute('aria-invalid');
  code.removeAttribute('aria-invalid');

  for (const [field, key] of [
    [hub, 'pairCodeNeedHub'],
    [code, 'pairCodeNeedCode'],
  ]) {
    if (!field.value.trim()) {
      field.setAttribute('aria-invalid', 'true');
      error.textContent = t(key);
      field.focus();
      return;
    }
  }

  pairing = true;
  form.setAttribute('aria-busy', 'true');
  status.textContent = t('pairCodeChecking');
  const answer = await ask({ type: 'pair_code', hub: hub.value.trim(), code: code.value.trim() }, SLOW_ANSWER_WAIT_MS);
  pairing = false;
  form.removeAttribute('aria-busy');
  if (answer.ok === true) {
    status.textContent = t('pairCodeOpened');
    code.value = '';
  } else {
    status.textContent = '';
    error.replaceChildren(
      el('span', { text: answer.message || answer.error || '' }),
      ' ',
      el('span', { class: 'detail', text: t('errorCode', answer.error ?? '') }),
    );
    const field = answer.field === 'hub' ? hub : code;
    field.setAttribute('aria-invalid', 'true');
    field.focus();
  }
});

// ---- Start --------------------------------------------------------------------------------

function show(state) {
  document.body.dataset.state = state;
  $('status-loading').hidden = state !== 'loading';
  $('status-error').hidden = state !== 'error';
  $('standard').hidden = state !== 'ready';
  $('status').hidden = state === 'ready';
}

function renderError(answer) {
  $('status-error-detail').textContent = t('statusDetail', `${answer.error}: ${answer.message}`);
  show('error');
  $('retry').focus();
}

async function ping() {
  const pong = await ask({ type: 'ping' });
  if (pong.ok !== true) return renderError(pong);
  $('standard-version').textContent = pong.standard;
  $('extension-version').textContent = t('extensionVersionLabel', pong.version);
  show('ready');
}

async function start() {
  show('loading');
  showAlert(null);
  const pinged = ping();
  // The cached state at once, then the hubs' news when it comes.
  const first = await loadState('popup_state');
  await pinged;
  if (first.ok !== true) return;
  $('refresh-status').textContent = t('checkingHubs');
  const refreshed = await loadState('popup_refresh');
  $('refresh-status').textContent = '';
  // The refresh failed (its error is shown): render what the background learned meanwhile.
  if (refreshed.ok !== true) await loadState('popup_state');
}

localize();
$('retry').addEventListener('click', start);
start();
