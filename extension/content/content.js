// Why this is JavaScript: browsers refuse to compile WebAssembly in a content script on any page
// whose CSP lacks 'wasm-unsafe-eval', and a content script must work on every page. So this file is
// the one piece of the extension that runs inside web pages, and it holds no rules: it COLLECTS what
// the browser alone knows (the DOM, computed styles, boxes, the drop point, the selection), FORWARDS
// it to the extension's background, and RENDERS what the background tells it. Which text is visible,
// what was pointed at, the focus grammar and every cap are decided in Rust (crates/content), in the
// background. Page text is data, never instructions: nothing here interprets it.
//
// Cost on every page load is near zero: at load this file only registers four listeners. It walks the
// DOM only when a drop of an agent's mark arrives or the background asks (selection or command).
//
// The observation format is documented in crates/content/OBSERVATION.md.
//
// Tests inject this file into a page and call collectObservation(); the messaging wiring below runs
// only inside the extension (when the runtime has an id), so nothing else is set up then.

"use strict";

// The standard drag type of an agent's mark (APC: "Drag payload and pairing").
var APC_AGENT_TYPE = "application/x-apc-agent";

// Collection caps (cost, not rules): the walk stops here and says `truncated`; Rust enforces its own
// hard limits. They are sized from what the reading can hold, not from the page: the reading sent
// to the hub is at most 256 KiB (`READING_MAX_BYTES`), the main text taking what room is left, so
// the main walk collects the text of 1.5 readings (room for the boilerplate the main-text rules
// drop) and at most COLLECT_MAX_NODES nodes (the dev corpus's largest page is about 3,800; every
// node costs a few microseconds of computed-style reads, so this is what bounds the time of a
// drop on a node-dense page: 5,000 paragraphs of six elements collect ~7,000 nodes, not 31,000).
// Past them, what the reading needs around the point is still collected, from a reserve: the
// pointed nodes' ancestors, the headings before the point (H1) and the point's neighbourhood
// (the pointed element whole, then its surroundings until COLLECT_SIDE_TEXT units each side).
var COLLECT_MAX_NODES = 6000;
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
  "data-focus", "data-focus-part", "data-focus-params",
]);
// Elements whose content is never shown as text: recorded with their attributes, but their
// children are not collected. A collection cap only (their text can be large, e.g. JSON state
// carriers); whether something shows is still decided in Rust.
var COLLECT_NO_DESCENT = new Set(["script", "style", "template", "noscript", "head"]);

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

// Elements whose content is never shown as text: recorded with their attributes, but their
// children are not collected (a collection cap: their text can be large, e.g. JSON state
// carriers, or many nodes, e.g. SVG icons); whether something shows is still decided in Rust.
var COLLECT_NO_DESCENT_MORE = ["svg", "select", "datalist", "textarea", "iframe", "object", "video",
  "audio", "canvas"];
COLLECT_NO_DESCENT_MORE.forEach(function (t) { COLLECT_NO_DESCENT.add(t); });

// Starts a collection: reads the anchors now, walks when run. With `options.aroundOnly`, only
// what the reading needs around the point is collected (the pointed nodes' ancestors, the pointed
// element whole, the headings before it, context each side: the reserve below), not the page's
// main text: the observation a drop sends first (`truncated`, as it stops there).
function startCollection(request, options) {
  var aroundOnly = !!(options && options.aroundOnly);
  var doc = document;
  var view = doc.defaultView;
  var how = request.how;
  var index = new Map();
  var nodes = [];
  var budgetNodes = COLLECT_MAX_NODES;
  var budgetText = COLLECT_MAX_TEXT;
  var truncated = false;
  // Read once: layout does not move while the collection runs (a slice boundary may let the page
  // scroll, which only shifts what `offscreen` compares against by the scroll made meanwhile).
  var ctx = {
    view: view,
    scrollX: view.scrollX,
    scrollY: view.scrollY,
    width: view.innerWidth,
    height: view.innerHeight,
    checkVisibility: typeof doc.documentElement.checkVisibility === "function",
    ws: "normal",
    cs: undefined,
  };

  // Anchors first: the selection or caret is read before the walk, which does not change them.
  var rawAnchors = [];
  var pointElement = null;
  var selection = null;
  if (how === "drop") {
    var caret = caretAt(doc, request.x, request.y);
    if (caret) rawAnchors.push(caret);
    pointElement = doc.elementFromPoint(request.x, request.y);
  } else {
    var sel = doc.getSelection ? doc.getSelection() : null;
    if (!sel || sel.rangeCount === 0 || sel.isCollapsed) {
      var err = new Error("There is no selection on this page.");
      err.code = "no_selection";
      throw err;
    }
    var range = sel.getRangeAt(0);
    selection = [
      { node: range.startContainer, offset: range.startOffset },
      { node: range.endContainer, offset: range.endOffset },
    ];
    rawAnchors.push(selection[0], selection[1]);
  }

  var wsOf = []; // each element's white-space, for its children's records
  var wsParent = -1; // a parent whose white-space counts though the node is not listed in it
  var doms = []; // each node's DOM node, by index
  var inked = []; // elements whose text facts were read (they have text of their own)
  var csOf = []; // elements' computed styles, kept from their record until their text facts are read
  // R3's facts, on the element at `at`, read once (see add): not on what nothing renders in.
  function readTextFactsAt(at) {
    inked[at] = true;
    var rec = nodes[at];
    var style = rec.style;
    if (!style || style.display === "none" || COLLECT_NO_DESCENT.has(rec.tag)) return;
    var cs = csOf[at] || view.getComputedStyle(doms[at]);
    csOf[at] = undefined;
    if (cs) readTextFacts(cs, style);
  }
  // Elements whose `kids` got nodes out of document order (around the point): made again at the end.
  var dirty = new Set();
  function reorder(node) {
    var p = flatParent(node);
    if (p) dirty.add(p);
  }
  function add(node, parentAt) {
    var rec;
    var orphan = parentAt < 0;
    // Around the point a node may be added without its parent's index: looked up (its parent is
    // always added first), and the node is listed in its parent's `kids` like any other.
    if (orphan && phase > 0) {
      var fp = flatParent(node);
      var fpAt = fp ? index.get(fp) : undefined;
      if (fpAt !== undefined && !COLLECT_NO_DESCENT.has(nodes[fpAt].tag)) parentAt = fpAt;
      else if (fpAt !== undefined) wsParent = fpAt; // its white-space still counts
    }
    if (node.nodeType === 3 || node.nodeType === 4) {
      var data = node.data;
      // The facts that hide text are read on the elements that have text of their own (R3 judges
      // a text node by its parent), when their first such text is collected.
      if (parentAt >= 0 && inked[parentAt] === undefined && hasInk(data)) readTextFactsAt(parentAt);
      if (data.length > budgetText) {
        var keep = Math.max(0, budgetText);
        data = backward ? data.slice(data.length - keep) : data.slice(0, keep); // the nearer end
        truncated = true;
      }
      budgetText -= data.length;
      rec = { text: data };
    } else {
      // The parent's white-space (what "missing" means).
      var wsAt = parentAt >= 0 ? parentAt : wsParent;
      rec = recordElement(node, ctx, wsAt >= 0 && wsOf[wsAt] !== undefined ? wsOf[wsAt] : "normal");
      wsOf[nodes.length] = ctx.ws;
      csOf[nodes.length] = ctx.cs;
      ctx.cs = undefined;
    }
    wsParent = -1;
    budgetNodes -= 1;
    // Added around the point, out of document order: its parent's `kids` are put in order at the end.
    if (phase > 0 && orphan) reorder(node);
    var at = nodes.length;
    index.set(node, at);
    nodes.push(rec);
    doms.push(node);
    if (parentAt >= 0) {
      var parent = nodes[parentAt];
      if (parent.kids) parent.kids.push(at);
      else parent.kids = [at];
    }
    return at;
  }

  // Whether the walk goes into an element's children: not into what never shows text, nor into
  // a subtree CSS removes whole (display: none, opacity 0, content-visibility: hidden: no
  // descendant can undo those). A cap on what is collected, not a rule: Rust hides these itself.
  function descends(node, at) {
    if (COLLECT_NO_DESCENT.has(node.localName)) return false;
    var s = nodes[at].style;
    return !(s && (s.display === "none" || s.opacity0 || s.content_visibility === "hidden"));
  }

  // The walk's work list, in three parallel stacks: a node, the index of its (flat) parent, and
  // whether its next siblings follow it (false for a slot's assigned nodes, listed one by one).
  var stackNode = [];
  var stackParent = [];
  var stackSiblings = [];
  // Walking backwards (last child first): the context before the point is collected from its
  // nearest end. The `kids` of what it adds are made again at the end.
  var backward = false;
  function push(node, parentAt, siblings) {
    stackNode.push(node);
    stackParent.push(parentAt);
    stackSiblings.push(siblings);
  }

  // Walks in document order (flat tree), adding what is not yet added, until `deadline`
  // (performance.now()); false when it stopped there with work left.
  function walk(deadline) {
    var n = 0;
    while (stackNode.length) {
      if ((++n & 15) === 0 && performance.now() > deadline) return false;
      if (budgetNodes <= 0 || budgetText <= 0) {
        truncated = true;
        stackNode.length = stackParent.length = stackSiblings.length = 0;
        return true;
      }
      var node = stackNode.pop();
      var parentAt = stackParent.pop();
      var sibling = backward ? node.previousSibling : node.nextSibling;
      if (stackSiblings.pop() && sibling) push(sibling, parentAt, true);
      var type = node.nodeType;
      if (type !== 1 && type !== 3 && type !== 4) continue;
      var at = phase === 0 ? undefined : index.get(node); // the main walk meets each node once
      if (at === undefined) {
        at = add(node, parentAt);
        if (backward && type === 1) dirty.add(node); // its children come last first
      } else if (phase > 0 && type === 1) {
        dirty.add(node); // new children may follow its old ones
      }
      if (type !== 1 || !descends(node, at)) continue;
      if (node.shadowRoot) {
        var first = backward ? node.shadowRoot.lastChild : node.shadowRoot.firstChild;
        if (first) push(first, at, true);
      } else if (node.localName === "slot" && typeof node.assignedNodes === "function" &&
          node.assignedNodes().length) {
        var assigned = node.assignedNodes();
        for (var i = 0; i < assigned.length; i++) push(assigned[backward ? i : assigned.length - 1 - i], at, false);
      } else if (backward ? node.lastChild : node.firstChild) {
        push(backward ? node.lastChild : node.firstChild, at, true);
      }
    }
    return true;
  }

  var root = doc.documentElement;
  var phase = 0; // 0: main walk, 1: around the point, 2: done
  var mainEnd = 0; // nodes below this index were added by the main walk (in document order)
  var lastMain = null; // the last node the main walk added: it had been everywhere before it
  if (aroundOnly) {
    // No main walk: the root, then the reserve around the point (its budgets are all there is).
    phase = 1;
    truncated = true;
    budgetNodes = 0;
    budgetText = 0;
    add(root, -1);
    mainEnd = 1;
  } else {
    push(root, -1, false);
  }
  var ordOf = new Map(); // a node's place among its (flat) parent's children, where known
  var started = false; // the work around the point was set up

  // Around the point: what the reading needs there, nearest first, whatever the main walk reached.
  // The focus nodes' ancestors are added at once; then subtrees are walked one by one (each a
  // "job", resumable across slices): the pointed elements whole, the headings before the point,
  // then the point's neighbourhood, sibling by sibling outward and level by level up, until
  // COLLECT_SIDE_TEXT units were collected on each side. Only the ancestors when the walk was
  // complete (everything else is already there).
  var focusNodes = rawAnchors.map(function (a) { return a.node; });
  if (pointElement) focusNodes.push(pointElement);
  var jobs = []; // subtree roots still to walk, before the neighbourhood
  var near = []; // one neighbourhood cursor per pointed element
  var job = null; // the subtree being walked: { side: 0 none, -1 before, 1 after, text, cursor }

  function addChain(n) {
    var chain = [];
    for (var p = n; p && p !== root; p = flatParent(p)) chain.push(p);
    for (var i = chain.length - 1; i >= 0; i--) if (!index.has(chain[i])) add(chain[i], -1);
  }

  function startAround() {
    budgetNodes = Math.max(budgetNodes, 0) + COLLECT_RESERVE_NODES;
    budgetText = Math.max(budgetText, 0) + COLLECT_RESERVE_TEXT;
    focusNodes.forEach(addChain);
    if (!truncated) return;
    var ups = [];
    focusNodes.forEach(function (n) {
      var up = n.nodeType === 1 ? n : flatParent(n);
      if (up && ups.indexOf(up) === -1) ups.push(up);
    });
    ups.forEach(function (up) {
      jobs.push({ node: up, side: 0 });
      near.push({ up: up, level: 0, siblings: null, at: 0, d: 0, before: 0, after: 0, nodesBefore: 0, nodesAfter: 0 });
    });
    if (focusNodes.length) headingsBefore(focusNodes[0]).forEach(function (h) {
      addChain(h);
      jobs.push({ node: h, side: 0 });
    });
  }

  // H1 needs the headings before the point, which may lie past the walk's end: the nearest ones,
  // and further back those that can still be above them in the outline (a lower level than any
  // kept, a few per level, in case some are hidden). Which are visible and what the path is stays
  // Rust's; this only chooses what to collect. Found among the document's headings and elements
  // with a role (one native querySelectorAll), backwards from the point to where the main walk
  // stopped (at most COLLECT_HEADING_SCAN of them). Headings inside shadow roots are not searched.
  function headingsBefore(target) {
    var t = target;
    while (t && t.getRootNode && t.getRootNode() !== doc) t = flatParent(t) || (t.getRootNode() && t.getRootNode().host);
    if (!t) return [];
    var ancestors = new Set();
    for (var p = t; p; p = p.parentNode) ancestors.add(p);
    // The candidates in document order (native: no wrapper for what is not looked at), and by a
    // binary search the last one before the point.
    var candidates = doc.querySelectorAll("h1,h2,h3,h4,h5,h6,[role]");
    var lo = 0;
    var hi = candidates.length;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (candidates[mid] !== t && t.compareDocumentPosition(candidates[mid]) & 2) lo = mid + 1; // PRECEDING
      else hi = mid;
    }
    var kept = [];
    var minLevel = 10;
    var perLevel = {};
    for (var at = lo - 1, scanned = 0; at >= 0 && scanned < COLLECT_HEADING_SCAN && kept.length < COLLECT_MAX_HEADINGS; at--, scanned++) {
      var h = candidates[at];
      if (ancestors.has(h)) continue; // a heading holding the point is one of its ancestors
      // The main walk got here: it has every heading before (or skipped it with its subtree).
      if (index.has(h) || (lastMain && h !== lastMain && lastMain.compareDocumentPosition(h) & 2)) break;
      var tag = h.localName;
      var numbered = tag.length === 2 && tag.charAt(0) === "h" && tag.charAt(1) >= "1" && tag.charAt(1) <= "6";
      if (!numbered && !(h.hasAttribute("role") && /^\s*heading\s*$/i.test(h.getAttribute("role")))) continue;
      var level = numbered ? Number(tag.charAt(1)) : parseInt(h.getAttribute("aria-level"), 10) || 2;
      if (kept.length >= 16 && !(level < minLevel || (level === minLevel && (perLevel[level] || 0) < 3))) continue;
      kept.push(h);
      perLevel[level] = (perLevel[level] || 0) + 1;
      if (level < minLevel) minLevel = level;
    }
    return kept.reverse();
  }

  // Whether one side of the point has its context (or its share of the reserve).
  function full(c, side) {
    return side < 0 ? c.before >= COLLECT_SIDE_TEXT || c.nodesBefore >= COLLECT_SIDE_NODES
      : c.after >= COLLECT_SIDE_TEXT || c.nodesAfter >= COLLECT_SIDE_NODES;
  }

  // The next subtree to walk around the point, or null when done.
  function nextJob() {
    if (jobs.length) return jobs.shift();
    while (near.length) {
      var c = near[0];
      if (full(c, -1) && full(c, 1)) {
        near.shift();
        continue;
      }
      if (!c.siblings) {
        var parent = c.level < 6 ? flatParent(c.up) : null;
        if (!parent) {
          near.shift();
          continue;
        }
        c.siblings = flatChildren(parent);
        c.at = childIndex(c.siblings, c.up);
        ordOf.set(c.up, c.at);
        c.d = 0;
        c.parent = parent;
        c.turn = 1;
      }
      // Alternately before and after, outward, skipping a side that has enough or has no more
      // (the reserve bounds how many).
      for (var tries = 0; tries < 2; tries++) {
        c.turn = -c.turn;
        if (c.turn < 0) c.d += 1;
        var k = c.at + c.turn * c.d;
        if (!full(c, c.turn) && k >= 0 && k < c.siblings.length) {
          var sibling = c.siblings[k];
          ordOf.set(sibling, k);
          return { node: sibling, side: c.turn, cursor: c };
        }
      }
      var doneBefore = full(c, -1) || c.at - c.d <= 0;
      var doneAfter = full(c, 1) || c.at + c.d >= c.siblings.length - 1;
      if (doneBefore && doneAfter) {
        c.up = c.parent; // this level is done: one up
        c.level += 1;
        c.siblings = null;
      }
    }
    return null;
  }

  // Works around the point until `deadline`; false when it stopped there with work left.
  function around(deadline) {
    for (;;) {
      if (job) {
        if (!walk(deadline)) return false;
        var c = job.cursor;
        if (c) {
          var text = job.text - budgetText;
          var used = job.nodes - budgetNodes;
          budgetNodes += job.spare;
          if (job.side < 0) {
            c.before += text;
            c.nodesBefore += used;
          } else {
            c.after += text;
            c.nodesAfter += used;
          }
        }
        backward = false;
        job = null;
      }
      if (budgetNodes <= 0 || budgetText <= 0) return true;
      if (performance.now() > deadline) return false;
      var next = nextJob();
      if (!next) return true;
      job = next;
      job.spare = 0;
      if (job.cursor) {
        // A side walks within its share, so a huge subtree on one side cannot starve the other;
        // the side before the point walks backwards, from its end nearest the point.
        var share = COLLECT_SIDE_NODES - (job.side < 0 ? job.cursor.nodesBefore : job.cursor.nodesAfter);
        job.spare = Math.max(0, budgetNodes - share);
        budgetNodes -= job.spare;
        backward = job.side < 0;
      }
      job.text = budgetText;
      job.nodes = budgetNodes;
      reorder(next.node);
      var p = flatParent(next.node);
      var pAt = p ? index.get(p) : undefined;
      push(next.node, pAt === undefined ? -1 : pAt, false);
    }
  }

  function anchor(a) {
    var node = a.node;
    if (node.nodeType === 3 || node.nodeType === 4) {
      var at = index.get(node);
      if (at !== undefined) return { node: at, offset: Math.min(a.offset, nodes[at].text.length) };
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
    for (var p = node; p; p = flatParent(p)) {
      if (index.has(p) && nodes[index.get(p)].tag) return { node: index.get(p), offset: 0 };
    }
    return null;
  }

  return {
    // Works until `deadline`; true when the collection is complete.
    run: function (deadline) {
      if (phase === 0) {
        if (!walk(deadline)) return false;
        phase = 1;
        mainEnd = nodes.length;
        lastMain = doms[nodes.length - 1] || root;
      }
      if (phase === 1) {
        if (!started) {
          started = true;
          startAround();
        }
        if (!around(deadline)) return false;
        phase = 2;
      }
      return true;
    },
    finish: function () {
      csOf.length = 0;
      // Children lists, in flat-tree order: the walk made them as it went; where nodes were added
      // out of order (around the point), those elements' lists are made again from the tree.
      // Every added node is listed in its parent's `kids`; those the main walk added are in order
      // (it adds children in order), the others are put in order by their place among the children
      // (known from the neighbourhood's cursor, else asked of a Range), without touching the
      // children that were not collected (a parent of thousands would make thousands of wrappers).
      dirty.forEach(function (el) {
        var at = index.get(el);
        if (at === undefined || COLLECT_NO_DESCENT.has(el.localName)) return;
        var list = [];
        var i;
        if (el.shadowRoot || el.localName === "slot") {
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
        for (var j = 0; j < all.length; j++) (all[j] < mainEnd ? main : late).push(all[j]);
        if (!late.length) return; // all from the main walk: in order
        var place = function (n) {
          var o = ordOf.get(doms[n]);
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
      });
      var obs = {
        v: 1,
        url: String(location.href),
        title: String(doc.title || ""),
        lang: root.getAttribute("lang"),
        how: how,
        root: 0,
        nodes: nodes,
        truncated: truncated,
      };
      if (how === "drop") {
        var caretAnchor = rawAnchors.length ? anchor(rawAnchors[0]) : null;
        var elementAt = pointElement ? index.get(pointElement) : undefined;
        obs.point = { caret: caretAnchor, element: elementAt === undefined ? null : elementAt };
      } else {
        obs.selection = { start: anchor(selection[0]), end: anchor(selection[1]) };
      }
      return obs;
    },
  };
}

function caretAt(doc, x, y) {
  if (doc.caretPositionFromPoint) {
    var p = doc.caretPositionFromPoint(x, y);
    if (p && p.offsetNode) return { node: p.offsetNode, offset: p.offset };
  }
  if (doc.caretRangeFromPoint) {
    var r = doc.caretRangeFromPoint(x, y);
    if (r) return { node: r.startContainer, offset: r.startOffset };
  }
  return null;
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

var OPACITY_TOO = { opacityProperty: true };

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

// The facts of one element; `parentWs` is the parent's white-space (what "missing" means); sets
// ctx.ws to this element's own.
function recordElement(el, ctx, parentWs) {
  ctx.ws = parentWs;
  var rec = { tag: String(el.localName || el.nodeName).toLowerCase().slice(0, 64) };
  // By name: `attributes[i]` would make an Attr node for each.
  if (el.hasAttributes()) {
    var list = el.getAttributeNames();
    var attrs = null;
    for (var i = 0, n = 0; i < list.length && n < COLLECT_MAX_ATTRS; i++) {
      var name = list[i];
      if (COLLECT_ATTRS.has(name) || name.indexOf("data-apc-") === 0) {
        var value = el.getAttribute(name);
        if (value === null) continue;
        attrs = attrs || {};
        attrs[name] = value.length > COLLECT_MAX_ATTR ? value.slice(0, COLLECT_MAX_ATTR) : value;
        n++;
      }
    }
    if (attrs) rec.attrs = attrs;
  }
  var cs = ctx.view.getComputedStyle(el);
  if (!cs) return rec;
  ctx.cs = cs; // for the facts of its own text, read when that text is collected
  var style = { display: cs.display };
  rec.style = style;
  if (style.display === "none") return rec; // nothing else matters: nothing in it renders
  // An element with nothing inside to show (an image, a line break, an input, an empty box, an
  // icon): its display is all a rule reads.
  if ((!el.firstChild && !el.shadowRoot) || COLLECT_NO_DESCENT.has(rec.tag)) return rec;
  // Inline phrasing elements (links, emphasis, spans) that stay inline and in the flow: what hides
  // a subtree or changes whitespace is almost never set on them, so only what hides their own text
  // is read. (A positioned one, e.g. a skip link moved off the page or a screen-reader-only span,
  // gets every fact below.)
  // Their white-space is the parent's (Rust inherits it when none is written).
  // (The facts that hide text are read when the element's own text is collected: see add.)
  var position = cs.position;
  if (style.display === "inline" && PHRASING.has(rec.tag) && position === "static") return rec;
  // One call answers two facts in the common case: the element has a box, and neither it nor an
  // ancestor has opacity 0. Otherwise each is read on its own.
  var shown = ctx.checkVisibility && el.checkVisibility(OPACITY_TOO);
  if (!shown && cs.opacity === "0") style.opacity0 = true;
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
    return rec;
  }
  // Where the box is: only a clipping or positioned box can be of no area or out of the page by
  // itself (a static box out of the page is inside one that is).
  if (!style.clips && position === "static") return rec;
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
  return rec;
}

// ---- Inside the extension only: listeners, messages, feedback. ----
//
// The manifest runs this file at document_start, and the drag listeners below go on `window` in the
// capture phase, so they are registered before any script of the page runs: a page cannot see an
// agent's drop before the extension does. What the page's own root says (data-apc-native-drops) is
// read when an event arrives, never at load (the root may not exist yet).
// Observations travel as JSON text, so the background checks their size before reading them.

(function wire() {
  var api = globalThis.browser && globalThis.browser.runtime ? globalThis.browser : globalThis.chrome;
  if (!api || !api.runtime || !api.runtime.id) return;
  if (globalThis.__apcContentWired) return; // injected twice (e.g. after an extension update)
  globalThis.__apcContentWired = true;

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
    function whole(dropId) {
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
    if (!around) {
      whole(null); // one message, as before
      return;
    }
    runCollection(around).then(
      function (observation) {
        var dropId = newDropId();
        ask({ type: "page.drop", payload: payload, observation: JSON.stringify(observation), drop_id: dropId }).then(
          function (answer) {
            if (answer && answer.ok === true && answer.send_page_text === true) whole(dropId);
          },
          function () {} // no background to send it to
        );
      },
      function () {
        nextTask(function () { whole(null); });
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
      showFeedback(message);
      return undefined;
    }
    return undefined;
  });

  // The note: a closed shadow root (the page can neither read nor restyle its inside) in a host that
  // is shown in the top layer (a popover: above anything the page stacks) with every property it
  // needs set inline and !important (page CSS cannot override an inline !important declaration).
  // If the page still hides it (a script removing or restyling the host), the background is told
  // and shows it on the toolbar badge instead.
  var HOST_STYLE = [
    "all:initial", "display:block", "position:fixed", "inset:auto 16px 16px auto", "margin:0",
    "padding:0", "border:0", "background:transparent", "overflow:visible", "width:auto",
    "height:auto", "max-width:none", "max-height:none", "z-index:2147483647", "visibility:visible",
    "opacity:1", "transform:none", "filter:none", "clip-path:none", "pointer-events:auto",
    "content-visibility:visible", "color-scheme:light",
  ].map(function (d) { return d + " !important"; }).join(";");
  var host = null;
  var shadow = null;
  var hideTimer = 0;
  var watcher = null;

  function visible(el) {
    if (!el || !el.isConnected) return false;
    if (typeof el.checkVisibility === "function" && !el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) {
      return false;
    }
    var box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  }

  function checkShown() {
    if (host && !visible(host)) send({ type: "page.note_hidden" });
  }

  function showFeedback(message) {
    if (!host || !host.isConnected) {
      host = document.createElement("apc-page-feedback");
      host.setAttribute("data-apc-ui", "");
      host.setAttribute("popover", "manual");
      shadow = host.attachShadow({ mode: "closed" });
      (document.body || document.documentElement).appendChild(host);
      if (watcher) watcher.disconnect();
      watcher = new MutationObserver(function () {
        if (host && host.getAttribute("style") !== HOST_STYLE) host.setAttribute("style", HOST_STYLE);
        setTimeout(checkShown, 0);
      });
      watcher.observe(host, { attributes: true });
    }
    host.setAttribute("style", HOST_STYLE);
    try {
      if (typeof host.showPopover === "function" && !host.matches(":popover-open")) host.showPopover();
    } catch (e) {
      // No popover support: the fixed, inline-styled host is shown as is.
    }
    while (shadow.firstChild) shadow.removeChild(shadow.firstChild);
    var style = document.createElement("style");
    style.textContent =
      ".box{font:14px/1.4 system-ui,sans-serif;color:#111;background:#fff;border:1px solid #bbb;" +
      "border-radius:8px;box-shadow:0 2px 12px rgba(0,0,0,.2);padding:10px 12px;width:380px;max-width:calc(100vw - 48px)}" +
      ".error{border-color:#c33}.actions{display:flex;gap:10px;align-items:center;justify-content:flex-end;margin-top:8px}" +
      "a{overflow-wrap:anywhere;margin-right:auto}" +
      "button{font:inherit;cursor:pointer;border:1px solid #888;border-radius:6px;background:#f4f4f4;padding:2px 8px}" +
      "a{color:#0645ad}";
    shadow.appendChild(style);
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
      var undo = document.createElement("button");
      undo.type = "button";
      undo.textContent = text("noteUndo");
      var token = message.undo_token;
      undo.addEventListener("click", function () {
        send({ type: "page.undo", token: token });
        hide();
      });
      actions.appendChild(undo);
    }
    var close = document.createElement("button");
    close.type = "button";
    close.textContent = "\u00d7";
    close.setAttribute("aria-label", text("noteClose"));
    close.addEventListener("click", hide);
    actions.appendChild(close);
    shadow.appendChild(box);
    // The note goes by itself after a while, but never from under the person: while the pointer is
    // on it or the keyboard is in it, it stays (time to read it, or to reach Undo by Tab), and it
    // gets its whole time again once they leave. Escape inside it closes it.
    var shownFor = message.kind === "error" ? 15000 : 8000;
    var held = { pointer: false, focus: false };
    function hold(what, on) {
      held[what] = on;
      clearTimeout(hideTimer);
      if (!held.pointer && !held.focus) hideTimer = setTimeout(hide, shownFor);
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
    setTimeout(checkShown, 50);
  }

  function hide() {
    clearTimeout(hideTimer);
    if (watcher) watcher.disconnect();
    watcher = null;
    if (host) host.remove();
    host = null;
    shadow = null;
  }
})();
