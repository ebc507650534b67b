import { z } from "zod";
import { CheckpointId, CheckpointRef, Metadata, ThreadId } from "@/lib/langgraph-api/input";

/** Route params: the thread id. */
export const Params = z.object({ threadId: ThreadId });

/** A `before` checkpoint: its id, a checkpoint reference, or a config naming it. */
const Before = z.union([
  CheckpointId,
  // A config first: its object would also pass as a reference with no fields.
  z
    .object({ configurable: CheckpointRef })
    .transform((c) => c.configurable.checkpoint_id),
  CheckpointRef.transform((c) => c.checkpoint_id),
]);

/** Page size (1-1000, default 10), older than `before`, checkpoint metadata filter, start checkpoint. */
export const Body = z.object({
  limit: z.number().int().min(1).max(1000).default(10),
  before: Before.optional(),
  metadata: Metadata.refine((m) => Object.keys(m).length <= 20, "metadata: filter on at most 20 checkpoint metadata keys").optional(),
  checkpoint: CheckpointRef.optional(),
  select: z.array(z.string().max(100)).max(50).optional(),
});
