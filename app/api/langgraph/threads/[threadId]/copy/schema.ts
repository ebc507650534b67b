import { z } from "zod";
import { ThreadId } from "@/lib/platform/input";

/** Route params: the thread id. */
export const Params = z.object({ threadId: ThreadId });
