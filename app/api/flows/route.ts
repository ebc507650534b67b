// POST /api/flows - create a flow from a template or the Blank flow (its version 1), named and described by the user, in the workspace picked (or the user's own); answers { flowId, workspaceId }.
import { db } from "@/lib/db/client";
import { createFlow } from "@/lib/db/flows";
import { workspaceForNewFlow } from "@/lib/db/new-flow-workspace";
import { withUser } from "@/lib/http/with-user";
import { NEW_FLOW_TEMPLATES } from "@/templates";
import { Body } from "./schema";

export const POST = withUser({ body: Body }, async (_req, { user, body }) => {
  const template = NEW_FLOW_TEMPLATES[body.template];
  const doc = template && {
    ...template,
    settings: { ...template.settings, name: body.name ?? template.settings.name, description: body.description ?? template.settings.description },
  };
  const workspaceId = await workspaceForNewFlow(db(), user.id, body.workspaceId);
  const flow = await createFlow(db(), user.id, doc, { templateKey: body.template, message: "From template", workspaceId });
  return Response.json({ flowId: flow.id, workspaceId }, { status: 201 });
});
