import { z } from "zod";
import { Metadata, ThreadId } from "@/lib/langgraph-api/input";

/** Route params: the thread id. */
export const Params = z.object({ threadId: ThreadId });

/** `include`: accepted and ignored (every field is always returned). */
export const Query = z.object({ include: z.string().max(200).optional() });

/** The metadata to merge into the thread's (keys replaced, others kept); `ttl` is not offered. */
export const Body = z.object({
  metadata: Metadata.optional(),
  ttl: z.null({ error: "ttl: thread expiry is not offered; delete threads with DELETE /threads/{thread_id}" }).optional(),
});
