import type { Metadata } from "next";
import { FlowEditor } from "@/components/flow-editor/flow-editor";
import { db } from "@/lib/db/client";
import { getFlowWithLatest } from "@/lib/db/flows";
import { can } from "@/lib/auth/roles";
import { orNotFound } from "@/lib/http/or-not-found";
import { userProviderNames } from "@/lib/models/provider-settings";
import { requireUser } from "@/lib/http/with-user";
import { workspaceToolRegistry } from "@/lib/tools/workspace-registry";
import { suggestedTask } from "@/templates";

export const dynamic = "force-dynamic";

/** The tab shows the flow's name; a flow the user may not see is titled plainly (the page is a 404). */
export async function generateMetadata({ params }: { params: Promise<{ flowId: string }> }): Promise<Metadata> {
  const user = await requireUser();
  const { flowId } = await params;
  const found = await getFlowWithLatest(db(), user.id, flowId).catch(() => null);
  return { title: found ? found.document.settings.name : "Flow" };
}

/**
 * Flow editor: the canvas of the latest version, and a form to run it (rendered by the
 * editor, which disables it while the canvas is invalid or unsaved). The palette offers the
 * workspace's tools (built-ins and MCP). Another user's flow is a 404. The user's role in the
 * flow's workspace decides what the editor offers: only owners edit (others get a read-only
 * editor saying why), viewers do not run; the API enforces the same (lib/auth/roles.ts).
 */
export default async function FlowPage({ params }: { params: Promise<{ flowId: string }> }) {
  const user = await requireUser();
  const { flowId } = await params;
  const found = await orNotFound(getFlowWithLatest(db(), user.id, flowId));
  // The workspace's catalog: built-ins and its MCP servers' tools, with their sources and schemas.
  const tools = (await workspaceToolRegistry(db(), found.flow.workspaceId)).catalog();
  const providers = await userProviderNames(db(), user.id);
  const access = { role: found.role, canEdit: can(found.role, "edit"), canRun: can(found.role, "run") };
  return (
    <main className="editor-page">
      <FlowEditor
        key={found.version.id}
        flowId={found.flow.id}
        version={found.version.version}
        document={found.document}
        tools={tools}
        access={access}
        defaultTask={suggestedTask(found.flow.templateKey)}
        providers={providers}
      />
    </main>
  );
}
