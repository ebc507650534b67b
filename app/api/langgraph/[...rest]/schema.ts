import { z } from "zod";

/** The rest of the path after /api/langgraph, as segments. */
export const Params = z.object({ rest: z.array(z.string().max(200)).max(20) });
