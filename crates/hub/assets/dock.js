// Why JS: a drag's payload can only be set in `dragstart`, tickets are minted on demand (the hub's
// `GET /` mints none), the pairings list updates live, and an agent's connect instructions are
// fetched when the person opens them. The hub renders every piece of HTML this script shows; the
// script only fetches, sets the drag payload and swaps in what the hub rendered.
"use strict";

const csrf = document.querySelector('meta[name="csrf-token"]').content;
const DRAG_MIME = "application/x-apc-agent";
/** A ticket lives five minutes on the hub; the dock uses one for four at most. */
const TICKET_FRESH_MS = 4 * 60 * 1000;
const statusLine = () => document.getElementById("status");

async function mintTicket(agent) {
  const res = await fetch("/dock/tickets", {
    method: "POST",
    headers: { "content-type": "application/json", "x-csrf-token": csrf },
    body: JSON.stringify({ agent }),
  });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(body.message || `The hub answered ${res.status}.`);
  return body;
}

/** Makes sure the mark holds a fresh ticket by the time the person starts dragging it. */
function readyTicket(mark) {
  const minted = Number(mark.dataset.mintedAt || 0);
  if (mark.dataset.ticket && Date.now() - minted < TICKET_FRESH_MS) return;
  if (mark.dataset.minting) return;
  mark.dataset.minting = "1";
  mark.setAttribute("aria-busy", "true");
  mintTicket(mark.dataset.agent)
    .then((body) => {
      mark.dataset.ticket = body.ticket;
      mark.dataset.mintedAt = String(Date.now());
    })
    .catch((e) => { statusLine().textContent = e.message; })
    .finally(() => {
      delete mark.dataset.minting;
      mark.removeAttribute("aria-busy");
    });
}

const markOf = (event) => (event.target instanceof Element ? event.target.closest(".agent-mark") : null);

for (const type of ["pointerdown", "focusin", "mouseover"]) {
  document.addEventListener(type, (event) => {
    const mark = markOf(event);
    if (mark) readyTicket(mark);
  });
}

document.addEventListener("dragstart", (event) => {
  const mark = markOf(event);
  if (!mark) return;
  if (!mark.dataset.ticket) {
    // No ticket yet: a drop without one would pin nothing.
    event.preventDefault();
    statusLine().textContent = "Getting a fresh ticket for this mark: drag it again in a moment.";
    readyTicket(mark);
    return;
  }
  const payload = { v: 1, agent: mark.dataset.agent, hub: mark.dataset.hub, ticket: mark.dataset.ticket };
  event.dataTransfer.setData(DRAG_MIME, JSON.stringify(payload));
  event.dataTransfer.effectAllowed = "copy";
  // The ticket travels with this drag and is spent by its drop: the next drag needs a new one.
  delete mark.dataset.ticket;
  delete mark.dataset.mintedAt;
});

document.addEventListener("click", (event) => {
  const button = event.target instanceof Element ? event.target.closest(".new-code") : null;
  if (!button) return;
  mintTicket(button.dataset.agent)
    .then((body) => {
      const code = document.getElementById(`code-${button.dataset.agent}`);
      if (code) code.textContent = body.code;
      statusLine().textContent = "New code ready.";
    })
    .catch((e) => { statusLine().textContent = e.message; });
});

/**
 * An agent's connect instructions (each client's command, link and file entry), as the hub renders
 * them, fetched when the person opens them: with many agents they would be most of the page.
 */
async function showConnect(details) {
  const list = details.querySelector("dl.clients");
  if (!list || list.childElementCount > 0 || list.dataset.loading) return;
  list.dataset.loading = "1";
  try {
    const res = await fetch(`/dock/connect?agent=${encodeURIComponent(list.dataset.agent)}`, {
      headers: { "x-csrf-token": csrf },
    });
    const body = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(body.message || `The hub answered ${res.status}.`);
    list.innerHTML = body.html;
  } catch (e) {
    statusLine().textContent = e.message;
  } finally {
    delete list.dataset.loading;
  }
}

// `toggle` does not bubble: listen for it in the capture phase.
document.addEventListener("toggle", (event) => {
  const details = event.target;
  if (details instanceof HTMLDetailsElement && details.open && details.matches("details.connect")) {
    showConnect(details);
  }
}, true);
// Opened before this script ran.
for (const details of document.querySelectorAll("details.connect[open]")) showConnect(details);

/** The pairings and pin states, live: the hub answers when something changed (or after a while). */
async function followPairings() {
  let version = Number(document.querySelector('meta[name="dock-version"]').content);
  for (;;) {
    try {
      const res = await fetch(`/dock/pairings?since=${version}`, { headers: { "x-csrf-token": csrf } });
      if (!res.ok) throw new Error(`The hub answered ${res.status}.`);
      const body = await res.json();
      if (body.version !== version) {
        version = body.version;
        for (const [agent, html] of Object.entries(body.agents)) {
          const box = document.querySelector(`.pairings-box[data-agent="${CSS.escape(agent)}"]`);
          if (box && box.innerHTML !== html) box.innerHTML = html;
        }
      }
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 5000));
    }
  }
}
followPairings();
