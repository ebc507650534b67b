import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { isAppError } from "../errors";
import type { StdioLimits, StdioOutcome } from "./confined-stdio";

/** What a connection failure is about: the server as configured, and what its child did. */
export interface FailureContext {
  transport: "stdio" | "http";
  url: string | null;
  /** The limit the request waited for, ms. */
  timeoutMs: number;
  /** What the stdio child did (stop reason, exit), when there was one. */
  outcome?: StdioOutcome;
  limits?: StdioLimits;
}

function stringCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;
const bytes = (n: number) => (n >= 1024 * 1024 ? `${Math.round(n / (1024 * 1024))} MiB` : `${Math.round(n / 1024)} KiB`);
const TLS = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/;

function stdioMessage(err: unknown, ctx: FailureContext): string | undefined {
  const stop = ctx.outcome?.stopReason;
  if (stop === "timeout") return `The command did not answer within ${seconds(ctx.limits?.timeoutMs ?? ctx.timeoutMs)}, so it was stopped. Try again; if it keeps happening, ask the operator.`;
  if (stop === "message_too_long") return `The command wrote a message longer than ${bytes(ctx.limits?.maxMessageBytes ?? 0)}, so it was stopped. Ask the operator to check it.`;
  if (stop === "output_too_large") return `The command wrote more than ${bytes(ctx.limits?.maxOutputBytes ?? 0)} of output, so it was stopped. Ask the operator to check it.`;
  const code = stringCode(err);
  if (code === "ENOENT") return "The command's program is not installed on this server, so it could not start. Ask the operator to check MCP_STDIO_COMMANDS.";
  if (code === "EACCES") return "The command's program cannot be run here (permission denied). Ask the operator to check MCP_STDIO_COMMANDS.";
  if (err instanceof McpError && err.code === ErrorCode.ConnectionClosed) {
    return "The command exited before answering. What it printed is in the server log for the operator; ask them, then Refresh.";
  }
  return undefined;
}

function httpMessage(err: unknown, ctx: FailureContext): string | undefined {
  const url = ctx.url ?? "The URL";
  const status = err instanceof StreamableHTTPError ? err.code : undefined;
  if (status === 401 || status === 403 || err?.constructor?.name === "UnauthorizedError") {
    return `${url} answered HTTP ${status ?? 401}: set the header it expects as a secret (e.g. Authorization: Bearer <token>), then Refresh.`;
  }
  if (status === 404 || status === 405) return `${url} answered HTTP ${status}: it is not a Streamable HTTP MCP endpoint (such URLs often end in /mcp). Check the URL, then Refresh.`;
  if (typeof status === "number" && status >= 100) return `${url} answered HTTP ${status}. Check the MCP server, then Refresh.`;
  if (typeof status === "number") return `${url} answered with something that is not MCP. Check the URL, then Refresh.`;
  const code = stringCode(err);
  if (code === "ECONNREFUSED") return `Nothing answers at ${url} (connection refused). Start the MCP server or correct the URL, then Refresh.`;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return `The host of ${url} cannot be resolved. Correct the URL, then Refresh.`;
  if (code === "ECONNRESET" || code === "UND_ERR_SOCKET") return `${url} closed the connection. Check the MCP server, then Refresh.`;
  if (code === "ETIMEDOUT" || code === "UND_ERR_CONNECT_TIMEOUT") return `${url} did not accept a connection in time. Check the URL, then Refresh.`;
  if (code && TLS.test(code)) return `${url} presented a TLS certificate that is not trusted. Fix the server's certificate, then Refresh.`;
  if (err instanceof McpError && err.code === ErrorCode.ConnectionClosed) return `${url} closed the connection before answering. Check the MCP server, then Refresh.`;
  return undefined;
}

/**
 * A message for an MCP server that could not be reached or listed, in the product's own
 * words, that says what to do (docs/security.md "Stdio MCP servers", "Outbound requests"):
 * the command exited, did not answer in time or wrote too much; the URL answered HTTP 401;
 * connection refused; the address is not allowed. It never contains what the child printed
 * or what the remote sent (its body or message text): a tenant could otherwise read the
 * output of a command or of an internal endpoint. The details go to the server log
 * (see client-pool.ts), for the operator.
 */
export function describeFailure(err: unknown, ctx: FailureContext): string {
  if (isAppError(err) && err.reason === "secret_unreadable") return "This server's secrets cannot be decrypted (the server's key changed): enter them again, then Refresh.";
  if (isAppError(err) && err.reason === "address_not_allowed") {
    return `${ctx.url ?? "The URL"}: the address is not allowed (private network). Use a public address; the operator can open a named host with OUTBOUND_ALLOW_PRIVATE.`;
  }
  // Our own errors (stdio off, unknown command, refused value) already say what to do.
  if (isAppError(err)) return err.message;
  const specific = ctx.transport === "stdio" ? stdioMessage(err, ctx) : httpMessage(err, ctx);
  if (specific) return specific;
  if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) {
    return `The server did not answer within ${seconds(ctx.timeoutMs)}. Check that it is an MCP server and that it is responsive, then Refresh.`;
  }
  if (err instanceof McpError) return `The server answered with an MCP error (code ${err.code}). Check the server, then Refresh.`;
  if (err instanceof Error && (err.name === "ZodError" || err.name === "SyntaxError")) return "The server's answer is not valid MCP. Check that it is an MCP server, then Refresh.";
  return "Could not connect to the MCP server; the details are in the server log for the operator. Check the configuration, then Refresh.";
}
