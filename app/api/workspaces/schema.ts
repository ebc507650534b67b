import { z } from "zod";

/** GET takes no params, query or body; the session says whose workspaces to list. */
export const Params = z.object({});
