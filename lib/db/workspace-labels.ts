import "server-only";
import type { Db } from "./client";
import { memberOf, membershipWhere } from "../auth/membership";

/**
 * Which workspace a flow, run or approval is in, for pages to show (docs/security.md
 * "Membership"): a user who belongs to several workspaces always sees it; with one workspace
 * the label is left out to keep pages quiet.
 */

/** Workspace names of the user's flows, present only when the user belongs to several workspaces. */
export interface FlowWorkspaceLabels {
  /** True when the user is a member of more than one workspace. */
  several: boolean;
  /** Workspace name by flow id; empty when `several` is false. */
  byFlow: Map<string, string>;
}

/**
 * The workspace name of every flow the user can see, when they belong to several workspaces
 * (two queries; one when they do not).
 */
export async function flowWorkspaceLabels(db: Db, userId: string): Promise<FlowWorkspaceLabels> {
  const memberships = await db.membership.findMany({ where: membershipWhere(userId), select: { workspace: { select: { id: true, name: true } } } });
  if (memberships.length < 2) return { several: false, byFlow: new Map() };
  const names = new Map(memberships.map((m) => [m.workspace.id, m.workspace.name]));
  const flows = await db.flow.findMany({ where: { workspace: memberOf(userId) }, select: { id: true, workspaceId: true } });
  return { several: true, byFlow: new Map(flows.map((f) => [f.id, names.get(f.workspaceId) ?? ""])) };
}

/**
 * The name of `workspaceId` when the user belongs to several workspaces, else null.
 */
export async function workspaceLabel(db: Db, userId: string, workspaceId: string): Promise<string | null> {
  const memberships = await db.membership.findMany({ where: membershipWhere(userId), select: { workspace: { select: { id: true, name: true } } } });
  if (memberships.length < 2) return null;
  return memberships.find((m) => m.workspace.id === workspaceId)?.workspace.name ?? null;
}
