// Why this is JavaScript: a content script is the only code of the extension that can hear a drop
// on a web page or read its selection, and browsers refuse WebAssembly in content scripts on pages
// whose CSP lacks 'wasm-unsafe-eval'. This is the last of the content script's three files
// (collect.js, note.js, wire.js, in that order): the WIRING of listeners and messages. It FORWARDS
// a trusted drop of an agent's mark and the background's requests for a selection to the
// extension's background, with what collect.js collected, and shows what the background answers
// through note.js. It decides nothing: the payload goes to Rust raw and is parsed there.
//
// Cost on every page load is near zero: at load this file only registers five listeners and one
// mutation observer of the document's own children. The DOM is walked only when a drop of an
// agent's mark arrives or the background asks (selection or command).
//
// The manifest runs these files at document_start in every frame (all_frames, and frames with no
// address of their own: match_about_blank, match_origin_as_fallback), and the drag listeners below
// go on `window` in the capture phase, so they are registered before any script of the page or
// frame runs: no page or frame script sees an agent's drag (enter, over, leave: stopped here) or its
// drop and payload. `document.open()` erases every listener of a window, the extension's too; they
// are put back as soon as the document's root is replaced (a listener the page adds in the same task
// as its document.open() comes first: docs/SECURITY.md). What the page's own root says
// (data-apc-native-drops) is read when an event arrives, never at load (the root may not exist
// yet). Observations travel as JSON text, so the background checks their size before reading them.
//
// In a frame, a drop counts only where the person could see the frame (the background decides, from
// what this file collects): Chromium says so itself (IntersectionObserver v2's isVisible, for a
// one-pixel probe in the top layer at the drop point); Firefox has no such observer, so the frame
// gives its parent frame's id (runtime.getFrameId) and the background asks each frame above it
// whether it shows that frame's element at the point (page.frame_shown, answered below). Notes
// are shown in the top frame only. The selection's frame: the context menu names it; for the
// keyboard command and the popup, each frame says whether the focus is in one of its own frames
// (page.collect with follow_focus), found by its place among its parent's window.frames.
//
// Tests inject the three files into a page and call collectObservation(); this wiring runs only
// inside the extension (when the runtime has an id), so nothing else is set up then.

"use strict";

(function wire() {
  var api = globalThis.browser && globalThis.browser.runtime ? globalThis.browser : globalThis.chrome;
  if (!api || !api.runtime || !api.runtime.id) return;
  if (globalThis.__apcContentWired) return; // injected twice (e.g. after an extension update)
  globalThis.__apcContentWired = true;

  var TOP = window === window.top;
  // The agent's mark seen from a frame: how long the browser may take to say it was visible.
  var VISIBILITY_WAIT_MS = 1000;

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
    event.stopImmediatePropagation(); // the page never learns an agent's mark passes over it
    event.dataTransfer.dropEffect = "copy";
  }

  function onDragLeave(event) {
    if (ours(event)) event.stopImmediatePropagation();
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
    // In a frame: what it saw of the drop's place, sent with the drop (collected meanwhile).
    var place = TOP ? Promise.resolve(undefined) : frameFacts(event.clientX, event.clientY);
    // Two collections, their anchors (drop point, caret) both read now, in the drop event: first
    // what the reading needs around the point, sent as soon as it is collected (the background
    // pins it at once), then the whole page for its main text, walked only once the background
    // answers that it pinned (or asked) and waits for it, so that walk never competes with the pin.
    // Each walks in short slices, so the page is never frozen by a long collection.
    var page;
    try {
      page = startCollection(request);
    } catch (e) {
      place.then(function (frame) {
        // The background says the page could not be read.
        send({ type: "page.drop", payload: payload, observation: "", frame: frame });
      });
      return;
    }
    var around = null;
    try {
      around = startCollection(request, { aroundOnly: true });
    } catch (e) {
      around = null;
    }
    if (!around) {
      place.then(function (frame) { sendWhole(page, payload, null, frame); }); // one message, as before
      return;
    }
    Promise.all([runCollection(around), place]).then(
      function (done) {
        var dropId = newDropId();
        var first = { type: "page.drop", payload: payload, observation: JSON.stringify(done[0]), drop_id: dropId, frame: done[1] };
        ask(first).then(
          function (answer) {
            if (answer && answer.ok === true && answer.send_page_text === true) sendWhole(page, payload, dropId);
          },
          function () {} // no background to send it to
        );
      },
      function () {
        place.then(function (frame) {
          nextTask(function () { sendWhole(page, payload, null, frame); });
        });
      }
    );
  }

  // The whole page's observation: the second message of drop `dropId`, or with none the drop's
  // only message (with what a frame saw of its place).
  function sendWhole(page, payload, dropId, frame) {
    runCollection(page).then(
      function (observation) {
        var json = JSON.stringify(observation);
        if (dropId) send({ type: "page.drop_text", drop_id: dropId, observation: json });
        else send({ type: "page.drop", payload: payload, observation: json, frame: frame });
      },
      function () {
        if (dropId) send({ type: "page.drop_text", drop_id: dropId, observation: "" }); // it will not come
        else send({ type: "page.drop", payload: payload, observation: "", frame: frame });
      }
    );
  }

  // ---- Frames ----

  // What a frame saw of a drop at (x, y) of its viewport: visible there or not where the browser
  // can tell the frame (Chromium), else `visible: null` and the frame's parent, for the background
  // to ask up the frames (Firefox).
  function frameFacts(x, y) {
    var facts = { visible: null, x: x, y: y, parent: parentFrameId() };
    if (!seesItsOwnVisibility()) return Promise.resolve(facts);
    return visibleAt(x, y).then(function (visible) {
      facts.visible = visible;
      return facts;
    });
  }

  function seesItsOwnVisibility() {
    return typeof IntersectionObserverEntry === "function" && "isVisible" in IntersectionObserverEntry.prototype;
  }

  // IntersectionObserver v2 on a one-pixel probe at (x, y), in this frame's top layer: above all of
  // the frame's own content, so only what is outside the frame (its element's or an ancestor's
  // opacity, filter or transform, content of the embedding page over it, pointer-events or not)
  // can make it not visible. A new observer's first answer says how it is now. No answer in time,
  // or a page that takes the probe away: not visible.
  function visibleAt(x, y) {
    return new Promise(function (resolve) {
      var probe = document.createElement("apc-frame-probe");
      var done = false;
      var observer = null;
      var timer = 0;
      function finish(visible) {
        if (done) return;
        done = true;
        clearTimeout(timer);
        if (observer) observer.disconnect();
        probe.remove();
        resolve(visible);
      }
      try {
        probe.setAttribute("popover", "manual");
        probe.setAttribute("data-apc-ui", "");
        probe.style.cssText = [
          "all:initial", "display:block", "position:fixed", "inset:auto", "left:" + Math.floor(x) + "px",
          "top:" + Math.floor(y) + "px", "width:1px", "height:1px", "margin:0", "padding:0", "border:0",
          "background:transparent", "opacity:1", "transform:none", "filter:none", "overflow:hidden",
          "pointer-events:none", "visibility:visible",
        ].map(function (d) { return d + " !important"; }).join(";");
        (document.body || document.documentElement).appendChild(probe);
        if (typeof probe.showPopover === "function") probe.showPopover();
        observer = new IntersectionObserver(function (entries) {
          var last = entries[entries.length - 1];
          finish(!!last && last.isIntersecting && last.isVisible === true);
        }, { trackVisibility: true, delay: 100 });
        observer.observe(probe);
        timer = setTimeout(function () { finish(false); }, VISIBILITY_WAIT_MS);
      } catch (e) {
        finish(false);
      }
    });
  }

  // This frame's parent frame, as the browser numbers frames (Firefox's runtime.getFrameId); null
  // where the browser does not say.
  function parentFrameId() {
    try {
      var id = api.runtime.getFrameId ? api.runtime.getFrameId(window.parent) : -1;
      return typeof id === "number" && id >= 0 ? id : null;
    } catch (e) {
      return null;
    }
  }

  // A shadow root the extension may read, open or closed (Chromium: chrome.dom; Firefox: the
  // element's openOrClosedShadowRoot).
  function shadowOf(el) {
    try {
      if (el.shadowRoot) return el.shadowRoot;
      if (api.dom && api.dom.openOrClosedShadowRoot) return api.dom.openOrClosedShadowRoot(el);
      return el.openOrClosedShadowRoot || null;
    } catch (e) {
      return null;
    }
  }

  function isFrameElement(el) {
    return !!el && (el.localName === "iframe" || el.localName === "frame" || el.localName === "object");
  }

  // This frame's place below the top: its index among its parent's frames, for each frame up.
  function framePath() {
    var path = [];
    var w = window;
    try {
      for (var depth = 0; w !== w.parent && depth < 32; depth++) {
        var parent = w.parent;
        var at = -1;
        for (var i = 0; i < parent.frames.length; i++) {
          if (parent.frames[i] === w) {
            at = i;
            break;
          }
        }
        if (at < 0) return null;
        path.unshift(at);
        w = parent;
      }
    } catch (e) {
      return null;
    }
    return path;
  }

  function samePath(a, b) {
    if (!a || !Array.isArray(b) || a.length !== b.length) return false;
    for (var i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }

  // The index among this document's frames of the frame that has the focus, or -1 when the
  // focus is in this document itself (through shadow roots: the focused element's own).
  function focusedFrameIndex() {
    var el = document.activeElement;
    for (var depth = 0; el && depth < 32; depth++) {
      var root = shadowOf(el);
      if (!root || !root.activeElement) break;
      el = root.activeElement;
    }
    if (!isFrameElement(el) || !el.contentWindow) return -1;
    for (var i = 0; i < window.frames.length; i++) if (window.frames[i] === el.contentWindow) return i;
    return -1;
  }

  // Firefox: whether this document shows its frame `child` (a browser frame id) at point (x, y)
  // of that frame's viewport: the frame's element is what the point hits here (nothing with pointer
  // events over it; not clipped away), it is visible, and neither it nor anything it is in is made
  // see-through (opacity, filter, mask, blend mode). Gives the point in this document's viewport,
  // and this frame's own parent for the next question up.
  function frameShown(message) {
    var answer = { shown: false, x: 0, y: 0, parent: TOP ? null : parentFrameId() };
    var el = frameElementOf(document, Number(message.child));
    var x = Number(message.x);
    var y = Number(message.y);
    if (!el || !isFinite(x) || !isFinite(y)) return answer;
    var box = el.getBoundingClientRect();
    var style = getComputedStyle(el);
    var sx = el.offsetWidth ? box.width / el.offsetWidth : 1;
    var sy = el.offsetHeight ? box.height / el.offsetHeight : 1;
    answer.x = box.left + (el.clientLeft + (parseFloat(style.paddingLeft) || 0) + x) * sx;
    answer.y = box.top + (el.clientTop + (parseFloat(style.paddingTop) || 0) + y) * sy;
    answer.shown = hits(el, answer.x, answer.y) && seenThrough(el);
    return answer;
  }

  // The element of frame `child` in `root`: among its frame elements, else inside the shadow
  // roots of its elements (open or closed), at any depth.
  function frameElementOf(root, child) {
    var frames = root.querySelectorAll("iframe, frame, object, embed");
    for (var i = 0; i < frames.length; i++) {
      try {
        if (api.runtime.getFrameId(frames[i]) === child) return frames[i];
      } catch (e) {
        // not a frame the browser numbers
      }
    }
    var all = root.querySelectorAll("*");
    for (var j = 0; j < all.length; j++) {
      var shadow = shadowOf(all[j]);
      var found = shadow && frameElementOf(shadow, child);
      if (found) return found;
    }
    return null;
  }

  function hits(el, x, y) {
    var hit = document.elementFromPoint(x, y);
    for (var depth = 0; hit && hit !== el && depth < 32; depth++) {
      var root = shadowOf(hit);
      var inner = root && root.elementFromPoint(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    return hit === el;
  }

  function seenThrough(el) {
    if (el.checkVisibility && !el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false;
    for (var node = el, depth = 0; node && depth < 4096; depth++) {
      var style = getComputedStyle(node);
      if (parseFloat(style.opacity) < 1 || style.filter !== "none" || style.mixBlendMode !== "normal") return false;
      var mask = style.maskImage || style.webkitMaskImage || "none";
      if (mask !== "none") return false;
      node = node.parentElement || (node.getRootNode() && node.getRootNode().host) || null;
    }
    return true;
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

  // On the window, in the capture phase: before any listener the page adds. Again after a
  // document.open() erased them (the browser keeps one registration of each: this adds nothing
  // when they are there).
  function listen() {
    window.addEventListener("dragenter", onDragOver, true);
    window.addEventListener("dragover", onDragOver, true);
    window.addEventListener("dragleave", onDragLeave, true);
    window.addEventListener("drop", onDrop, true);
  }
  listen();
  new MutationObserver(listen).observe(document, { childList: true });

  api.runtime.onMessage.addListener(function (message, sender, sendResponse) {
    if (!message || typeof message !== "object") return undefined;
    if (message.type === "page.collect") {
      // Asked of every frame by place: only the frame there answers.
      var path = message.path === undefined ? null : framePath();
      if (message.path !== undefined && !samePath(path, message.path)) return undefined;
      if (nativeDrops()) {
        sendResponse({ ok: false, error: "native_drops" });
        return undefined;
      }
      var inFrame = message.follow_focus === true ? focusedFrameIndex() : -1;
      if (inFrame >= 0) {
        var here = path || framePath();
        sendResponse(here ? { ok: false, error: "in_frame", path: here.concat([inFrame]) } : { ok: false, error: "no_selection" });
        return undefined;
      }
      var how = message.how === "command" ? "command" : "selection";
      collectObservationAsync({ how: how }).then(
        function (observation) {
          var answer = { ok: true, observation: JSON.stringify(observation) };
          if (!TOP) answer.frame = { url: String(location.href), origin: String(window.origin) };
          sendResponse(answer);
        },
        function (e) {
          sendResponse({ ok: false, error: e && e.code ? e.code : "collect_failed" });
        }
      );
      return true; // the answer comes once the collection ends
    }
    if (message.type === "page.feedback") {
      if (TOP) note.show(message); // notes live in the top frame only
      return undefined;
    }
    if (message.type === "page.frame_shown") {
      sendResponse(frameShown(message));
      return undefined;
    }
    return undefined;
  });
})();
