"use client";
import { LoaderCircle } from "lucide-react";
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useRef, useState } from "react";
import { ApprovalAnnouncer } from "@/components/approvals/announcer";
import { decisionInput } from "@/components/approvals/post-decision";
import { type OutcomeRecordView, outcomeCardStatus } from "@/lib/engine/outcome-card-status";
import { describeCall } from "@/lib/engine/outcomes";
import type { RunDataTypes, RunUIMessage } from "@/lib/events/ui-parts";
import type { AgentIdentity } from "./agent-badge";
import { type ApprovalDecision, ApprovalCard } from "./approval-card";
import { STATUS_MEANING, statusLabel } from "@/lib/run-status";
import { IncompleteNotice } from "./incomplete-notice";
import { OutcomeCard, type OutcomeChoice } from "./outcome-card";
import { PlanView } from "./plan-view";
import { overTaskLimit, TaskLimit } from "./task-limit";
import { Timeline, type TimelineItem } from "./timeline";
import { useFollowRuns } from "./use-follow-runs";
import { useOptimisticCards } from "./use-optimistic-cards";
import { useRunChat } from "./use-run-chat";
import { choiceErrorText, decisionLabel, errorText } from "./run-view-text";
import { timeline } from "./timeline-items";
import { WorkspacePanel } from "./workspace-panel";

type Input = { kind: "continue" } | { kind: "message"; text: string; agentId?: string } | ReturnType<typeof decisionInput> | { kind: "outcome"; toolCallId: string; choice: OutcomeChoice };

/** An approval's stored status and how it was decided (approve | edit | respond | reject | ignore | expired). */
export interface ApprovalState {
  status: string;
  decision: string | null;
}

/**
 * The run view (issue 2 item 7): streams runs through the AI SDK's `useChat` with typed
 * data parts, shows the plan, steps, handoffs, tool calls, approval cards and the final
 * answer, and sends messages and approval decisions (approve, edit, respond, reject,
 * ignore; issue 4) to `POST /api/threads/:id/stream`, and on each step the memory injected
 * into its agent's context (issue 6). Only the thread's own user sends
 * messages (`canMessage`); roles that cannot decide see the cards' buttons disabled.
 * Runs it did not start are followed live (`GET /api/threads/:id/stream`): the one under way
 * when the page loads, and each one announced by the thread's events (use-follow-runs.ts).
 */
export function RunView({
  threadId,
  initialMessages,
  initialStatus,
  followRunId = null,
  approvals,
  outcomes = {},
  autoStartTask,
  agents,
  initialAgent,
  interrupted,
  canDecide,
  canMessage,
  requestedBy,
  forked = false,
  workspaceId,
}: {
  threadId: string;
  initialMessages: RunUIMessage[];
  initialStatus: string;
  /** The run under way when the page was rendered (queued or running), which the view follows by id; null when none. */
  followRunId?: string | null;
  /** Stored state of the thread's approvals, by id (status with expiry applied). */
  approvals: Record<string, ApprovalState>;
  /** The execution records of the thread's side-effecting calls, by tool call id (status and attempt), for the unknown-outcome cards. */
  outcomes?: Record<string, OutcomeRecordView>;
  autoStartTask: string | null;
  /** The flow's agents, for directed mode (SPEC.md 1) and the identity badges. */
  agents: AgentIdentity[];
  /** The agent picked when the run was started, or null for autonomous mode. */
  initialAgent: string | null;
  /** The thread's last run stopped between two steps (the server went away). */
  interrupted: boolean;
  /** The user's role may decide approvals (owner, approver). */
  canDecide: boolean;
  /** The user started this thread: only they send messages and continue runs. */
  canMessage: boolean;
  /** Email of the user who started the thread. */
  requestedBy: string;
  /** The thread is a fork (issue 5): "interrupted" reads as "ready to continue from the copied checkpoint". */
  forked?: boolean;
  /** The thread's workspace, for links to its memory page from "Memory injected". */
  workspaceId?: string;
}) {
  // A page loaded while a run is under way follows it (replayed from its first event, it
  // replaces the run's message rendered from the stored events). An interrupted run is
  // not followed: nothing runs it any more, the view offers to continue it instead.
  const chat = useRunChat<Input>(threadId, initialMessages, initialStatus === "running" && !interrupted, followRunId);
  const { messages, sendMessage, error, clearError, stepText, busy } = chat;
  const [choiceError, setChoiceError] = useState<{ toolCallId: string; message: string } | null>(null);
  // A refused decision (403, 409, 410, 422) leaves its card pending, so it can be decided again.
  const decisions = useOptimisticCards<ApprovalState>(error);
  // A refused choice (403, 409) leaves its card pending, with the server's message on it.
  const choices = useOptimisticCards<OutcomeChoice>(error, (toolCallId, err) => setChoiceError({ toolCallId, message: choiceErrorText(err) }));
  const [draft, setDraft] = useState("");
  const [agentId, setAgentId] = useState<string>(initialAgent ?? "");
  const started = useRef(false);
  const router = useRouter();
  const wasBusy = useRef(false);

  const send = (text: string, input: Input) => {
    clearError();
    setChoiceError(null);
    void sendMessage({ text }, { body: { input } });
  };

  // Sends the thread's task once, when the view opens on a thread that never ran.
  // biome-ignore lint/correctness/useExhaustiveDependencies: run once on mount; `send` changes every render
  useEffect(() => {
    if (autoStartTask && !started.current) {
      started.current = true;
      send(autoStartTask, { kind: "message", text: autoStartTask, ...(agentId ? { agentId } : {}) });
    }
  }, [autoStartTask]);

  const lastRunId = useFollowRuns(threadId, chat);

  // When a run stops, refresh the server parts of the page (e.g. the approvals badge).
  useEffect(() => {
    if (wasBusy.current && !busy) router.refresh();
    wasBusy.current = busy;
  }, [busy, router]);

  const items = timeline(messages);
  const agentsById = useMemo(() => Object.fromEntries(agents.map((a) => [a.id, a])), [agents]);
  const runs = items.filter((i): i is Extract<TimelineItem, { kind: "data-run" }> => i.kind === "data-run");
  const lastRun = runs.at(-1)?.data;
  lastRunId.current = lastRun?.runId ?? null;
  const [initialRuns] = useState(() => runs.length);
  const stopped = interrupted && runs.length === initialRuns;
  const runStatus = busy ? "running" : stopped ? (forked && initialRuns === 0 ? "ready" : "interrupted") : (lastRun?.status ?? initialStatus);
  const plan = items.filter((i): i is Extract<TimelineItem, { kind: "data-plan" }> => i.kind === "data-plan").at(-1)?.data;
  const model = runs.find((r) => r.data.model)?.data.model ?? null;
  const tokens = runs.reduce((sum, r) => ({ in: sum.in + (r.data.usage?.inputTokens ?? 0), out: sum.out + (r.data.usage?.outputTokens ?? 0) }), { in: 0, out: 0 });
  const tools = new Map(items.filter((i): i is Extract<TimelineItem, { kind: "data-tool" }> => i.kind === "data-tool").map((i) => [i.data.toolCallId, i.data]));

  const approvalState = (a: RunDataTypes["approval"]): ApprovalState => {
    const known = decisions.marked[a.approvalId] ?? approvals[a.approvalId];
    const decision = known?.decision ?? null;
    const tool = tools.get(a.toolCallId);
    if (tool && (tool.status === "running" || tool.status === "done")) return { status: "consumed", decision };
    if (tool?.status === "rejected") return { status: "rejected", decision };
    return known ?? { status: a.status, decision: null };
  };

  const decide = (a: RunDataTypes["approval"], d: ApprovalDecision) => {
    decisions.mark(a.approvalId, { status: d.decision === "approve" || d.decision === "edit" ? "approved" : "rejected", decision: d.decision });
    send(decisionLabel(a, d), decisionInput(a, d));
  };

  const choose = (o: RunDataTypes["outcome"], choice: OutcomeChoice) => {
    choices.mark(o.toolCallId, choice);
    const call = describeCall(o.tool, o.args);
    send(choice === "retry" ? `Run ${call} again` : choice === "skip" ? `Skip ${call}` : `It happened: continue after ${call}`, { kind: "outcome", toolCallId: o.toolCallId, choice });
  };

  const workspaceVersion = `${runs.length}-${runStatus}`;

  return (
    <div className="run-layout">
      <div className="run-main">
        <div className="run-header card" data-testid="run-header">
          <span className={`badge status-${runStatus}`} data-testid="run-status" data-status={runStatus} title={STATUS_MEANING[runStatus]}>
            {runStatus === "running" ? "Running…" : statusLabel(runStatus)}
          </span>
          {model ? (
            <span className="small muted" data-testid="model-badge">
              {model.offline ? "Offline model (deterministic, no provider configured)" : `${model.provider} · ${model.modelId}`}
            </span>
          ) : null}
          {tokens.in + tokens.out > 0 ? (
            <span className="small muted" data-testid="run-tokens">
              tokens in {tokens.in.toLocaleString("en")} · out {tokens.out.toLocaleString("en")}
            </span>
          ) : null}
        </div>
        {lastRun?.error && !busy ? (
          <div className="card error small" role="alert" data-testid="run-error" data-code={lastRun.error.code}>
            <div>
              <code data-testid="error-code">{lastRun.error.code}</code> {lastRun.error.message}
            </div>
            {lastRun.error.severity ? (
              <div className="muted" data-testid="error-structured">
                severity <strong data-testid="error-severity">{lastRun.error.severity}</strong> · <span data-testid="error-retryable">{lastRun.error.retryable ? "retryable" : "not retryable"}</span> ·
                suggested action <strong data-testid="error-action">{lastRun.error.suggested_action}</strong>
              </div>
            ) : null}
          </div>
        ) : null}
        {runStatus === "incomplete" && plan ? <IncompleteNotice steps={plan.steps} /> : null}
        {runStatus === "cancelled" ? (
          <p className="card muted" data-testid="run-cancelled">
            This run was cancelled: an approver ignored its request, so the tool did not run and nothing after it ran either.
            {canMessage ? " Give the flow another task below to start again." : ""}
          </p>
        ) : null}
        {stopped && !busy && canMessage && forked && initialRuns === 0 ? (
          <div className="card row" data-testid="fork-ready">
            <span>Nothing has run on this fork yet. Continue runs the flow from the copied checkpoint, in this thread only; or give it a new task below.</span>
            <button type="button" onClick={() => send("Continue from the fork's checkpoint", { kind: "continue" })} data-testid="continue-run">
              Continue from the checkpoint
            </button>
          </div>
        ) : stopped && !busy && canMessage ? (
          <div className="card row" data-testid="interrupted">
            <span>This run stopped before it finished (the server went away). Every step up to then is saved.</span>
            <button type="button" onClick={() => send("Continue", { kind: "continue" })} data-testid="continue-run">
              Continue from the last checkpoint
            </button>
          </div>
        ) : null}
        <ApprovalAnnouncer />
        {plan ? <PlanView plan={plan} /> : null}
        <Timeline
          threadId={threadId}
          items={items}
          stepText={stepText}
          agents={agentsById}
          workspaceId={workspaceId}
          renderApproval={(a) => {
            const state = approvalState(a);
            return <ApprovalCard approval={a} status={state.status} decision={state.decision} busy={busy} canDecide={canDecide} onDecide={(d) => decide(a, d)} reveal />;
          }}
          renderOutcome={(o) => (
            <OutcomeCard
              outcome={o}
              status={outcomeCardStatus(o, tools.get(o.toolCallId), outcomes[o.toolCallId], choices.marked[o.toolCallId])}
              busy={busy}
              canDecide={canDecide}
              onChoose={(c) => choose(o, c)}
              error={choiceError?.toolCallId === o.toolCallId ? choiceError.message : null}
            />
          )}
        />
        {busy ? (
          <p className="muted small" data-testid="streaming">
            <LoaderCircle className="icon spin" size="1em" /> Working…
          </p>
        ) : null}
        {error && !choiceError ? (
          <p className="error card" role="alert" data-testid="run-request-error">
            {errorText(error)}
          </p>
        ) : null}
        {canMessage ? (
          <form
            className="composer"
            onSubmit={(e) => {
              e.preventDefault();
              const text = draft.trim();
              if (!text || overTaskLimit(text)) return;
              setDraft("");
              send(text, { kind: "message", text, ...(agentId ? { agentId } : {}) });
            }}
          >
            <label htmlFor="composer-agent" className="sr-only">
              Who works on it
            </label>
            <select
              id="composer-agent"
              value={agentId}
              onChange={(e) => setAgentId(e.target.value)}
              data-testid="composer-agent"
              title="Autonomous: the supervisor plans and delegates. Directed: one agent does the task."
            >
              <option value="">Supervisor plans</option>
              {agents.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name} only
                </option>
              ))}
            </select>
            <label htmlFor="composer-input" className="sr-only">
              Message
            </label>
            <input
              id="composer-input"
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              placeholder={
                runStatus === "awaiting_approval"
                  ? "Decide on the card above, or type APPROVE <id> <token> / REJECT <id>"
                  : runStatus === "awaiting_input"
                    ? "Answer the question above to go on…"
                    : runStatus === "cancelled"
                      ? "The run was cancelled. Give the flow another task…"
                      : "Give the flow another task…"
              }
              disabled={busy}
              data-testid="composer-input"
              aria-invalid={overTaskLimit(draft)}
            />
            <button type="submit" disabled={busy || !draft.trim() || overTaskLimit(draft)} data-testid="composer-send">
              Send
            </button>
            <TaskLimit text={draft} field="message" testId="composer-limit" />
          </form>
        ) : (
          <p className="composer muted small" data-testid="composer-readonly">
            Only {requestedBy}, who started this thread, can send it messages. You can follow the run{canDecide ? " and decide its approvals" : ""}.
          </p>
        )}
      </div>
      <WorkspacePanel threadId={threadId} version={workspaceVersion} />
    </div>
  );
}
