// GET /api/approvals/:approvalId/preview[?path=] - the tool's input schema and, for a file write, the file as it is now (404 for other workspaces).
import { approvalPreview } from "@/lib/approvals/preview";
import { db } from "@/lib/db/client";
import { env } from "@/lib/env";
import { withUser } from "@/lib/http/with-user";
import { Params, Query } from "./schema";

export const dynamic = "force-dynamic";

export const GET = withUser({ params: Params, query: Query, need: { capability: "see", approval: "approvalId" } }, async (_req, { params, query, access }) => {
  const preview = await approvalPreview(db(), access, { approvalId: params.approvalId, workspacesDir: env().WORKSPACES_DIR, path: query.path });
  return Response.json(preview, { headers: { "cache-control": "no-store" } });
});
