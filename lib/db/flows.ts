import "server-only";
import { AppError } from "../errors";
import { FlowDocument } from "../flow/schema";
import type { Db } from "./client";

/**
 * Flows and their immutable versions (SPEC.md 1, 5). Every function takes the acting
 * user's id and treats another user's flow as missing (404).
 */

/**
 * Creates a flow with its first version from a document (e.g. a template).
 * @throws ZodError when the document is invalid.
 */
export async function createFlow(db: Db, userId: string, raw: unknown, opts: { templateKey?: string; message?: string } = {}) {
  const doc = FlowDocument.parse(raw);
  return db.flow.create({
    data: {
      ownerId: userId,
      name: doc.settings.name,
      description: doc.settings.description,
      templateKey: opts.templateKey ?? null,
      versions: { create: { version: 1, document: JSON.stringify(doc), message: opts.message ?? "Created", authorId: userId } },
    },
  });
}

/**
 * A flow of the user with its latest version (parsed document).
 * @throws AppError not_found when it does not exist or belongs to someone else.
 */
export async function getFlowWithLatest(db: Db, userId: string, flowId: string) {
  const flow = await db.flow.findFirst({ where: { id: flowId, ownerId: userId }, include: { versions: { orderBy: { version: "desc" }, take: 1 } } });
  const latest = flow?.versions[0];
  if (!flow || !latest) throw new AppError("not_found", "flow_not_found", `No flow ${flowId}.`);
  return { flow, version: latest, document: FlowDocument.parse(JSON.parse(latest.document)) };
}

/**
 * Saves a document as the flow's next version (versions are never changed). A concurrent
 * save of the same version number loses on the unique (flowId, version) index -> 409.
 * @throws AppError not_found (not the user's flow), conflict (concurrent save); ZodError.
 */
export async function saveFlowVersion(db: Db, userId: string, flowId: string, raw: unknown, message: string) {
  const doc = FlowDocument.parse(raw);
  const { flow, version } = await getFlowWithLatest(db, userId, flowId);
  try {
    const [created] = await db.$transaction([
      db.flowVersion.create({ data: { flowId: flow.id, version: version.version + 1, document: JSON.stringify(doc), message, authorId: userId } }),
      db.flow.update({ where: { id: flow.id }, data: { name: doc.settings.name, description: doc.settings.description } }),
    ]);
    return created;
  } catch (err) {
    if ((err as { code?: string }).code === "P2002") throw new AppError("conflict", "version_conflict", "Someone saved this flow at the same time; reload and save again.");
    throw err;
  }
}

/** The user's flows, newest first, with their latest version number. */
export async function listFlows(db: Db, userId: string) {
  const flows = await db.flow.findMany({
    where: { ownerId: userId },
    orderBy: { updatedAt: "desc" },
    include: { versions: { orderBy: { version: "desc" }, take: 1, select: { version: true, createdAt: true } } },
  });
  return flows.map((f) => ({ id: f.id, name: f.name, description: f.description, version: f.versions[0]?.version ?? 0, updatedAt: f.updatedAt }));
}
