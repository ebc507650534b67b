import { z } from "zod";
import { NEW_FLOW_TEMPLATES } from "@/templates";

/**
 * POST body: the template to start from ("blank" or a template key), the new flow's name and
 * description, and optionally the workspace to create the flow in (one where the user may
 * edit flows; omitted: the user's own workspace). A name or description left out is the
 * template's; one given (even an empty description) replaces it.
 */
export const Body = z.object({
  template: z.string().refine((k) => Object.hasOwn(NEW_FLOW_TEMPLATES, k), { message: `unknown template; one of: ${Object.keys(NEW_FLOW_TEMPLATES).join(", ")}` }),
  name: z.string().trim().min(1, "give the flow a name").max(120, "a flow name is at most 120 characters").optional(),
  description: z.string().trim().max(2000, "a description is at most 2,000 characters").optional(),
  workspaceId: z.string().min(1).max(64).optional(),
});
