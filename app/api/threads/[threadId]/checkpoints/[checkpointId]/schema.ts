import { z } from "zod";
import { CheckpointId } from "../schema";

/** Route params: the thread and one of its checkpoint ids. */
export const Params = z.object({ threadId: z.string().min(1).max(64), checkpointId: CheckpointId });
