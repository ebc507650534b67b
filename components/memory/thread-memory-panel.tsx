"use client";
import { FINISHED_STATUSES } from "@/lib/run-status";
import { useCallback, useEffect, useState } from "react";
import type { AgentIdentity } from "@/components/run/agent-badge";
import type { ThreadMemory } from "@/lib/memory/thread-memory";
import type { FactView } from "@/lib/memory/types";
import { notify } from "@/components/ui/notify";
import { callApi } from "./api";
import { ClearMemoryDialog } from "./clear-memory-dialog";
import { DismissFactDialog } from "./dismiss-fact-dialog";
import { promotedOutcome, ProposedFacts } from "./proposed-facts";
import { ShortTermMemory } from "./short-term-memory";
import { type MemoryOutcome, ThreadMemoryNotices } from "./thread-memory-notices";
import { ThreadSummary } from "./thread-summary";

/** The flow's memory settings (docs/architecture.md#memory) as the Memory tab explains them. */
export interface FlowMemorySettings {
  /** Memory is injected into agents' contexts and runs append short-term entries. */
  enabled: boolean;
  /** Facts that promote(thread) finds are accepted without asking. */
  autoPromote: boolean;
  /** How long short-term entries live, hours. */
  shortTermTtlHours: number;
}

/** Thread statuses after which promote(thread) may propose facts. */
const FINISHED = new Set(FINISHED_STATUSES);

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
 * change memory (viewers) see the buttons disabled with the reason. This component holds the
 * state and the calls; each section and dialog is its own component.
 */
export function ThreadMemoryPanel({ threadId, workspaceId, threadStatus, agents, canEdit, canErase, canSummarize, settings }: ThreadMemoryProps & { threadId: string }) {
  const [data, setData] = useState<ThreadMemory | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<MemoryOutcome | null>(null);
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
  async function act<T>(name: string, method: "POST" | "DELETE", url: string, done: (body: T) => MemoryOutcome) {
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

  const readOnly = canEdit ? undefined : "Your role in this workspace is viewer: it can read this thread's memory but not propose, accept or dismiss facts.";
  const eraseReason = canErase ? undefined : "Only the user who started this thread or a workspace owner can clear its short-term memory.";
  const summarizeReason = canSummarize ? undefined : "Only the user who started this thread, owners and approvers can summarize it.";
  const acting = busy !== null;

  return (
    <section className="card" data-testid="thread-memory">
      <div className="row">
        <h2>Memory</h2>
        <button type="button" className="secondary" onClick={() => void load()} data-testid="thread-memory-refresh">
          Refresh
        </button>
      </div>
      <ThreadMemoryNotices enabled={settings.enabled} reasons={[readOnly, summarizeReason, eraseReason]} error={dismissing ? null : error} notice={notice} workspaceId={workspaceId} />
      {data === null ? (
        error ? null : (
          <p className="muted small">Loading…</p>
        )
      ) : (
        <>
          <ShortTermMemory entries={data.entries} hours={settings.shortTermTtlHours} agents={agents} eraseReason={eraseReason} disabled={acting} onClear={() => setClearing(true)} />
          <ThreadSummary
            summary={data.summary}
            summarizeReason={summarizeReason}
            summarizing={busy === "summarize"}
            disabled={acting}
            onSummarize={() => void act<{ summary: unknown }>("summarize", "POST", `/api/threads/${threadId}/memory/summarize`, () => ({ text: "Summary written." }))}
          />
          <ProposedFacts
            facts={data.proposed}
            finished={FINISHED.has(threadStatus)}
            autoPromote={settings.autoPromote}
            readOnly={readOnly}
            proposing={busy === "promote"}
            disabled={acting}
            onPropose={() => void act<{ facts: FactView[] }>("promote", "POST", `/api/threads/${threadId}/memory/promote`, (b) => promotedOutcome(b.facts))}
            onAccept={(f) =>
              void act<{ fact: FactView }>("accept", "POST", `/api/memory/facts/${f.id}/accept`, () => ({
                text: "Fact accepted: agents of this workspace now get it when it is relevant.",
                factId: f.id,
              }))
            }
            onDismiss={setDismissing}
          />
        </>
      )}
      <DismissFactDialog
        fact={dismissing}
        busy={busy === "dismiss"}
        error={error}
        onConfirm={(f) =>
          void act<{ removed: number }>("dismiss", "DELETE", `/api/memory/facts/${f.id}`, (b) => ({
            text: b.removed > 1 ? `Dismissed: ${b.removed} facts from the same step were forgotten.` : "Dismissed: the proposal was forgotten.",
          })).then((ok) => {
            if (ok) setDismissing(null);
          })
        }
        onCancel={() => {
          setDismissing(null);
          setError(null);
        }}
      />
      <ClearMemoryDialog
        open={clearing}
        entries={data?.entries.length ?? 0}
        busy={busy === "clear"}
        error={clearError}
        onConfirm={() => void clear()}
        onCancel={() => {
          setClearing(false);
          setClearError(null);
        }}
      />
    </section>
  );
}
