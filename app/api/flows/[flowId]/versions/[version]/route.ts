// GET /api/flows/:flowId/versions/:version - one version of the flow: author, time, message and its flow document.
import { db } from "@/lib/db/client";
import { getVersion } from "@/lib/db/flow-versions";
import { withUser } from "@/lib/http/with-user";
import { Params } from "./schema";

export const dynamic = "force-dynamic";

export const GET = withUser({ params: Params, need: { capability: "see", flow: "flowId" } }, async (_req, { params, access }) => {
  const v = await getVersion(db(), access, params.flowId, params.version);
  return Response.json(
    { version: v.version, id: v.id, message: v.message, author: v.authorEmail, createdAt: v.createdAt.toISOString(), runs: v.runs, document: v.document },
    { headers: { "cache-control": "no-store" } },
  );
});
