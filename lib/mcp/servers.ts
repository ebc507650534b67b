import "server-only";
import type { Db } from "../db/client";
import { type Caller, callerId, workspaceRole } from "../auth/membership";
import { type Role, requireCapability } from "../auth/roles";
import { AppError } from "../errors";
import { closeMcpClient } from "./client-pool";
import { EnvSecrets, HeaderSecrets, type McpServerInput, type McpServerPatch } from "./config";
import { listedTools, type McpServerRow } from "./definitions";
import { discoverTools } from "./discover";
import { workspaceSecretSource } from "./secret-references";
import { openSecrets, sealSecrets } from "./secrets";
import { requireStdioCatalogue } from "./stdio-commands";
import { checkStdioSecretNames, chooseStdioValues } from "./stdio-launch";
import { prismaErrorCode } from "../db/prisma-error-code";

/**
 * A workspace's MCP servers. Any member lists them; only owners add, change,
 * refresh or remove them. A stdio server is one of the operator's commands
 * (MCP_STDIO_COMMANDS), picked by name with values the operator listed; when the operator
 * enabled none, adding, changing or refreshing one answers 403 (docs/security.md "Stdio MCP
 * servers", "Roles and powers"). Secrets are write-only: views carry only their names. A
 * non-member gets 404 for everything.
 */

/** A listed tool as the settings page shows it. */
export interface McpToolView {
  /** The tool's name on its server. */
  name: string;
  /** Its flow tool name `mcp__<server>__<tool>`; null when left out (see `problem`). */
  toolName: string | null;
  description: string;
  /** The input schema as the server declared it (JSON Schema). */
  inputSchema: unknown;
  sideEffect: boolean;
  /** Left out, or input only loosely checked, and why; null when neither. */
  problem: string | null;
}

/** An MCP server as the API and settings page show it: never its secret values. */
export interface McpServerView {
  id: string;
  name: string;
  transport: "stdio" | "http";
  /** stdio: the name of the operator's command. */
  command: string | null;
  /** stdio: the value chosen for each of the command's placeholders. */
  values: Record<string, string>;
  url: string | null;
  /** Names of the env vars (stdio) or headers (http) set; values are never sent back. */
  secretKeys: string[];
  /** True when the stored secrets cannot be decrypted (the server key changed): enter them again. */
  secretsUnreadable: boolean;
  tools: McpToolView[];
  /** What went wrong at the last refresh and what to do; null when it worked. */
  lastError: string | null;
  /** When the tools were last listed (ISO 8601); null when never. */
  refreshedAt: string | null;
  createdAt: string;
}

type Row = McpServerRow & { workspaceId: string; lastError: string | null; refreshedAt: Date | null; createdAt: Date };

function secretNames(row: Row): { keys: string[]; unreadable: boolean } {
  try {
    return { keys: Object.keys(openSecrets(row.secretCiphertext)).sort(), unreadable: false };
  } catch {
    return { keys: [], unreadable: true };
  }
}

/** The stored values of a stdio server (`args`: a JSON object); `{}` for rows saved with free arguments. */
function storedValues(args: string): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(args);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === "string"));
  } catch {
    return {};
  }
}

function view(row: Row): McpServerView {
  const secrets = secretNames(row);
  const values = storedValues(row.args);
  return {
    id: row.id,
    name: row.name,
    transport: row.transport === "stdio" ? "stdio" : "http",
    command: row.command,
    values,
    url: row.url,
    secretKeys: secrets.keys,
    secretsUnreadable: secrets.unreadable,
    tools: listedTools(row).map((t) => ({
      name: t.tool.name,
      toolName: t.name,
      description: t.tool.description,
      inputSchema: t.tool.inputSchema ?? null,
      sideEffect: t.sideEffect,
      problem: t.problem,
    })),
    lastError: row.lastError,
    refreshedAt: row.refreshedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The actor's role, or 404 when they are not a member (no query when the route resolved it). */
async function memberRole(db: Db, userId: Caller, workspaceId: string): Promise<Role> {
  return workspaceRole(db, userId, workspaceId);
}

/** What the 403 says to members who cannot manage MCP servers (lib/auth/roles.ts `requireCapability`). */
export const MCP_REFUSAL = "only owners add, change, refresh or remove MCP servers. Ask an owner.";

/** 404 for non-members, 403 for members who cannot manage (only owners). */
async function requireOwner(db: Db, userId: Caller, workspaceId: string): Promise<void> {
  requireCapability(await memberRole(db, userId, workspaceId), "manage", MCP_REFUSAL);
}

async function serverOf(db: Db, workspaceId: string, serverId: string): Promise<Row> {
  const row = await db.mcpServer.findFirst({ where: { id: serverId, workspaceId } });
  if (!row) throw new AppError("not_found", "mcp_server_not_found", `No MCP server ${serverId} in this workspace.`);
  return row;
}

/** Lists the server's tools now and stores them, or the error (keeping the last list). */
async function refreshRow(db: Db, row: Row): Promise<Row> {
  const found = await discoverTools({ ...row, secretSource: workspaceSecretSource(db, row.workspaceId) });
  const data = found.ok ? { tools: JSON.stringify(found.tools), refreshedAt: new Date(), lastError: null } : { lastError: found.error };
  return db.mcpServer.update({ where: { id: row.id }, data });
}

/**
 * The workspace's MCP servers by name.
 * @param userId the caller: a user id, or the access the route resolved (lib/auth/membership.ts `Caller`).
 * @throws AppError not_found when `userId` is not a member.
 */
export async function listServers(db: Db, userId: Caller, workspaceId: string): Promise<McpServerView[]> {
  await memberRole(db, userId, workspaceId);
  const rows = await db.mcpServer.findMany({ where: { workspaceId }, orderBy: { name: "asc" } });
  return rows.map(view);
}

/**
 * Adds a server (owners only), seals its secrets (see sealSecrets) and lists its tools at
 * once; a server that cannot be reached is still added, with `lastError` saying what to do.
 * @param input a parsed McpServerInput.
 * @throws AppError not_found (not a member), forbidden (not an owner; "mcp_stdio_off" for
 *   stdio when the operator enabled no command), unprocessable (a command, value or secret
 *   name the operator did not declare: see chooseStdioValues), conflict
 *   ("mcp_server_exists": the name is taken in this workspace).
 */
export async function addServer(db: Db, userId: Caller, workspaceId: string, input: McpServerInput): Promise<McpServerView> {
  await requireOwner(db, userId, workspaceId);
  let values: Record<string, string> = {};
  if (input.transport === "stdio") {
    const catalogue = requireStdioCatalogue();
    values = chooseStdioValues(catalogue, input.command, input.values);
    checkStdioSecretNames(catalogue, input.command, Object.keys(input.secrets ?? {}));
  }
  const taken = await db.mcpServer.findUnique({ where: { workspaceId_name: { workspaceId, name: input.name } }, select: { id: true } });
  const exists = () => new AppError("conflict", "mcp_server_exists", `name: this workspace already has an MCP server named ${input.name}; choose another name or remove that one first.`);
  if (taken) throw exists();
  let row: Row;
  try {
    row = await db.mcpServer.create({
      data: {
        workspaceId,
        name: input.name,
        transport: input.transport,
        command: input.transport === "stdio" ? input.command : null,
        args: JSON.stringify(values),
        url: input.transport === "http" ? input.url : null,
        secretCiphertext: sealSecrets(input.secrets ?? {}),
        createdById: callerId(userId),
      },
    });
  } catch (err) {
    if (prismaErrorCode(err) === "P2002") throw exists();
    throw err;
  }
  return view(await refreshRow(db, row));
}

/** The row's secrets with `patch` applied (a string sets, null removes); unreadable ones start empty. */
function patchedSecrets(row: Row, patch: Readonly<Record<string, string | null>>): Record<string, string> {
  let current: Record<string, string>;
  try {
    current = openSecrets(row.secretCiphertext);
  } catch {
    current = {};
  }
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete current[k];
    else current[k] = v;
  }
  return current;
}

/**
 * Changes a server (owners only): another of the operator's commands or other values
 * (stdio), or another URL (http), and sets or removes secrets; then lists its tools again
 * on a new connection.
 * @throws AppError not_found, forbidden (also "mcp_stdio_off"), unprocessable
 *   ("mcp_field_transport": a field of the other transport; a command, value or secret name
 *   the operator did not declare, or a secret name the transport does not accept).
 */
export async function updateServer(db: Db, userId: Caller, workspaceId: string, serverId: string, patch: McpServerPatch): Promise<McpServerView> {
  await requireOwner(db, userId, workspaceId);
  const row = await serverOf(db, workspaceId, serverId);
  const wrong = (field: string) => new AppError("unprocessable", "mcp_field_transport", `${field}: this server uses ${row.transport}; to change its transport, remove it and add it again.`);
  if (row.transport === "stdio" && patch.url !== undefined) throw wrong("url");
  if (row.transport === "http" && (patch.command !== undefined || patch.values !== undefined)) throw wrong(patch.command !== undefined ? "command" : "values");
  const data: { command?: string; args?: string; url?: string; secretCiphertext?: string | null } = {};
  const secrets = patch.secrets ? patchedSecrets(row, patch.secrets) : undefined;
  if (row.transport === "stdio") {
    const catalogue = requireStdioCatalogue();
    const command = patch.command ?? row.command ?? "";
    const changed = command !== row.command;
    if (changed || patch.values !== undefined) {
      data.command = command;
      data.args = JSON.stringify(chooseStdioValues(catalogue, command, { ...(changed ? {} : storedValues(row.args)), ...patch.values }));
    }
    const setNow = Object.entries(patch.secrets ?? {}).flatMap(([k, v]) => (v === null ? [] : [k]));
    checkStdioSecretNames(catalogue, command, changed ? Object.keys(secrets ?? patchedSecrets(row, {})) : setNow);
  } else if (patch.url !== undefined) {
    data.url = patch.url;
  }
  if (secrets) {
    const checked = (row.transport === "stdio" ? EnvSecrets : HeaderSecrets).safeParse(secrets);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      throw new AppError("unprocessable", "mcp_secret_invalid", `secrets${issue?.path.length ? `.${issue.path.join(".")}` : ""}: ${issue?.message ?? "invalid"}`);
    }
    data.secretCiphertext = sealSecrets(checked.data);
  }
  const updated = await db.mcpServer.update({ where: { id: row.id }, data });
  await closeMcpClient(row.id);
  return view(await refreshRow(db, updated));
}

/**
 * Lists a server's tools again now (owners only).
 * @throws AppError not_found, forbidden (also "mcp_stdio_off" for a stdio server when the
 *   operator enabled no command).
 */
export async function refreshServer(db: Db, userId: Caller, workspaceId: string, serverId: string): Promise<McpServerView> {
  await requireOwner(db, userId, workspaceId);
  const row = await serverOf(db, workspaceId, serverId);
  if (row.transport === "stdio") requireStdioCatalogue();
  return view(await refreshRow(db, row));
}

/**
 * Removes a server and closes its connection (owners only). Flows that bind its tools stop
 * validating until they are changed.
 * @throws AppError not_found, forbidden.
 */
export async function removeServer(db: Db, userId: Caller, workspaceId: string, serverId: string): Promise<void> {
  await requireOwner(db, userId, workspaceId);
  const row = await serverOf(db, workspaceId, serverId);
  await db.mcpServer.delete({ where: { id: row.id } });
  await closeMcpClient(row.id);
}
