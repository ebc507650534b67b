import "server-only";
import type { Db } from "../db/client";
import type { Role } from "../auth/roles";
import { rolesOf } from "../auth/membership";
import type { SessionUser } from "../http/with-user";

/**
 * Who calls the LangGraph Platform API and which workspaces they reach
 * (docs/langgraph-api.md#authentication): every workspace they are a member of, or only the
 * one an API key is scoped to.
 */

/** The workspace an API key is scoped to, or null (a session, or an unscoped key). */
export function scopeOf(user: SessionUser): string | null {
  return user.workspaceScope;
}

/** The caller's role in each workspace they may reach through this request, by workspace id. */
export async function reachableRoles(db: Db, user: SessionUser): Promise<Map<string, Role>> {
  const roles = await rolesOf(db, user.id);
  const scope = scopeOf(user);
  if (scope === null) return roles;
  const role = roles.get(scope);
  return new Map(role ? [[scope, role]] : []);
}
