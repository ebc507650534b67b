import { z } from "zod";
import { AssistantId, Limit, Metadata, Offset } from "@/lib/langgraph-api/input";

/** Route params: the assistant (flow) id. */
export const Params = z.object({ assistantId: AssistantId });

/** Paging, and a metadata filter (workspace_id, workspace_name, message). */
export const Body = z.object({ metadata: Metadata.optional(), limit: Limit, offset: Offset });
