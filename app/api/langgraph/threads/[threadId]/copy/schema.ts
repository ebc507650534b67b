import { z } from "zod";
import { ThreadId } from "@/lib/langgraph-api/input";

/** Route params: the thread id. */
export const Params = z.object({ threadId: ThreadId });
