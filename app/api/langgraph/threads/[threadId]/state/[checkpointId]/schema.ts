import { z } from "zod";
import { CheckpointId, Flag, ThreadId } from "@/lib/langgraph-api/input";

/** Route params: the thread and one of its checkpoints. */
export const Params = z.object({ threadId: ThreadId, checkpointId: CheckpointId });

/** `subgraphs` (accepted; there are none) and `select` (accepted and ignored). */
export const Query = z.object({ subgraphs: Flag.optional(), select: z.string().max(2000).optional() });
