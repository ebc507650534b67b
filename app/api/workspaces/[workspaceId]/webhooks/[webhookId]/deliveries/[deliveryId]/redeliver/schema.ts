import { z } from "zod";

/** Route params; the request has no body. */
export const Params = z.object({ workspaceId: z.string().min(1).max(64), webhookId: z.string().min(1).max(64), deliveryId: z.string().min(1).max(64) });
