import { z } from "zod";
import { Metadata } from "@/lib/langgraph-api/input";

/**
 * A new API thread: an optional UUID, metadata (a `graph_id` names the assistant its first run
 * will use), and what to do when the id is taken. `supersteps` (prefilled state) and `ttl` are
 * not offered.
 */
export const Body = z.object({
  thread_id: z.uuid().optional(),
  metadata: Metadata.optional(),
  if_exists: z.enum(["raise", "do_nothing"]).optional(),
  supersteps: z.array(z.unknown()).max(0, "supersteps: prefilled thread state is not offered; start a run with your input instead").optional(),
  ttl: z.null({ error: "ttl: thread expiry is not offered; delete threads with DELETE /threads/{thread_id}" }).optional(),
});
