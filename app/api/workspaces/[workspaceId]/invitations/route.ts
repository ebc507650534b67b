// GET /api/workspaces/:workspaceId/invitations - the workspace's pending invitations (owners only).
import { db } from "@/lib/db/client";
import { listInvitations } from "@/lib/db/invitations";
import { withUser } from "@/lib/http/with-user";
import { Params } from "./schema";

export const dynamic = "force-dynamic";

export const GET = withUser({ params: Params, need: { capability: "manage", workspace: "workspaceId" } }, async (_req, { params, access }) =>
  Response.json({ invitations: await listInvitations(db(), access, params.workspaceId) }),
);
