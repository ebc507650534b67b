import "server-only";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { flowAccess, membershipWhere, type ResolvedAccess, roleIn, threadAccess, workspaceRole } from "./membership";
import { type Capability, Role, requireCapability } from "./roles";

/**
 * What a route needs to act, as it declares it to the route wrapper (lib/http/with-user.ts
 * `need`; docs/security.md "Roles and powers"): the capability of the role table
 * (lib/auth/roles.ts) and the resource that names the workspace, by the name of the route
 * param (or body field) holding its id, e.g. `{ capability: "run", thread: "threadId" }`,
 * `{ capability: "run", flow: { body: "flowId" } }`. The wrapper resolves the resource and the caller's role once per request and hands
 * them to the handler, which passes them to its services (lib/auth/membership.ts `Caller`).
 */
export type Need<P, B> = NeedBase & NeedResource<P, B>;

interface NeedBase {
  /** The capability the route needs (lib/auth/roles.ts). */
  capability: Capability;
  /**
   * What the 403 says after "Your role in this workspace is <role>; ", when the service's own
   * refusal names its resource (e.g. lib/webhooks/owner.ts); by default "it cannot <verb>".
   */
  refusal?: string;
}

/** The keys of `T` whose values are strings. */
type StringKey<T> = T extends object ? { [K in keyof T]-?: T[K] extends string ? K : never }[keyof T] & string : never;

/**
 * Where the resource's id is: the name of a route param, or `{ body: <field> }` for a field of
 * the JSON body (both parsed by the route's zod schemas first). A name, not a function, so
 * the types check it against the schemas.
 */
export type IdFrom<P, B> = StringKey<P> | { body: StringKey<B> };

/** Which resource names the workspace: exactly one of these. */
export type NeedResource<P, B> =
  | { thread: IdFrom<P, B>; flow?: never; workspace?: never; approval?: never; fact?: never }
  | { flow: IdFrom<P, B>; thread?: never; workspace?: never; approval?: never; fact?: never }
  | { workspace: IdFrom<P, B>; thread?: never; flow?: never; approval?: never; fact?: never }
  | { approval: IdFrom<P, B>; thread?: never; flow?: never; workspace?: never; fact?: never }
  | { fact: IdFrom<P, B>; thread?: never; flow?: never; workspace?: never; approval?: never };

/** The id `from` names in the parsed input. @throws AppError unprocessable when it is not a non-empty string (a schema that does not require it). */
function idOf(from: string | { body: string }, input: { params: unknown; body: unknown }): string {
  const [where, key] = typeof from === "string" ? ["params", from] : ["body", from.body];
  const value = (input[where as "params" | "body"] as Record<string, unknown> | undefined)?.[key];
  if (typeof value !== "string" || value === "") throw new AppError("unprocessable", "invalid_input", `${key} (${where}): required.`, { issues: [{ path: key, message: "required" }] });
  return value;
}

/** A long-term memory fact, as the wrapper resolves it: its id and workspace. */
export interface FactRef {
  id: string;
  workspaceId: string;
}

/** What the handler gets for a need: the caller, role and workspace, with the thread, flow or fact it named (an approval's service reads the approval itself). */
export type AccessFor<N> = N extends { thread: unknown }
  ? ResolvedAccess & { thread: NonNullable<ResolvedAccess["thread"]> }
  : N extends { flow: unknown }
    ? ResolvedAccess & { flow: NonNullable<ResolvedAccess["flow"]> }
    : N extends { approval: unknown }
      ? ResolvedAccess
      : N extends { fact: unknown }
        ? ResolvedAccess & { fact: FactRef }
        : N extends { workspace: unknown }
          ? ResolvedAccess
          : undefined;

/**
 * Resolves a route's {@link Need} for `userId`: finds the resource and the caller's role in
 * its workspace (2 queries: the resource, then the membership; 1 for a workspace, and 1 for
 * an approval: the caller's membership of the workspace holding it, so the approval's own
 * service reads the approval once), then
 * checks the capability. Runs inside the request's workspace scope, so a workspace outside an
 * API key's scope is "not a member".
 * @throws AppError not_found ("thread_not_found", "flow_not_found", "workspace_not_found",
 *   "approval_not_found", "fact_not_found") when the resource does not exist or the caller is
 *   not a member of its workspace (never revealing which); AppError forbidden
 *   ("role_forbidden") naming the role and the capability it lacks.
 */
export async function resolveAccess<P, B>(db: Db, userId: string, need: Need<P, B>, input: { params: P; body: B }): Promise<ResolvedAccess & Partial<{ fact: FactRef }>> {
  let access: ResolvedAccess & Partial<{ fact: FactRef }>;
  if (need.thread) {
    const { thread, role } = await threadAccess(db, userId, idOf(need.thread, input));
    access = { userId, role, workspaceId: thread.flow.workspaceId, thread };
  } else if (need.flow) {
    const { flow, role } = await flowAccess(db, userId, idOf(need.flow, input));
    access = { userId, role, workspaceId: flow.workspaceId, flow };
  } else if (need.workspace) {
    const workspaceId = idOf(need.workspace, input);
    access = { userId, role: await workspaceRole(db, userId, workspaceId), workspaceId };
  } else if (need.approval) {
    const approvalId = idOf(need.approval, input);
    // One query: the caller's membership (inside the key's scope) of the workspace holding the approval.
    const m = await db.membership.findFirst({
      where: { ...membershipWhere(userId), workspace: { flows: { some: { threads: { some: { approvals: { some: { id: approvalId } } } } } } } },
      select: { workspaceId: true, role: true },
    });
    const role = Role.safeParse(m?.role);
    if (!m || !role.success) throw new AppError("not_found", "approval_not_found", `No approval ${approvalId}.`);
    access = { userId, role: role.data, workspaceId: m.workspaceId };
  } else {
    const factId = idOf(need.fact as string | { body: string }, input);
    const fact = await db.memoryFact.findUnique({ where: { id: factId }, select: { id: true, workspaceId: true } });
    const role = fact ? await roleIn(db, userId, fact.workspaceId) : null;
    if (!fact || !role) throw new AppError("not_found", "fact_not_found", `No fact ${factId}.`);
    access = { userId, role, workspaceId: fact.workspaceId, fact };
  }
  requireCapability(access.role, need.capability, need.refusal);
  return access;
}
