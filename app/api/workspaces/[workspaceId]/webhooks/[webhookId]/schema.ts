import { z } from "zod";
import { WebhookPatch } from "@/lib/webhooks/input";

/** Route params. */
export const Params = z.object({ workspaceId: z.string().min(1).max(64), webhookId: z.string().min(1).max(64) });

/** PATCH body: a new url, events, or enabled flag (at least one). */
export const Body = WebhookPatch;
