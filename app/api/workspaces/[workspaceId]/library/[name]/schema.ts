import { z } from "zod";

/** Route params: the library file's name (its rules: lib/tools/library.ts libraryName). */
export const Params = z.object({ workspaceId: z.string().min(1).max(64), name: z.string().min(1).max(1024) });
