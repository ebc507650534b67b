import { z } from "zod";

/** Route params. */
export const Params = z.object({ flowId: z.string().min(1).max(64) });

/** POST body: the whole flow document (validated by the flow schema) and a commit message. */
export const Body = z.object({
  document: z.unknown(),
  message: z.string().trim().max(500).default(""),
});
