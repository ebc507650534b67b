import "server-only";
import type { Prisma } from "../../generated/prisma/client";
import type { Db } from "../db/client";
import { emailsOf } from "../db/users";
import { can, type Role } from "../auth/roles";
import { type Caller, memberOf, roleOf, rolesOf } from "../auth/membership";
import { AppError } from "../errors";
import { RiskLevel } from "../flow/schema";
import { approvalSecret } from "./secret";
import { challengeToken } from "./service";
import { ApprovalDecisionKind, ApprovalStatus, type InboxFilters, type InboxFlow, type InboxItem, type InboxStatus } from "./inbox-item";

/**
 * The approval inbox (docs/architecture.md#approvals): approvals of every workspace the user is a
 * member of, with where they come from, exactly what would run, how risky it is, and how
 * they were decided. Viewers see items but never their tokens.
 */

/** The most items one list returns (soonest to expire first). */
export const INBOX_LIMIT = 200;

const include = {
  user: { select: { email: true } },
  thread: {
    select: {
      title: true,
      flowId: true,
      flow: { select: { name: true, workspaceId: true, workspace: { select: { name: true } } } },
      flowVersion: { select: { version: true } },
    },
  },
} satisfies Prisma.ApprovalInclude;

type Row = Prisma.ApprovalGetPayload<{ include: typeof include }>;

/** Prisma filter for a status as the inbox means it: pending excludes the expired ones. */
function statusWhere(status: InboxStatus, now: number): Prisma.ApprovalWhereInput {
  const at = new Date(now);
  if (status === "pending") return { status: "pending", expiresAt: { gt: at } };
  if (status === "expired") return { OR: [{ status: "expired" }, { status: "pending", expiresAt: { lte: at } }] };
  if (status === "all") return {};
  return { status };
}

function toItem(a: Row, role: Role, decidedBy: Map<string, string>, now: number, secret: string | undefined): InboxItem {
  const stored = ApprovalStatus.safeParse(a.status);
  const status: ApprovalStatus = stored.success ? stored.data : "pending";
  const expired = status === "pending" && a.expiresAt.getTime() <= now;
  const effective = expired ? "expired" : status;
  const decision = ApprovalDecisionKind.safeParse(a.decision);
  const canDecide = can(role, "decide");
  const risk = RiskLevel.safeParse(a.risk);
  return {
    approvalId: a.id,
    threadId: a.threadId,
    threadTitle: a.thread.title,
    flowId: a.thread.flowId,
    flowName: a.thread.flow.name,
    flowVersion: a.thread.flowVersion.version,
    workspaceId: a.thread.flow.workspaceId,
    workspaceName: a.thread.flow.workspace.name,
    agentName: a.agentName,
    stepTask: a.stepTask,
    toolName: a.toolName,
    toolCallId: a.toolCallId,
    canonicalArgs: a.canonicalArgs,
    argsHash: a.argsHash,
    token: canDecide && effective === "pending" ? challengeToken(secret ?? approvalSecret(), a) : null,
    risk: risk.success ? risk.data : "medium",
    rule: a.rule,
    requestedBy: a.user.email,
    requestedAt: a.createdAt.toISOString(),
    expiresAt: a.expiresAt.toISOString(),
    status: effective,
    decision: decision.success ? decision.data : expired ? "expired" : null,
    decidedBy: a.decidedById ? (decidedBy.get(a.decidedById) ?? null) : null,
    decidedAt: a.decidedAt?.toISOString() ?? null,
    comment: a.comment,
    editedArgs: a.editedArgs,
    editedArgsHash: a.editedArgsHash,
    canDecide,
  };
}

/**
 * Approvals of every workspace where the user is a member (viewers too, with
 * `canDecide: false` and no token), filtered by flow, risk and status (default
 * `pending`: pending and unexpired; a pending row past its expiry counts as `expired`),
 * sorted by expiry (soonest first unless `sort` is `-expiry`), at most
 * {@link INBOX_LIMIT} items (docs/architecture.md#approvals).
 * @param filters as parsed by `InboxFilters` (lib/approvals/inbox-item.ts).
 * @param now ms since the epoch.
 */
export async function listApprovals(db: Db, userId: string, filters: Partial<InboxFilters> = {}, now: number = Date.now(), secret?: string): Promise<InboxItem[]> {
  const roles = await rolesOf(db, userId);
  if (roles.size === 0) return [];
  const rows = await db.approval.findMany({
    where: {
      thread: { flow: { workspaceId: { in: [...roles.keys()] } }, ...(filters.flowId ? { flowId: filters.flowId } : {}) },
      ...(filters.risk ? { risk: filters.risk } : {}),
      ...statusWhere(filters.status ?? "pending", now),
    },
    orderBy: [{ expiresAt: filters.sort === "-expiry" ? "desc" : "asc" }, { id: "asc" }],
    take: INBOX_LIMIT,
    include,
  });
  const decidedBy = await emailsOf(
    db,
    rows.map((r) => r.decidedById),
  );
  return rows.flatMap((a) => {
    const role = roles.get(a.thread.flow.workspaceId);
    return role ? [toItem(a, role, decidedBy, now, secret)] : [];
  });
}

/**
 * One approval the user may see (any status), as an inbox item.
 * @param userId a user id, or the access the route resolved (lib/auth/membership.ts `Caller`:
 *   no membership query when it is for the approval's workspace).
 * @param now ms since the epoch.
 * @throws AppError not_found ("approval_not_found") when it does not exist or belongs to a
 *   workspace the user is not a member of (other workspaces see nothing).
 */
export async function getApproval(db: Db, userId: Caller, approvalId: string, now: number = Date.now(), secret?: string): Promise<InboxItem> {
  const a = await db.approval.findUnique({ where: { id: approvalId }, include });
  const role = a ? await roleOf(db, userId, a.thread.flow.workspaceId) : null;
  if (!a || !role) throw new AppError("not_found", "approval_not_found", `No approval ${approvalId}.`);
  return toItem(a, role, await emailsOf(db, [a.decidedById]), now, secret);
}

/**
 * True when the user may see the approval (a member of its workspace). Used to forward
 * only the user's own workspaces' changes to their live inbox.
 */
export async function approvalVisible(db: Db, userId: string, approvalId: string): Promise<boolean> {
  const n = await db.approval.count({ where: { id: approvalId, thread: { flow: { workspace: memberOf(userId) } } } });
  return n > 0;
}

/**
 * The flows the inbox can filter by: flows of the user's workspaces that have at least
 * one approval, by name.
 */
export async function inboxFlows(db: Db, userId: string): Promise<InboxFlow[]> {
  return db.flow.findMany({
    where: { workspace: memberOf(userId), threads: { some: { approvals: { some: {} } } } },
    orderBy: [{ name: "asc" }, { createdAt: "asc" }],
    select: { id: true, name: true },
  });
}

/**
 * How many approvals wait for the user (the navigation badge): pending, unexpired, in a
 * workspace where the user's role may decide (owner, approver).
 * @param now ms since the epoch.
 */
export async function pendingCount(db: Db, userId: string, now: number = Date.now()): Promise<number> {
  const roles = await rolesOf(db, userId);
  const deciding = [...roles].filter(([, role]) => can(role, "decide")).map(([id]) => id);
  if (deciding.length === 0) return 0;
  return db.approval.count({ where: { status: "pending", expiresAt: { gt: new Date(now) }, thread: { flow: { workspaceId: { in: deciding } } } } });
}
