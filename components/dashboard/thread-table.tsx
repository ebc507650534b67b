import Link from "next/link";
import { RelativeTime } from "@/components/ui/relative-time";
import { formatUsd, PRICES_AS_OF } from "@/lib/models/pricing";
import styles from "./dashboard.module.css";
import { STATUS_LABEL } from "./dashboard-url";
import type { DashboardRow } from "@/lib/db/dashboard-types";
import { formatCount, formatDuration, formatUtc } from "./format";

/**
 * The runs table: status, task (opens the run), flow and version, start (UTC and
 * how long ago), duration, plan steps, tokens, estimated cost and who started it. A thread
 * without runs yet shows "—" for what it has not spent.
 * @param now the time the page was rendered (ms since epoch): "5 min ago" reads from it until
 *   the browser's own clock takes over (components/ui/relative-time.tsx).
 * @param workspaceOf workspace name by flow id, given when the user belongs to several
 *   workspaces: each run then names its workspace under its flow (docs/security.md "Membership").
 */
export function ThreadTable({ rows, now, workspaceOf }: { rows: DashboardRow[]; now: number; workspaceOf?: ReadonlyMap<string, string> }) {
  return (
    <div className={styles.tableWrap}>
      <table className={`card threads ${styles.table}`} data-testid="threads">
        <thead>
          <tr>
            <th>Status</th>
            <th>Task</th>
            <th>Flow</th>
            <th>Started</th>
            <th className={styles.num}>Duration</th>
            <th className={styles.num}>Steps</th>
            <th className={styles.num}>Tokens</th>
            <th className={styles.num} title={`Estimated at list prices of ${PRICES_AS_OF}`}>
              Est. cost
            </th>
            <th>Started by</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((t) => {
            const ran = t.durationMs !== null;
            return (
              <tr key={t.id} data-testid={`thread-row-${t.id}`} data-status={t.status}>
                <td>
                  <span className={`badge status-${t.status}`} data-testid="thread-status">
                    {STATUS_LABEL[t.status] ?? t.status}
                  </span>
                </td>
                <td className={styles.task}>
                  <Link href={`/threads/${t.id}`} data-testid="thread-link">
                    {t.title}
                  </Link>
                </td>
                <td data-testid="thread-flow">
                  {t.flow.name} <span className="muted small">v{t.version}</span>
                  {workspaceOf ? (
                    <div className="muted small" data-testid="thread-workspace">
                      {workspaceOf.get(t.flow.id)}
                    </div>
                  ) : null}
                </td>
                <td>
                  <time dateTime={t.startedAt.toISOString()} title={t.startedAt.toISOString()} data-testid="thread-started">
                    {formatUtc(t.startedAt)}
                  </time>
                  <div className="muted small">
                    <RelativeTime at={t.startedAt} serverNow={now} />
                  </div>
                </td>
                <td className={styles.num} data-testid="thread-duration">
                  {ran ? formatDuration(t.durationMs ?? 0) : "—"}
                  {t.running ? <div className="muted small">so far</div> : null}
                </td>
                <td className={styles.num} data-testid="thread-steps" title={t.steps ? `${t.steps.done} of ${t.steps.total} plan steps completed` : "No plan"}>
                  {t.steps ? `${t.steps.done}/${t.steps.total}` : "—"}
                </td>
                <td className={styles.num} data-testid="thread-tokens">
                  {ran ? `${formatCount(t.tokens.input)} in / ${formatCount(t.tokens.output)} out` : "—"}
                </td>
                <td className={styles.num} data-testid="thread-cost" title={costTitle(t)}>
                  {!ran ? "—" : t.costUsd === null ? <span className="muted">unknown price</span> : formatUsd(t.costUsd)}
                </td>
                <td className="small" data-testid="thread-started-by">
                  {t.startedBy}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** Links to the newest page and the next (older) page of runs; null hides a link. */
export function RunsPager({ newest, older }: { newest: string | null; older: string | null }) {
  if (!newest && !older) return null;
  return (
    <nav className={`small ${styles.pager}`} aria-label="Pages of runs">
      {newest ? (
        <Link href={newest} data-testid="dashboard-first-page">
          ← Newest runs
        </Link>
      ) : null}
      {older ? (
        <Link href={older} data-testid="dashboard-next-page">
          Older runs →
        </Link>
      ) : null}
    </nav>
  );
}

function costTitle(t: DashboardRow): string {
  const models = t.models.length ? `Model: ${t.models.join(", ")}. ` : "";
  if (t.costUsd === null) return `${models}Unknown price: ${t.priceNote ?? "no price on file"}.`;
  return `${models}Estimated at list prices of ${PRICES_AS_OF}; caching or batch discounts are not counted.`;
}
