import Link from "next/link";
import { NewFlowButton } from "@/components/dashboard/new-flow-button";
import { StartRunForm } from "@/components/run/start-run-form";
import { db } from "@/lib/db/client";
import { listFlows } from "@/lib/db/flows";
import { requireUser } from "@/lib/http/with-user";
import { TEMPLATES } from "@/templates";

export const dynamic = "force-dynamic";

const STATUS_LABEL: Record<string, string> = {
  idle: "not started",
  running: "running",
  awaiting_approval: "awaiting approval",
  awaiting_input: "awaiting your answer",
  completed: "completed",
  failed: "failed",
};

/** Dashboard: the user's flows (open the editor, start a run) and their recent threads. */
export default async function FlowsPage() {
  const user = await requireUser();
  const flows = await listFlows(db(), user.id);
  const threads = await db().thread.findMany({
    where: { userId: user.id },
    orderBy: { updatedAt: "desc" },
    take: 30,
    include: { flow: { select: { name: true } }, flowVersion: { select: { version: true } } },
  });
  return (
    <main className="wide">
      <div className="row">
        <h1>Flows</h1>
        <div className="row gap">
          {Object.entries(TEMPLATES).map(([key, doc]) => (
            <NewFlowButton key={key} template={key} label={doc.settings.name} />
          ))}
        </div>
      </div>
      {flows.length === 0 ? (
        <p className="card muted">No flows yet. Create one from a template above.</p>
      ) : (
        <ul className="flow-list">
          {flows.map((f) => (
            <li key={f.id} className="card" data-testid={`flow-${f.id}`}>
              <div className="row">
                <div>
                  <Link href={`/flows/${f.id}`} className="flow-name" data-testid="open-flow">
                    {f.name}
                  </Link>{" "}
                  <span className="muted small">v{f.version}</span>
                  <p className="muted small">{f.description}</p>
                </div>
                <Link href={`/flows/${f.id}`} className="button secondary">
                  Open editor
                </Link>
              </div>
              <StartRunForm flowId={f.id} />
            </li>
          ))}
        </ul>
      )}
      <h2>Runs</h2>
      {threads.length === 0 ? (
        <p className="card muted" data-testid="threads-empty">
          No runs yet. Write a task under a flow and press Run.
        </p>
      ) : (
        <table className="card threads" data-testid="threads">
          <thead>
            <tr>
              <th>Task</th>
              <th>Flow</th>
              <th>Status</th>
              <th>Updated</th>
            </tr>
          </thead>
          <tbody>
            {threads.map((t) => (
              <tr key={t.id}>
                <td>
                  <Link href={`/threads/${t.id}`}>{t.title}</Link>
                </td>
                <td>
                  {t.flow.name} <span className="muted small">v{t.flowVersion.version}</span>
                </td>
                <td>
                  <span className={`badge status-${t.status}`}>{STATUS_LABEL[t.status] ?? t.status}</span>
                </td>
                <td className="muted small">{t.updatedAt.toISOString().replace("T", " ").slice(0, 16)} UTC</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}
