// GET /api/invitations - the signed-in account's pending invitations to join workspaces.
import { db } from "@/lib/db/client";
import { myInvitations } from "@/lib/db/invitation-answers";
import { withUser } from "@/lib/http/with-user";

export const dynamic = "force-dynamic";

export const GET = withUser({}, async (_req, { user }) => Response.json({ invitations: await myInvitations(db(), user.id) }));
