// POST /api/flows - create a flow from a template or the Blank flow (its version 1), named and described by the user, in the workspace picked (or the user's own, created when they have none); answers { flowId, workspaceId, workspaceName }.
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
  // Version 1 says what it started from: a Blank flow is not "From template".
  const message = body.template === "blank" ? "Blank flow" : "From template";
  const flow = await createFlow(db(), user.id, doc, { templateKey: body.template, message, workspaceId });
  const workspace = await db().workspace.findUnique({ where: { id: workspaceId }, select: { name: true } });
  return Response.json({ flowId: flow.id, workspaceId, workspaceName: workspace?.name ?? null }, { status: 201 });
});
