import { z } from "zod";

/** Route params. */
export const Params = z.object({ threadId: z.string().min(1).max(64) });
