import { z } from "zod";

/** Route params. */
export const Params = z.object({ workspaceId: z.string().min(1).max(64) });
