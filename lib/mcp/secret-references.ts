import "server-only";
import { createHash } from "node:crypto";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { canonicalHost } from "../net/open-hosts";
import { openSecretValue } from "../workspace-secrets/box";
import { hostAllowed, referencedNames, secretReference, substitute, type UsedSecret } from "../workspace-secrets/references";
import { storedHosts } from "../workspace-secrets/service";

/**
 * `{{secret:NAME}}` in an MCP server's headers (http) and environment (stdio)
 * (docs/secrets.md "MCP servers"): the server's configuration keeps the reference; the value
 * is opened only when the pool opens a connection, from the secrets of the server's own
 * workspace, and only for a server whose URL host every referenced secret names. A stdio
 * server has no URL: its references reach only the environment variables the operator
 * declared for its command (docs/security.md "Stdio MCP servers").
 */

/** A workspace secret as stored: the sealed value, never opened here until a connection opens. */
export interface StoredSecret {
  name: string;
  sealedValue: string;
  hosts: string[];
}

/** How the pool reaches one workspace's secrets. */
export interface McpSecretSource {
  /** The stored secrets named `names` that the workspace has (others are missing). */
  rows(names: readonly string[]): Promise<StoredSecret[]>;
  /** Records that a connection carries the named secrets (their last use). */
  used(names: readonly string[]): Promise<void>;
}

/** The secrets of workspace `workspaceId` in `db`, for the MCP pool. */
export function workspaceSecretSource(db: Db, workspaceId: string, now: () => number = Date.now): McpSecretSource {
  return {
    async rows(names) {
      const rows = await db.workspaceSecret.findMany({ where: { workspaceId, name: { in: [...names] } }, select: { name: true, sealedValue: true, hosts: true } });
      return rows.map((r) => ({ name: r.name, sealedValue: r.sealedValue, hosts: storedHosts(r.hosts) }));
    },
    async used(names) {
      await db.workspaceSecret.updateMany({ where: { workspaceId, name: { in: [...names] } }, data: { lastUsedAt: new Date(now()) } });
    },
  };
}

/** What a connection's configured values refer to, checked, and a fingerprint of them. */
export interface CheckedReferences {
  rows: StoredSecret[];
  /**
   * SHA-256 (hex) of the referenced secrets as stored (sealed value and hosts; never the
   * value): it changes when a secret is replaced, so the pool opens a new connection.
   */
  fingerprint: string;
}

/**
 * Looks up the secrets that `values` (a server's headers or environment) refer to and
 * checks them against where the server is.
 * @param target the server's transport and URL (http: every secret must name its host).
 * @throws AppError unprocessable: "secrets_unavailable" (references but no source),
 *   "unknown_secret" (a name the workspace has not), "secret_host_not_allowed" (a secret
 *   that does not name the server's host; nothing is sent).
 */
export async function checkReferences(values: Readonly<Record<string, string>>, target: { transport: string; url: string | null }, source: McpSecretSource | undefined): Promise<CheckedReferences> {
  const names = [...new Set(Object.values(values).flatMap(referencedNames))];
  if (names.length === 0) return { rows: [], fingerprint: "" };
  if (!source) throw new AppError("unprocessable", "secrets_unavailable", "This MCP server refers to workspace secrets, which are not available here.");
  const rows = await source.rows(names);
  const unknown = names.filter((n) => !rows.some((r) => r.name === n));
  if (unknown.length > 0) {
    throw new AppError(
      "unprocessable",
      "unknown_secret",
      `No secret named ${unknown.join(", ")} in this workspace, which this MCP server refers to. A workspace owner adds secrets in Settings > Secrets; refer to one as ${secretReference("NAME")} with its exact name.`,
    );
  }
  if (target.transport !== "stdio") {
    let url: URL;
    try {
      url = new URL(target.url ?? "");
    } catch {
      throw new AppError("unprocessable", "invalid_url", "This MCP server has no valid URL.");
    }
    for (const row of rows) {
      if (!hostAllowed(row.hosts, url)) {
        const where = row.hosts.length > 0 ? row.hosts.join(", ") : "no host";
        throw new AppError(
          "unprocessable",
          "secret_host_not_allowed",
          `Secret ${row.name} may only be sent to ${where}; this MCP server is at ${canonicalHost(url)}${url.port ? `:${url.port}` : ""}. The server was not contacted.`,
        );
      }
    }
  }
  const sorted = [...rows].sort((a, b) => a.name.localeCompare(b.name));
  const fingerprint = createHash("sha256")
    .update(JSON.stringify(sorted.map((r) => [r.name, r.sealedValue, r.hosts])))
    .digest("hex");
  return { rows: sorted, fingerprint };
}

/**
 * `values` with each reference replaced by its secret's value, and the secrets used.
 * @throws AppError internal ("secret_unreadable") when a sealed value cannot be opened.
 */
export function resolveReferences(values: Readonly<Record<string, string>>, rows: readonly StoredSecret[]): { values: Record<string, string>; used: UsedSecret[] } {
  if (rows.length === 0) return { values: { ...values }, used: [] };
  const opened = new Map(rows.map((r) => [r.name, openSecretValue(r.sealedValue)]));
  return {
    values: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, substitute(v, opened)])),
    used: [...opened].map(([name, value]) => ({ name, value })),
  };
}
