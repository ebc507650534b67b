// GET|POST /api/workspaces/:workspaceId/memory - list or search the workspace's long-term facts (any member); add one (owners and approvers).
import { db } from "@/lib/db/client";
import { withUser } from "@/lib/http/with-user";
import { MEMORY_REFUSAL } from "@/lib/memory/access";
import { embedderFromEnv } from "@/lib/memory/embeddings";
import { listFacts, searchFacts, upsertFact } from "@/lib/memory/long-term";
import { Body, Params, Query } from "./schema";

export const dynamic = "force-dynamic";

export const GET = withUser({ params: Params, query: Query, need: { capability: "see", workspace: "workspaceId" } }, async (_req, { params, query }) => {
  const status = query.status ? { status: query.status } : {};
  const facts =
    query.q || query.tag
      ? await searchFacts(db(), { workspaceId: params.workspaceId, query: query.q ?? "", embedder: embedderFromEnv(), limit: 100, ...status, ...(query.tag ? { filters: { tags: [query.tag] } } : {}) })
      : await listFacts(db(), { workspaceId: params.workspaceId, ...status });
  return Response.json({ facts }, { headers: { "cache-control": "no-store" } });
});

export const POST = withUser({ params: Params, body: Body, need: { capability: "remember", refusal: MEMORY_REFUSAL, workspace: "workspaceId" } }, async (_req, { user, params, body }) => {
  const { fact, created } = await upsertFact(db(), {
    workspaceId: params.workspaceId,
    content: body.content,
    origin: "manual",
    createdById: user.id,
    embedder: embedderFromEnv(),
    ...(body.tags ? { tags: body.tags } : {}),
    ...(body.agentRole ? { agentRole: body.agentRole } : {}),
  });
  return Response.json({ fact }, { status: created ? 201 : 200 });
});
