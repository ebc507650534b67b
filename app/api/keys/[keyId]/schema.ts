import { z } from "zod";

/** Route params: the key to revoke. */
export const Params = z.object({ keyId: z.string().min(1).max(64) });
