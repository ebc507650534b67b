import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { isAppError } from "../errors";

/** What a connection failure is about: the server as configured, and its stderr tail. */
export interface FailureContext {
  transport: "stdio" | "http";
  command: string | null;
  url: string | null;
  /** Connect/list limit, ms. */
  timeoutMs: number;
  /** The last lines a stdio server wrote to stderr, if any. */
  stderr?: string;
}

function codeOf(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}

/**
 * A message for an MCP server that could not be reached or listed, which says what to do
 * (issue 6: `lastError` tells the owner how to fix it). Knows the failures people hit:
 * a program not found or not executable, a process that exits at once, nothing listening,
 * HTTP 401/403/404, a timeout, secrets sealed under another key.
 */
export function describeFailure(err: unknown, ctx: FailureContext): string {
  const message = err instanceof Error ? err.message : String(err);
  const tail = ctx.stderr?.trim() ? ` Its last output: ${ctx.stderr.trim().slice(-500)}` : "";
  if (isAppError(err) && err.reason === "secret_unreadable") return "This server's secrets cannot be decrypted (the server's key changed): enter them again, then Refresh.";
  const code = codeOf(err);
  if (ctx.transport === "stdio") {
    const cmd = `"${ctx.command ?? ""}"`;
    if (code === "ENOENT") {
      return `Could not start ${cmd}: no such program. Install it on this server or give its full path; the process gets only PATH, HOME and the secrets you set, so a program your login shell finds may not be found here.`;
    }
    if (code === "EACCES") return `Could not start ${cmd}: permission denied. Make it executable for the user the server runs as, then Refresh.`;
    if (err instanceof McpError && err.code === ErrorCode.ConnectionClosed) {
      return `${cmd} exited before answering as an MCP server over stdio.${tail} Run the command by hand on the server to see why, fix it, then Refresh.`;
    }
  } else {
    const url = ctx.url ?? "the URL";
    const status = typeof (err as { code?: unknown }).code === "number" ? ((err as { code: number }).code as number) : undefined;
    if (err instanceof McpError) {
      // Protocol errors are not HTTP statuses.
    } else if (status === 401 || status === 403 || err?.constructor?.name === "UnauthorizedError") {
      return `${url} refused the request (HTTP ${status ?? 401}): set the header it expects as a secret (e.g. Authorization: Bearer <token>), then Refresh.`;
    } else if (status === 404 || status === 405) {
      return `${url} answered HTTP ${status}: it is not a Streamable HTTP MCP endpoint (such URLs often end in /mcp). Check the URL, then Refresh.`;
    } else if (typeof status === "number") {
      return `${url} answered HTTP ${status} (${message}). Check the server's log, then Refresh.`;
    }
    if (code === "ECONNREFUSED") return `Nothing answers at ${url} (connection refused). Start the MCP server or correct the URL, then Refresh.`;
    if (code === "ENOTFOUND" || code === "EAI_AGAIN") return `The host of ${url} cannot be resolved. Correct the URL, then Refresh.`;
  }
  if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) {
    return `The server did not answer within ${Math.round(ctx.timeoutMs / 1000)} s.${tail} Check that it is an MCP server and that it is responsive, then Refresh.`;
  }
  return `${message}.${tail} Check the server's configuration, then Refresh.`.replace(/\.\.(\s|$)/, ".$1");
}
