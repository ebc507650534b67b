"use client";
import Link from "next/link";
import { useState } from "react";
import type { FactOrigin, FactView } from "@/lib/memory/types";
import { LocalTime } from "@/components/ui/local-time";
import { notify } from "@/components/ui/notify";
import { callApi } from "./api";
import { ConfirmDialog } from "./confirm-dialog";
import styles from "./memory.module.css";
import { memoryHref } from "./memory-url";

/** How each origin reads on a fact. */
export const ORIGIN_LABEL: Record<FactOrigin, string> = {
  remember: "remembered by an agent",
  promoted: "promoted from a thread",
  manual: "added by hand",
};

/** A fact as the memory page lists it: the fact, its search score if searched, and its provenance resolved on the server. */
export interface FactRow {
  fact: FactView;
  /** Set when the list is a search: higher is better, and which searches found it. */
  match: { score: number; via: ("lexical" | "semantic")[] } | null;
  /** The source thread when it still exists (title for the link); null when none or deleted. */
  thread: { id: string; title: string } | null;
  /** The fact names a source thread that no longer exists. */
  threadDeleted: boolean;
  /** Email of the user who added, promoted or accepted it, when known. */
  by: string | null;
}

/** "from thread <title> (step s1)" / "from a thread that was deleted" / nothing. */
function Source({ row }: { row: FactRow }) {
  const step = row.fact.source.stepId;
  if (row.thread) {
    return (
      <span data-testid="fact-source">
        from thread{" "}
        <Link href={`/threads/${row.thread.id}`} data-testid="fact-source-link">
          {row.thread.title}
        </Link>
        {step ? (
          <>
            {" "}
            · step <code>{step}</code>
          </>
        ) : null}
      </span>
    );
  }
  if (row.threadDeleted) {
    return (
      <span data-testid="fact-source" data-deleted="true" title={`Thread ${row.fact.source.threadId ?? ""}`}>
        from a thread that was deleted (thread deleted){step ? ` · step ${step}` : ""}
      </span>
    );
  }
  return null;
}

/**
 * One fact of the memory page: its content, tags (each filters the list), origin
 * and provenance (the source thread linked with its step, or "thread deleted"; who; when),
 * the search score and how it was found, and Accept (proposed facts) and Forget, which asks
 * first. Roles that cannot change memory see the buttons disabled with the reason.
 */
export function FactCard({
  row,
  workspaceId,
  canEdit,
  onChanged,
}: {
  row: FactRow;
  workspaceId: string;
  /** The user may accept and forget (owners and approvers). */
  canEdit: boolean;
  /** Called after an accept or forget with what to tell the user; the list reloads. */
  onChanged: (notice: string) => void;
}) {
  const { fact, match } = row;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const readOnly = canEdit ? undefined : "Your role in this workspace is viewer: it can read memory but not change it. Ask an owner for the approver role.";

  async function accept() {
    setBusy(true);
    setError(null);
    const res = await callApi<{ fact: FactView }>("POST", `/api/memory/facts/${fact.id}/accept`);
    setBusy(false);
    if (!res.ok) return setError(res.message);
    notify.success("Fact accepted.");
    onChanged("Fact accepted: agents of this workspace now get it when it is relevant to their step.");
  }

  async function forget() {
    setBusy(true);
    setError(null);
    const res = await callApi<{ removed: number }>("DELETE", `/api/memory/facts/${fact.id}`);
    setBusy(false);
    if (!res.ok) return setError(res.message);
    setConfirming(false);
    const n = res.data.removed;
    notify.success(n > 1 ? `Forgot ${n} facts.` : "Fact forgotten.");
    onChanged(n > 1 ? `Forgot ${n} facts: this one and ${n - 1} from the same source (thread and step).` : "Fact forgotten.");
  }

  return (
    <article className={`card ${styles.fact}`} data-testid="fact" data-fact-id={fact.id} data-status={fact.status} data-origin={fact.origin}>
      <p className={styles.content} data-testid="fact-content">
        {fact.content}
      </p>
      <div className={`small muted ${styles.meta}`}>
        <span className={`badge status-${fact.status === "proposed" ? "pending" : "completed"}`} data-testid="fact-status">
          {fact.status}
        </span>
        <span data-testid="fact-origin">{ORIGIN_LABEL[fact.origin]}</span>
        <Source row={row} />
        {row.by ? <span data-testid="fact-by">by {row.by}</span> : null}
        <LocalTime at={fact.createdAt} />
        {fact.updatedAt !== fact.createdAt ? (
          <span>
            updated <LocalTime at={fact.updatedAt} />
          </span>
        ) : null}
        {fact.agentRole ? <span>for agent role {fact.agentRole}</span> : null}
        {fact.tags.length ? (
          <span className={styles.tags} data-testid="fact-tags">
            {fact.tags.map((t) => (
              <Link key={t} href={memoryHref({ workspace: workspaceId, tag: t })} className="badge" title={`Show facts tagged ${t}`}>
                {t}
              </Link>
            ))}
          </span>
        ) : null}
        {match ? (
          <span data-testid="fact-score" data-via={match.via.join(",")} title="Relevance to the search: higher is better">
            score {match.score.toFixed(2)} · found {match.via.length ? match.via.join(" and ") : "by filters"}
          </span>
        ) : null}
      </div>
      <div className={styles.actions}>
        {fact.status === "proposed" ? (
          <button type="button" onClick={() => void accept()} disabled={busy || !canEdit} title={readOnly} data-testid="fact-accept">
            Accept
          </button>
        ) : null}
        <button type="button" className="secondary" onClick={() => setConfirming(true)} disabled={busy || !canEdit} title={readOnly} data-testid="fact-forget">
          Forget
        </button>
        {readOnly ? (
          <span className="small muted" data-testid="fact-readonly">
            {readOnly}
          </span>
        ) : null}
        {error && !confirming ? (
          <span className="error small" role="alert" data-testid="fact-error">
            {error}
          </span>
        ) : null}
      </div>
      <ConfirmDialog
        open={confirming}
        title="Forget this fact?"
        confirmLabel="Forget"
        busy={busy}
        error={confirming ? error : null}
        onConfirm={() => void forget()}
        onCancel={() => {
          setConfirming(false);
          setError(null);
        }}
        testId="forget-dialog"
      >
        <p>“{fact.content.length > 160 ? `${fact.content.slice(0, 160)}…` : fact.content}” is erased from this workspace's memory: no agent gets it again.</p>
        <ul>
          <li>
            {fact.source.threadId
              ? "Facts promoted from the same source (every fact from the same thread and step, accepted or proposed) are forgotten with it."
              : "Facts promoted from the same source go with it; this fact has no source thread, so it goes alone."}
          </li>
          <li>
            The source thread still holds its own history (messages, tool outputs, its short-term memory).{" "}
            {fact.source.threadId ? "Delete the thread to erase that too." : "This fact has no source thread."}
          </li>
        </ul>
      </ConfirmDialog>
    </article>
  );
}
