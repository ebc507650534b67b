// GET|POST /api/workspaces/:workspaceId/members - list the members (any member); invite someone by email with a role (owners only; 202, the same answer for every email).
import { db } from "@/lib/db/client";
import { inviteMember } from "@/lib/db/invitations";
import { listMembers } from "@/lib/db/members";
import { withUser } from "@/lib/http/with-user";
import { Body, Params } from "./schema";

export const dynamic = "force-dynamic";

export const GET = withUser({ params: Params, need: { capability: "see", workspace: "workspaceId" } }, async (_req, { params, access }) =>
  Response.json({ members: await listMembers(db(), access, params.workspaceId) }),
);

/** No membership is created here: the invitee accepts or declines in the app (docs/security.md "Membership"). */
export const POST = withUser({ params: Params, body: Body, need: { capability: "manage", workspace: "workspaceId" } }, async (_req, { params, access, body }) =>
  Response.json({ invitation: await inviteMember(db(), access, params.workspaceId, body) }, { status: 202 }),
);
