// GET|DELETE /api/threads/:threadId/memory - the thread's short-term memory, summary and proposed facts (any member); clear its short-term memory (its user or an owner).
import { db } from "@/lib/db/client";
import { withUser } from "@/lib/http/with-user";
import { threadForErasure } from "@/lib/memory/access";
import { clearShortTerm } from "@/lib/memory/short-term";
import { threadMemory } from "@/lib/memory/thread-memory";
import { Params } from "./schema";

export const dynamic = "force-dynamic";

export const GET = withUser({ params: Params, need: { capability: "see", thread: "threadId" } }, async (_req, { params, access }) =>
  Response.json(await threadMemory(db(), access, params.threadId), { headers: { "cache-control": "no-store" } }),
);

export const DELETE = withUser({ params: Params, need: { capability: "see", thread: "threadId" } }, async (_req, { user, params, access }) => {
  // Its own user or an owner (lib/memory/access.ts), on the access resolved above.
  await threadForErasure(db(), access, params.threadId);
  return Response.json(await clearShortTerm(db(), { threadId: params.threadId, actorId: user.id }));
});
