// POST /api/flows/:flowId/versions - save the document as the flow's next immutable version.
import { db } from "@/lib/db/client";
import { saveFlowVersion } from "@/lib/db/flows";
import { withUser } from "@/lib/http/with-user";
import { Body, Params } from "./schema";

export const POST = withUser({ params: Params, body: Body }, async (_req, { user, params, body }) => {
  const created = await saveFlowVersion(db(), user.id, params.flowId, body.document, body.message || "Saved from the editor");
  return Response.json({ version: created.version, id: created.id }, { status: 201 });
});
