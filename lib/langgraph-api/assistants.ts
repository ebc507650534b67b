import "server-only";
import type { Prisma } from "../../generated/prisma/client";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import type { SessionUser } from "../http/with-user";
import { reachableRoles } from "./caller";
import { matchesMetadata } from "./metadata";

/**
 * Assistants are flows (docs/langgraph-api.md#assistants): `assistant_id` = `graph_id` = the
 * flow id, `version` its latest published version. The caller sees the flows of the
 * workspaces they reach (lib/langgraph-api/caller.ts).
 */

/** A Platform assistant. */
export interface PlatformAssistant {
  assistant_id: string;
  graph_id: string;
  version: number;
  name: string;
  description: string;
  metadata: { workspace_id: string; workspace_name: string };
  config: Record<string, never>;
  context: Record<string, never>;
  created_at: string;
  updated_at: string;
}

/** The filters of `POST /assistants/search` and `/assistants/count`. */
export interface AssistantFilters {
  graph_id?: string | undefined;
  name?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
}

/** Paging and order of `POST /assistants/search`. */
export interface AssistantPage {
  limit: number;
  offset: number;
  sort_by?: "assistant_id" | "graph_id" | "name" | "created_at" | "updated_at" | undefined;
  sort_order?: "asc" | "desc" | undefined;
}

const include = { workspace: { select: { name: true } }, versions: { orderBy: { version: "desc" }, take: 1, select: { version: true, createdAt: true } } } satisfies Prisma.FlowInclude;
type Row = Prisma.FlowGetPayload<{ include: typeof include }>;

/** A flow row (with its workspace's name and latest version) as an assistant; `updated_at` is the later of the flow's and its latest version's. */
function assistantOf(f: Row): PlatformAssistant {
  const latest = f.versions[0];
  const updated = latest && latest.createdAt > f.updatedAt ? latest.createdAt : f.updatedAt;
  return {
    assistant_id: f.id,
    graph_id: f.id,
    version: latest?.version ?? 0,
    name: f.name,
    description: f.description,
    metadata: { workspace_id: f.workspaceId, workspace_name: f.workspace.name },
    config: {},
    context: {},
    created_at: f.createdAt.toISOString(),
    updated_at: updated.toISOString(),
  };
}

/** The SQL part of the filters: reachable workspaces, graph id, name (a case-sensitive substring), `workspace_id`. */
async function whereOf(db: Db, user: SessionUser, f: AssistantFilters): Promise<Prisma.FlowWhereInput> {
  const workspaces = [...(await reachableRoles(db, user)).keys()];
  const ws = f.metadata?.workspace_id;
  return {
    workspaceId: { in: typeof ws === "string" ? workspaces.filter((w) => w === ws) : ws === undefined ? workspaces : [] },
    ...(f.graph_id ? { id: f.graph_id } : {}),
    ...(f.name ? { name: { contains: f.name } } : {}),
  };
}

const ORDER: Record<NonNullable<AssistantPage["sort_by"]>, keyof Prisma.FlowOrderByWithRelationInput> = {
  assistant_id: "id",
  graph_id: "id",
  name: "name",
  created_at: "createdAt",
  updated_at: "updatedAt",
};

/**
 * The assistants the caller sees that match every filter (metadata: exact match per key on
 * `workspace_id` and `workspace_name`), newest first unless `sort_by`/`sort_order` say otherwise.
 */
export async function searchAssistants(db: Db, user: SessionUser, f: AssistantFilters, page: AssistantPage): Promise<PlatformAssistant[]> {
  const orderBy = [{ [ORDER[page.sort_by ?? "created_at"]]: page.sort_order ?? "desc" }, { id: "asc" as const }];
  const rows = await db.flow.findMany({ where: await whereOf(db, user, f), include, orderBy });
  // workspace_name lives on another table; the few flows of a caller's workspaces are matched here.
  return rows
    .map(assistantOf)
    .filter((a) => matchesMetadata(a.metadata, f.metadata))
    .slice(page.offset, page.offset + page.limit);
}

/** How many assistants {@link searchAssistants} would find without paging. */
export async function countAssistants(db: Db, user: SessionUser, f: AssistantFilters): Promise<number> {
  return (await searchAssistants(db, user, f, { limit: Number.MAX_SAFE_INTEGER, offset: 0 })).length;
}

/**
 * One assistant (flow) the caller sees.
 * @throws AppError not_found ("assistant_not_found") when the flow does not exist or is not in a workspace the caller reaches.
 */
export async function getAssistant(db: Db, user: SessionUser, assistantId: string): Promise<PlatformAssistant> {
  const workspaces = [...(await reachableRoles(db, user)).keys()];
  const row = await db.flow.findFirst({ where: { id: assistantId, workspaceId: { in: workspaces } }, include });
  if (!row) throw new AppError("not_found", "assistant_not_found", `No assistant ${assistantId}: assistants are the flows of your workspaces.`);
  return assistantOf(row);
}

/**
 * The published versions of an assistant (flow) as Platform assistant versions, newest
 * first: `version`, the version's message as `metadata.message`, its time as `created_at`.
 * @throws AppError not_found as {@link getAssistant}.
 */
export async function assistantVersions(db: Db, user: SessionUser, assistantId: string, page: { limit: number; offset: number; metadata?: Record<string, unknown> | undefined }) {
  const a = await getAssistant(db, user, assistantId);
  const versions = await db.flowVersion.findMany({ where: { flowId: assistantId }, orderBy: { version: "desc" }, select: { version: true, message: true, createdAt: true } });
  return versions
    .map((v) => ({
      assistant_id: a.assistant_id,
      graph_id: a.graph_id,
      version: v.version,
      name: a.name,
      description: a.description,
      config: {},
      context: {},
      metadata: { ...a.metadata, message: v.message },
      created_at: v.createdAt.toISOString(),
    }))
    .filter((v) => matchesMetadata(v.metadata, page.metadata))
    .slice(page.offset, page.offset + page.limit);
}
