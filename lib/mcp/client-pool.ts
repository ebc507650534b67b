import "server-only";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { AppError } from "../errors";
import { describeFailure } from "./describe-error";
import { openSecrets } from "./secrets";

/**
 * Connections to MCP servers (issue 6), pooled per server id in this server process: one
 * MCP client per server, opened on first use, closed after {@link IDLE_CLOSE_MS} without a
 * call, re-created when the server's configuration changes, and closed (stdio children
 * killed) when the process exits. A stdio child gets only the SDK's minimal environment
 * (`getDefaultEnvironment`: PATH, HOME, USER, ...) plus the server's own sealed env, never
 * this process's secrets.
 */

/** A server as the pool needs it (a `McpServer` row). */
export interface McpConnectionConfig {
  id: string;
  transport: string;
  command: string | null;
  /** JSON array of strings (the row's `args`). */
  args: string;
  url: string | null;
  secretCiphertext: string | null;
}

/** Close a connection after this long without a call, ms. */
export const IDLE_CLOSE_MS = 60_000;
/** Limit of connecting (initialize), ms. */
export const CONNECT_TIMEOUT_MS = 15_000;

interface Entry {
  key: string;
  client: Promise<Client>;
  transport: Transport | null;
  busy: number;
  timer: ReturnType<typeof setTimeout> | null;
  stderr: string;
  pid: number | null;
}

const state = globalThis as unknown as { __phylacteryMcpPool?: Map<string, Entry>; __phylacteryMcpExitHook?: boolean };
state.__phylacteryMcpPool ??= new Map<string, Entry>();
const pool: Map<string, Entry> = state.__phylacteryMcpPool;

if (!state.__phylacteryMcpExitHook) {
  state.__phylacteryMcpExitHook = true;
  // Only synchronous work runs on exit: kill the stdio children so none outlives us.
  process.once("exit", () => {
    for (const entry of pool.values()) {
      if (entry.pid) {
        try {
          process.kill(entry.pid);
        } catch {
          // Already gone.
        }
      }
    }
  });
}

function keyOf(c: McpConnectionConfig): string {
  return JSON.stringify([c.transport, c.command, c.args, c.url, c.secretCiphertext]);
}

function argsOf(c: McpConnectionConfig): string[] {
  try {
    const parsed: unknown = JSON.parse(c.args);
    return Array.isArray(parsed) ? parsed.filter((a): a is string => typeof a === "string") : [];
  } catch {
    return [];
  }
}

/** Where a connection failure is described for the owner. */
function failureContext(c: McpConnectionConfig, entry?: Entry) {
  return { transport: c.transport === "stdio" ? ("stdio" as const) : ("http" as const), command: c.command, url: c.url, timeoutMs: CONNECT_TIMEOUT_MS, stderr: entry?.stderr };
}

function open(c: McpConnectionConfig, entry: Entry): Promise<Client> {
  return (async () => {
    const secrets = openSecrets(c.secretCiphertext);
    let transport: Transport;
    if (c.transport === "stdio") {
      const stdio = new StdioClientTransport({ command: c.command ?? "", args: argsOf(c), env: { ...getDefaultEnvironment(), ...secrets }, stderr: "pipe" });
      stdio.stderr?.on("data", (chunk: Buffer) => {
        entry.stderr = (entry.stderr + chunk.toString("utf8")).slice(-2000);
      });
      transport = stdio;
    } else {
      transport = new StreamableHTTPClientTransport(new URL(c.url ?? ""), { requestInit: { headers: secrets } });
    }
    entry.transport = transport;
    const client = new Client({ name: "phylactery", version: "1.0.0" });
    client.onclose = () => {
      if (pool.get(c.id) === entry) pool.delete(c.id);
    };
    try {
      await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
    } catch (err) {
      await transport.close().catch(() => {});
      throw new AppError("unprocessable", "mcp_unavailable", describeFailure(err, failureContext(c, entry)), { cause: err instanceof Error ? err.message : String(err) });
    }
    if (transport instanceof StdioClientTransport) entry.pid = transport.pid;
    return client;
  })();
}

function entryFor(c: McpConnectionConfig): { entry: Entry; fresh: boolean } {
  const key = keyOf(c);
  const existing = pool.get(c.id);
  if (existing && existing.key === key) return { entry: existing, fresh: false };
  if (existing) void dispose(c.id, existing);
  const entry: Entry = { key, client: Promise.resolve(null as unknown as Client), transport: null, busy: 0, timer: null, stderr: "", pid: null };
  entry.client = open(c, entry);
  entry.client.catch(() => {
    if (pool.get(c.id) === entry) pool.delete(c.id);
  });
  pool.set(c.id, entry);
  return { entry, fresh: true };
}

async function dispose(id: string, entry: Entry): Promise<void> {
  if (pool.get(id) === entry) pool.delete(id);
  if (entry.timer) clearTimeout(entry.timer);
  try {
    const client = await entry.client;
    await client.close();
  } catch {
    await entry.transport?.close().catch(() => {});
  }
}

/** True when the error says the connection is unusable (not a tool's or protocol's answer). */
function brokenConnection(err: unknown): boolean {
  if (err instanceof AppError) return err.reason === "mcp_unavailable";
  if (err instanceof McpError) return err.code === ErrorCode.ConnectionClosed;
  return !(err instanceof Error && err.name === "AbortError");
}

/**
 * Runs `fn` with the pooled client of server `c`, connecting first when needed.
 * @param opts.retryStale run `fn` once more on a fresh connection when a reused one turns
 *   out broken (only for calls that are safe to repeat, like `tools/list`).
 * @throws whatever `fn` or connecting throws; a broken connection is dropped from the pool.
 */
export async function withMcpClient<T>(c: McpConnectionConfig, fn: (client: Client) => Promise<T>, opts: { retryStale?: boolean; signal?: AbortSignal } = {}): Promise<T> {
  const { entry, fresh } = entryFor(c);
  entry.busy += 1;
  if (entry.timer) clearTimeout(entry.timer);
  entry.timer = null;
  try {
    return await fn(await entry.client);
  } catch (err) {
    if (opts.signal?.aborted || !brokenConnection(err)) throw err;
    void dispose(c.id, entry);
    if (opts.retryStale && !fresh) return withMcpClient(c, fn, { ...opts, retryStale: false });
    throw err;
  } finally {
    entry.busy -= 1;
    if (entry.busy === 0 && pool.get(c.id) === entry) {
      entry.timer = setTimeout(() => void dispose(c.id, entry), IDLE_CLOSE_MS);
      entry.timer.unref();
    }
  }
}

/** The owner-facing description of a failure of server `c` (see describeFailure): what went wrong and what to do. */
export function describeMcpFailure(c: McpConnectionConfig, err: unknown): string {
  if (err instanceof AppError && err.reason === "mcp_unavailable") return err.message;
  return describeFailure(err, failureContext(c, pool.get(c.id)));
}

/** Closes the pooled connection of server `id` (after an edit or removal); no-op when none. */
export async function closeMcpClient(id: string): Promise<void> {
  const entry = pool.get(id);
  if (entry) await dispose(id, entry);
}

/** Closes every pooled connection (tests; process shutdown). */
export async function closeAllMcpClients(): Promise<void> {
  await Promise.all([...pool.entries()].map(([id, entry]) => dispose(id, entry)));
}

/** How many connections are open (tests). */
export function openMcpConnections(): number {
  return pool.size;
}
