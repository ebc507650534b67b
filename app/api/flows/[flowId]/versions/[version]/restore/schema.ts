import { z } from "zod";
import { VersionNumber } from "../schema";

/** Route params: the flow and the version number to restore. The POST has no body. */
export const Params = z.object({ flowId: z.string().min(1).max(64), version: VersionNumber });
