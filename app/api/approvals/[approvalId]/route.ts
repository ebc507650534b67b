// GET /api/approvals/:approvalId - one approval of the user's workspaces, any status (404 for other workspaces).
import { getApproval } from "@/lib/approvals/inbox";
import { db } from "@/lib/db/client";
import { withUser } from "@/lib/http/with-user";
import { Params } from "./schema";

export const dynamic = "force-dynamic";

export const GET = withUser({ params: Params, need: { capability: "see", approval: "approvalId" } }, async (_req, { params, access }) => {
  const item = await getApproval(db(), access, params.approvalId);
  return Response.json(item, { headers: { "cache-control": "no-store" } });
});
