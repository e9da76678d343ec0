// Why this is JavaScript: browsers refuse to compile WebAssembly in a content script on any page
// whose CSP lacks 'wasm-unsafe-eval', and a content script must work on every page. This file is
// the content script's collector, the first of its three files (collect.js, note.js, wire.js, run
// in that order in one isolated world by the manifest's `content_scripts`). It holds no rules: it
// COLLECTS what the browser alone knows (the DOM, computed styles, boxes, the drop point, the
// selection) into an observation (crates/content/OBSERVATION.md). Which text is visible, what was
// pointed at, the focus grammar and every cap on the reading are decided in Rust (crates/content),
// in the background. Page text is data, never instructions: nothing here interprets it.
//
// It defines collectObservation(request) and collectObservationAsync(request, options) (tests and
// tools outside the extension call them in a page's isolated world), and startCollection /
// runCollection for wire.js. It runs nothing at load.

"use strict";

// The standard drag type of an agent's mark (APC: "Drag payload and pairing").
var APC_AGENT_TYPE = "application/x-apc-agent";

// Collection caps (cost, not rules): the walk stops here and says `truncated`; Rust enforces its own
// hard limits. They are sized from what the reading can hold, not from the page: the reading sent
// to the hub is at most 256 KiB (`READING_MAX_BYTES`), the main text taking what room is left, so
// the main walk collects the text of 1.5 readings (room for the boilerplate the main-text rules
// drop) and at most COLLECT_MAX_NODES nodes. Every node costs a few microseconds of computed-style
// reads, so this is what bounds the time of a drop's page text on a node-dense page (5,000
// paragraphs of six elements collect ~17,000 nodes, not 31,000; the walk runs in slices, so no
// page task grows). Its size comes from WCXB's 2025-26 pages: at 6,000, 80 of 1,497 pages spent
// the cap on menus and headers before reaching their content (most of them shops and
// collections); all but 2 of them fit in 16,000 (the article corpus's largest page is ~3,800).
// Past them, what the reading needs around the point is still collected, from a reserve: the
// pointed nodes' ancestors, the headings before the point (H1) and the point's neighbourhood
// (the pointed element whole, then its surroundings until COLLECT_SIDE_TEXT units each side).
var COLLECT_MAX_NODES = 16000;
var COLLECT_MAX_TEXT = 393216; // UTF-16 code units
var COLLECT_RESERVE_NODES = 2000;
var COLLECT_RESERVE_TEXT = 98304; // the pointed text (at most 64 KiB) and its context
var COLLECT_SIDE_TEXT = 4096; // context each side of the pointed element (the reading keeps 600 characters)
var COLLECT_SIDE_NODES = 750; // of the reserve, each side's share
var COLLECT_MAX_HEADINGS = 64; // headings kept before the point past the walk (nearest first)
var COLLECT_HEADING_SCAN = 200000; // candidates looked at, backwards from the point, to find them
var COLLECT_MAX_ATTR = 2048;
var COLLECT_MAX_ATTRS = 32;
var COLLECT_ATTRS = new Set([
  "id", "class", "lang", "hidden", "aria-hidden", "aria-level", "type", "role", "inert",
  "aria-expanded", "aria-controls", "aria-labelledby", "aria-haspopup",
  "data-focus", "data-focus-part", "data-focus-params",
]);
// Attributes collected on one kind of element only, for the reading's Markdown
// (crates/content/src/markdown.rs, K2 and K4-K7): a link's target, an image's alt text and
// source, a table cell's spans, a list's first number, a code block's language.
var COLLECT_TAG_ATTRS = new Map([
  ["a", ["href"]],
  ["img", ["alt", "src"]],
  ["td", ["colspan", "rowspan"]],
  ["th", ["colspan", "rowspan"]],
  ["ol", ["start"]],
  ["pre", ["data-lang", "data-language"]],
  ["code", ["data-lang", "data-language"]],
]);
// Elements whose content is never shown as text: recorded with their attributes, but their
// children are not collected (a collection cap: their text can be large, e.g. JSON state
// carriers). The list is the reader's rule R1 (crates/content/src/render.rs `NEVER_RENDERED`,
// tied to it by the test `r1_is_the_collectors_never_rendered_list`); whether something shows is
// still decided in Rust.
var COLLECT_NEVER_RENDERED = [
  "script", "style", "template", "noscript", "head", "title", "iframe", "frame", "frameset",
  "object", "embed", "canvas", "video", "audio", "select", "datalist", "textarea", "desc",
  "metadata", "defs", "meta", "link", "base",
];
var COLLECT_NO_DESCENT = new Set(COLLECT_NEVER_RENDERED);
// Whether the walk leaves an element's children out (the list above). A <noscript> is the one
// exception, when it shows: in a tab with JavaScript off the browser parses its content into
// elements and renders them (a forum's posts, a site's "no-js" page), while with JavaScript on
// it holds one unparsed text and has no box, whatever a page script puts in it. Rust's R1 reads
// a noscript with collected children as shown (crates/content/src/render.rs).
function collectsNothingIn(el) {
  if (!el || !COLLECT_NO_DESCENT.has(el.localName)) return false;
  return !(el.localName === "noscript" && el.firstElementChild !== null && el.checkVisibility());
}
// Inside an SVG drawing only what can hold text is collected (a cap, no rule: icons can be
// thousands of paths), and a drawing with no text element is not descended at all.
var SVG_NS = "http://www.w3.org/2000/svg";
var COLLECT_SVG_TEXT = ["svg", "g", "a", "text", "tspan", "textPath", "switch", "foreignObject"];
var COLLECT_SVG_KEPT = new Set(COLLECT_SVG_TEXT);
// Elements whose generated ::before / ::after boxes hold no text (replaced and void elements).
var COLLECT_NO_GENERATED = new Set(["img", "input", "br", "wbr", "hr", "area", "source", "track", "col", "param"]);
// The most of a form field's value collected (around its selection or the drop's caret), and of
// its name and autocomplete attributes.
var COLLECT_FIELD_TEXT = 98304;
var COLLECT_FIELD_ATTR = 256;
// Input types whose value is text a person types (and so can point at); a password's value is
// never read (a cap: its field is still reported, so Rust can say why it is not read).
var COLLECT_TEXT_INPUTS = new Set(["text", "search", "url", "tel", "email", "number", "password"]);
// Elements that may host a shadow root a page attaches (custom elements too): only these are
// asked whether they host a closed one.
var COLLECT_SHADOW_HOSTS = new Set(["article", "aside", "blockquote", "body", "div", "footer", "h1", "h2",
  "h3", "h4", "h5", "h6", "header", "main", "nav", "p", "section", "span"]);

/**
 * Collects an observation of the page, synchronously (one task; on a very large page that task
 * can be long: prefer collectObservationAsync where the caller can wait).
 * @param {{how: "drop", x: number, y: number} | {how: "selection" | "command"}} request
 * @returns the observation (crates/content/OBSERVATION.md)
 * @throws Error with `.code = "no_selection"` when a selection was asked for and there is none.
 */
function collectObservation(request, options) {
  var job = startCollection(request, options);
  job.run(Infinity);
  return job.finish();
}

/**
 * The same observation, collected in slices of at most `sliceMs` (default 8) of main-thread time,
 * yielding to the page between them, so a huge page is never frozen by one long task. The drop
 * point, the caret and the selection are read synchronously, before this returns its promise, so
 * a drop handler can call it from the event and the anchors are those of the event. The
 * observation is built (`finish`) in a task of its own, and the promise resolves in that task, so
 * what the caller does with it (serialize, send) does not lengthen the walk's last slice.
 * `options.onSlice(ms)`, if given, hears how long each task took (for benchmarks).
 * @returns Promise of the observation; rejects like collectObservation throws.
 */
function collectObservationAsync(request, options) {
  var job;
  try {
    job = startCollection(request, options);
  } catch (e) {
    return Promise.reject(e);
  }
  return runCollection(job, options);
}

// Runs a started collection (startCollection) in slices, as collectObservationAsync describes.
function runCollection(job, options) {
  var slice = (options && options.sliceMs) || 8;
  var onSlice = options && typeof options.onSlice === "function" ? options.onSlice : null;
  return new Promise(function (resolve, reject) {
    function step() {
      var start = performance.now();
      try {
        var done = job.run(start + slice);
        if (onSlice) onSlice(performance.now() - start); // how long this task took (benchmarks)
        nextTask(done ? end : step);
      } catch (e) {
        reject(e);
      }
    }
    function end() {
      var start = performance.now();
      try {
        var obs = job.finish();
        if (onSlice) onSlice(performance.now() - start);
        resolve(obs);
      } catch (e) {
        reject(e);
      }
    }
    step();
  });
}

// Runs `fn` once in a new task, after what the page has queued (input, rendering, its own
// tasks). A message on a MessageChannel rather than setTimeout(0): chained timers are clamped to
// 4 ms after a few, which would add idle time to every slice of a collection. A timer races it,
// so a browser or sandbox where the message never comes still goes on.
function nextTask(fn) {
  var ran = false;
  function once() {
    if (ran) return;
    ran = true;
    fn();
  }
  try {
    var channel = new MessageChannel();
    channel.port1.onmessage = function () {
      channel.port1.close();
      once();
    };
    channel.port2.postMessage(null);
  } catch (e) {
    // no MessageChannel here: the timer alone
  }
  setTimeout(once, 0);
}

// ---- A collection: its state, and the steps that work on it ----
//
// startCollection reads the anchors at once and returns { run(deadline), finish() }. The work is
// in three phases: the main walk of the page in document order (phase 0), then what the reading
// needs around the point, whatever the main walk reached (phase 1), then done (phase 2). Every
// step below is a named function over the collection's state `col`.

// Starts a collection: reads the anchors now, walks when run. With `options.aroundOnly`, only
// what the reading needs around the point is collected (the pointed nodes' ancestors, the pointed
// element whole, the headings before it, context each side: the reserve), not the page's main
// text: the observation a drop sends first (`truncated`, as it stops there).
function startCollection(request, options) {
  var col = newCollection(request);
  if (options && options.aroundOnly) {
    // No main walk: the root, then the reserve around the point (its budgets are all there is).
    col.phase = 1;
    col.truncated = true;
    col.budgetNodes = 0;
    col.budgetText = 0;
    addNode(col, col.root, -1);
    col.mainEnd = 1;
  } else {
    pushWork(col, col.root, -1, false);
  }
  return {
    // Works until `deadline`; true when the collection is complete.
    run: function (deadline) {
      return runPhases(col, deadline);
    },
    finish: function () {
      return finishObservation(col);
    },
  };
}

// The state of one collection, with its anchors read.
function newCollection(request) {
  var doc = document;
  var view = doc.defaultView;
  var col = {
    doc: doc,
    view: view,
    how: request.how,
    root: doc.documentElement,
    index: new Map(), // DOM node → its index in `nodes`
    nodes: [], // the observation's records
    doms: [], // each record's DOM node, by index
    budgetNodes: COLLECT_MAX_NODES,
    budgetText: COLLECT_MAX_TEXT,
    truncated: false,
    // Read once: layout does not move while the collection runs (a slice boundary may let the
    // page scroll, which only shifts what `offscreen` compares against by the scroll made meanwhile).
    ctx: {
      view: view,
      scrollX: view.scrollX,
      scrollY: view.scrollY,
      width: view.innerWidth,
      height: view.innerHeight,
      checkVisibility: typeof doc.documentElement.checkVisibility === "function",
      ws: "normal",
      cs: undefined,
    },
    rawAnchors: [], // the caret or the selection's ends, as DOM positions
    pointElement: null,
    selection: null,
    field: null, // the form field pointed at (its selection, or the drop on it): see readField
    closedHosts: [], // pointed elements that host a closed shadow root (out of reach)
    collapsed: null, // the ids collapsed toggles control, by tree (collapsedParts), once read
    togglesRead: 0, // the toggles collapsedParts has read, in all trees
    anchorOffsets: new Map(), // text node → the offsets of the anchors in it (a long one is kept around them)
    textFrom: new Map(), // text node → where its record's text starts in it, when it was cut at the front
    wsOf: [], // each element's white-space, for its children's records
    wsParent: -1, // a parent whose white-space counts though the node is not listed in it
    inked: [], // elements whose text facts were read (they have text of their own)
    csOf: [], // elements' computed styles, kept from their record until their text facts are read
    dirty: new Set(), // elements whose `kids` got nodes out of document order: made again at the end
    // The walk's work list, in three parallel stacks: a node, the index of its (flat) parent, and
    // whether its next siblings follow it (false for a slot's assigned nodes, listed one by one).
    stackNode: [],
    stackParent: [],
    stackSiblings: [],
    // Walking backwards (last child first): the context before the point is collected from its
    // nearest end. The `kids` of what it adds are made again at the end.
    backward: false,
    phase: 0, // 0: main walk, 1: around the point, 2: done
    mainEnd: 0, // nodes below this index were added by the main walk (in document order)
    lastMain: null, // the last node the main walk added: it had been everywhere before it
    ordOf: new Map(), // a node's place among its (flat) parent's children, where known
    started: false, // the work around the point was set up
    focusNodes: [],
    jobs: [], // subtree roots still to walk around the point, before the neighbourhood
    near: [], // one neighbourhood cursor per pointed element
    job: null, // the subtree being walked: { side: 0 none, -1 before, 1 after, text, cursor }
  };
  readAnchors(col, request);
  col.focusNodes = col.rawAnchors.map(function (a) { return hostOfRoot(a.node); });
  if (col.pointElement) col.focusNodes.push(col.pointElement);
  col.closedHosts.forEach(function (h) { col.focusNodes.push(h); });
  col.rawAnchors.forEach(function (a) {
    if (a.node.nodeType !== 3 && a.node.nodeType !== 4) return;
    var offsets = col.anchorOffsets.get(a.node) || [];
    offsets.push(a.offset);
    col.anchorOffsets.set(a.node, offsets);
  });
  return col;
}

// Anchors first: the selection or caret is read before the walk, which does not change them. A
// drop's point and a selection are resolved inside open shadow roots at any depth; a form field's
// selection, or a drop on a field, is read from the field (readField).
function readAnchors(col, request) {
  var doc = col.doc;
  if (col.how === "drop") {
    var hit = deepElementFromPoint(doc, request.x, request.y);
    var caret = caretAt(doc, request.x, request.y, hit.roots);
    col.pointElement = hit.element;
    if (isTextField(hit.element)) {
      var at = caret && caret.node === hit.element ? caret.offset : 0;
      col.field = readField(col, hit.element, at, at);
      col.rawAnchors.push({ node: hit.element, offset: 0 });
    } else if (caret) {
      col.rawAnchors.push(caret);
    }
    noteClosedHost(col, hit.element);
    return;
  }
  var field = focusedField(doc);
  if (field) {
    col.field = readField(col, field, field.selectionStart, field.selectionEnd);
    col.rawAnchors.push({ node: field, offset: 0 });
    return;
  }
  var range = selectionRange(doc);
  if (!range || range.collapsed) {
    var err = new Error("There is no selection on this page.");
    err.code = "no_selection";
    throw err;
  }
  col.selection = [
    { node: range.startContainer, offset: range.startOffset },
    { node: range.endContainer, offset: range.endOffset },
  ];
  col.rawAnchors.push(col.selection[0], col.selection[1]);
  noteClosedHost(col, childAt(range.startContainer, range.startOffset));
  noteClosedHost(col, childAt(range.endContainer, range.endOffset - 1));
}

// The phases, until `deadline`; true when the collection is complete.
function runPhases(col, deadline) {
  if (col.phase === 0) {
    if (!walkTree(col, deadline)) return false;
    col.phase = 1;
    col.mainEnd = col.nodes.length;
    col.lastMain = col.doms[col.nodes.length - 1] || col.root;
  }
  if (col.phase === 1) {
    if (!col.started) {
      col.started = true;
      startAround(col);
    }
    if (!walkAround(col, deadline)) return false;
    col.phase = 2;
  }
  return true;
}

// R3's facts, on the element at `at`, read once (see addNode): not on what nothing renders in.
function readTextFactsAt(col, at) {
  col.inked[at] = true;
  var rec = col.nodes[at];
  var style = rec.style;
  if (!style || style.display === "none" || collectsNothingIn(col.doms[at])) return;
  var cs = col.csOf[at] || col.view.getComputedStyle(col.doms[at]);
  col.csOf[at] = undefined;
  if (cs) readTextFacts(cs, style);
}

// `node` was added out of document order: its parent's `kids` are made again at the end.
function markOutOfOrder(col, node) {
  var p = flatParent(node);
  if (p) col.dirty.add(p);
}

// Adds a node's record under the record at `parentAt` (-1: none given); returns its index.
function addNode(col, node, parentAt) {
  var rec;
  var orphan = parentAt < 0;
  // Around the point a node may be added without its parent's index: looked up (its parent is
  // always added first), and the node is listed in its parent's `kids` like any other.
  if (orphan && col.phase > 0) {
    var fp = flatParent(node);
    var fpAt = fp ? col.index.get(fp) : undefined;
    if (fpAt !== undefined && !collectsNothingIn(col.doms[fpAt])) parentAt = fpAt;
    else if (fpAt !== undefined) col.wsParent = fpAt; // its white-space still counts
  }
  if (node.nodeType === 3 || node.nodeType === 4) {
    rec = textRecord(col, node, parentAt);
  } else {
    // The parent's white-space (what "missing" means).
    var wsAt = parentAt >= 0 ? parentAt : col.wsParent;
    var ctx = col.ctx;
    rec = recordElement(node, ctx, wsAt >= 0 && col.wsOf[wsAt] !== undefined ? col.wsOf[wsAt] : "normal");
    col.wsOf[col.nodes.length] = ctx.ws;
    col.csOf[col.nodes.length] = ctx.cs;
    ctx.cs = undefined;
  }
  col.wsParent = -1;
  col.budgetNodes -= 1;
  // Added around the point, out of document order: its parent's `kids` are put in order at the end.
  if (col.phase > 0 && orphan) markOutOfOrder(col, node);
  var at = col.nodes.length;
  col.index.set(node, at);
  col.nodes.push(rec);
  col.doms.push(node);
  if (parentAt >= 0) {
    var parent = col.nodes[parentAt];
    if (parent.kids) parent.kids.push(at);
    else parent.kids = [at];
  }
  return at;
}

// A text node's record, within the text budget: past it, the part around the anchors in it (the
// drop's caret, a selection's ends), else the nearer end, is kept.
function textRecord(col, node, parentAt) {
  var data = node.data;
  // The facts that hide text are read on the elements that have text of their own (R3 judges
  // a text node by its parent), when their first such text is collected.
  if (parentAt >= 0 && col.inked[parentAt] === undefined && hasInk(data)) readTextFactsAt(col, parentAt);
  if (data.length > col.budgetText) {
    var keep = Math.max(0, col.budgetText);
    var offsets = col.anchorOffsets.get(node);
    var part = offsets
      ? windowAround(data, Math.min.apply(null, offsets), Math.max.apply(null, offsets), keep)
      : col.backward ? wholeUnits(data, data.length - keep, data.length) : wholeUnits(data, 0, keep); // the nearer end
    if (part[0] > 0) col.textFrom.set(node, part[0]);
    data = data.slice(part[0], part[1]);
    col.truncated = true;
  }
  col.budgetText -= data.length;
  return { text: data };
}

// The part [from, to) of `text` to keep, at most `max` units, around [a, b]: all of it when it
// fits, else as much on each side as there is room for (from `a` on when [a, b] alone is longer).
function windowAround(text, a, b, max) {
  var n = text.length;
  if (n <= max) return [0, n];
  a = Math.max(0, Math.min(a, n));
  b = Math.max(a, Math.min(b, n));
  var from = b - a >= max ? a : Math.max(0, a - Math.floor((max - (b - a)) / 2));
  var to = Math.min(n, from + max);
  return wholeUnits(text, Math.max(0, to - max), to);
}

// [from, to) moved inward so that neither end splits a surrogate pair (a lone half is not text, and
// JSON readers refuse it).
function wholeUnits(text, from, to) {
  if (from > 0 && from < text.length && isLowSurrogate(text.charCodeAt(from))) from += 1;
  if (to > from && to < text.length && isLowSurrogate(text.charCodeAt(to))) to -= 1;
  return [from, Math.max(from, to)];
}

function isLowSurrogate(unit) {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

// Whether the walk goes into an element's children: not into what never shows text, nor into
// a subtree CSS removes whole (display: none, content-visibility: hidden, opacity 0 on a box out
// of the flow: no descendant can undo those). A cap on what is collected, not a rule: Rust hides
// these itself. An opacity-0 box in the flow is walked: Rust's main text reads what a script
// fades in where it stands (R2's exception).
// Except, display: none or not, a tab panel's (role="tabpanel": the ARIA tabs pattern hides the
// panels not selected that way), an accordion section's (by its class) and those of a part a
// collapsed toggle folds away (the element an aria-expanded="false" element's aria-controls
// names, or a silent toggle's that it labels: collapsedParts): the main text reads them (R2's
// exceptions).
function descends(col, node, at) {
  if (collectsNothingIn(node)) return false;
  if (node.localName === "svg" && !svgHasText(node)) return false;
  var s = col.nodes[at].style;
  if (!s) return true;
  if ((s.opacity0 && s.position) || s.content_visibility === "hidden") return false;
  return s.display !== "none" || isTabPanel(node) || isAccordionPart(node) || (node.id !== "" && collapsedParts(col, node).has(node.id));
}

// The ids collapsed toggles control in the tree `node` is in (the document or a shadow root:
// aria-controls names an element of the toggle's own tree), read once a tree, when the walk
// first meets a display: none element with an id there; at most COLLECT_MAX_TOGGLES toggles in
// all the trees together. A toggle that says nothing of being expanded (a button with an id, no
// aria-expanded, no popup) counts for a part labelled by it (aria-labelledby): is_silent_toggle
// in render.rs decides the same.
var COLLECT_MAX_TOGGLES = 500;
var SILENT_TOGGLES = ["button", '[role="button" i]'].map(function (s) {
  return s + "[id][aria-controls]:not([aria-expanded]):not([aria-haspopup])";
}).join(", ");
function collapsedParts(col, node) {
  var root = node.getRootNode();
  if (typeof root.querySelectorAll !== "function") root = col.doc;
  if (!col.collapsed) col.collapsed = new Map();
  var ids = col.collapsed.get(root);
  if (ids) return ids;
  ids = new Set();
  col.collapsed.set(root, ids);
  var toggles = root.querySelectorAll('[aria-expanded="false"][aria-controls], ' + SILENT_TOGGLES);
  for (var i = 0; i < toggles.length && col.togglesRead < COLLECT_MAX_TOGGLES; i++, col.togglesRead++) {
    var toggle = toggles[i];
    var silent = !toggle.hasAttribute("aria-expanded");
    toggle.getAttribute("aria-controls").split(/\s+/).forEach(function (id) {
      if (id && (!silent || labelledBy(root, id, toggle.id))) ids.add(id);
    });
  }
  return ids;
}

// Whether the element of `root` whose id is `id` names `label` among its aria-labelledby ids.
function labelledBy(root, id, label) {
  var part = typeof root.getElementById === "function" ? root.getElementById(id) : null;
  var labels = part ? part.getAttribute("aria-labelledby") : null;
  return labels !== null && labels.split(/\s+/).indexOf(label) >= 0;
}

function isTabPanel(node) {
  var role = node.getAttribute("role");
  return role !== null && role.trim().toLowerCase() === "tabpanel";
}

// An accordion's section known by its class (a word naming an accordion or a collapsible), the
// way pages whose toggles name no aria-controls fold it: Rust's main text reads it (accordion_part
// in render.rs, R2), so the walk goes in though it is display: none.
var ACCORDION_CLASS = /accordion|collaps/i;
function isAccordionPart(node) {
  var c = node.getAttribute("class");
  return c !== null && ACCORDION_CLASS.test(c);
}

function pushWork(col, node, parentAt, siblings) {
  col.stackNode.push(node);
  col.stackParent.push(parentAt);
  col.stackSiblings.push(siblings);
}

// Walks in document order (flat tree), adding what is not yet added, until `deadline`
// (performance.now()); false when it stopped there with work left.
function walkTree(col, deadline) {
  var stackNode = col.stackNode;
  var stackParent = col.stackParent;
  var stackSiblings = col.stackSiblings;
  var backward = col.backward;
  var phase = col.phase;
  var n = 0;
  while (stackNode.length) {
    if ((++n & 15) === 0 && performance.now() > deadline) return false;
    if (col.budgetNodes <= 0 || col.budgetText <= 0) {
      col.truncated = true;
      stackNode.length = stackParent.length = stackSiblings.length = 0;
      return true;
    }
    var node = stackNode.pop();
    var parentAt = stackParent.pop();
    var sibling = backward ? node.previousSibling : node.nextSibling;
    if (stackSiblings.pop() && sibling) pushWork(col, sibling, parentAt, true);
    var type = node.nodeType;
    if (type !== 1 && type !== 3 && type !== 4) continue;
    if (type === 1 && !collectable(node)) continue;
    var at = phase === 0 ? undefined : col.index.get(node); // the main walk meets each node once
    if (at === undefined) {
      at = addNode(col, node, parentAt);
      if (backward && type === 1) col.dirty.add(node); // its children come last first
    } else if (phase > 0 && type === 1) {
      col.dirty.add(node); // new children may follow its old ones
    }
    if (type === 1 && descends(col, node, at)) pushChildren(col, node, at, backward);
  }
  return true;
}

// Puts an element's flat-tree children on the work list (nearest first when walking backwards).
function pushChildren(col, node, at, backward) {
  if (node.shadowRoot) {
    var first = backward ? node.shadowRoot.lastChild : node.shadowRoot.firstChild;
    if (first) pushWork(col, first, at, true);
  } else if (node.localName === "slot" && typeof node.assignedNodes === "function" &&
      node.assignedNodes().length) {
    var assigned = node.assignedNodes();
    for (var i = 0; i < assigned.length; i++) pushWork(col, assigned[backward ? i : assigned.length - 1 - i], at, false);
  } else if (backward ? node.lastChild : node.firstChild) {
    pushWork(col, backward ? node.lastChild : node.firstChild, at, true);
  }
}

// ---- Around the point ----
//
// What the reading needs there, nearest first, whatever the main walk reached. The focus nodes'
// ancestors are added at once; then subtrees are walked one by one (each a "job", resumable across
// slices): the pointed elements whole, the headings before the point, then the point's
// neighbourhood, sibling by sibling outward and level by level up, until COLLECT_SIDE_TEXT units
// were collected on each side. Only the ancestors when the walk was complete (everything else is
// already there).

// Adds `n`'s ancestors (and `n`) not yet added, from the top, as far as the walk itself would
// collect them: never below an element whose children are not collected (R1's, an SVG drawing's
// shapes), so every record is in the tree. True when `n` itself is in it.
function addAncestors(col, n) {
  var chain = [];
  for (var p = n; p && p !== col.root; p = flatParent(p)) chain.push(p);
  for (var i = chain.length - 1; i >= 0; i--) {
    var node = chain[i];
    if (!col.index.has(node)) {
      if (node.nodeType === 1 && !collectable(node)) return false;
      addNode(col, node, -1);
    }
    if (i > 0 && collectsNothingIn(node)) return false;
  }
  return true;
}

function startAround(col) {
  col.budgetNodes = Math.max(col.budgetNodes, 0) + COLLECT_RESERVE_NODES;
  col.budgetText = Math.max(col.budgetText, 0) + COLLECT_RESERVE_TEXT;
  col.focusNodes.forEach(function (n) { addAncestors(col, n); });
  if (!col.truncated) return;
  var ups = [];
  col.focusNodes.forEach(function (n) {
    var up = n.nodeType === 1 ? n : flatParent(n);
    if (up && ups.indexOf(up) === -1) ups.push(up);
  });
  ups.forEach(function (up) {
    col.jobs.push({ node: up, side: 0 });
    col.near.push({ up: up, level: 0, siblings: null, at: 0, d: 0, before: 0, after: 0, nodesBefore: 0, nodesAfter: 0 });
  });
  if (col.focusNodes.length) headingsBefore(col, col.focusNodes[0]).forEach(function (h) {
    if (addAncestors(col, h)) col.jobs.push({ node: h, side: 0 });
  });
}

// H1 needs the headings before the point, which may lie past the walk's end: the nearest ones,
// and further back those that can still be above them in the outline (a lower level than any
// kept, a few per level, in case some are hidden). Which are visible and what the path is stays
// Rust's; this only chooses what to collect. Found among the document's headings and elements
// with a role (one native querySelectorAll), backwards from the point to where the main walk
// stopped (at most COLLECT_HEADING_SCAN of them). Across shadow boundaries: the same search in
// every tree the point's flat-tree ancestors lie in (the shadow roots it is in, those its hosts
// are slotted into, the document), each before the point's ancestor there; not in the shadow
// roots of other components.
function headingsBefore(col, target) {
  var found = { kept: [], minLevel: 10, perLevel: {} };
  var searched = new Set();
  for (var t = target, depth = 0; t && depth < 4096; t = flatParent(t), depth++) {
    var scope = t.getRootNode ? t.getRootNode() : null;
    if (!scope || searched.has(scope) || (scope !== col.doc && !scope.host)) continue;
    searched.add(scope);
    headingsInScope(col, scope, t, found);
  }
  return found.kept.reverse();
}

// The headings of one tree (the document or a shadow root) before `t`, its part of the point's
// flat-tree ancestors there, added to `found.kept` nearest first. In the document, the main walk's
// end bounds the search (it has every heading before where it stopped).
function headingsInScope(col, scope, t, found) {
  var inDocument = scope === col.doc;
  var ancestors = new Set();
  for (var p = t; p; p = p.parentNode) ancestors.add(p);
  // The candidates in document order (native: no wrapper for what is not looked at), and by a
  // binary search the last one before the point.
  var candidates = scope.querySelectorAll("h1,h2,h3,h4,h5,h6,[role]");
  var lo = 0;
  var hi = candidates.length;
  while (lo < hi) {
    var mid = (lo + hi) >> 1;
    if (candidates[mid] !== t && t.compareDocumentPosition(candidates[mid]) & 2) lo = mid + 1; // PRECEDING
    else hi = mid;
  }
  var kept = found.kept;
  var lastMain = inDocument ? outermostHost(col, col.lastMain) : null;
  for (var at = lo - 1, scanned = 0; at >= 0 && scanned < COLLECT_HEADING_SCAN && kept.length < COLLECT_MAX_HEADINGS; at--, scanned++) {
    var h = candidates[at];
    if (ancestors.has(h)) continue; // a heading holding the point is one of its ancestors
    // The main walk got here: it has every heading before (or skipped it with its subtree).
    if (col.index.has(h)) {
      if (inDocument) break;
      continue;
    }
    if (inDocument && lastMain && h !== lastMain && lastMain.compareDocumentPosition(h) & 2) break;
    var level = headingLevel(h);
    if (level === 0) continue;
    if (kept.length >= 16 && !(level < found.minLevel || (level === found.minLevel && (found.perLevel[level] || 0) < 3))) continue;
    kept.push(h);
    found.perLevel[level] = (found.perLevel[level] || 0) + 1;
    if (level < found.minLevel) found.minLevel = level;
  }
}

// `node` itself when it is in the document's own tree, else the host it lies in there.
function outermostHost(col, node) {
  for (var depth = 0; node && depth < 4096; depth++) {
    var root = node.getRootNode ? node.getRootNode() : null;
    if (!root || root === col.doc) return node;
    node = root.host;
  }
  return null;
}

// An h1-h6's level, a role=heading's aria-level (2 when none), or 0 for anything else.
function headingLevel(h) {
  var tag = h.localName;
  var numbered = tag.length === 2 && tag.charAt(0) === "h" && tag.charAt(1) >= "1" && tag.charAt(1) <= "6";
  if (numbered) return Number(tag.charAt(1));
  if (!(h.hasAttribute("role") && /^\s*heading\s*$/i.test(h.getAttribute("role")))) return 0;
  return parseInt(h.getAttribute("aria-level"), 10) || 2;
}

// Whether one side of the point has its context (or its share of the reserve).
function sideFull(c, side) {
  return side < 0 ? c.before >= COLLECT_SIDE_TEXT || c.nodesBefore >= COLLECT_SIDE_NODES
    : c.after >= COLLECT_SIDE_TEXT || c.nodesAfter >= COLLECT_SIDE_NODES;
}

// The next subtree to walk around the point, or null when done.
function nextAroundJob(col) {
  if (col.jobs.length) return col.jobs.shift();
  var near = col.near;
  while (near.length) {
    var c = near[0];
    if (sideFull(c, -1) && sideFull(c, 1)) {
      near.shift();
      continue;
    }
    if (!c.siblings && !enterLevel(col, c)) {
      near.shift();
      continue;
    }
    var next = nextSibling(col, c);
    if (next) return next;
  }
  return null;
}

// A cursor starts on its level: the siblings of `c.up` (at most six levels up); false when there
// is no level left.
function enterLevel(col, c) {
  var parent = c.level < 6 ? flatParent(c.up) : null;
  if (!parent) return false;
  c.siblings = flatChildren(parent);
  c.at = childIndex(c.siblings, c.up);
  col.ordOf.set(c.up, c.at);
  c.d = 0;
  c.parent = parent;
  c.turn = 1;
  return true;
}

// The cursor's next sibling to walk: alternately before and after, outward, skipping a side that
// has enough or has no more (the reserve bounds how many). Null when this try found none; the
// level is left (one up) once both sides are done.
function nextSibling(col, c) {
  for (var tries = 0; tries < 2; tries++) {
    c.turn = -c.turn;
    if (c.turn < 0) c.d += 1;
    var k = c.at + c.turn * c.d;
    if (!sideFull(c, c.turn) && k >= 0 && k < c.siblings.length) {
      var sibling = c.siblings[k];
      col.ordOf.set(sibling, k);
      return { node: sibling, side: c.turn, cursor: c };
    }
  }
  var doneBefore = sideFull(c, -1) || c.at - c.d <= 0;
  var doneAfter = sideFull(c, 1) || c.at + c.d >= c.siblings.length - 1;
  if (doneBefore && doneAfter) {
    c.up = c.parent; // this level is done: one up
    c.level += 1;
    c.siblings = null;
  }
  return null;
}

// Works around the point until `deadline`; false when it stopped there with work left.
function walkAround(col, deadline) {
  for (;;) {
    if (col.job) {
      if (!walkTree(col, deadline)) return false;
      endJob(col, col.job);
      col.backward = false;
      col.job = null;
    }
    if (col.budgetNodes <= 0 || col.budgetText <= 0) return true;
    if (performance.now() > deadline) return false;
    var next = nextAroundJob(col);
    if (!next) return true;
    startJob(col, next);
  }
}

// A subtree's walk is set up: a side walks within its share, so a huge subtree on one side cannot
// starve the other; the side before the point walks backwards, from its end nearest the point.
function startJob(col, job) {
  col.job = job;
  job.spare = 0;
  if (job.cursor) {
    var share = COLLECT_SIDE_NODES - (job.side < 0 ? job.cursor.nodesBefore : job.cursor.nodesAfter);
    job.spare = Math.max(0, col.budgetNodes - share);
    col.budgetNodes -= job.spare;
    col.backward = job.side < 0;
  }
  job.text = col.budgetText;
  job.nodes = col.budgetNodes;
  markOutOfOrder(col, job.node);
  var p = flatParent(job.node);
  var pAt = p ? col.index.get(p) : undefined;
  pushWork(col, job.node, pAt === undefined ? -1 : pAt, false);
}

// A subtree's walk is done: what it used counts on its side.
function endJob(col, job) {
  var c = job.cursor;
  if (!c) return;
  var text = job.text - col.budgetText;
  var used = job.nodes - col.budgetNodes;
  col.budgetNodes += job.spare;
  if (job.side < 0) {
    c.before += text;
    c.nodesBefore += used;
  } else {
    c.after += text;
    c.nodesAfter += used;
  }
}

// ---- The observation ----

// A DOM position as an anchor of the observation: the collected node it is in, or the nearest
// collected child or ancestor.
function anchorOf(col, a) {
  var index = col.index;
  var nodes = col.nodes;
  var node = a.node;
  if (node.nodeType === 3 || node.nodeType === 4) {
    var at = index.get(node);
    if (at !== undefined) {
      var offset = a.offset - (col.textFrom.get(node) || 0); // a long text node's record may start inside it
      return { node: at, offset: Math.max(0, Math.min(offset, nodes[at].text.length)) };
    }
  } else {
    var children = node.childNodes || [];
    for (var i = a.offset; i < children.length; i++) {
      if (index.has(children[i])) return { node: index.get(children[i]), offset: 0 };
    }
    for (var j = Math.min(a.offset, children.length) - 1; j >= 0; j--) {
      if (!index.has(children[j])) continue;
      var before = index.get(children[j]);
      // Just after that child: the end of its text for a text node, offset 1 for an element.
      var end = nodes[before].tag ? 1 : nodes[before].text.length;
      return { node: before, offset: end };
    }
  }
  var up = nearestCollected(col, hostOfRoot(node));
  return up === undefined ? null : { node: up, offset: 0 };
}

// The index of `node`'s nearest collected element, itself included (flat tree), or undefined.
function nearestCollected(col, node) {
  for (var p = node; p; p = flatParent(p)) {
    var at = col.index.get(p);
    if (at !== undefined && col.nodes[at].tag) return at;
  }
  return undefined;
}

function finishObservation(col) {
  col.csOf.length = 0;
  col.dirty.forEach(function (el) { orderKids(col, el); });
  var root = col.root;
  var obs = {
    v: 1,
    url: String(location.href),
    title: String(col.doc.title || ""),
    lang: root.getAttribute("lang"),
    how: col.how,
    root: 0,
    nodes: col.nodes,
    truncated: col.truncated,
  };
  // What relative links resolve against, when a <base href> makes it other than the URL.
  var base = String(col.doc.baseURI || "");
  if (base && base !== obs.url) obs.base = base.slice(0, 8192);
  if (col.how === "drop") {
    var caretAnchor = col.rawAnchors.length ? anchorOf(col, col.rawAnchors[0]) : null;
    var elementAt = col.pointElement ? nearestCollected(col, col.pointElement) : undefined;
    obs.point = { caret: caretAnchor, element: elementAt === undefined ? null : elementAt };
  } else if (col.selection) {
    obs.selection = { start: anchorOf(col, col.selection[0]), end: anchorOf(col, col.selection[1]) };
  }
  if (col.field) obs.field = fieldRecord(col, col.field);
  col.closedHosts.forEach(function (h) {
    var at = col.index.get(h);
    if (at !== undefined) col.nodes[at].shadow = "closed";
  });
  return obs;
}

// Children lists, in flat-tree order: the walk made them as it went; where nodes were added out
// of order (around the point), this element's list is made again from the tree. Every added node
// is listed in its parent's `kids`; those the main walk added are in order (it adds children in
// order), the others are put in order by their place among the children (known from the
// neighbourhood's cursor, else asked of a Range), without touching the children that were not
// collected (a parent of thousands would make thousands of wrappers).
function orderKids(col, el) {
  var index = col.index;
  var nodes = col.nodes;
  var doms = col.doms;
  var at = index.get(el);
  if (at === undefined || collectsNothingIn(el)) return;
  var i;
  if (el.shadowRoot || el.localName === "slot") {
    var list = [];
    var kids = flatChildren(el);
    for (var k = 0; k < kids.length; k++) {
      i = index.get(kids[k]);
      if (i !== undefined) list.push(i);
    }
    if (list.length) nodes[at].kids = list;
    else delete nodes[at].kids;
    return;
  }
  var all = nodes[at].kids;
  if (!all) return;
  var main = [];
  var late = [];
  for (var j = 0; j < all.length; j++) (all[j] < col.mainEnd ? main : late).push(all[j]);
  if (!late.length) return; // all from the main walk: in order
  var place = function (n) {
    var o = col.ordOf.get(doms[n]);
    return o !== undefined && o >= 0 ? o : childIndex(el.childNodes, doms[n]);
  };
  var keyed = late.map(function (n) { return [place(n), n]; });
  keyed.sort(function (a, b) { return a[0] - b[0]; });
  late = keyed.map(function (e) { return e[1]; });
  if (!main.length || doms[late[0]].compareDocumentPosition(doms[main[main.length - 1]]) & 2) {
    nodes[at].kids = main.concat(late); // the usual case: the late ones all follow
    return;
  }
  var merged = main.map(function (n) { return [place(n), n]; }).concat(keyed);
  merged.sort(function (a, b) { return a[0] - b[0]; });
  nodes[at].kids = merged.map(function (e) { return e[1]; });
}

// ---- DOM helpers ----

// ---- Where the person pointed: through shadow roots, into form fields ----

// The element under a point, inside open shadow roots at any depth (each root's own
// elementFromPoint, from the document's down), and the shadow roots passed on the way.
function deepElementFromPoint(doc, x, y) {
  var el = doc.elementFromPoint(x, y);
  var roots = [];
  for (var depth = 0; el && el.shadowRoot && depth < 64; depth++) {
    var root = el.shadowRoot;
    var inner = typeof root.elementFromPoint === "function" ? root.elementFromPoint(x, y) : null;
    roots.push(root);
    if (!inner || inner === el) break;
    el = inner;
  }
  return { element: el, roots: roots };
}

// The caret at a point, inside the given open shadow roots (caretPositionFromPoint's shadowRoots;
// a browser that does not know the option answers outside them, and Rust then points from the
// element under the point).
function caretAt(doc, x, y, roots) {
  if (doc.caretPositionFromPoint) {
    var p = null;
    try {
      p = roots && roots.length ? doc.caretPositionFromPoint(x, y, { shadowRoots: roots }) : doc.caretPositionFromPoint(x, y);
    } catch (e) {
      p = doc.caretPositionFromPoint(x, y);
    }
    if (p && p.offsetNode) return { node: p.offsetNode, offset: p.offset };
  }
  if (doc.caretRangeFromPoint) {
    var r = doc.caretRangeFromPoint(x, y);
    if (r) return { node: r.startContainer, offset: r.startOffset };
  }
  return null;
}

// The selection's first range as the person sees it: through the open shadow roots its ends lie
// in (getComposedRanges, given the shadow root of the host each end is rescoped to, again until no
// end moves deeper), else getRangeAt(0). Null when there is none.
function selectionRange(doc) {
  var sel = doc.getSelection ? doc.getSelection() : null;
  if (!sel || sel.rangeCount === 0) return null;
  var range = null;
  if (typeof sel.getComposedRanges === "function") {
    var roots = [];
    for (var round = 0; round < 64; round++) {
      try {
        range = sel.getComposedRanges({ shadowRoots: roots })[0] || null;
      } catch (e) {
        range = null;
      }
      if (!range) break;
      var grew = false;
      [childAt(range.startContainer, range.startOffset), childAt(range.endContainer, range.endOffset - 1)].forEach(function (h) {
        if (h && h.shadowRoot && roots.indexOf(h.shadowRoot) === -1) {
          roots.push(h.shadowRoot);
          grew = true;
        }
      });
      if (!grew) break;
    }
  }
  return range || sel.getRangeAt(0);
}

// The element child at `offset` of a range's container, or null.
function childAt(container, offset) {
  if (!container || container.nodeType === 3 || container.nodeType === 4 || offset < 0) return null;
  var child = container.childNodes ? container.childNodes[offset] : null;
  return child && child.nodeType === 1 ? child : null;
}

// A shadow root stands for its host (and the document for its root element) where a node is
// needed: an anchor's container may be either.
function hostOfRoot(node) {
  if (node && node.nodeType === 11 && node.host) return node.host;
  if (node && node.nodeType === 9) return node.documentElement;
  return node;
}

// Whether `el` hosts a closed shadow root: only the extension can tell (Firefox's
// element.openOrClosedShadowRoot, Chromium's chrome.dom.openOrClosedShadowRoot, in content scripts
// alone). Its content is not read (see OBSERVATION.md); the host is marked so Rust can say so.
function closedShadowHost(el) {
  if (!el || el.nodeType !== 1 || el.shadowRoot) return false;
  var name = el.localName;
  if (name.indexOf("-") === -1 && !COLLECT_SHADOW_HOSTS.has(name)) return false;
  try {
    if ("openOrClosedShadowRoot" in el) return !!el.openOrClosedShadowRoot;
    var dom = globalThis.chrome && globalThis.chrome.dom;
    return !!(dom && typeof dom.openOrClosedShadowRoot === "function" && dom.openOrClosedShadowRoot(el));
  } catch (e) {
    return false;
  }
}

function noteClosedHost(col, el) {
  if (closedShadowHost(el) && col.closedHosts.indexOf(el) === -1) col.closedHosts.push(el);
}

// A form field whose value is text a person types (textarea, text-like inputs).
function isTextField(el) {
  if (!el || el.nodeType !== 1) return false;
  if (el.localName === "textarea") return true;
  return el.localName === "input" && COLLECT_TEXT_INPUTS.has(String(el.type || "text").toLowerCase());
}

// The focused form field (inside open shadow roots too) when text is selected in it, else null.
function focusedField(doc) {
  var a = doc.activeElement;
  for (var depth = 0; a && a.shadowRoot && a.shadowRoot.activeElement && depth < 64; depth++) a = a.shadowRoot.activeElement;
  if (!isTextField(a)) return null;
  var start = a.selectionStart;
  var end = a.selectionEnd;
  return typeof start === "number" && typeof end === "number" && start < end ? a : null;
}

// What the reading needs of a pointed form field: its kind, the facts that say whether it holds a
// secret (Rust decides: crates/content/src/field.rs), and the part of its value around [start,
// end] (the selection, or the drop's caret twice). A password's value is never read.
function readField(col, el, start, end) {
  var type = el.localName === "textarea" ? "textarea" : String(el.type || "text").toLowerCase();
  var f = { el: el, type: type, value: "", start: 0, end: 0, cut: false };
  var autocomplete = el.getAttribute("autocomplete");
  if (autocomplete) f.autocomplete = autocomplete.slice(0, COLLECT_FIELD_ATTR);
  var name = el.getAttribute("name");
  if (name) f.name = name.slice(0, COLLECT_FIELD_ATTR);
  var cs = col.view.getComputedStyle(el);
  var security = cs ? cs.webkitTextSecurity || cs.getPropertyValue("-webkit-text-security") : "";
  if (security && security !== "none") f.masked = true;
  if (type === "password") return f;
  var value = String(el.value || "");
  var a = Math.max(0, Math.min(Number(start) || 0, value.length));
  var b = Math.max(a, Math.min(Number(end) || 0, value.length));
  var part = windowAround(value, a, b, COLLECT_FIELD_TEXT);
  f.value = value.slice(part[0], part[1]);
  f.start = Math.max(0, Math.min(a - part[0], f.value.length));
  f.end = Math.max(f.start, Math.min(b - part[0], f.value.length));
  f.cut = part[0] > 0 || part[1] < value.length;
  return f;
}

// The field as the observation carries it (OBSERVATION.md, `field`).
function fieldRecord(col, f) {
  var at = col.index.get(f.el);
  if (at === undefined) return null;
  var rec = { node: at, type: f.type, value: f.value, start: f.start, end: f.end };
  if (f.cut) rec.cut = true;
  if (f.autocomplete) rec.autocomplete = f.autocomplete;
  if (f.name) rec.name = f.name;
  if (f.masked) rec.masked = true;
  return rec;
}

// Whether the walk collects this element at all: inside an SVG drawing, only what can hold text.
function collectable(el) {
  return el.namespaceURI !== SVG_NS || COLLECT_SVG_KEPT.has(el.localName);
}

// Whether an SVG drawing has any text to collect (native lookups, no walk).
function svgHasText(svg) {
  return !!(svg.getElementsByTagName("text")[0] || svg.getElementsByTagName("foreignObject")[0]);
}

// The place of `node` in `list` (its parent's children, flat), or -1. A NodeList's is asked of a
// Range (native: the siblings before it get no wrappers), and checked.
function childIndex(list, node) {
  if (Array.isArray(list)) return list.indexOf(node);
  var parent = node.parentNode;
  if (!parent) return -1;
  var range = node.ownerDocument.createRange();
  range.setStartBefore(node);
  var at = range.startOffset;
  return list[at] === node ? at : -1;
}

// The flat tree (what renders): an open shadow root's children stand for its host's, a slot's
// assigned nodes for its own (its children are the fallback).
function flatChildren(el) {
  if (el.shadowRoot) return el.shadowRoot.childNodes;
  if (el.localName === "slot" && typeof el.assignedNodes === "function") {
    var assigned = el.assignedNodes();
    if (assigned.length) return assigned;
  }
  return el.childNodes;
}

function flatParent(node) {
  if (node.assignedSlot) return node.assignedSlot;
  var p = node.parentNode;
  if (p && p.nodeType === 11 && p.host) return p.host;
  return p && p.nodeType === 1 ? p : null;
}

// ---- One element's facts ----

// A computed color with alpha 0 ("transparent", rgba(…, 0), color(… / 0)).
function alphaZero(color) {
  if (!color) return false;
  if (color === "transparent") return true;
  var slash = /\/\s*([0-9.]+%?)\s*\)$/.exec(color); // color(srgb 0 0 0 / 0), oklch(… / 0)
  if (slash) return parseFloat(slash[1]) === 0;
  var rgba = /^rgba\(([^)]*)\)$/.exec(color); // rgba(0, 0, 0, 0): the fourth value
  if (rgba) {
    var parts = rgba[1].split(",");
    return parts.length === 4 && parseFloat(parts[3]) === 0;
  }
  return false;
}

// Whether a text has something other than whitespace: only the elements with such text of their
// own need the inherited facts that hide text (R3 is judged on a text node's parent).
function hasInk(d) {
  for (var i = 0; i < d.length; i++) {
    var ch = d.charCodeAt(i);
    if (ch !== 32 && ch !== 10 && ch !== 9 && ch !== 13 && ch !== 12) return true;
  }
  return false;
}

var SHOWN_FACTS = { opacityProperty: true, visibilityProperty: true };

// The facts of one element. Each computed-style read costs (a string made per property), so
// only what a rule reads is read, and only where it can matter.
// Inherited facts that hide text only: judged on the text's own parent (R3).
function readTextFacts(cs, style) {
  if (cs.visibility !== "visible") style.visibility = cs.visibility;
  if (parseFloat(cs.fontSize) === 0) style.font0 = true;
  if (alphaZero(cs.color) && alphaZero(cs.webkitTextFillColor || cs.color)) style.color0 = true;
}

// Tags that are inline phrasing content by default: unless CSS makes them something else, only
// their display and the facts that hide their own text are read (see recordElement).
var PHRASING = new Set(["a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "dfn", "em", "i",
  "kbd", "mark", "q", "s", "samp", "small", "span", "strong", "sub", "sup", "time", "u", "var",
  "font", "del", "ins", "br", "wbr", "label"]);

// An element's whitelisted attributes (by name: `attributes[i]` would make an Attr node for
// each), or null.
function recordAttrs(el) {
  if (!el.hasAttributes()) return null;
  var list = el.getAttributeNames();
  var attrs = null;
  var own = COLLECT_TAG_ATTRS.get(el.localName);
  for (var i = 0, n = 0; i < list.length && n < COLLECT_MAX_ATTRS; i++) {
    var name = list[i];
    if (COLLECT_ATTRS.has(name) || name.indexOf("data-apc-") === 0 || (own && own.indexOf(name) !== -1)) {
      var value = el.getAttribute(name);
      if (value === null) continue;
      attrs = attrs || {};
      attrs[name] = value.length > COLLECT_MAX_ATTR ? value.slice(0, COLLECT_MAX_ATTR) : value;
      n++;
    }
  }
  return attrs;
}

// The facts of one element; `parentWs` is the parent's white-space (what "missing" means); sets
// ctx.ws to this element's own.
function recordElement(el, ctx, parentWs) {
  ctx.ws = parentWs;
  var rec = { tag: String(el.localName || el.nodeName).toLowerCase().slice(0, 64) };
  var attrs = recordAttrs(el);
  if (attrs) rec.attrs = attrs;
  var cs = ctx.view.getComputedStyle(el);
  if (!cs) return rec;
  ctx.cs = cs; // for the facts of its own text, read when that text is collected
  var style = { display: cs.display };
  rec.style = style;
  if (style.display === "none") return rec; // nothing else matters: nothing in it renders
  readGenerated(el, ctx.view, rec);
  // An element with nothing inside to show (an image, a line break, an input, an empty box, an
  // icon): its display is all a rule reads.
  if ((!el.firstChild && !el.shadowRoot) || collectsNothingIn(el)) return rec;
  if (rec.tag === "svg" && !svgHasText(el)) return rec; // an icon: nothing in it is collected
  // Inline phrasing elements (links, emphasis, spans) that stay inline and in the flow: what hides
  // a subtree or changes whitespace is almost never set on them, so only what hides their own text
  // is read. (A positioned one, e.g. a skip link moved off the page or a screen-reader-only span,
  // gets every fact below.)
  // Their white-space is the parent's (Rust inherits it when none is written).
  // (The facts that hide text are read when the element's own text is collected: see addNode.)
  var position = cs.position;
  if (style.display === "inline" && PHRASING.has(rec.tag) && position === "static") return rec;
  recordBoxFacts(el, ctx, cs, style, parentWs, position);
  return rec;
}

// Generated ::before / ::after content (its computed `content`, as the browser serializes it) and
// the facts that hide it, on an element that renders and can have such boxes: which of it is
// text is Rust's (render.rs, R5).
function readGenerated(el, view, rec) {
  var tag = rec.tag;
  if (collectsNothingIn(el) || COLLECT_NO_GENERATED.has(tag) || el.namespaceURI === SVG_NS) return;
  for (var i = 0; i < 2; i++) {
    var ps = view.getComputedStyle(el, i === 0 ? "::before" : "::after");
    var content = ps ? ps.content : "";
    if (!content || content === "none" || content === "normal" || content === '""') continue;
    var style = { display: ps.display };
    if (style.display !== "none") {
      readTextFacts(ps, style);
      if (ps.opacity === "0") style.opacity0 = true;
    }
    rec[i === 0 ? "before" : "after"] = {
      content: content.length > COLLECT_MAX_ATTR ? content.slice(0, COLLECT_MAX_ATTR) : content,
      style: style,
    };
  }
}

// What hides a subtree or changes whitespace, and where the box is, on an element that is not
// plain inline phrasing.
function recordBoxFacts(el, ctx, cs, style, parentWs, position) {
  // One call answers three facts in the common case: the element has a box, neither it nor an
  // ancestor has opacity 0, and its visibility is visible. Otherwise each is read on its own.
  var shown = ctx.checkVisibility && el.checkVisibility(SHOWN_FACTS);
  if (!shown) {
    if (cs.opacity === "0") style.opacity0 = true;
    if (cs.visibility !== "visible") style.visibility = cs.visibility;
    // Out of the flow or in it: whether a part at opacity 0 or hidden by visibility lies over
    // the page (a menu, a slide, a dialog) or where it stands, waiting for a script to show it
    // (Rust's R2 and R3 exceptions for what fades in).
    if ((style.opacity0 || style.visibility) && (position === "absolute" || position === "fixed")) style.position = position;
  }
  var cv = cs.contentVisibility;
  if (cv && cv !== "visible") style.content_visibility = cv;
  // white-space is written where it differs from the parent's (missing means inherited).
  var ws = cs.whiteSpace || cs.whiteSpaceCollapse || "normal";
  if (ws === "nowrap") ws = "normal";
  if (ws !== parentWs) style.white_space = ws;
  ctx.ws = ws;
  var clipPath = cs.clipPath;
  if (clipPath && clipPath !== "none") style.clip_path = String(clipPath).slice(0, 256);
  var overflow = cs.overflow;
  if ((overflow && overflow !== "visible") || style.clip_path) style.clips = true;
  // Boxes: whether there is one, its size and its place. Layout is read, never changed.
  var hasBox = shown || (ctx.checkVisibility ? el.checkVisibility() : el.getClientRects().length > 0);
  if (!hasBox) {
    style.no_box = true;
    return;
  }
  // Where the box is: only a clipping or positioned box can be of no area or out of the page by
  // itself (a static box out of the page is inside one that is).
  if (!style.clips && position === "static") return;
  var r = el.getBoundingClientRect();
  if (r.width <= 1 || r.height <= 1) {
    style.zero_size = true; // no area: a side of at most 1 px (what clips to it shows nothing)
    if (!style.clips && cs.clip && cs.clip !== "auto") style.clips = true; // clip: rect(…)
  }
  // Wholly left of or above the page (a box at the very edge with no extent there is not).
  var left = r.right + ctx.scrollX <= 0 && r.left + ctx.scrollX < 0;
  var above = r.bottom + ctx.scrollY <= 0 && r.top + ctx.scrollY < 0;
  var outOfView = r.right <= 0 || r.bottom <= 0 || r.left >= ctx.width || r.top >= ctx.height;
  if (left || above || (outOfView && position === "fixed")) style.offscreen = true;
}
