import { z } from "zod";
import { AssistantId } from "@/lib/langgraph-api/input";

/** Route params: the assistant (flow) id. */
export const Params = z.object({ assistantId: AssistantId });

/** `xray`: true, false, or a subgraph depth (our graph has no subgraphs). */
export const Query = z.object({
  xray: z.union([z.enum(["true", "false"]).transform((v) => v === "true"), z.coerce.number().int().min(0).max(10)]).optional(),
});
