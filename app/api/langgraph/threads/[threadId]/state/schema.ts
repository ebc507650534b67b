import { z } from "zod";
import { Flag, ThreadId } from "@/lib/langgraph-api/input";

/** Route params: the thread id. */
export const Params = z.object({ threadId: ThreadId });

/** `subgraphs` (accepted; there are none) and `select` (accepted and ignored). */
export const Query = z.object({ subgraphs: Flag.optional(), select: z.string().max(2000).optional() });

/**
 * `threads.updateState` body. Only Agent Inbox's "Mark as resolved" (`values: null`,
 * `as_node: "__end__"`) is carried out (docs/langgraph-api.md#agent-inbox); any other update
 * is answered 405.
 */
export const UpdateBody = z.object({
  values: z.unknown().optional(),
  as_node: z.string().max(200).optional(),
  checkpoint: z.record(z.string(), z.unknown()).nullable().optional(),
  checkpoint_id: z.string().max(200).nullable().optional(),
});
