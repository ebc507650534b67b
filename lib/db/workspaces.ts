import "server-only";
import { z } from "zod";
import { workspaceScope } from "../auth/workspace-scope";
import { AppError } from "../errors";
import type { Db } from "./client";

/**
 * Workspaces and roles. Flows belong to a workspace; threads and approvals
 * belong to the workspace of their flow. Roles: owner (edits flows, runs, decides, manages
 * members), approver (runs and decides), viewer (sees). A user who is not a member sees
 * nothing of a workspace: every lookup answers 404, as if it did not exist.
 */

/** Roles of a workspace member. */
export const Role = z.enum(["owner", "approver", "viewer"]);
export type Role = z.infer<typeof Role>;

/** What a role may do. */
export type Capability = "see" | "decide" | "run" | "edit" | "manage";

const CAN: Record<Role, readonly Capability[]> = {
  owner: ["see", "decide", "run", "edit", "manage"],
  approver: ["see", "decide", "run"],
  viewer: ["see"],
};

/** True when `role` grants `what`. */
export function can(role: Role, what: Capability): boolean {
  return CAN[role].includes(what);
}

/**
 * Throws unless `role` grants `what`.
 * @throws AppError forbidden ("role_forbidden"), naming the role and what it lacks.
 */
export function requireCapability(role: Role, what: Capability): void {
  if (!can(role, what)) {
    const verb = { see: "see", decide: "decide approvals", run: "start runs", edit: "edit flows", manage: "manage members" }[what];
    throw new AppError("forbidden", "role_forbidden", `Your role in this workspace is ${role}; it cannot ${verb}. Ask an owner for another role.`);
  }
}

/**
 * The permission level a run has (docs/architecture.md#policies): owners run as `admin`,
 * everyone else as `user`. Policy rules may be written per level (docs/architecture.md#policies).
 */
export function permissionOf(role: Role): "user" | "admin" {
  return role === "owner" ? "admin" : "user";
}

/**
 * Prisma filter on Membership: the rows of `userId` that the current request may use. Inside a
 * workspace scope (an API key made for one workspace; lib/auth/workspace-scope.ts) only that
 * workspace's row, so every other workspace reads as one the user is not a member of
 * (docs/api.md "API keys").
 */
export function membershipWhere(userId: string): { userId: string; workspaceId?: string } {
  const scope = workspaceScope();
  return scope ? { userId, workspaceId: scope } : { userId };
}

/**
 * The user's role in a workspace, or null when not a member, or when the workspace is outside
 * the request's workspace scope (docs/api.md "API keys").
 */
export async function roleIn(db: Db, userId: string, workspaceId: string): Promise<Role | null> {
  const scope = workspaceScope();
  if (scope && scope !== workspaceId) return null;
  const m = await db.membership.findUnique({ where: { workspaceId_userId: { workspaceId, userId } }, select: { role: true } });
  const parsed = Role.safeParse(m?.role);
  return parsed.success ? parsed.data : null;
}

/**
 * The user's role in every workspace they are a member of, by workspace id; only the scope's
 * workspace inside a workspace scope (docs/api.md "API keys").
 */
export async function rolesOf(db: Db, userId: string): Promise<Map<string, Role>> {
  const rows = await db.membership.findMany({ where: membershipWhere(userId), select: { workspaceId: true, role: true } });
  const roles = new Map<string, Role>();
  for (const m of rows) {
    const role = Role.safeParse(m.role);
    if (role.success) roles.set(m.workspaceId, role.data);
  }
  return roles;
}

/**
 * Prisma filter on Workspace: the workspaces that have `userId` as a member, only the scope's
 * one inside a workspace scope (docs/api.md "API keys"). Read the scope when the filter is
 * built, so build it in the request, not ahead of it.
 */
export const memberOf = (userId: string): { members: { some: { userId: string; workspaceId?: string } } } => ({ members: { some: membershipWhere(userId) } });

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

/**
 * A thread the user may see, with its flow, pinned version and the user's role.
 * @throws AppError not_found when it does not exist or its workspace is not the user's.
 */
export async function threadAccess(db: Db, userId: string, threadId: string) {
  const thread = await db.thread.findUnique({ where: { id: threadId }, include: { flow: true, flowVersion: true } });
  const role = thread ? await roleIn(db, userId, thread.flow.workspaceId) : null;
  if (!thread || !role) throw new AppError("not_found", "thread_not_found", `No thread ${threadId}.`);
  return { thread, role };
}

/**
 * A flow the user may see, with the user's role in its workspace.
 * @throws AppError not_found when it does not exist or its workspace is not the user's.
 */
export async function flowAccess(db: Db, userId: string, flowId: string) {
  const flow = await db.flow.findUnique({ where: { id: flowId } });
  const role = flow ? await roleIn(db, userId, flow.workspaceId) : null;
  if (!flow || !role) throw new AppError("not_found", "flow_not_found", `No flow ${flowId}.`);
  return { flow, role };
}
