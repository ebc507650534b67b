// GET|POST /api/workspaces/:workspaceId/members - list the members (any member); add one by email with a role (owners only).
import { db } from "@/lib/db/client";
import { addMember, listMembers } from "@/lib/db/members";
import { withUser } from "@/lib/http/with-user";
import { Body, Params } from "./schema";

export const dynamic = "force-dynamic";

export const GET = withUser({ params: Params }, async (_req, { user, params }) => Response.json({ members: await listMembers(db(), user.id, params.workspaceId) }));

export const POST = withUser({ params: Params, body: Body }, async (_req, { user, params, body }) =>
  Response.json({ member: await addMember(db(), user.id, params.workspaceId, body) }, { status: 201 }),
);
