// Why JavaScript: the browser runs a popup's page script as JS. This one only asks the background
// (Rust, through runtime messages) and renders its answers; it decides nothing.

const api = globalThis.browser ?? globalThis.chrome;

// How long the popup waits for the background before it says so (a starting service worker
// answers in well under a second).
const ANSWER_WAIT_MS = 5000;

const $ = (id) => document.getElementById(id);
const t = (key, ...subs) => api.i18n.getMessage(key, subs) || key;

function localize() {
  document.documentElement.lang = api.i18n.getUILanguage();
  for (const el of document.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
}

// Ask the background; resolves to its answer, or to { ok: false, ... } if it did not answer.
async function ask(request) {
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(
      () => resolve({ ok: false, error: 'no_answer', message: `no answer within ${ANSWER_WAIT_MS} ms` }),
      ANSWER_WAIT_MS,
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

async function refresh() {
  show('loading');
  const pong = await ask({ type: 'ping' });
  if (pong.ok !== true) return renderError(pong);
  $('standard-version').textContent = pong.standard;
  $('extension-version').textContent = t('extensionVersionLabel', pong.version);
  show('ready');
}

localize();
$('retry').addEventListener('click', refresh);
refresh();
