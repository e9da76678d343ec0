// Why this is JavaScript: it runs in a fixture page (Chromium through CDP, Firefox through
// Selenium), where only the page's own language can find text and set a selection. It is the test
// side of tests/content/anytext-cases.json, shared by tests/content/anytext.test.mjs and
// tests/browser/test_firefox_anytext.py, so both browsers point at exactly the same places.
//
// anytextPrepare(c) finds the case's element (its `path`, through shadow roots), scrolls it into
// view and prepares the case's act: it sets a selection (select-range, field-select, select-all)
// or gives the viewport points a drop or a mouse drag needs. It answers
// { request, mouse?: { from: {x, y}, to: {x, y} } }, the request being what the collector is asked.

"use strict";

function anytextPrepare(c) {
  var el = document.querySelector(c.path[0]);
  for (var i = 1; i < c.path.length; i++) {
    if (!el || !el.shadowRoot) throw new Error("no open shadow root at " + c.path.slice(0, i).join(" > "));
    el = el.shadowRoot.querySelector(c.path[i]);
  }
  if (!el) throw new Error("no element at " + c.path.join(" > "));
  el.scrollIntoView({ block: "center" });

  // The first text node under `root` (its own tree) holding `needle`, at or after `after`.
  function find(root, needle, after) {
    var walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    var seen = !after;
    for (var n = walker.nextNode(); n; n = walker.nextNode()) {
      if (n === after) seen = true;
      if (!seen) continue;
      var at = n.data.indexOf(needle);
      if (at !== -1) return { node: n, at: at };
    }
    throw new Error("no text " + JSON.stringify(needle) + " under " + c.path.join(" > "));
  }
  // The box of one character, scrolled to the middle of the viewport first.
  function charBox(node, at) {
    var range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + 1);
    var box = range.getClientRects()[0] || range.getBoundingClientRect();
    if (box.top < 0 || box.bottom > innerHeight) {
      window.scrollBy(0, box.top - innerHeight / 2);
      box = range.getClientRects()[0] || range.getBoundingClientRect();
    }
    return box;
  }
  function middleOf(box, dx) {
    return { x: box.left + (dx === undefined ? box.width / 2 : dx), y: box.top + box.height / 2 };
  }
  function elementBox() {
    var box = el.getBoundingClientRect();
    return box;
  }

  if (c.act === "drop") {
    if (!c.needle) {
      var b = elementBox();
      return { request: { how: "drop", x: b.left + Math.min(b.width / 2, 30), y: b.top + b.height / 2 } };
    }
    var hit = find(el, c.needle);
    var p = middleOf(charBox(hit.node, hit.at));
    return { request: { how: "drop", x: p.x, y: p.y } };
  }
  if (c.act === "mouse-select") {
    getSelection().removeAllRanges();
    if (c.box) {
      var eb = elementBox();
      return {
        request: { how: "selection" },
        mouse: { from: { x: eb.left + 2, y: eb.top + eb.height / 2 }, to: { x: eb.right - 2, y: eb.top + eb.height / 2 } },
      };
    }
    var a = find(el, c.from);
    var z = find(el, c.to, a.node);
    var first = charBox(a.node, a.at);
    var last = charBox(z.node, z.at + c.to.length - 1);
    first = charBox(a.node, a.at); // the second scroll may have moved the first character
    return {
      request: { how: "selection" },
      mouse: { from: middleOf(first, 1), to: middleOf(last, last.width - 1) },
    };
  }
  if (c.act === "select-range") {
    var s = find(el, c.from);
    var e = find(el, c.to, s.node);
    var range = document.createRange();
    range.setStart(s.node, s.at);
    range.setEnd(e.node, e.at + c.to.length);
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    return { request: { how: "selection" } };
  }
  if (c.act === "field-select") {
    var value = el.value;
    var from = value.indexOf(c.from);
    var to = value.indexOf(c.to, from) + c.to.length;
    if (from < 0 || to < c.to.length) throw new Error("no such text in the field");
    el.focus();
    el.setSelectionRange(from, to);
    return { request: { how: "selection" } };
  }
  if (c.act === "select-all") {
    getSelection().selectAllChildren(el);
    return { request: { how: "selection" } };
  }
  throw new Error("unknown act " + c.act);
}
