import type { Metadata } from "next";
import Link from "next/link";
import { LocalTime } from "@/components/ui/local-time";
import { db } from "@/lib/db/client";
import { getThread } from "@/lib/db/threads";
import { emailsOf } from "@/lib/db/users";
import { orNotFound } from "@/lib/http/or-not-found";
import { requireUser } from "@/lib/http/with-user";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Audit trail" };

/**
 * A thread's audit trail (docs/architecture.md#approvals): every proposal, decision and execution with who, when
 * and the SHA-256 of the canonical arguments. Another user's thread is a 404.
 */
export default async function AuditPage({ params }: { params: Promise<{ threadId: string }> }) {
  const user = await requireUser();
  const { threadId } = await params;
  const thread = await orNotFound(getThread(db(), user.id, threadId));
  const entries = await db().auditEntry.findMany({ where: { threadId }, orderBy: { createdAt: "asc" } });
  const users = await emailsOf(db(), entries.map((e) => e.actorId));
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
                  return String((JSON.parse(e.detail) as { detail?: unknown }).detail ?? "");
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
                    <code>{e.toolName ?? ""}</code>
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
    </main>
  );
}
