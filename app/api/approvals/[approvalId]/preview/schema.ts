import { z } from "zod";
import { MAX_PATH_CHARS } from "@/lib/tools/sandbox";

export { Params } from "../schema";

/**
 * Query: `path`, another workspace-relative file to compare with (1-1024 chars), for an
 * approver who edits the path of a file write; absent means the proposed path.
 */
export const Query = z.object({
  path: z.string().min(1, "give a file path, or leave path out for the proposed one").max(MAX_PATH_CHARS, `at most ${MAX_PATH_CHARS} characters`).optional(),
});
