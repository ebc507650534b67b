import { z } from "zod";
import { AssistantId } from "@/lib/langgraph-api/input";

/** Route params: the assistant (flow) id. */
export const Params = z.object({ assistantId: AssistantId });
