// Plays the agent with a real third-party MCP client (the npm @modelcontextprotocol/sdk), connected
// to the hub's MCP URL over Streamable HTTP, exactly as Claude Code or Cursor would.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export async function connectAgent(mcpUrl) {
  const client = new Client({ name: 'apc-e2e-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
  return {
    client,
    /** Calls a tool and returns its structured result (or the parsed text), with isError. */
    async call(name, args = {}, { timeoutMs = 60000 } = {}) {
      const res = await client.callTool({ name, arguments: args }, undefined, { timeout: timeoutMs });
      const structured = res.structuredContent
        ?? (() => { try { return JSON.parse(res.content?.[0]?.text ?? 'null'); } catch { return null; } })();
      return { isError: !!res.isError, result: structured, raw: res };
    },
    close: () => client.close(),
  };
}
