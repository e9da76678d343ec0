// Why JS: the npm MCP SDK (@modelcontextprotocol/sdk) is a Node library; this test runs its stdio
// client, as a client that only spawns programs does, against `apc-hub mcp`, which relays to a real
// `apc-hub` started on a throwaway data directory. The test plays the extension and the dock over
// HTTP as the other hub tests do: it pairs, pins while the agent waits, and the agent reads the pin.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const EXT = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';

function hubBin() {
  if (process.env.APC_HUB_BIN) return process.env.APC_HUB_BIN;
  const bin = join(process.env.CARGO_TARGET_DIR || join(ROOT, 'target'), 'debug', 'apc-hub');
  if (!existsSync(bin)) spawnSync('cargo', ['build', '--quiet', '-p', 'apc-hub'], { cwd: ROOT, stdio: 'inherit' });
  return bin;
}

async function startHub(dataDir) {
  const proc = spawn(hubBin(), ['--listen', '127.0.0.1:0', '--log', 'warn', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: proc.stdout });
  const first = await new Promise((ok) => lines.once('line', ok));
  lines.on('line', () => {});
  const origin = /^apc-hub listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(first)?.[1];
  assert.ok(origin, `first line: ${first}`);
  return { proc, origin };
}

async function json(res) {
  const body = await res.json();
  return { status: res.status, body };
}

async function pair(origin) {
  const html = await (await fetch(`${origin}/`)).text();
  const csrf = /<meta name="csrf-token" content="([^"]*)"/.exec(html)[1];
  const agent = /class="agent-mark[^"]*"[^>]*data-agent="([^"]*)"/.exec(html)[1];
  const minted = await json(await fetch(`${origin}/dock/tickets`, {
    method: 'POST',
    headers: { origin, 'sec-fetch-site': 'same-origin', 'x-csrf-token': csrf, 'content-type': 'application/json' },
    body: JSON.stringify({ agent }),
  }));
  assert.equal(minted.status, 201);
  const paired = await json(await fetch(`${origin}/page/pair`, {
    method: 'POST',
    headers: { origin: EXT, 'content-type': 'application/json' },
    body: JSON.stringify({ ticket: minted.body.ticket, agent }),
  }));
  assert.equal(paired.status, 201);
  return paired.body.pairing.grant;
}

async function pin(origin, grant, text) {
  return json(await fetch(`${origin}/page/pin`, {
    method: 'PUT',
    headers: { origin: EXT, authorization: `Bearer ${grant}`, 'content-type': 'application/json' },
    body: JSON.stringify({ reading: {
      url: 'https://example.org/post', title: 'A post',
      pointed: { text, how: 'selection', targets: [] },
      context: { headings: [], before: '', after: '' }, made_at: '2026-11-29T00:00:00.000Z',
    } }),
  }));
}

test('the npm SDK over stdio through apc-hub mcp lists, waits for a pin and reads it', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'apc-hub-sdk-'));
  const hub = await startHub(dataDir);
  const client = new Client({ name: 'apc-stdio-test', version: '1.0.0' });
  try {
    const grant = await pair(hub.origin);
    await client.connect(new StdioClientTransport({ command: hubBin(), args: ['mcp', '--data-dir', dataDir], stderr: 'inherit' }));
    assert.match(client.getInstructions() ?? '', /wait_for_focus/);
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(),
      ['call_app_tool', 'get_current_view', 'list_app_tools', 'page__get_reading', 'wait_for_focus']);

    let done = false;
    const pinned = new Set();
    const waiting = client.callTool({ name: 'wait_for_focus', arguments: { timeout_s: 25 } }, undefined, { timeout: 60000 })
      .finally(() => { done = true; });
    while (!done) {
      const { status, body } = await pin(hub.origin, grant, 'Pointed for the SDK');
      assert.equal(status, 200);
      pinned.add(body.focus.id);
      await new Promise((ok) => setTimeout(ok, 200));
    }
    const waited = (await waiting).structuredContent;
    assert.equal(waited.timed_out, false);
    assert.ok(pinned.has(waited.focus.id));
    const read = await client.callTool({ name: 'page__get_reading', arguments: { id: [...pinned].at(-1) } });
    assert.ok(!read.isError);
    assert.equal(read.structuredContent.reading.pointed.text, 'Pointed for the SDK');
  } finally {
    await client.close().catch(() => {});
    hub.proc.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
