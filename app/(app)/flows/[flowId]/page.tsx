import { FlowEditor } from "@/components/flow-editor/flow-editor";
import { StartRunForm } from "@/components/run/start-run-form";
import { db } from "@/lib/db/client";
import { getFlowWithLatest } from "@/lib/db/flows";
import { orNotFound } from "@/lib/http/or-not-found";
import { requireUser } from "@/lib/http/with-user";
import { toolCatalog } from "@/lib/tools/registry";

export const dynamic = "force-dynamic";

/** Flow editor: the canvas of the latest version, and a form to run it. Another user's flow is a 404. */
export default async function FlowPage({ params }: { params: Promise<{ flowId: string }> }) {
  const user = await requireUser();
  const { flowId } = await params;
  const found = await orNotFound(getFlowWithLatest(db(), user.id, flowId));
  return (
    <main className="editor-page">
      <div className="editor-run card">
        <strong>Run this flow</strong> <span className="muted small">(runs the latest saved version)</span>
        <StartRunForm
          flowId={found.flow.id}
          agents={found.document.nodes.flatMap((n) => (n.type === "agent" ? [{ id: n.id, name: n.data.name, icon: n.data.icon }] : []))}
        />
      </div>
      <FlowEditor key={found.version.id} flowId={found.flow.id} version={found.version.version} document={found.document} tools={toolCatalog()} />
    </main>
  );
}
