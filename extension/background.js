// Why JavaScript: the browser starts an extension's background from a script (a module service
// worker in Chrome, a module event page in Firefox), and its event listeners must be registered
// synchronously while that script first runs, before any WebAssembly can be fetched and compiled.
// So this loader only registers listeners and forwards every event to Rust (crates/background);
// Rust decides everything. It never assumes `window`.

import init, { handleMessage, handleEvent } from './wasm/apc_background.js';

const api = globalThis.browser ?? globalThis.chrome;

// Resolves once the WASM module is ready. Every listener chains on it, so events that arrive
// before then wait here in order (the queue) and are handed to Rust as soon as it is up.
const ready = init({ module_or_path: new URL('./wasm/apc_background_bg.wasm', import.meta.url) });
ready.catch((error) => console.error('apc: the background could not start', error));

// The one answer JS gives by itself: Rust is not there to answer.
const unavailable = (error) => ({
  ok: false,
  error: 'background_unavailable',
  message: String(error?.message ?? error),
});

// Messages: answered through sendResponse (returning true keeps the channel open), which both
// browsers support; Rust's answer is always a value, never a throw.
api.runtime.onMessage.addListener((message, sender, sendResponse) => {
  ready.then(() => handleMessage(message, sender)).then(sendResponse, (error) => sendResponse(unavailable(error)));
  return true;
});

// Any other event: one line each, all flow to Rust's events router as (name, [arguments]).
function forward(event, name) {
  event.addListener((...args) => {
    ready
      .then(() => handleEvent(name, args))
      .then((reply) => reply?.ok || console.warn('apc:', name, reply))
      .catch((error) => console.error('apc:', name, unavailable(error)));
  });
}

forward(api.runtime.onInstalled, 'runtime.onInstalled');
forward(api.runtime.onStartup, 'runtime.onStartup');
forward(api.contextMenus.onClicked, 'contextMenus.onClicked');
forward(api.commands.onCommand, 'commands.onCommand');
forward(api.alarms.onAlarm, 'alarms.onAlarm');
forward(api.windows.onRemoved, 'windows.onRemoved');

// The same path a browser event takes, for callers inside this background only (pages and content
// scripts cannot reach this global). End-to-end tests use it for what a headless browser cannot
// click: the context menu entry and the keyboard command.
globalThis.apcBackground = Object.freeze({
  dispatch: (name, args) => ready.then(() => handleEvent(name, args)),
});
