// POST /api/invitations/:invitationId/accept - join the workspace with the invited role (the invitee only; 404 for anyone else).
import { db } from "@/lib/db/client";
import { acceptInvitation } from "@/lib/db/invitation-answers";
import { withUser } from "@/lib/http/with-user";
import { Params } from "../schema";

export const dynamic = "force-dynamic";

export const POST = withUser({ params: Params }, async (_req, { user, params }) => Response.json({ workspace: await acceptInvitation(db(), user.id, params.invitationId) }));
