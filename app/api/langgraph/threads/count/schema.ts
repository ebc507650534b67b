import { z } from "zod";
import { Metadata, ThreadStatus } from "@/lib/langgraph-api/input";

/** The filters of a thread search. */
export const Body = z.object({ metadata: Metadata.optional(), values: Metadata.optional(), status: ThreadStatus.optional() });
