import { z } from "zod";
import { ServerName } from "./naming";

/**
 * What an owner sends to add or change an MCP server, and what is stored of the
 * tools a server lists. Messages name what to do; lib/http/errors.ts prefixes the field.
 */

/** Most secrets (env vars or headers) one server may have. */
export const MAX_SECRETS = 30;

const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, "an environment variable name: letters, digits and _, not starting with a digit");
/** Headers the MCP client sets itself; a secret may not replace them. */
const RESERVED_HEADERS = new Set(["host", "content-length", "content-type", "accept", "connection", "transfer-encoding", "mcp-session-id", "mcp-protocol-version", "last-event-id"]);
const headerName = z
  .string()
  .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/, "an HTTP header name, e.g. Authorization")
  .refine((h) => !RESERVED_HEADERS.has(h.toLowerCase()), "the MCP client sets this header itself; use another");
const secretValue = z
  .string()
  .max(8000, "at most 8,000 characters")
  .refine((v) => !/[\r\n\0]/.test(v), "no line breaks or NUL characters");

/** A record of secrets whose keys pass `key` (each bad key reported under its own path). */
const secretRecord = (key: z.ZodType<string>) =>
  z.record(z.string(), secretValue).superRefine((r, ctx) => {
    const keys = Object.keys(r);
    if (keys.length > MAX_SECRETS) ctx.addIssue({ code: "custom", message: `at most ${MAX_SECRETS} entries` });
    for (const k of keys) {
      const checked = key.safeParse(k);
      if (!checked.success) ctx.addIssue({ code: "custom", path: [k], message: checked.error.issues[0]?.message ?? "invalid name" });
    }
  });

/** stdio secrets: environment variables for the server's process, by name. */
export const EnvSecrets = secretRecord(envName);
/** http secrets: request headers (e.g. Authorization), by name. */
export const HeaderSecrets = secretRecord(headerName);

/** The name of one of the operator's stdio commands (never a program path or a command line). */
const command = z
  .string()
  .trim()
  .min(1, "choose one of the commands the operator enabled")
  .max(64, "at most 64 characters")
  .regex(/^[a-z][a-z0-9_-]*$/, "the name of one of the commands the operator enabled (GET /api/mcp/commands), not a program or a command line");
/** Chosen values of the command's placeholders, by placeholder name. */
const values = z
  .record(z.string().regex(/^[a-z][a-z0-9_]{0,31}$/, "a placeholder name of the command"), z.string().max(4096, "at most 4,096 characters"))
  .refine((v) => Object.keys(v).length <= 32, "at most 32 values");
/** User name and password of a URL, or null when it does not parse (never throws). */
function credentialsOf(u: string): { username: string; password: string } | null {
  try {
    const parsed = new URL(u);
    return { username: parsed.username, password: parsed.password };
  } catch {
    return null;
  }
}
const url = z
  .string()
  .trim()
  .max(2000)
  .pipe(z.url({ protocol: /^https?$/, error: "an http(s) URL of the server's Streamable HTTP endpoint, e.g. https://mcp.example.com/mcp" }))
  .refine((u) => {
    const c = credentialsOf(u);
    return c !== null && c.username === "" && c.password === "";
  }, "no user name or password in the URL: put them in a header secret (e.g. Authorization)");

/**
 * POST body of `/api/workspaces/:id/mcp`: a named server reached over stdio or Streamable
 * HTTP (`url`, with `secrets` as request headers). A stdio server is one of the operator's
 * commands, picked by name (`command`), with `values` chosen among those the operator listed
 * for its placeholders and `secrets` as environment variables the command declares; no
 * argument or program can be given (docs/security.md "Stdio MCP servers"). Secrets are
 * write-only.
 */
export const McpServerInput = z.discriminatedUnion(
  "transport",
  [
    z.object({ name: ServerName, transport: z.literal("stdio"), command, values: values.optional(), secrets: EnvSecrets.optional() }).strict(),
    z.object({ name: ServerName, transport: z.literal("http"), url, secrets: HeaderSecrets.optional() }).strict(),
  ],
  { error: 'choose "stdio" (a command the operator enabled) or "http" (a Streamable HTTP URL)' },
);
export type McpServerInput = z.infer<typeof McpServerInput>;

/**
 * PATCH body of `/api/workspaces/:id/mcp/:serverId`: another of the operator's commands or
 * other values (stdio), or another URL (http); each secret given is set (a string) or
 * removed (null), others are kept. The name and transport never change: remove the server
 * and add it again.
 */
export const McpServerPatch = z
  .object({
    command: command.optional(),
    values: values.optional(),
    url: url.optional(),
    secrets: z.record(z.string().min(1).max(128), secretValue.nullable()).optional(),
  })
  .strict();
export type McpServerPatch = z.infer<typeof McpServerPatch>;

/** MCP tool annotations the product reads (MCP 2025-06-18 `ToolAnnotations`). */
const Annotations = z
  .object({
    title: z.string().optional(),
    readOnlyHint: z.boolean().optional(),
    destructiveHint: z.boolean().optional(),
    idempotentHint: z.boolean().optional(),
    openWorldHint: z.boolean().optional(),
  })
  .catch({});

/** One tool as last listed by a server, stored in `McpServer.tools`. */
export const StoredTool = z.object({
  name: z.string().min(1).max(200),
  description: z.string().max(4000).catch(""),
  inputSchema: z.unknown(),
  annotations: Annotations.optional(),
});
export type StoredTool = z.infer<typeof StoredTool>;

/** Reads `McpServer.tools` (JSON text); rows that are not tools are dropped. */
export function parseStoredTools(json: string): StoredTool[] {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return [];
  }
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((t) => {
    const parsed = StoredTool.safeParse(t);
    return parsed.success ? [parsed.data] : [];
  });
}
