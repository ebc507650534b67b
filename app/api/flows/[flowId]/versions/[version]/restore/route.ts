// POST /api/flows/:flowId/versions/:version/restore - save that version's document as the flow's next version ("Restored vN"; owners only); answers 201 { version }.
import { db } from "@/lib/db/client";
import { restoreVersion } from "@/lib/db/flow-versions";
import { withUser } from "@/lib/http/with-user";
import { Params } from "./schema";

export const POST = withUser({ params: Params, need: { capability: "edit", flow: "flowId" } }, async (_req, { params, access }) => {
  const created = await restoreVersion(db(), access, params.flowId, params.version);
  return Response.json({ version: created.version, id: created.id }, { status: 201 });
});
