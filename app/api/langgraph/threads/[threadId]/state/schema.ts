import { z } from "zod";
import { Flag, ThreadId } from "@/lib/platform/input";

/** Route params: the thread id. */
export const Params = z.object({ threadId: ThreadId });

/** `subgraphs` (accepted; there are none) and `select` (accepted and ignored). */
export const Query = z.object({ subgraphs: Flag.optional(), select: z.string().max(2000).optional() });
