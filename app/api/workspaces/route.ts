// GET /api/workspaces - the workspaces I am a member of, each with my role (docs/security.md#roles-and-powers).
import { db } from "@/lib/db/client";
import { listWorkspaces } from "@/lib/db/members";
import { withUser } from "@/lib/http/with-user";
import { Params } from "./schema";

export const dynamic = "force-dynamic";

export const GET = withUser({ params: Params }, async (_req, { user }) => Response.json({ workspaces: await listWorkspaces(db(), user.id) }));
