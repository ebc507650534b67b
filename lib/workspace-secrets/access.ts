import "server-only";
import type { Db } from "../db/client";
import type { SecretAccess } from "../tools/types";
import { openSecretValue } from "./box";
import { storedHosts } from "./service";

/**
 * The secrets of one workspace as the tool gateway reaches them in one thread's run
 * (docs/secrets.md): values are opened only for the names a call refers to, and each use
 * sets the secret's last use and writes a `secret_used` entry in the thread's audit trail
 * (names and host; never a value).
 */
export function workspaceSecretAccess(db: Db, workspaceId: string, threadId: string, now: () => number = Date.now): SecretAccess {
  return {
    async resolve(names) {
      const rows = await db.workspaceSecret.findMany({ where: { workspaceId, name: { in: [...names] } }, select: { name: true, sealedValue: true, hosts: true } });
      return new Map(rows.map((r) => [r.name, { value: openSecretValue(r.sealedValue), hosts: storedHosts(r.hosts) }]));
    },
    async used(names, host) {
      const at = new Date(now());
      await db.workspaceSecret.updateMany({ where: { workspaceId, name: { in: [...names] } }, data: { lastUsedAt: at } });
      await db.auditEntry.create({ data: { threadId, actorId: null, action: "secret_used", detail: JSON.stringify({ at: at.toISOString(), detail: { secrets: names, host } }) } });
    },
  };
}
