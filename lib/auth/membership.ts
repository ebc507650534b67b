import "server-only";
import { accessSqlOf } from "../db/checkpointer-stores";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { Role } from "./roles";
import { workspaceScope } from "./workspace-scope";

/**
 * Who is a member of which workspace, with which role (docs/security.md "Roles and powers").
 * Flows belong to a workspace; threads and approvals belong to the workspace of their flow. A
 * user who is not a member sees nothing of a workspace: every lookup answers 404, as if it
 * did not exist. Every lookup here reads the request's workspace scope
 * (lib/auth/workspace-scope.ts), so a workspace outside an API key's scope is "not a member".
 * What a role may do is the pure table of lib/auth/roles.ts.
 */

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
 * the request's workspace scope (docs/api.md "API keys"). One query.
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
 * Someone acting on a workspace: a user id, to look their role up, or the access the route
 * wrapper already resolved for this request (lib/http/with-user.ts `need`;
 * docs/security.md "Roles and powers"), so a service reuses it instead of asking the database
 * again. A resolved access counts only for its own workspace (and thread or flow): for any
 * other, the role is looked up as for a user id.
 */
export type Caller = string | ResolvedAccess;

/** What the route wrapper resolved once per request: who, their role, in which workspace, and the resource it found. */
export interface ResolvedAccess {
  userId: string;
  role: Role;
  workspaceId: string;
  /** The thread named by the route (with its flow and pinned version), when it named one. */
  thread?: ThreadRow;
  /** The flow named by the route, when it named one. */
  flow?: FlowRow;
}

/** The user id of a {@link Caller}. */
export function callerId(who: Caller): string {
  return typeof who === "string" ? who : who.userId;
}

/**
 * The caller's role in a workspace, or null when not a member (or outside the request's
 * workspace scope): the resolved access's role when it is for that workspace, else one query
 * ({@link roleIn}).
 */
export async function roleOf(db: Db, who: Caller, workspaceId: string): Promise<Role | null> {
  if (typeof who !== "string" && who.workspaceId === workspaceId) return who.role;
  return roleIn(db, callerId(who), workspaceId);
}

type ThreadRow = NonNullable<Awaited<ReturnType<typeof findThread>>>;
type FlowRow = NonNullable<Awaited<ReturnType<typeof findFlow>>>;

const findThread = (db: Db, threadId: string) => db.thread.findUnique({ where: { id: threadId }, include: { flow: true, flowVersion: true } });
const findFlow = (db: Db, flowId: string) => db.flow.findUnique({ where: { id: flowId } });

/**
 * A thread the caller may see, with its flow, pinned version and the caller's role: the
 * resolved access's thread when it is this one (no query), else two queries.
 * @throws AppError not_found ("thread_not_found") when it does not exist or its workspace is not the caller's.
 */
export async function threadAccess(db: Db, who: Caller, threadId: string) {
  if (typeof who !== "string" && who.thread?.id === threadId) return { thread: who.thread, role: who.role };
  const { thread, role } = await readThreadAccess(db, callerId(who), threadId);
  if (!thread || !role) throw new AppError("not_found", "thread_not_found", `No thread ${threadId}.`);
  return { thread, role };
}

/**
 * The thread and the user's role in its workspace (null outside the request's workspace
 * scope): one statement on the driver for a root client (lib/db/access-sql.ts), else two
 * Prisma queries (a transaction's client reads in its transaction).
 */
async function readThreadAccess(db: Db, userId: string, threadId: string): Promise<{ thread: ThreadRow | null; role: Role | null }> {
  const sql = accessSqlOf(db);
  if (!sql) {
    const thread = await findThread(db, threadId);
    return { thread, role: thread ? await roleIn(db, userId, thread.flow.workspaceId) : null };
  }
  const found = await sql.threadWithRole(threadId, userId);
  return found ? { thread: found.thread, role: scopedRole(found.role, found.thread.flow.workspaceId) } : { thread: null, role: null };
}

/**
 * A role as stored in a Membership row of `workspaceId`, as the request may use it: null when
 * it is no role, or the workspace is outside the request's workspace scope (docs/api.md "API
 * keys"), as Prisma's filter {@link membershipWhere} leaves it out.
 */
export function scopedRole(stored: string | null | undefined, workspaceId: string): Role | null {
  const scope = workspaceScope();
  if (scope && scope !== workspaceId) return null;
  const role = Role.safeParse(stored);
  return role.success ? role.data : null;
}

/**
 * A thread with its flow and pinned version, and its own user's role in the workspace (null:
 * no longer a member, or outside the request's workspace scope): what a worker reads before it
 * executes the thread's run. One statement on the driver for a root client, else two queries.
 * @throws AppError not_found ("thread_not_found") when the thread does not exist.
 */
export async function threadWithOwnerRole(db: Db, threadId: string): Promise<ThreadRow & { ownerRole: Role | null }> {
  const sql = accessSqlOf(db);
  if (sql) {
    const found = await sql.threadWithRole(threadId, null);
    if (!found) throw threadNotFound(threadId);
    return Object.assign(found.thread, { ownerRole: scopedRole(found.role, found.thread.flow.workspaceId) });
  }
  const thread = await findThread(db, threadId);
  if (!thread) throw threadNotFound(threadId);
  return Object.assign(thread, { ownerRole: await roleIn(db, thread.userId, thread.flow.workspaceId) });
}

const threadNotFound = (threadId: string) => new AppError("not_found", "thread_not_found", `No thread ${threadId}.`);

/**
 * The workspace a thread belongs to (its flow's), or null when there is no such thread: what
 * memory checks a thread against. One statement on the driver for a root client
 * (lib/db/access-sql.ts), else Prisma's two. Reads no workspace scope: callers compare it.
 */
export async function threadWorkspaceId(db: Db, threadId: string): Promise<string | null> {
  const sql = accessSqlOf(db);
  if (sql) return sql.workspaceOf(threadId);
  return (await db.thread.findUnique({ where: { id: threadId }, select: { flow: { select: { workspaceId: true } } } }))?.flow.workspaceId ?? null;
}

/** What {@link threadAccess} resolves: the thread (with its flow and pinned version) and the caller's role. */
export type ThreadAccess = Awaited<ReturnType<typeof threadAccess>>;

/**
 * A flow the caller may see, with the caller's role in its workspace: the resolved access's
 * flow when it is this one (no query), else two queries.
 * @throws AppError not_found ("flow_not_found") when it does not exist or its workspace is not the caller's.
 */
export async function flowAccess(db: Db, who: Caller, flowId: string) {
  if (typeof who !== "string" && who.flow?.id === flowId) return { flow: who.flow, role: who.role };
  const flow = await findFlow(db, flowId);
  const role = flow ? await roleIn(db, callerId(who), flow.workspaceId) : null;
  if (!flow || !role) throw new AppError("not_found", "flow_not_found", `No flow ${flowId}.`);
  return { flow, role };
}

/** What {@link flowAccess} resolves: the flow row and the caller's role. */
export type FlowAccess = Awaited<ReturnType<typeof flowAccess>>;

/**
 * The caller's role in a workspace they are a member of.
 * @throws AppError not_found ("workspace_not_found") when not a member, or the workspace is
 *   outside the request's workspace scope.
 */
export async function workspaceRole(db: Db, who: Caller, workspaceId: string): Promise<Role> {
  const role = await roleOf(db, who, workspaceId);
  if (!role) throw new AppError("not_found", "workspace_not_found", `No workspace ${workspaceId}.`);
  return role;
}
