import { z } from "zod";
import { Limit, Metadata, Offset, Select, SortOrder, ThreadId, ThreadStatus } from "@/lib/langgraph-api/input";

/** Filters (metadata, values: exact match per key; status; ids), paging, order and fields. */
export const Body = z.object({
  metadata: Metadata.optional(),
  values: Metadata.optional(),
  status: ThreadStatus.optional(),
  ids: z.array(ThreadId).max(1000).optional(),
  limit: Limit,
  offset: Offset,
  sort_by: z.enum(["thread_id", "status", "created_at", "updated_at", "state_updated_at"]).optional(),
  sort_order: SortOrder.optional(),
  select: Select.optional(),
});
