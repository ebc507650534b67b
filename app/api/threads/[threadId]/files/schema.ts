import { z } from "zod";

/** Route params. */
export const Params = z.object({ threadId: z.string().min(1).max(64) });

/** Query of GET: `format=zip` downloads the whole workspace (docs/documents.md "Download"). */
export const ZipQuery = z.object({ format: z.literal("zip", { message: 'format must be "zip" (GET /files?format=zip downloads the workspace)' }) });

/** Route params of one file: the workspace path, one URL segment per folder. */
export const FileParams = z.object({ threadId: z.string().min(1).max(64), path: z.array(z.string().min(1).max(1024)).min(1).max(64) });
