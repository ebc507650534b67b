import { z } from "zod";
import { AssistantId, Metadata } from "@/lib/langgraph-api/input";

/** The filters of an assistant search. */
export const Body = z.object({ graph_id: AssistantId.optional(), name: z.string().max(200).optional(), metadata: Metadata.optional() });
