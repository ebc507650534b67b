import "server-only";
import { AppError } from "../errors";
import { FlowDocument } from "../flow/schema";
import type { Db } from "./client";
import { requireCapability } from "../auth/roles";
import { type Caller, callerId, flowAccess, memberOf, rolesOf } from "../auth/membership";
import { personalWorkspace } from "./workspaces";
import { prismaErrorCode } from "./prisma-error-code";

/**
 * Flows and their immutable versions (docs/architecture.md#flows-and-compilation). Every function takes the acting
 * user's id; a flow of a workspace the user is not a member of is missing (404), and
 * saving needs the owner role (403).
 */

/**
 * Creates a flow with its first version from a document (e.g. a template), in
 * `opts.workspaceId` or else the user's own workspace.
 * @throws ZodError when the document is invalid.
 */
export async function createFlow(db: Db, userId: string, raw: unknown, opts: { templateKey?: string; message?: string; workspaceId?: string } = {}) {
  const doc = FlowDocument.parse(raw);
  const workspaceId = opts.workspaceId ?? (await personalWorkspace(db, userId));
  return db.flow.create({
    data: {
      ownerId: userId,
      workspaceId,
      name: doc.settings.name,
      description: doc.settings.description,
      templateKey: opts.templateKey ?? null,
      versions: { create: { version: 1, document: JSON.stringify(doc), message: opts.message ?? "Created", authorId: userId } },
    },
  });
}

/**
 * A flow the user may see with its latest version (parsed document) and the user's role.
 * `userId`: a user id, or the access the route resolved (lib/auth/membership.ts `Caller`: no query).
 * @throws AppError not_found when it does not exist or is in another workspace.
 */
export async function getFlowWithLatest(db: Db, userId: Caller, flowId: string) {
  const { role } = await flowAccess(db, userId, flowId);
  const flow = await db.flow.findUnique({ where: { id: flowId }, include: { versions: { orderBy: { version: "desc" }, take: 1 } } });
  const latest = flow?.versions[0];
  if (!flow || !latest) throw new AppError("not_found", "flow_not_found", `No flow ${flowId}.`);
  return { flow, version: latest, role, document: FlowDocument.parse(JSON.parse(latest.document)) };
}

/**
 * Saves a document as the flow's next version (versions are never changed). A concurrent
 * save of the same version number loses on the unique (flowId, version) index -> 409.
 * `userId`: a user id, or the access the route resolved (lib/auth/membership.ts `Caller`).
 * @throws AppError not_found (another workspace's flow), forbidden (not an owner),
 *   conflict (concurrent save); ZodError.
 */
export async function saveFlowVersion(db: Db, userId: Caller, flowId: string, raw: unknown, message: string) {
  const doc = FlowDocument.parse(raw);
  const { flow, version, role } = await getFlowWithLatest(db, userId, flowId);
  requireCapability(role, "edit");
  try {
    const [created] = await db.$transaction([
      db.flowVersion.create({ data: { flowId: flow.id, version: version.version + 1, document: JSON.stringify(doc), message, authorId: callerId(userId) } }),
      db.flow.update({ where: { id: flow.id }, data: { name: doc.settings.name, description: doc.settings.description } }),
    ]);
    return created;
  } catch (err) {
    if (prismaErrorCode(err) === "P2002") throw new AppError("conflict", "version_conflict", "Someone saved this flow at the same time; reload and save again.");
    throw err;
  }
}

/**
 * The flows of every workspace the user is a member of, newest first, with their latest
 * version number and the user's role in the flow's workspace (so the UI offers only what
 * the role allows: viewers do not run).
 */
export async function listFlows(db: Db, userId: string) {
  const roles = await rolesOf(db, userId);
  const flows = await db.flow.findMany({
    where: { workspace: memberOf(userId) },
    orderBy: { updatedAt: "desc" },
    include: { versions: { orderBy: { version: "desc" }, take: 1, select: { version: true, createdAt: true } } },
  });
  return flows.map((f) => ({
    id: f.id,
    name: f.name,
    description: f.description,
    version: f.versions[0]?.version ?? 0,
    templateKey: f.templateKey,
    updatedAt: f.updatedAt,
    role: roles.get(f.workspaceId) ?? "viewer",
  }));
}
