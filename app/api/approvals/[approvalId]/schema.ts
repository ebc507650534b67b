import { z } from "zod";

/** Route params: an approval id (`apv_` + base64url). */
export const Params = z.object({ approvalId: z.string().regex(/^[A-Za-z0-9_-]{6,64}$/, "approval ids are 6-64 of [A-Za-z0-9_-]") });
