import { z } from "zod";
import { CheckpointRef, ThreadId } from "@/lib/langgraph-api/input";

/** Route params: the thread id. */
export const Params = z.object({ threadId: ThreadId });

/** The checkpoint to read (`checkpoint_id`, `checkpoint_ns`); `subgraphs` and `select` accepted and ignored. */
export const Body = z.object({ checkpoint: CheckpointRef, subgraphs: z.boolean().optional(), select: z.array(z.string().max(100)).max(50).optional() });
