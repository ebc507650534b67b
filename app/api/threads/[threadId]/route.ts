// DELETE /api/threads/:threadId - erase the thread: checkpoints, runs, events, approvals, audit, blobs, short-term memory, proposed facts, workspace files (its user or an owner; 409 while a run streams).
import { db } from "@/lib/db/client";
import { env } from "@/lib/env";
import { withUser } from "@/lib/http/with-user";
import { threadForErasure } from "@/lib/memory/access";
import { eraseThread } from "@/lib/memory/erase";
import { Params } from "./schema";

export const dynamic = "force-dynamic";

export const DELETE = withUser({ params: Params, need: { capability: "see", thread: "threadId" } }, async (_req, { user, params, access }) => {
  // Its own user or an owner (lib/memory/access.ts), on the access resolved above.
  await threadForErasure(db(), access, params.threadId);
  const counts = await eraseThread(db(), { threadId: params.threadId, actorId: user.id, workspacesDir: env().WORKSPACES_DIR });
  return Response.json({ counts });
});
