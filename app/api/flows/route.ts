// POST /api/flows - create a flow from a template (its version 1) in the workspace picked (or the user's own); answers { flowId, workspaceId }.
import { db } from "@/lib/db/client";
import { createFlow } from "@/lib/db/flows";
import { workspaceForNewFlow } from "@/lib/db/new-flow-workspace";
import { withUser } from "@/lib/http/with-user";
import { TEMPLATES } from "@/templates";
import { Body } from "./schema";

export const POST = withUser({ body: Body }, async (_req, { user, body }) => {
  const template = TEMPLATES[body.template];
  const doc = template && body.name ? { ...template, settings: { ...template.settings, name: body.name } } : template;
  const workspaceId = await workspaceForNewFlow(db(), user.id, body.workspaceId);
  const flow = await createFlow(db(), user.id, doc, { templateKey: body.template, message: "From template", workspaceId });
  return Response.json({ flowId: flow.id, workspaceId }, { status: 201 });
});
