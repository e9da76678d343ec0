// Why this is JavaScript: the note a person reads in the page after pointing (pinned, with Undo;
// asked in a window; an error) must be drawn inside the page itself, and only a content script can
// do that; browsers refuse WebAssembly in content scripts on pages whose CSP lacks
// 'wasm-unsafe-eval'. This is the second of the content script's three files (collect.js, note.js,
// wire.js, in that order). It RENDERS what the background tells it, in the words the background
// chose (already localized), and decides nothing. It runs nothing at load: wire.js makes the note
// (makeNote) when the extension's runtime is there.
//
// The note: a closed shadow root (the page can neither read nor restyle its inside) in a host that
// is shown in the top layer (a popover: above anything the page stacks) with every property it
// needs set inline and !important (page CSS cannot override an inline !important declaration).
// If the page still hides it (a script removing or restyling the host), `onHidden` is called and
// the background shows it on the toolbar badge instead.

"use strict";

var NOTE_HOST_STYLE = [
  "all:initial", "display:block", "position:fixed", "inset:auto 16px 16px auto", "margin:0",
  "padding:0", "border:0", "background:transparent", "overflow:visible", "width:auto",
  "height:auto", "max-width:none", "max-height:none", "z-index:2147483647", "visibility:visible",
  "opacity:1", "transform:none", "filter:none", "clip-path:none", "pointer-events:auto",
  "content-visibility:visible", "color-scheme:light",
].map(function (d) { return d + " !important"; }).join(";");

var NOTE_CSS =
  ".box{font:14px/1.4 system-ui,sans-serif;color:#111;background:#fff;border:1px solid #bbb;" +
  "border-radius:8px;box-shadow:0 2px 12px rgba(0,0,0,.2);padding:10px 12px;width:380px;max-width:calc(100vw - 48px)}" +
  ".error{border-color:#c33}.actions{display:flex;gap:10px;align-items:center;justify-content:flex-end;margin-top:8px}" +
  "a{overflow-wrap:anywhere;margin-right:auto}" +
  "button{font:inherit;cursor:pointer;border:1px solid #888;border-radius:6px;background:#f4f4f4;padding:2px 8px}" +
  "a{color:#0645ad}";

/**
 * The page's one note. `text(key)` gives the extension's own labels (Undo, Close, the link's),
 * `onUndo(token)` is called when the person presses Undo, `onHidden()` when the page hid the note.
 * @returns {{ show(message): void, hide(): void }}
 */
function makeNote(text, onUndo, onHidden) {
  var state = { host: null, shadow: null, hideTimer: 0, watcher: null };

  function hide() {
    clearTimeout(state.hideTimer);
    if (state.watcher) state.watcher.disconnect();
    state.watcher = null;
    if (state.host) state.host.remove();
    state.host = null;
    state.shadow = null;
  }

  function checkShown() {
    if (state.host && !noteVisible(state.host)) onHidden();
  }

  function show(message) {
    var shadow = noteRoot(state, checkShown);
    while (shadow.firstChild) shadow.removeChild(shadow.firstChild);
    var style = document.createElement("style");
    style.textContent = NOTE_CSS;
    shadow.appendChild(style);
    var box = noteBox(message, text, function (token) {
      onUndo(token);
      hide();
    }, hide);
    shadow.appendChild(box);
    holdWhileUsed(state, box, message.kind === "error" ? 15000 : 8000, hide);
    setTimeout(checkShown, 50);
  }

  return { show: show, hide: hide };
}

// The note's host in the top layer, made (again) when it is not in the page; its closed shadow root.
function noteRoot(state, checkShown) {
  if (!state.host || !state.host.isConnected) {
    var host = document.createElement("apc-page-feedback");
    host.setAttribute("data-apc-ui", "");
    host.setAttribute("popover", "manual");
    state.host = host;
    state.shadow = host.attachShadow({ mode: "closed" });
    (document.body || document.documentElement).appendChild(host);
    if (state.watcher) state.watcher.disconnect();
    state.watcher = new MutationObserver(function () {
      if (state.host && state.host.getAttribute("style") !== NOTE_HOST_STYLE) {
        state.host.setAttribute("style", NOTE_HOST_STYLE);
      }
      setTimeout(checkShown, 0);
    });
    state.watcher.observe(host, { attributes: true });
  }
  state.host.setAttribute("style", NOTE_HOST_STYLE);
  noteWithoutBackdrop();
  try {
    if (typeof state.host.showPopover === "function" && !state.host.matches(":popover-open")) {
      state.host.showPopover();
    }
  } catch (e) {
    // No popover support: the fixed, inline-styled host is shown as is.
  }
  return state.shadow;
}

// The note's popover has no ::backdrop box. The browser gives every popover one the size of the
// viewport (transparent, no pointer events), which Chromium's IntersectionObserver v2 counts as
// covering every frame of the page: a drop in a frame while a note is shown would then read as a
// drop on a frame nobody could see (wire.js, visibleAt). Once per document, as an adopted sheet.
function noteWithoutBackdrop() {
  try {
    var sheets = document.adoptedStyleSheets;
    if (!sheets || typeof CSSStyleSheet !== "function") return;
    for (var i = 0; i < sheets.length; i++) if (sheets[i].__apcNoBackdrop) return;
    var sheet = new CSSStyleSheet();
    sheet.replaceSync("apc-page-feedback::backdrop{display:none!important}");
    sheet.__apcNoBackdrop = true;
    document.adoptedStyleSheets = Array.prototype.concat.call([], Array.prototype.slice.call(sheets), [sheet]);
  } catch (e) {
    // A browser without constructed style sheets here: the backdrop stays.
  }
}

// The note's box: its line, the background's link (if any), Undo (if any), Close.
function noteBox(message, text, undo, close) {
  var box = document.createElement("div");
  box.className = "box " + (message.kind === "error" ? "error" : "");
  box.setAttribute("role", message.kind === "error" ? "alert" : "status");
  var line = document.createElement("div");
  line.textContent = String(message.text || "");
  box.appendChild(line);
  var actions = document.createElement("div");
  actions.className = "actions";
  box.appendChild(actions);
  // The background chooses the link; this guard only keeps a javascript: URL from ever becoming
  // a clickable link in a page, whatever a bug upstream might send.
  if (typeof message.link === "string" && /^https?:\/\//i.test(message.link)) {
    var a = document.createElement("a");
    a.href = message.link;
    a.target = "_blank";
    a.rel = "noopener noreferrer";
    a.textContent = text("noteLinkLabel");
    a.title = message.link;
    actions.appendChild(a);
  }
  if (typeof message.undo_token === "string" && message.undo_token) {
    var button = document.createElement("button");
    button.type = "button";
    button.textContent = text("noteUndo");
    var token = message.undo_token;
    button.addEventListener("click", function () { undo(token); });
    actions.appendChild(button);
  }
  var x = document.createElement("button");
  x.type = "button";
  x.textContent = "\u00d7";
  x.setAttribute("aria-label", text("noteClose"));
  x.addEventListener("click", close);
  actions.appendChild(x);
  return box;
}

// The note goes by itself after a while, but never from under the person: while the pointer is
// on it or the keyboard is in it, it stays (time to read it, or to reach Undo by Tab), and it
// gets its whole time again once they leave. Escape inside it closes it.
function holdWhileUsed(state, box, shownFor, hide) {
  var held = { pointer: false, focus: false };
  function hold(what, on) {
    held[what] = on;
    clearTimeout(state.hideTimer);
    if (!held.pointer && !held.focus) state.hideTimer = setTimeout(hide, shownFor);
  }
  box.addEventListener("pointerenter", function () { hold("pointer", true); });
  box.addEventListener("pointerleave", function () { hold("pointer", false); });
  box.addEventListener("focusin", function () { hold("focus", true); });
  box.addEventListener("focusout", function (event) {
    if (!box.contains(event.relatedTarget)) hold("focus", false);
  });
  box.addEventListener("keydown", function (event) {
    if (event.key === "Escape") hide();
  });
  hold("pointer", false);
}

function noteVisible(el) {
  if (!el || !el.isConnected) return false;
  if (typeof el.checkVisibility === "function" && !el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) {
    return false;
  }
  var box = el.getBoundingClientRect();
  return box.width > 0 && box.height > 0;
}
