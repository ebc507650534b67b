import { z } from "zod";

/** A LangGraph checkpoint id (uuid6, lower-case hex). */
export const CheckpointId = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, "a checkpoint id is a LangGraph uuid, e.g. 1f1e68c6-7193-6070-8000-ffd83c9f9246");

/** Route params. */
export const Params = z.object({ threadId: z.string().min(1).max(64) });

/** Query: page size (1-500, default 100) and the checkpoint to page on from (exclusive). */
export const Query = z.object({
  limit: z.coerce.number().int().min(1).max(500).optional(),
  before: CheckpointId.optional(),
});
