"use client";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import { LocalTime } from "@/components/ui/local-time";
import type { CheckpointEntry, CheckpointState } from "@/lib/engine/time-travel";

/** Rows fetched per page. */
const PAGE = 50;

/** The error message of a failed API call (`{ error: { message } }`), or its status. */
async function failure(res: Response): Promise<string> {
  const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
  return body?.error?.message ?? `HTTP ${res.status}`;
}

/** "router → planner" style text of node names (parallel tasks as "executor ×2"). */
function nodes(names: string[]): string {
  const counts = new Map<string, number>();
  for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
  return [...counts].map(([n, c]) => (c > 1 ? `${n} ×${c}` : n)).join(", ") || "—";
}

/** One line about a state: plan progress, current step, what it waits for. */
function summaryText(c: CheckpointEntry): string {
  const s = c.summary;
  const parts: string[] = [];
  if (s.plan) parts.push(`plan ${s.plan.status} ${s.plan.stepsCompleted}/${s.plan.stepsTotal}`);
  if (s.plan?.current) parts.push(`step ${s.plan.current.index + 1} ${s.plan.current.status.replace("_", " ")}${s.currentAgentName ? ` (${s.currentAgentName})` : ""}`);
  if (s.awaitingApproval) parts.push("awaiting approval");
  if (s.awaitingInput) parts.push("awaiting input");
  if (s.errorCode) parts.push(`error ${s.errorCode}`);
  if (parts.length === 0) parts.push(s.messages ? `${s.messages} message${s.messages === 1 ? "" : "s"}` : "empty state");
  return parts.join(" · ");
}

/** What an interrupt waits for: an approval of a tool call, or an answer to a question. */
function interruptText(v: unknown): string {
  const first = Array.isArray(v) ? v[0] : v;
  const o = (first ?? {}) as { action_request?: { action?: string }; kind?: string; question?: string };
  if (o.action_request?.action) return `approval of ${o.action_request.action}`;
  if (o.kind === "question" && o.question) return `an answer: ${o.question}`;
  return "input";
}

/** The state at the selected checkpoint, and "Fork from here". */
function CheckpointStateView({ state, canFork, onFork, forking, forkError }: { state: CheckpointState; canFork: boolean; onFork: () => void; forking: boolean; forkError: string | null }) {
  const messages = (Array.isArray(state.values.messages) ? state.values.messages : []) as { role: string; content: string }[];
  return (
    <section className="card" data-testid="checkpoint-state" data-checkpoint={state.checkpointId}>
      <h3>
        Step {state.step} <span className="badge">{state.source}</span> <code className="small">{state.checkpointId}</code>
      </h3>
      <p className="small muted">
        written by {nodes(state.writers)} · next {nodes(state.next)} · lifecycle {state.summary.lifecycle ?? "—"}
      </p>
      {state.interrupts.length > 0 ? (
        <p className="small" data-testid="checkpoint-interrupts">
          Waiting for {state.interrupts.map(interruptText).join("; ")}.
        </p>
      ) : null}
      {state.plan ? (
        <div data-testid="checkpoint-plan" data-status={state.plan.status}>
          <strong>Plan</strong> <span className={`badge status-${state.plan.status}`}>{state.plan.status}</span>
          <ol className="small">
            {state.plan.steps.map((s) => (
              <li key={s.id} data-testid="checkpoint-step" data-status={s.status}>
                {s.task} <span className="muted">· {s.agentName}</span> <span className={`badge status-${s.status}`}>{s.status.replace("_", " ")}</span>
                {s.error ? <span className="error"> {s.error}</span> : null}
              </li>
            ))}
          </ol>
        </div>
      ) : (
        <p className="small muted">No plan at this checkpoint.</p>
      )}
      <div>
        <strong>Last messages</strong>
        {messages.length === 0 ? <p className="small muted">None yet.</p> : null}
        <ol className="timeline small">
          {messages.slice(-6).map((m, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list, never reordered
            <li key={i} className={`bubble ${m.role === "user" ? "user" : "answer"}`} data-testid="checkpoint-message" data-role={m.role}>
              {String(m.content)}
            </li>
          ))}
        </ol>
      </div>
      <details data-testid="checkpoint-raw">
        <summary className="small">Raw state (JSON, tokens redacted)</summary>
        <pre className="small file-content">{JSON.stringify(state.values, null, 2)}</pre>
      </details>
      {canFork ? (
        <div className="stack">
          <p className="small muted" data-testid="fork-note">
            Fork from here starts a new thread from this checkpoint; this thread is not changed. The workspace files are copied as they are now, not as they were at this checkpoint.
            {state.summary.awaitingApproval ? " A call waits for approval here: approvals stay with their thread, so in the fork the agent proposes it again and a new approval is asked." : ""}
          </p>
          <div>
            <button type="button" onClick={onFork} disabled={forking} data-testid="fork-from-checkpoint">
              {forking ? "Forking…" : "Fork from here"}
            </button>
          </div>
          {forkError ? (
            <p className="error small" role="alert" data-testid="fork-error">
              {forkError}
            </p>
          ) : null}
        </div>
      ) : (
        <p className="small muted" data-testid="fork-not-allowed">
          Your role in this workspace can see checkpoints but not start runs, so it cannot fork.
        </p>
      )}
    </section>
  );
}

/**
 * Time travel: the thread's checkpoints newest first (step, source, the nodes that
 * wrote each and run next, a summary, time), the state at the one clicked, and "Fork from
 * here", which starts a new thread from it and opens it.
 */
export function CheckpointsPanel({ threadId, canFork }: { threadId: string; canFork: boolean }) {
  const [rows, setRows] = useState<CheckpointEntry[] | null>(null);
  const [nextBefore, setNextBefore] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [state, setState] = useState<CheckpointState | null>(null);
  const [forking, setForking] = useState(false);
  const [forkError, setForkError] = useState<string | null>(null);
  const latest = useRef<string | null>(null);
  const router = useRouter();

  const load = useCallback(
    async (before: string | null) => {
      setError(null);
      const res = await fetch(`/api/threads/${threadId}/checkpoints?limit=${PAGE}${before ? `&before=${before}` : ""}`);
      if (!res.ok) return setError(await failure(res));
      const page = (await res.json()) as { checkpoints: CheckpointEntry[]; nextBefore: string | null };
      setRows((cur) => (before && cur ? [...cur, ...page.checkpoints] : page.checkpoints));
      setNextBefore(page.nextBefore);
    },
    [threadId],
  );

  useEffect(() => {
    void load(null);
  }, [load]);

  async function select(id: string) {
    latest.current = id;
    setSelected(id);
    setState(null);
    setForkError(null);
    const res = await fetch(`/api/threads/${threadId}/checkpoints/${id}`);
    if (latest.current !== id) return;
    if (!res.ok) return setError(await failure(res));
    setState((await res.json()) as CheckpointState);
  }

  async function fork(checkpointId: string) {
    setForking(true);
    setForkError(null);
    try {
      const res = await fetch(`/api/threads/${threadId}/fork`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ checkpointId }) });
      if (res.status !== 201) return setForkError(await failure(res));
      const body = (await res.json()) as { threadId: string };
      router.push(`/threads/${body.threadId}`);
    } catch (err) {
      setForkError(err instanceof Error ? err.message : String(err));
    } finally {
      setForking(false);
    }
  }

  return (
    <section className="card" data-testid="checkpoints-panel">
      <div className="row">
        <h2>Checkpoints</h2>
        <button type="button" className="secondary" onClick={() => void load(null)} data-testid="checkpoints-refresh">
          Refresh
        </button>
      </div>
      <p className="small muted">Every superstep of the graph saved a checkpoint. Pick one to see the state at that moment, and fork a new thread from it.</p>
      {error ? (
        <p className="error small" role="alert" data-testid="checkpoints-error">
          {error}
        </p>
      ) : null}
      {rows === null ? (
        <p className="muted small">Loading…</p>
      ) : rows.length === 0 ? (
        <p className="muted small" data-testid="checkpoints-empty">
          Nothing has run on this thread yet, so there are no checkpoints.
        </p>
      ) : (
        <table className="threads small">
          <thead>
            <tr>
              <th>Step</th>
              <th>Source</th>
              <th>Written by</th>
              <th>Next</th>
              <th>State</th>
              <th>Time</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((c) => (
              <tr
                key={c.checkpointId}
                data-testid={`checkpoint-row-${c.checkpointId}`}
                data-step={c.step}
                data-source={c.source}
                data-next={c.next.join(",")}
                data-writers={c.writers.join(",")}
                aria-selected={selected === c.checkpointId}
                style={selected === c.checkpointId ? { background: "var(--tint)" } : undefined}
              >
                <td>
                  <button type="button" className="link" onClick={() => void select(c.checkpointId)} data-testid="checkpoint-open" title={c.checkpointId}>
                    step {c.step}
                  </button>
                </td>
                <td>
                  <span className="badge">{c.source}</span>
                  {c.forkedFrom ? <span className="muted"> of step {c.forkedFrom.step}</span> : null}
                </td>
                <td>{nodes(c.writers)}</td>
                <td>{nodes(c.next)}</td>
                <td>{summaryText(c)}</td>
                <td className="muted">{c.createdAt ? <LocalTime at={c.createdAt} style="time" /> : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {nextBefore ? (
        <button type="button" className="secondary" onClick={() => void load(nextBefore)} data-testid="checkpoints-more">
          Older checkpoints
        </button>
      ) : null}
      {selected && !state && !error ? <p className="muted small">Loading the state…</p> : null}
      {state ? <CheckpointStateView state={state} canFork={canFork} onFork={() => void fork(state.checkpointId)} forking={forking} forkError={forkError} /> : null}
    </section>
  );
}
