// Starts a real apc-hub binary for a test: a free port, a temporary data dir, stopped on demand.
// Tests talk to it only over HTTP and MCP, never through its internals.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../../..');
export const HUB_BIN = process.env.APC_HUB_BIN ?? join(ROOT, 'target/debug/apc-hub');

/** Starts apc-hub on `listen` (default a free port) with `dataDir` (default a new temp dir). */
export async function startHub({ dataDir, listen = '127.0.0.1:0' } = {}) {
  const ownDir = !dataDir;
  dataDir ??= mkdtempSync(join(tmpdir(), 'apc-hub-test-'));
  const child = spawn(HUB_BIN, ['--listen', listen, '--data-dir', dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (d) => { output += d; });
  const origin = await new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`apc-hub did not start:\n${output}`)), 15000);
    child.stdout.on('data', (d) => {
      output += d;
      const m = /^apc-hub listening on (http:\/\/\S+)$/m.exec(output);
      if (m) { clearTimeout(timer); ok(m[1]); }
    });
    child.on('exit', (code) => { clearTimeout(timer); fail(new Error(`apc-hub exited ${code}:\n${output}`)); });
  });
  child.removeAllListeners('exit');
  const port = Number(new URL(origin).port);
  return {
    origin, port, dataDir, child,
    output: () => output,
    /** The agents with their MCP URLs, as `apc-hub agent list --json` prints them. */
    agents() {
      const out = execFileSync(HUB_BIN, ['agent', 'list', '--json', '--data-dir', dataDir, '--listen', `127.0.0.1:${port}`]);
      return JSON.parse(String(out));
    },
    /** `apc-hub agent add NAME` on this hub's data dir (a running hub sees it at once). */
    addAgent(name) {
      execFileSync(HUB_BIN, ['agent', 'add', name, '--data-dir', dataDir]);
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((ok) => child.once('exit', ok));
      child.kill('SIGTERM');
      await exited;
    },
    async cleanup() {
      await this.stop();
      if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
