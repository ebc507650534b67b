import Link from "next/link";
import { LocalTime } from "@/components/ui/local-time";
import type { RunDataTypes } from "@/lib/events/ui-parts";

/** What a fork records about its origin (the `thread_forked` run event; lib/runs/fork-thread.ts). */
export interface ForkOrigin {
  fromThreadId: string;
  fromTitle: string;
  checkpointId: string;
  step: number;
  /** ISO-8601. */
  at: string;
  workspaceCopied: boolean;
  dropped: { stepId: string; tool: string | null; approvalId: string | null }[];
  messages: { role: string; content: string }[];
  plan: RunDataTypes["plan"] | null;
}

/**
 * The banner of a forked thread: "forked from thread X at checkpoint Y, step N",
 * linking back to the origin, what was copied (the state at that checkpoint; the workspace
 * files as they were when the fork was made), calls whose approval stayed with the origin,
 * and the copied conversation and plan. `originVisible` is false when the origin is gone.
 */
export function ForkedFrom({ origin, originVisible }: { origin: ForkOrigin; originVisible: boolean }) {
  return (
    <section className="card" data-testid="forked-from" data-origin={origin.fromThreadId} data-checkpoint={origin.checkpointId}>
      <p>
        Forked from{" "}
        {originVisible ? (
          <Link href={`/threads/${origin.fromThreadId}`} data-testid="forked-from-link">
            {origin.fromTitle}
          </Link>
        ) : (
          <span data-testid="forked-from-gone">
            {origin.fromTitle} <span className="muted small">(no longer available)</span>
          </span>
        )}{" "}
        at checkpoint <code data-testid="forked-from-checkpoint">{origin.checkpointId}</code>, step <span data-testid="forked-from-step">{origin.step}</span>
        <span className="muted small">
          {" "}
          · <LocalTime at={origin.at} />
        </span>
      </p>
      <p className="muted small">
        The graph state is the one at that checkpoint.{" "}
        {origin.workspaceCopied
          ? "The workspace files were copied as they were when the fork was made, not as they were at that checkpoint."
          : "The origin had no workspace files yet; this fork starts with a fresh workspace."}
      </p>
      {origin.dropped.length > 0 ? (
        <p className="small" data-testid="forked-dropped">
          {origin.dropped.length === 1 ? "A call was" : `${origin.dropped.length} calls were`} waiting on the origin's approval ({origin.dropped.map((d) => d.tool ?? "a tool").join(", ")}). Approvals
          stay with their thread: when this fork continues, the agent proposes the call again and a new approval card asks for a decision here.
        </p>
      ) : null}
      {origin.plan ? (
        <div className="small" data-testid="forked-plan" data-status={origin.plan.status}>
          <strong>Plan at the checkpoint</strong> <span className={`badge status-${origin.plan.status}`}>{origin.plan.status}</span>
          <ol>
            {origin.plan.steps.map((s) => (
              <li key={s.id} data-testid="forked-plan-step" data-status={s.status}>
                {s.task} <span className="muted">· {s.agentName}</span> <span className={`badge status-${s.status}`}>{s.status.replace("_", " ")}</span>
              </li>
            ))}
          </ol>
        </div>
      ) : null}
      {origin.messages.length > 0 ? (
        <details open={origin.messages.length <= 6} data-testid="forked-messages">
          <summary className="small">
            Conversation copied from the origin ({origin.messages.length} message{origin.messages.length === 1 ? "" : "s"})
          </summary>
          <ol className="timeline">
            {origin.messages.map((m, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list, never reordered
              <li key={i} className={`bubble ${m.role === "user" ? "user" : "answer"}`} data-testid="forked-message" data-role={m.role}>
                {m.content}
              </li>
            ))}
          </ol>
        </details>
      ) : null}
    </section>
  );
}
