import "server-only";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { AppError } from "../errors";
import { logger } from "../log";
import { guardedFetch } from "../net/guarded-fetch";
import { ConfinedStdioTransport, type StdioLimits } from "./confined-stdio";
import { describeFailure, type FailureContext } from "./describe-error";
import { redactValues, type UsedSecret } from "../workspace-secrets/references";
import { type CheckedReferences, checkReferences, type McpSecretSource, resolveReferences } from "./secret-references";
import { openSecrets } from "./secrets";
import { resolveStdioLaunch } from "./stdio-launch";

/**
 * Connections to MCP servers, pooled per server id in this server process: one
 * MCP client per server, opened on first use, closed after {@link IDLE_CLOSE_MS} without a
 * call, re-created when the server's configuration changes, and closed (stdio children
 * killed) when the process exits. A stdio server runs only as a command of the operator's
 * catalogue (stdio-launch.ts), confined by ConfinedStdioTransport; an HTTP server is
 * reached through the guarded outbound client (docs/security.md "Stdio MCP servers",
 * "Outbound requests"). Failures reach tenants only in the product's words
 * (describe-error.ts); the details are logged for the operator.
 *
 * `{{secret:NAME}}` in a server's headers or environment is resolved here, when a
 * connection opens, from the secrets of the server's workspace (docs/secrets.md "MCP
 * servers"). A connection is keyed by its workspace and by a fingerprint of the secrets it
 * carries, which is checked before every use: a replaced or deleted secret is never used
 * again after the call in flight, and no connection serves two workspaces.
 */

/** A server as the pool needs it (a `McpServer` row). */
export interface McpConnectionConfig {
  id: string;
  /** The workspace the server belongs to: its secrets are the only ones it may refer to. */
  workspaceId: string;
  transport: string;
  /** stdio: the name of the operator's command (MCP_STDIO_COMMANDS). */
  command: string | null;
  /** stdio: JSON object of the chosen placeholder values. */
  args: string;
  url: string | null;
  secretCiphertext: string | null;
  /** The workspace's secrets, for `{{secret:NAME}}` in the headers or env; absent: references are refused. */
  secretSource?: McpSecretSource;
}

/** Close a connection after this long without a call, ms. */
export const IDLE_CLOSE_MS = 60_000;
/** Limit of connecting (initialize), ms. */
export const CONNECT_TIMEOUT_MS = 15_000;

interface Entry {
  key: string;
  client: Promise<Client>;
  transport: Transport | null;
  limits: StdioLimits | undefined;
  busy: number;
  timer: ReturnType<typeof setTimeout> | null;
  /** The workspace secrets this connection carries (their values are put back as references in what it answers). */
  used: UsedSecret[];
}

const state = globalThis as unknown as { __phylacteryMcpPool?: Map<string, Entry> };
state.__phylacteryMcpPool ??= new Map<string, Entry>();
const pool: Map<string, Entry> = state.__phylacteryMcpPool;
const log = logger.child({ module: "mcp" });

function keyOf(c: McpConnectionConfig, refs: CheckedReferences): string {
  return JSON.stringify([c.workspaceId, c.transport, c.command, c.args, c.url, c.secretCiphertext, refs.fingerprint]);
}

/** `err` with every secret value it mentions put back as its reference (an echoing server, a logged body). */
function scrubbed(err: unknown, used: readonly UsedSecret[]): unknown {
  if (used.length === 0 || !(err instanceof Error)) return err;
  const message = redactValues(err.message, used);
  if (message !== err.message) {
    try {
      err.message = message;
    } catch {
      return new Error(message);
    }
  }
  return err;
}

/** How a failure of server `c` is described, with what its stdio child did. */
function contextOf(c: McpConnectionConfig, entry: Entry | undefined, timeoutMs = CONNECT_TIMEOUT_MS): FailureContext {
  const outcome = entry?.transport instanceof ConfinedStdioTransport ? entry.transport.outcome : undefined;
  return { transport: c.transport === "stdio" ? "stdio" : "http", url: c.url, timeoutMs, ...(outcome ? { outcome } : {}), ...(entry?.limits ? { limits: entry.limits } : {}) };
}

/**
 * The product's description of a failure, after logging the details for the operator
 * (the error with the remote's text, the child's exit and stderr tail).
 */
function described(c: McpConnectionConfig, err: unknown, entry: Entry | undefined, what: string, timeoutMs = CONNECT_TIMEOUT_MS): string {
  const ctx = contextOf(c, entry, timeoutMs);
  log.warn({ err, serverId: c.id, transport: c.transport, command: c.command, url: c.url, child: ctx.outcome }, `MCP server ${what} failed`);
  return describeFailure(err, ctx);
}

function open(c: McpConnectionConfig, entry: Entry, refs: CheckedReferences): Promise<Client> {
  return (async () => {
    const resolved = resolveReferences(openSecrets(c.secretCiphertext), refs.rows);
    const secrets = resolved.values;
    entry.used = resolved.used;
    if (resolved.used.length > 0) await c.secretSource?.used(resolved.used.map((u) => u.name));
    let transport: Transport;
    if (c.transport === "stdio") {
      const launch = resolveStdioLaunch(c.command, c.args);
      const env = Object.fromEntries(Object.entries(secrets).filter(([k]) => launch.envNames.includes(k)));
      entry.limits = launch.limits;
      transport = new ConfinedStdioTransport(launch.argv, env, launch.limits);
    } else {
      transport = new StreamableHTTPClientTransport(new URL(c.url ?? ""), { requestInit: { headers: secrets }, fetch: guardedFetch });
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
      throw new AppError("unprocessable", "mcp_unavailable", described(c, scrubbed(err, entry.used), entry, "connection"));
    }
    return client;
  })();
}

function entryFor(c: McpConnectionConfig, refs: CheckedReferences): { entry: Entry; fresh: boolean } {
  const key = keyOf(c, refs);
  const existing = pool.get(c.id);
  if (existing && existing.key === key) return { entry: existing, fresh: false };
  if (existing) void dispose(c.id, existing);
  const entry: Entry = { key, client: Promise.resolve(null as unknown as Client), transport: null, limits: undefined, busy: 0, timer: null, used: [] };
  entry.client = open(c, entry, refs);
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
 * What a caller may see of an error of `fn`: our own errors, an abort, and an MCP error the
 * server answered (a tool's answer) as they are; a lost connection, a timeout or any
 * transport error (which may carry the remote's body) as AppError "mcp_unavailable" in
 * the product's words, logged in full.
 */
function shown(c: McpConnectionConfig, err: unknown, entry: Entry, opts: { signal?: AbortSignal; timeoutMs?: number }): unknown {
  if (err instanceof AppError || opts.signal?.aborted) return err;
  if (err instanceof McpError && err.code !== ErrorCode.ConnectionClosed && err.code !== ErrorCode.RequestTimeout) return err;
  if (err instanceof Error && err.name === "AbortError") return err;
  return new AppError("unprocessable", "mcp_unavailable", described(c, err, entry, "request", opts.timeoutMs));
}

/**
 * Runs `fn` with the pooled client of server `c`, connecting first when needed. The
 * workspace secrets the server's headers or env refer to are looked up first (see
 * checkReferences); when they changed since the pooled connection opened, it is replaced.
 * `fn` gets the secrets the connection carries, to put their values back as references in
 * what it keeps (see redactValues); errors are scrubbed the same way.
 * @param opts.retryStale run `fn` once more on a fresh connection when a reused one turns
 *   out broken (only for calls that are safe to repeat, like `tools/list`).
 * @param opts.timeoutMs the limit `fn` gives its requests, ms, for describing a timeout
 *   (default {@link CONNECT_TIMEOUT_MS}).
 * @throws AppError (ours: stdio off, unknown command; "unknown_secret",
 *   "secret_host_not_allowed", "secrets_unavailable" before any connection; "mcp_unavailable" for a failed
 *   connection or request, in the product's words), an MCP error the server answered, or
 *   the abort of `opts.signal`; a broken connection is dropped from the pool.
 */
export async function withMcpClient<T>(
  c: McpConnectionConfig,
  fn: (client: Client, used: readonly UsedSecret[]) => Promise<T>,
  opts: { retryStale?: boolean; signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<T> {
  const refs = await checkReferences(openSecrets(c.secretCiphertext), c, c.secretSource);
  const { entry, fresh } = entryFor(c, refs);
  entry.busy += 1;
  if (entry.timer) clearTimeout(entry.timer);
  entry.timer = null;
  try {
    const client = await entry.client;
    return await fn(client, entry.used);
  } catch (raw) {
    const err = scrubbed(raw, entry.used);
    if (opts.signal?.aborted || !brokenConnection(err)) throw shown(c, err, entry, opts);
    void dispose(c.id, entry);
    if (opts.retryStale && !fresh) return withMcpClient(c, fn, { ...opts, retryStale: false });
    throw shown(c, err, entry, opts);
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
  if (err instanceof AppError) return describeFailure(err, contextOf(c, undefined));
  return described(c, err, pool.get(c.id), "listing");
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
