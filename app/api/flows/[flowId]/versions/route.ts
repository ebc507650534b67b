// GET|POST /api/flows/:flowId/versions - list the flow's versions newest first (GET); save the document as its next immutable version (POST).
import { db } from "@/lib/db/client";
import { listVersions } from "@/lib/db/flow-versions";
import { saveFlowVersion } from "@/lib/db/flows";
import { FLOW_DOCUMENT_MAX_BYTES } from "@/lib/http/input-limits";
import { withUser } from "@/lib/http/with-user";
import { Body, Params } from "./schema";

export const dynamic = "force-dynamic";

export const GET = withUser({ params: Params, need: { capability: "see", flow: "flowId" } }, async (_req, { params, access }) => {
  const versions = await listVersions(db(), access, params.flowId);
  return Response.json(
    { versions: versions.map((v) => ({ version: v.version, id: v.id, message: v.message, author: v.authorEmail, createdAt: v.createdAt.toISOString(), runs: v.runs })) },
    { headers: { "cache-control": "no-store" } },
  );
});

export const POST = withUser({ params: Params, body: Body, maxBodyBytes: FLOW_DOCUMENT_MAX_BYTES, need: { capability: "edit", flow: "flowId" } }, async (_req, { params, body, access }) => {
  const created = await saveFlowVersion(db(), access, params.flowId, body.document, body.message || "Saved from the editor");
  return Response.json({ version: created.version, id: created.id }, { status: 201 });
});
