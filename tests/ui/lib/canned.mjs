// Why JavaScript: test data for `node --test` (the house test runner). Canned background answers
// that look like a person's real setup: one local apc-hub, agents "Claude Code" and "Cursor".

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const iso = (msAgo, now = Date.now()) => new Date(now - msAgo).toISOString();

export const pong = { ok: true, standard: '0.7.0', version: '0.1.0' };

export const HUB = 'http://127.0.0.1:7410';

export function claude(overrides = {}) {
  return {
    id: 'pr_7kQ2mV9xT4bN',
    hub_origin: HUB,
    hub_display: '127.0.0.1:7410',
    hub_name: 'apc-hub',
    agent_handle: 'claude-code',
    agent_name: 'Claude Code',
    created_at: iso(3 * DAY),
    last_used: true,
    pin: { id: 'rd_f3Lw0pZqA8cY', pinned_at: iso(2 * MINUTE), seen_at: null },
    hub: { state: 'reachable', at: iso(5_000) },
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
    created_at: iso(12 * DAY),
    last_used: false,
    pin: { id: 'rd_9xYtB2kVn1Qe', pinned_at: iso(3 * HOUR), seen_at: iso(2 * HOUR + 50 * MINUTE) },
    hub: { state: 'reachable', at: iso(5_000) },
    ...overrides,
  };
}

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
      how: 'drop',
      ...overrides,
    },
  };
}
