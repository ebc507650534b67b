import "server-only";
import type { Db } from "./client";

/**
 * Workspaces a user owns: the one they made, created on first need. Roles and membership
 * lookups are lib/auth/roles.ts and lib/auth/membership.ts (docs/security.md "Roles and powers").
 */

/**
 * The workspace the user made, or null: among the workspaces they own, the one they joined
 * first where they are also the earliest member (its creator, as far as memberships tell). A
 * workspace someone else made, which the user joined by accepting an invitation, never counts
 * (docs/security.md "Membership").
 */
export async function ownWorkspaceId(db: Db, userId: string): Promise<string | null> {
  const owned = await db.membership.findMany({
    where: { userId, role: "owner" },
    orderBy: [{ createdAt: "asc" }, { workspaceId: "asc" }],
    select: { workspaceId: true, workspace: { select: { members: { orderBy: [{ createdAt: "asc" }, { userId: "asc" }], take: 1, select: { userId: true } } } } },
  });
  return owned.find((m) => m.workspace.members[0]?.userId === userId)?.workspaceId ?? null;
}

/**
 * The user's own workspace, where a new flow goes unless they pick another: the one
 * {@link ownWorkspaceId} finds, created ("<name>'s workspace", the user as owner) when there is
 * none. Never a workspace another account made (docs/security.md "Membership").
 * @returns the workspace id.
 */
export async function personalWorkspace(db: Db, userId: string): Promise<string> {
  const own = await ownWorkspaceId(db, userId);
  if (own) return own;
  const user = await db.user.findUnique({ where: { id: userId }, select: { name: true, email: true } });
  const ws = await db.workspace.create({
    data: { name: personalWorkspaceName(user), members: { create: { userId, role: "owner" } } },
  });
  return ws.id;
}

/**
 * The name {@link personalWorkspace} gives the workspace it creates: "<name>'s workspace",
 * else "<email>'s workspace" (what the New flow dialog announces before it exists).
 */
export function personalWorkspaceName(user: { name: string | null; email: string | null } | null): string {
  return `${user?.name || user?.email || "My"}'s workspace`;
}
