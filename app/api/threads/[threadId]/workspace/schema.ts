import { z } from "zod";

/** Route params. */
export const Params = z.object({ threadId: z.string().min(1).max(64) });

/** Query: no path lists the workspace; a path reads that file. */
export const Query = z.object({ path: z.string().min(1).max(1024).optional() });
