import { z } from "zod";
import { TEMPLATES } from "@/templates";

/**
 * POST body: the template to start from, an optional name, and optionally the workspace to
 * create the flow in (one where the user may edit flows; omitted: the user's own workspace).
 */
export const Body = z.object({
  template: z.string().refine((k) => Object.hasOwn(TEMPLATES, k), { message: `unknown template; one of: ${Object.keys(TEMPLATES).join(", ")}` }),
  name: z.string().trim().min(1).max(120).optional(),
  workspaceId: z.string().min(1).max(64).optional(),
});
