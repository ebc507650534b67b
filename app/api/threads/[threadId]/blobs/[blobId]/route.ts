// GET /api/threads/:threadId/blobs/:blobId - an evicted tool output of the user's thread, opened on demand from the run view.
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { withUser } from "@/lib/http/with-user";
import { Params } from "./schema";

export const GET = withUser({ params: Params, need: { capability: "see", thread: "threadId" } }, async (_req, { params, access: { thread } }) => {
  const blob = await db().evictedBlob.findFirst({ where: { id: params.blobId, threadId: thread.id } });
  if (!blob) throw new AppError("not_found", "blob_not_found", `No evicted output blob:${params.blobId} in this thread.`);
  return Response.json({ pointer: `blob:${blob.id}`, toolName: blob.toolName, sizeChars: blob.sizeChars, content: blob.content });
});
