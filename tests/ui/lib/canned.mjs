// Why JavaScript: test data for `node --test` (the house test runner). Canned background answers
// that look like a person's real setup: one local apc-hub, agents "Claude Code" and "Cursor". They
// have the shape of the background's view models (crates/background/src/logic/views.rs): the popup
// renders them and decides nothing, so every flag it shows is spelled out here.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const iso = (msAgo, now = Date.now()) => new Date(now - msAgo).toISOString();

export const pong = { ok: true, standard: '0.7.0', version: '0.1.0' };

export const HUB = 'http://127.0.0.1:7410';

/** A pairing's hub state as the background shows it (logic/views.rs `HubView`: its mark, its words, when it was checked). */
export const hubState = {
  reachable: (at = iso(5_000)) => ({ state: 'reachable', text: { key: 'hubReachable', subs: [] }, checked_at: at }),
  unreachable: (reason, at = iso(5_000)) => ({ state: 'unreachable', text: { key: 'hubUnreachableReason', subs: [reason] }, checked_at: at }),
  revokedBy: (by, at = iso(60_000)) => ({ state: 'revoked_by_hub', text: { key: 'hubRevokedBy', subs: [by] }, checked_at: at }),
  forgotten: (at = iso(60_000)) => ({ state: 'forgotten', text: { key: 'hubForgotten', subs: [] }, checked_at: at }),
  unknown: () => ({ state: 'unknown', text: { key: 'hubUnknown', subs: [] }, checked_at: null }),
};

export function claude(overrides = {}) {
  return {
    id: 'pr_7kQ2mV9xT4bN',
    hub_origin: HUB,
    hub_display: '127.0.0.1:7410',
    hub_name: 'apc-hub',
    agent_handle: 'claude-code',
    agent_name: 'Claude Code',
    hub_loopback: true,
    created_at: iso(3 * DAY),
    command_default: true,
    pin: { state: 'unread', pinned_at: iso(2 * MINUTE) },
    hub: hubState.reachable(),
    can_point: true,
    point_blocked: null,
    can_unpin: true,
    ...overrides,
  };
}

export function cursor(overrides = {}) {
  return {
    id: 'pr_Qe81sHd0LmWr',
    hub_origin: HUB,
    hub_display: '127.0.0.1:7410',
    hub_name: 'apc-hub',
    agent_handle: 'cursor',
    agent_name: 'Cursor',
    hub_loopback: true,
    created_at: iso(12 * DAY),
    command_default: false,
    pin: { state: 'read', seen_at: iso(2 * HOUR + 50 * MINUTE) },
    hub: hubState.reachable(),
    can_point: true,
    point_blocked: null,
    can_unpin: true,
    ...overrides,
  };
}

/** What the background says of a pairing its hub revoked or forgot: no pin, Point and Unpin off. */
export const hubGone = { command_default: false, pin: { state: 'none' }, can_point: false, point_blocked: 'hub_gone', can_unpin: false };
/** A pairing with no pin yet. */
export const noPin = { command_default: false, pin: { state: 'none' }, can_unpin: false };
/** Every pairing when the active tab is no web page. */
export const noPage = { can_point: false, point_blocked: 'no_page' };

export function state({ pairings = [claude(), cursor()], give_backs = [], can_point = true, ...rest } = {}) {
  return {
    ok: true,
    pairings,
    give_backs,
    revoke_confirm_ms: 4000,
    default_hub: HUB,
    can_point,
    ...rest,
  };
}

export function consent(overrides = {}) {
  return {
    ok: true,
    consent: {
      id: 'cs_4hTz8QmR2pXa',
      hub_origin: HUB,
      hub_display: '127.0.0.1:7410',
      hub_name: 'apc-hub',
      agent_handle: 'claude-code',
      agent_name: 'Claude Code',
      page_display: 'en.wikipedia.org',
      from_frame: false,
      frame_display: null,
      how: 'drop',
      hub_new: false,
      hub_loopback: true,
      allow_after_ms: 1000,
      ...overrides,
    },
  };
}
