import type { Metadata } from "next";
import Link from "next/link";
import { StartRunForm } from "@/components/run/start-run-form";
import { formatUtc } from "@/components/versions/format";
import { RestoreButton } from "@/components/versions/restore-button";
import styles from "@/components/versions/versions.module.css";
import { db } from "@/lib/db/client";
import { listVersions } from "@/lib/db/flow-versions";
import { can } from "@/lib/auth/roles";
import { flowAccess } from "@/lib/auth/membership";
import { orNotFound } from "@/lib/http/or-not-found";
import { requireUser } from "@/lib/http/with-user";
import { suggestedTask } from "@/templates";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Versions" };

/**
 * A flow's history: every version newest first with author, time (UTC),
 * message and the runs on it; pick two to compare; run any version; owners restore one as
 * a new version. Members of the flow's workspace see it; another workspace's flow is a 404.
 */
export default async function VersionsPage({ params }: { params: Promise<{ flowId: string }> }) {
  const user = await requireUser();
  const { flowId } = await params;
  const { flow, role } = await orNotFound(flowAccess(db(), user.id, flowId));
  const versions = await listVersions(db(), user.id, flow.id);
  const latest = versions[0]?.version ?? 0;
  const canRun = can(role, "run");
  const canRestore = can(role, "edit");
  const noRun = canRun ? undefined : `Your role in this workspace is ${role}; it cannot start runs.`;
  const compareAction = `/flows/${flow.id}/versions/compare`;
  return (
    <main className="wide">
      <p className="small muted">
        <Link href="/flows">Flows</Link> / <Link href={`/flows/${flow.id}`}>{flow.name}</Link> / history
      </p>
      <h1>Version history</h1>
      <p className="muted">Every save is an immutable version. Runs record the version they ran; restoring a version saves its document as a new one.</p>
      {canRestore ? null : (
        <p className="card small" role="note" data-testid="restore-denied">
          Your role in this workspace is {role}: you can read and compare versions, but only owners restore one. Ask an owner of the workspace for the owner role.
        </p>
      )}

      <section className="card" data-testid="run-any-version">
        <strong>Run a version</strong>
        <StartRunForm flowId={flow.id} defaultTask={suggestedTask(flow.templateKey)} versions={versions.map((v) => ({ version: v.version, message: v.message }))} disabledReason={noRun} />
      </section>

      <section className="card">
        <form id="compare-form" method="get" action={compareAction} className={styles.compareBar}>
          <span>Pick a version in “from” and one in “to”, then</span>
          <button type="submit" disabled={versions.length < 2} data-testid="compare-versions">
            Compare
          </button>
          {versions.length < 2 ? <span className="muted small">(save a second version to compare)</span> : null}
        </form>
        <table className={styles.history} data-testid="versions-list">
          <thead>
            <tr>
              <th className={styles.pick}>From</th>
              <th className={styles.pick}>To</th>
              <th>Version</th>
              <th>Message</th>
              <th>Author</th>
              <th>Saved (UTC)</th>
              <th>Runs</th>
              <th>Actions</th>
            </tr>
          </thead>
          <tbody>
            {versions.map((v, i) => (
              <tr key={v.id} data-testid={`version-row-${v.version}`} data-latest={v.version === latest ? "true" : undefined}>
                <td className={styles.pick}>
                  <input
                    type="radio"
                    name="from"
                    value={v.version}
                    form="compare-form"
                    defaultChecked={i === 1 || (versions.length === 1 && i === 0)}
                    aria-label={`Compare from v${v.version}`}
                    data-testid={`compare-from-${v.version}`}
                  />
                </td>
                <td className={styles.pick}>
                  <input type="radio" name="to" value={v.version} form="compare-form" defaultChecked={i === 0} aria-label={`Compare to v${v.version}`} data-testid={`compare-to-${v.version}`} />
                </td>
                <td>
                  <strong>v{v.version}</strong>
                  {v.version === latest ? (
                    <span className={`badge ${styles.latest}`} data-testid="version-latest">
                      latest
                    </span>
                  ) : null}
                </td>
                <td data-testid="version-message">{v.message || <span className="muted">(no message)</span>}</td>
                <td data-testid="version-author">{v.authorEmail || <span className="muted">(deleted account)</span>}</td>
                <td className={styles.nowrap}>
                  <time dateTime={v.createdAt.toISOString()} data-testid="version-time">
                    {formatUtc(v.createdAt)}
                  </time>
                </td>
                <td data-testid="version-runs">{v.runs}</td>
                <td>
                  <div className={styles.actions}>
                    {v.version > 1 ? (
                      <Link href={`${compareAction}?from=${v.version - 1}&to=${v.version}`} data-testid={`changes-${v.version}`}>
                        Changes from v{v.version - 1}
                      </Link>
                    ) : null}
                    {canRestore && v.version !== latest ? <RestoreButton flowId={flow.id} version={v.version} /> : null}
                    <details data-testid={`run-version-${v.version}`}>
                      <summary>Run v{v.version}</summary>
                      <StartRunForm flowId={flow.id} defaultTask={suggestedTask(flow.templateKey)} pinnedVersion={v.version} disabledReason={noRun} />
                    </details>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </main>
  );
}
