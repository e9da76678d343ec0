// Fixture web sites on 127.0.0.1: each site is its own origin (its own port), serving the fixture
// pages and, when asked, an /.well-known/apc.json that is valid, redirected, oversized or slow.
import { createServer } from 'node:http';
import { readFileSync, existsSync } from 'node:fs';
import { join, resolve, normalize } from 'node:path';

const FIXTURES = resolve(import.meta.dirname, '../../fixtures');

/**
 * apcJson: undefined (404), an object (served as JSON with the site's origin filled in where
 * `origin` is '{origin}'), or one of 'redirect' | 'huge' | 'slow'.
 * headers: extra response headers for HTML pages (e.g. a CSP).
 */
/** Ports earlier sites of this process listened on. */
const USED_PORTS = new Set();

export async function startSite({ apcJson, headers = {}, pages = {} } = {}) {
  const requests = [];
  const server = createServer((req, res) => {
    requests.push(req.url);
    const origin = `http://127.0.0.1:${server.address().port}`;
    const path = new URL(req.url, origin).pathname;
    if (path === '/.well-known/apc.json') return serveApcJson(res, apcJson, origin);
    if (pages[path] !== undefined) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers });
      return res.end(pages[path]);
    }
    const file = normalize(join(FIXTURES, path));
    if (!file.startsWith(FIXTURES + '/') || !existsSync(file)) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return res.end('not found');
    }
    const type = file.endsWith('.html') ? 'text/html; charset=utf-8'
      : file.endsWith('.js') ? 'text/javascript' : 'application/octet-stream';
    res.writeHead(200, { 'content-type': type, ...(type.startsWith('text/html') ? headers : {}) });
    res.end(readFileSync(file));
  });
  // Never an origin an earlier site of this run had: the extension keeps an origin's apc.json
  // answer for a while (APP_CHECK_REUSE_MS), so a port used again would get that site's answer.
  // A port seen before is held while another is taken.
  const held = [];
  for (;;) {
    await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
    const port = server.address().port;
    if (!USED_PORTS.has(port)) break;
    const holder = createServer();
    await new Promise((ok) => server.close(() => holder.listen(port, '127.0.0.1', ok)));
    held.push(holder);
  }
  for (const holder of held) holder.close();
  USED_PORTS.add(server.address().port);
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    requests,
    apcJsonRequests: () => requests.filter((u) => u.startsWith('/.well-known/apc.json')).length,
    url: (path) => origin + path,
    close: () => new Promise((ok) => { server.closeAllConnections(); server.close(ok); }),
  };
}

function serveApcJson(res, apcJson, origin) {
  if (apcJson === undefined) {
    res.writeHead(404, { 'content-type': 'application/json' });
    return res.end('{"error":"not found"}');
  }
  if (apcJson === 'redirect') {
    res.writeHead(302, { location: '/elsewhere/apc.json' });
    return res.end();
  }
  const body = (value) => JSON.stringify(value, (k, v) => (v === '{origin}' ? origin : v));
  if (apcJson === 'huge') {
    const manifest = directOnly();
    manifest.padding = 'x'.repeat(20 * 1024);
    res.writeHead(200, { 'content-type': 'application/json' });
    return res.end(body(manifest).replaceAll('{origin}', origin));
  }
  if (apcJson === 'slow') {
    const timer = setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body(directOnly()).replaceAll('{origin}', origin));
    }, 4500);
    res.on('close', () => clearTimeout(timer));
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(body(apcJson).replaceAll('{origin}', origin));
}

/** A Direct-only app's apc.json (origin filled in per site). */
export function directOnly(name = 'Signals') {
  return {
    name, standard: '0.7.0', origin: '{origin}', profiles: ['direct'],
    mcp: { path: '/mcp/' }, direct: { connect: '{origin}/connect' },
  };
}
