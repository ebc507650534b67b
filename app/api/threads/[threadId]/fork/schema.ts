import { z } from "zod";
import { CheckpointId } from "../checkpoints/schema";

/** Route params. */
export const Params = z.object({ threadId: z.string().min(1).max(64) });

/** POST body: the checkpoint of the thread to fork from. */
export const Body = z.object({ checkpointId: CheckpointId });
