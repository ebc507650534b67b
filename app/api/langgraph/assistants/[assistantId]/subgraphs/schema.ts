import { z } from "zod";
import { AssistantId, Flag } from "@/lib/langgraph-api/input";

/** Route params: the assistant (flow) id. */
export const Params = z.object({ assistantId: AssistantId });

/** `recurse`: accepted and ignored (there are no subgraphs). */
export const Query = z.object({ recurse: Flag.optional() });
