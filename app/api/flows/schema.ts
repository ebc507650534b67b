import { z } from "zod";
import { TEMPLATES } from "@/templates";

/** POST body: the template to start from and an optional name. */
export const Body = z.object({
  template: z.string().refine((k) => k in TEMPLATES, { message: `unknown template; one of: ${Object.keys(TEMPLATES).join(", ")}` }),
  name: z.string().trim().min(1).max(120).optional(),
});
