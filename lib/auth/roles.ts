import { z } from "zod";
import { AppError } from "../errors";

/**
 * The role table (docs/security.md "Roles and powers"): what each role of a workspace member
 * may do. Pure, no database: pages, route wrappers (lib/http/with-user.ts `need`) and
 * services all ask this one table. Roles: owner (edits flows, runs, decides, manages
 * members), approver (runs and decides), viewer (sees). Who is a member, and with which
 * role, is lib/auth/membership.ts.
 */

/** Roles of a workspace member. */
export const Role = z.enum(["owner", "approver", "viewer"]);
export type Role = z.infer<typeof Role>;

/**
 * What a role may do: see the workspace, decide approvals, start runs, change long-term memory
 * (add, accept, forget facts; promote a thread's), edit flows, manage members and the
 * workspace's settings (invitations, secrets, MCP servers, webhooks, library).
 */
export const CAPABILITIES = ["see", "decide", "run", "remember", "edit", "manage"] as const;
export type Capability = (typeof CAPABILITIES)[number];

const CAN: Record<Role, readonly Capability[]> = {
  owner: ["see", "decide", "run", "remember", "edit", "manage"],
  approver: ["see", "decide", "run", "remember"],
  viewer: ["see"],
};

/** True when `role` grants `what`. */
export function can(role: Role, what: Capability): boolean {
  return CAN[role].includes(what);
}

/** The verb a refusal names for each capability ("it cannot <verb>"). */
const VERB: Record<Capability, string> = { see: "see", decide: "decide approvals", run: "start runs", remember: "change memory", edit: "edit flows", manage: "manage members" };

/**
 * Throws unless `role` grants `what`.
 * @param refusal what the message says after "Your role in this workspace is <role>; ",
 *   for a service whose refusal names its own resource (e.g. "only owners manage its
 *   webhooks ..."); by default "it cannot <verb>. Ask an owner for another role."
 * @throws AppError forbidden ("role_forbidden"), naming the role and what it lacks.
 */
export function requireCapability(role: Role, what: Capability, refusal?: string): void {
  if (!can(role, what)) {
    throw new AppError("forbidden", "role_forbidden", `Your role in this workspace is ${role}; ${refusal ?? `it cannot ${VERB[what]}. Ask an owner for another role.`}`);
  }
}

/**
 * The permission level a run has (docs/architecture.md#policies): owners run as `admin`,
 * everyone else as `user`. Policy rules may be written per level (docs/architecture.md#policies).
 */
export function permissionOf(role: Role): "user" | "admin" {
  return role === "owner" ? "admin" : "user";
}
