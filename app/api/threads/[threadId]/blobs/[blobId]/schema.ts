import { z } from "zod";

/** Route params: the thread and the id part of a `blob:<id>` pointer. */
export const Params = z.object({ threadId: z.string().min(1).max(64), blobId: z.string().regex(/^[A-Za-z0-9_-]{6,64}$/, "a blob id is the part after blob:") });
