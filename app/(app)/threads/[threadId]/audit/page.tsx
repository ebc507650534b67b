import type { Metadata } from "next";
import Link from "next/link";
import { LocalTime } from "@/components/ui/local-time";
import { db } from "@/lib/db/client";
import { prismaRunStore } from "@/lib/runs/store-prisma";
import { getThread } from "@/lib/db/threads";
import { emailsOf } from "@/lib/db/users";
import { dataSchemas } from "@/lib/events/ui-parts";
import { orNotFound } from "@/lib/http/or-not-found";
import { threadAuditTrail } from "@/lib/library/audit";
import { requireUser } from "@/lib/http/with-user";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Audit trail" };

/** The engine's lifecycle transitions of a thread's runs, from their stored `lifecycle_transition` events, oldest first. */
function lifecycleOf(events: { runId: string | null; seq: number; data: string }[]) {
  return events.flatMap((e) => {
    const parsed = dataSchemas.lifecycle.safeParse((JSON.parse(e.data) as { data?: unknown }).data);
    return parsed.success ? [{ seq: e.seq, runId: e.runId, ...parsed.data }] : [];
  });
}

/**
 * A thread's audit trail (docs/architecture.md#approvals): every proposal, decision and execution with who, when
 * and the SHA-256 of the canonical arguments, with the library uploads and deletes of its
 * workspace (docs/library.md "Audit"); then the engine's lifecycle transitions of its
 * runs (docs/architecture.md#run-lifecycle), which only this view shows: the run view speaks
 * the status vocabulary of docs/runs.md. Another user's thread is a 404.
 */
export default async function AuditPage({ params }: { params: Promise<{ threadId: string }> }) {
  const user = await requireUser();
  const { threadId } = await params;
  const thread = await orNotFound(getThread(db(), user.id, threadId));
  const entries = await threadAuditTrail(db(), threadId, thread.flow.workspaceId);
  const users = await emailsOf(
    db(),
    entries.map((e) => e.actorId),
  );
  const transitions = lifecycleOf(await prismaRunStore(db()).events({ threadId, types: ["lifecycle_transition"] }));
  return (
    <main className="wide">
      <p className="small muted">
        <Link href={`/threads/${thread.id}`}>← {thread.title}</Link>
      </p>
      <h1>Audit trail</h1>
      {entries.length === 0 ? (
        <p className="card muted">Nothing has been proposed, decided or run on this thread yet.</p>
      ) : (
        <table className="card threads" data-testid="audit">
          <thead>
            <tr>
              <th>When (UTC)</th>
              <th>What</th>
              <th>Who</th>
              <th>Tool</th>
              <th>Arguments sha256</th>
              <th>Detail</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => {
              const detail = (() => {
                try {
                  const d = (JSON.parse(e.detail) as { detail?: unknown }).detail ?? "";
                  return typeof d === "string" ? d : JSON.stringify(d);
                } catch {
                  return e.detail;
                }
              })();
              return (
                <tr key={e.id} data-testid="audit-row" data-action={e.action}>
                  <td className="small">
                    <LocalTime at={e.createdAt} style="seconds" />
                  </td>
                  <td>{e.action.replaceAll("_", " ")}</td>
                  <td className="small">{users.get(e.actorId ?? "") ?? e.actorId ?? "—"}</td>
                  <td>
                    <code>{e.toolName ?? (e.threadId === null ? "library" : "")}</code>
                  </td>
                  <td>
                    <code className="small" title={e.argsHash ?? ""}>
                      {e.argsHash ? `${e.argsHash.slice(0, 16)}…` : ""}
                    </code>
                  </td>
                  <td className="small">{detail}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <h2>Engine lifecycle</h2>
      {transitions.length === 0 ? (
        <p className="card muted">No run of this thread has recorded a lifecycle transition yet.</p>
      ) : (
        <table className="card threads" data-testid="lifecycle">
          <thead>
            <tr>
              <th>When (UTC)</th>
              <th>Run</th>
              <th>From</th>
              <th>To</th>
              <th>Node</th>
            </tr>
          </thead>
          <tbody>
            {transitions.map((t) => (
              <tr key={t.seq} data-testid="lifecycle-row" data-to={t.to}>
                <td className="small">
                  <LocalTime at={new Date(t.at)} style="seconds" />
                </td>
                <td>
                  <code className="small">{t.runId ?? "—"}</code>
                </td>
                <td>
                  <code>{t.from}</code>
                </td>
                <td>
                  <code>{t.to}</code>
                </td>
                <td>{t.node}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}
