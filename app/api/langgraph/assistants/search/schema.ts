import { z } from "zod";
import { AssistantId, Limit, Metadata, Offset, Select, SortOrder } from "@/lib/langgraph-api/input";

/** Filters (graph_id = flow id, name substring, metadata workspace_id / workspace_name), paging and order. */
export const Body = z.object({
  graph_id: AssistantId.optional(),
  name: z.string().max(200).optional(),
  metadata: Metadata.optional(),
  limit: Limit,
  offset: Offset,
  sort_by: z.enum(["assistant_id", "graph_id", "name", "created_at", "updated_at"]).optional(),
  sort_order: SortOrder.optional(),
  select: Select.optional(),
});
