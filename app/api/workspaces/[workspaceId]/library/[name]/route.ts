// DELETE /api/workspaces/:workspaceId/library/:name - delete one library file (owners only).
import { db } from "@/lib/db/client";
import { env } from "@/lib/env";
import { LIBRARY_REFUSAL } from "@/lib/library/access";
import { withUser } from "@/lib/http/with-user";
import { libraryAuditSink } from "@/lib/library/audit";
import { deleteLibraryFile } from "@/lib/tools/library";
import { Params } from "./schema";

export const dynamic = "force-dynamic";

export const DELETE = withUser({ params: Params, need: { capability: "manage", refusal: LIBRARY_REFUSAL, workspace: "workspaceId" } }, async (_req, { user, params }) => {
  await deleteLibraryFile(env().WORKSPACES_DIR, params.workspaceId, params.name, user.id, libraryAuditSink(db(), params.workspaceId));
  return new Response(null, { status: 204 });
});
