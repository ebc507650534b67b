"use client";
import { FINISHED_STATUSES } from "@/lib/run-status";
import Link from "next/link";
import { useCallback, useEffect, useState } from "react";
import { AgentBadge, type AgentIdentity } from "@/components/run/agent-badge";
import { formatChars } from "@/lib/format-size";
import type { FactView, ShortTermEntry } from "@/lib/memory/types";
import { LocalTime } from "@/components/ui/local-time";
import { notify } from "@/components/ui/notify";
import { callApi } from "./api";
import { ConfirmDialog } from "./confirm-dialog";
import styles from "./memory.module.css";
import { memoryHref } from "./memory-url";

/** The thread's summary as the route sends it: text, or an object with the text and when it was written. */
type SummaryBody = string | { text?: string; content?: string; summary?: string; at?: string; summarizedAt?: string; createdAt?: string } | null;

/** What `GET /api/threads/:id/memory` answers. */
interface ThreadMemory {
  entries: ShortTermEntry[];
  summary: SummaryBody;
  proposed: FactView[];
}

/** Text and time of a summary, whatever shape the route gave it. */
function summaryOf(s: SummaryBody | undefined): { text: string; at: string | null } | null {
  if (!s) return null;
  if (typeof s === "string") return s.trim() ? { text: s, at: null } : null;
  const text = s.text ?? s.content ?? s.summary ?? "";
  return text.trim() ? { text, at: s.at ?? s.summarizedAt ?? s.createdAt ?? null } : null;
}

/** The flow's memory settings (docs/architecture.md#memory) as the Memory tab explains them. */
export interface FlowMemorySettings {
  /** Memory is injected into agents' contexts and runs append short-term entries. */
  enabled: boolean;
  /** Facts that promote(thread) finds are accepted without asking. */
  autoPromote: boolean;
  /** How long short-term entries live, hours. */
  shortTermTtlHours: number;
}

/** What "Propose facts" did, in words: proposed for a decision, or accepted at once by the flow's setting. */
function promoted(facts: FactView[]): { text: string; factId?: string } {
  if (facts.length === 0) return { text: "Nothing new to propose: every result of this thread is already proposed below or in memory." };
  const n = facts.length;
  const s = n === 1 ? "" : "s";
  if (facts.every((f) => f.status === "accepted")) {
    return { text: `Accepted ${n} fact${s} at once (this flow auto-promotes); agents of this workspace now get ${n === 1 ? "it" : "them"}.`, factId: facts[0]?.id };
  }
  return { text: `Proposed ${n} fact${s}. Accept the ones worth keeping; the rest can be dismissed.` };
}

/** Thread statuses after which promote(thread) may propose facts. */
const FINISHED = new Set(FINISHED_STATUSES);

/** A long result folded behind its first line. */
function Result({ text }: { text: string }) {
  if (text.length <= 200) return <>{text}</>;
  return (
    <details>
      <summary>
        {text.slice(0, 120)}… <span className="muted">({formatChars(text.length)})</span>
      </summary>
      <pre className="small">{text}</pre>
    </details>
  );
}

/** What the thread's Memory tab needs besides the thread id: its workspace and status, the flow's agents and memory settings, and what the user may change. */
export interface ThreadMemoryProps {
  workspaceId: string;
  /** The thread's status (idle, running, completed, …): proposing needs a finished thread. */
  threadStatus: string;
  agents: AgentIdentity[];
  /** Owners and approvers propose, accept and dismiss facts; viewers read. */
  canEdit: boolean;
  /** The thread's own user or a workspace owner clears its short-term memory. */
  canErase: boolean;
  /** The thread's own user, owners and approvers write its summary. */
  canSummarize: boolean;
  settings: FlowMemorySettings;
}

/**
 * The thread's Memory tab (docs/architecture.md#memory): its short-term entries (time, agent,
 * action, result; Clear asks first), its summary (written when a run completes; Summarize
 * rewrites it), and the facts proposed from it (also when a run completes), each with
 * Accept or Dismiss (dismiss forgets it, after asking), with "Propose facts" to look again
 * once the thread has finished. Loads each time the tab opens. Roles that cannot
 * change memory (viewers) see the buttons disabled with the reason.
 */
export function ThreadMemoryPanel({
  threadId,
  workspaceId,
  threadStatus,
  agents,
  canEdit,
  canErase,
  canSummarize,
  settings,
}: ThreadMemoryProps & { threadId: string }) {
  const [data, setData] = useState<ThreadMemory | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ text: string; factId?: string } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [clearing, setClearing] = useState(false);
  const [clearError, setClearError] = useState<string | null>(null);
  const [dismissing, setDismissing] = useState<FactView | null>(null);

  const load = useCallback(async () => {
    const res = await callApi<ThreadMemory>("GET", `/api/threads/${threadId}/memory`);
    if (!res.ok) return setError(res.message);
    setError(null);
    setData(res.data);
  }, [threadId]);

  useEffect(() => {
    void load();
  }, [load]);

  /** Runs one action (its name marks the busy button), shows its error or notice, and reloads. */
  async function act<T>(name: string, method: "POST" | "DELETE", url: string, done: (body: T) => { text: string; factId?: string }) {
    setBusy(name);
    setError(null);
    setNotice(null);
    const res = await callApi<T>(method, url);
    setBusy(null);
    if (!res.ok) {
      setError(res.message);
      return false;
    }
    const outcome = done(res.data);
    setNotice(outcome);
    notify.success(outcome.text);
    await load();
    return true;
  }

  async function clear() {
    setBusy("clear");
    setClearError(null);
    const res = await callApi<{ removed: number }>("DELETE", `/api/threads/${threadId}/memory`);
    setBusy(null);
    if (!res.ok) return setClearError(res.message);
    setClearing(false);
    const text = `Cleared ${res.data.removed} short-term entr${res.data.removed === 1 ? "y" : "ies"}. The next run on this thread starts with none.`;
    setNotice({ text });
    notify.success(text);
    await load();
  }

  const byId = new Map(agents.map((a) => [a.id, a]));
  const agent = (id: string) => byId.get(id) ?? { id, name: id, icon: "🤖", color: "#5b3cc4" };
  const readOnly = canEdit ? undefined : "Your role in this workspace is viewer: it can read this thread's memory but not propose, accept or dismiss facts.";
  const eraseReason = canErase ? undefined : "Only the user who started this thread or a workspace owner can clear its short-term memory.";
  const summarizeReason = canSummarize ? undefined : "Only the user who started this thread, owners and approvers can summarize it.";
  const finished = FINISHED.has(threadStatus);
  const summary = summaryOf(data?.summary);
  const hours = settings.shortTermTtlHours;

  return (
    <section className="card" data-testid="thread-memory">
      <div className="row">
        <h2>Memory</h2>
        <button type="button" className="secondary" onClick={() => void load()} data-testid="thread-memory-refresh">
          Refresh
        </button>
      </div>
      {settings.enabled ? null : (
        <p className="small card" data-testid="thread-memory-off">
          Memory is off for this flow: its agents get no memory injected and its runs add no short-term entries. Turn it on in the flow's settings (Memory) to
          use it.
        </p>
      )}
      {readOnly || eraseReason || summarizeReason ? (
        <p className="small muted" data-testid="thread-memory-readonly">
          {[readOnly, summarizeReason, eraseReason].filter(Boolean).join(" ")}
        </p>
      ) : null}
      {error && !dismissing ? (
        <p className="error small" role="alert" data-testid="thread-memory-error">
          {error}
        </p>
      ) : null}
      {notice ? (
        // Announced by the toast of the same outcome; this stays on screen, with its link.
        <p className={`small card ${styles.notice}`} data-testid="thread-memory-notice">
          {notice.text}{" "}
          {notice.factId ? (
            <Link href={memoryHref({ workspace: workspaceId, fact: notice.factId })} data-testid="thread-memory-notice-link">
              See it on the memory page
            </Link>
          ) : null}
        </p>
      ) : null}
      {data === null ? (
        error ? null : (
          <p className="muted small">Loading…</p>
        )
      ) : (
        <>
          <div className={styles.section} data-testid="short-term">
            <div className="row">
              <h3>Short-term memory</h3>
              <button
                type="button"
                className="secondary"
                onClick={() => setClearing(true)}
                disabled={!canErase || data.entries.length === 0 || busy !== null}
                title={eraseReason ?? (data.entries.length === 0 ? "There is nothing to clear." : undefined)}
                data-testid="short-term-clear"
              >
                Clear
              </button>
            </div>
            <p className="small muted">
              What the agents did on this thread, as they see it before each step (the last 20). Entries expire {hours} hours after they are written.
            </p>
            {data.entries.length === 0 ? (
              <p className="small muted" data-testid="short-term-empty">
                No short-term entries. Each step and tool call of a run adds one; they expire after {hours} hours or when cleared.
              </p>
            ) : (
              <table className={`small ${styles.entries}`}>
                <thead>
                  <tr>
                    <th>Time</th>
                    <th>Agent</th>
                    <th>Action</th>
                    <th>Result</th>
                  </tr>
                </thead>
                <tbody>
                  {data.entries.map((e) => (
                    <tr key={e.id} data-testid="short-term-entry" data-agent={e.agentId} data-step={e.stepId ?? ""}>
                      <td className={`muted ${styles.nowrap}`}>
                        <LocalTime at={e.createdAt} />
                      </td>
                      <td className={styles.nowrap}>
                        <AgentBadge agent={agent(e.agentId)} />
                      </td>
                      <td>{e.action}</td>
                      <td className={styles.result}>
                        <Result text={e.result} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </div>

          <div className={styles.section} data-testid="thread-summary">
            <div className="row">
              <h3>Summary</h3>
              <button
                type="button"
                className="secondary"
                onClick={() => void act<{ summary: unknown }>("summarize", "POST", `/api/threads/${threadId}/memory/summarize`, () => ({ text: "Summary written." }))}
                disabled={!canSummarize || busy !== null}
                title={summarizeReason}
                data-testid="thread-summarize"
              >
                {busy === "summarize" ? "Summarizing…" : summary ? "Summarize again" : "Summarize"}
              </button>
            </div>
            {summary ? (
              <>
                <p className={styles.summary} data-testid="thread-summary-text">
                  {summary.text}
                </p>
                {summary.at ? (
                  <p className="small muted">
                    written <LocalTime at={summary.at} />
                  </p>
                ) : null}
              </>
            ) : (
              <p className="small muted" data-testid="thread-summary-empty">
                No summary yet. One is written when a run completes; Summarize writes it now: the task, each step and how it ended, and the answer.
              </p>
            )}
          </div>

          <div className={styles.section} data-testid="proposed-facts">
            <div className="row">
              <h3>Proposed facts</h3>
              <button
                type="button"
                onClick={() =>
                  void act<{ facts: FactView[] }>("promote", "POST", `/api/threads/${threadId}/memory/promote`, (b) => promoted(b.facts))
                }
                disabled={!canEdit || !finished || busy !== null}
                title={readOnly ?? (finished ? undefined : "Propose facts once the run has finished.")}
                data-testid="thread-promote"
              >
                {busy === "promote" ? "Proposing…" : "Propose facts"}
              </button>
            </div>
            <p className="small muted">
              {finished
                ? "When a run completes, its steps' results are proposed as facts for the workspace's long-term memory; Propose facts looks at the thread again. Accepted facts reach every later run; dismissed ones are forgotten."
                : "When the run completes, its steps' results are proposed here as facts for the workspace's long-term memory."}
              {settings.autoPromote ? " This flow auto-promotes: the facts it finds are accepted without asking (a flow setting)." : ""}
            </p>
            {data.proposed.length === 0 ? (
              <p className="small muted" data-testid="proposed-empty">
                No facts from this thread wait for a decision.
              </p>
            ) : (
              <ul className={styles.list}>
                {data.proposed.map((f) => (
                  <li key={f.id} className={`card ${styles.fact}`} data-status="proposed" data-testid="proposed-fact" data-fact-id={f.id}>
                    <p className={styles.content} data-testid="proposed-fact-content">
                      {f.content}
                    </p>
                    <div className={`small muted ${styles.meta}`}>
                      {f.source.stepId ? (
                        <span>
                          from step <code>{f.source.stepId}</code>
                        </span>
                      ) : null}
                      {f.tags.map((t) => (
                        <span key={t} className="badge">
                          {t}
                        </span>
                      ))}
                    </div>
                    <div className={styles.actions}>
                      <button
                        type="button"
                        onClick={() =>
                          void act<{ fact: FactView }>("accept", "POST", `/api/memory/facts/${f.id}/accept`, () => ({
                            text: "Fact accepted: agents of this workspace now get it when it is relevant.",
                            factId: f.id,
                          }))
                        }
                        disabled={!canEdit || busy !== null}
                        title={readOnly}
                        data-testid="proposed-accept"
                      >
                        Accept
                      </button>
                      <button
                        type="button"
                        className="secondary"
                        onClick={() => setDismissing(f)}
                        disabled={!canEdit || busy !== null}
                        title={readOnly}
                        data-testid="proposed-dismiss"
                      >
                        Dismiss
                      </button>
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </>
      )}
      <ConfirmDialog
        open={dismissing !== null}
        title="Dismiss this proposed fact?"
        confirmLabel="Dismiss"
        busy={busy === "dismiss"}
        error={dismissing ? error : null}
        onConfirm={() => {
          const f = dismissing;
          if (!f) return;
          void act<{ removed: number }>("dismiss", "DELETE", `/api/memory/facts/${f.id}`, (b) => ({
            text: b.removed > 1 ? `Dismissed: ${b.removed} facts from the same step were forgotten.` : "Dismissed: the proposal was forgotten.",
          })).then((ok) => {
            if (ok) setDismissing(null);
          });
        }}
        onCancel={() => {
          setDismissing(null);
          setError(null);
        }}
        testId="dismiss-dialog"
      >
        <p>
          The proposal is forgotten, and so is every other fact from the same step of this thread{dismissing?.source.stepId ? ` (${dismissing.source.stepId})` : ""},
          accepted or proposed. The thread itself keeps its history.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={clearing}
        title="Clear this thread's short-term memory?"
        confirmLabel="Clear"
        busy={busy === "clear"}
        error={clearError}
        onConfirm={() => void clear()}
        onCancel={() => {
          setClearing(false);
          setClearError(null);
        }}
        testId="clear-memory-dialog"
      >
        <p>
          The {data?.entries.length ?? 0} short-term entries of this thread are erased, so its next run starts without them. The thread's messages, checkpoints and
          timeline stay, and so do facts in long-term memory.
        </p>
      </ConfirmDialog>
    </section>
  );
}
