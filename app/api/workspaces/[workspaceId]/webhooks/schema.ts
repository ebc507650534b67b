import { z } from "zod";
import { WebhookInput } from "@/lib/webhooks/input";

/** Route params. */
export const Params = z.object({ workspaceId: z.string().min(1).max(64) });

/** POST body: the receiving URL (http or https, no credentials, <= 2000 chars) and its events. */
export const Body = WebhookInput;
