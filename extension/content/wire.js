// Why this is JavaScript: a content script is the only code of the extension that can hear a drop
// on a web page or read its selection, and browsers refuse WebAssembly in content scripts on pages
// whose CSP lacks 'wasm-unsafe-eval'. This is the last of the content script's three files
// (collect.js, note.js, wire.js, in that order): the WIRING of listeners and messages. It FORWARDS
// a trusted drop of an agent's mark and the background's requests for a selection to the
// extension's background, with what collect.js collected, and shows what the background answers
// through note.js. It decides nothing: the payload goes to Rust raw and is parsed there.
//
// Cost on every page load is near zero: at load this file only registers four listeners. The DOM
// is walked only when a drop of an agent's mark arrives or the background asks (selection or
// command).
//
// The manifest runs these files at document_start, and the drag listeners below go on `window` in
// the capture phase, so they are registered before any script of the page runs: a page cannot see
// an agent's drop before the extension does. What the page's own root says (data-apc-native-drops)
// is read when an event arrives, never at load (the root may not exist yet). Observations travel
// as JSON text, so the background checks their size before reading them.
//
// Tests inject the three files into a page and call collectObservation(); this wiring runs only
// inside the extension (when the runtime has an id), so nothing else is set up then.

"use strict";

(function wire() {
  var api = globalThis.browser && globalThis.browser.runtime ? globalThis.browser : globalThis.chrome;
  if (!api || !api.runtime || !api.runtime.id) return;
  if (globalThis.__apcContentWired) return; // injected twice (e.g. after an extension update)
  globalThis.__apcContentWired = true;

  var note = makeNote(text, function (token) {
    send({ type: "page.undo", token: token });
  }, function () {
    send({ type: "page.note_hidden" });
  });

  function nativeDrops() {
    var root = document.documentElement;
    return !!root && root.hasAttribute("data-apc-native-drops");
  }

  function text(key) {
    try {
      return api.i18n.getMessage(key) || key;
    } catch (e) {
      return key;
    }
  }

  function ours(event) {
    if (!event.isTrusted || nativeDrops()) return false;
    var dt = event.dataTransfer;
    return !!dt && Array.prototype.indexOf.call(dt.types || [], APC_AGENT_TYPE) !== -1;
  }

  function onDragOver(event) {
    if (!ours(event)) return; // the page's own drag and drop is untouched
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
  }

  // A name for one drop, so the background can tell its two messages from another drop's (not a
  // secret: the background also requires the same tab).
  function newDropId() {
    var words = new Uint32Array(2);
    crypto.getRandomValues(words);
    return "d" + words[0].toString(16) + words[1].toString(16);
  }

  function onDrop(event) {
    if (!ours(event)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    var payload = String(event.dataTransfer.getData(APC_AGENT_TYPE)); // raw: Rust checks it
    var request = { how: "drop", x: event.clientX, y: event.clientY };
    // Two collections, their anchors (drop point, caret) both read now, in the drop event: first
    // what the reading needs around the point, sent as soon as it is collected (the background
    // pins it at once), then the whole page for its main text, walked only once the background
    // answers that it pinned (or asked) and waits for it, so that walk never competes with the pin.
    // Each walks in short slices, so the page is never frozen by a long collection.
    var page;
    try {
      page = startCollection(request);
    } catch (e) {
      send({ type: "page.drop", payload: payload, observation: "" }); // the background says the page could not be read
      return;
    }
    var around = null;
    try {
      around = startCollection(request, { aroundOnly: true });
    } catch (e) {
      around = null;
    }
    if (!around) {
      sendWhole(page, payload, null); // one message, as before
      return;
    }
    runCollection(around).then(
      function (observation) {
        var dropId = newDropId();
        ask({ type: "page.drop", payload: payload, observation: JSON.stringify(observation), drop_id: dropId }).then(
          function (answer) {
            if (answer && answer.ok === true && answer.send_page_text === true) sendWhole(page, payload, dropId);
          },
          function () {} // no background to send it to
        );
      },
      function () {
        nextTask(function () { sendWhole(page, payload, null); });
      }
    );
  }

  // The whole page's observation: the second message of drop `dropId`, or with none the drop's
  // only message.
  function sendWhole(page, payload, dropId) {
    runCollection(page).then(
      function (observation) {
        var json = JSON.stringify(observation);
        if (dropId) send({ type: "page.drop_text", drop_id: dropId, observation: json });
        else send({ type: "page.drop", payload: payload, observation: json });
      },
      function () {
        if (dropId) send({ type: "page.drop_text", drop_id: dropId, observation: "" }); // it will not come
        else send({ type: "page.drop", payload: payload, observation: "" });
      }
    );
  }

  function send(message) {
    ask(message).then(null, function () {});
  }

  // Sends a message; a promise of the background's answer (rejected when there is none).
  function ask(message) {
    try {
      var p = api.runtime.sendMessage(message);
      return p && typeof p.then === "function" ? p : Promise.reject(new Error("no answer"));
    } catch (e) {
      // The extension was updated or removed: this page's script is orphaned.
      return Promise.reject(e);
    }
  }

  window.addEventListener("dragenter", onDragOver, true);
  window.addEventListener("dragover", onDragOver, true);
  window.addEventListener("drop", onDrop, true);

  api.runtime.onMessage.addListener(function (message, sender, sendResponse) {
    if (!message || typeof message !== "object") return undefined;
    if (message.type === "page.collect") {
      if (nativeDrops()) {
        sendResponse({ ok: false, error: "native_drops" });
        return undefined;
      }
      var how = message.how === "command" ? "command" : "selection";
      collectObservationAsync({ how: how }).then(
        function (observation) {
          sendResponse({ ok: true, observation: JSON.stringify(observation) });
        },
        function (e) {
          sendResponse({ ok: false, error: e && e.code ? e.code : "collect_failed" });
        }
      );
      return true; // the answer comes once the collection ends
    }
    if (message.type === "page.feedback") {
      note.show(message);
      return undefined;
    }
    return undefined;
  });
})();
