"use client";
import { useEffect, useRef } from "react";
import { announceApproval } from "@/components/approvals/announcer";
import styles from "@/components/approvals/approvals.module.css";
import { LocalTime } from "@/components/ui/local-time";
import { describeCall } from "@/lib/engine/outcomes";
import type { RunDataTypes } from "@/lib/events/ui-parts";

/** A person's choice on the card: run the call again, skip it, or confirm it happened. */
export type OutcomeChoice = "retry" | "skip" | "happened";

function json(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * The card of a side-effecting call whose outcome is unknown after a crash (docs/durability.md
 * "Side effects"): what is known in plain words (the call, when it started, that the server
 * stopped before its result was recorded), the exact arguments it ran with, and the three
 * choices: "It happened: continue" (the person confirms it took effect: the step goes on as
 * done), "Run it again" and "Skip it". The run is paused until one is made. Buttons are
 * disabled while a choice is being sent; a refused choice shows the server's message with
 * what to do. Roles that cannot decide (viewers) see the card with the buttons disabled and
 * a note. A pending card that appears is brought into view and announced in the page's
 * live region.
 */
export function OutcomeCard({
  outcome,
  status,
  busy,
  canDecide,
  onChoose,
  error = null,
}: {
  outcome: RunDataTypes["outcome"];
  /** pending | retry | skipped | happened (see lib/engine/outcome-card-status.ts). */
  status: RunDataTypes["outcome"]["status"];
  /** A request of the run view is under way (a choice, a message): the buttons wait. */
  busy: boolean;
  /** The user's role may choose (owner, approver); others see the card read-only. */
  canDecide: boolean;
  onChoose: (choice: OutcomeChoice) => void;
  /** Why the last choice sent from this card was refused, when it was. */
  error?: string | null;
}) {
  const ref = useRef<HTMLElement>(null);
  const call = describeCall(outcome.tool, outcome.args);
  const pending = status === "pending";
  // biome-ignore lint/correctness/useExhaustiveDependencies: on mount only; later renders of the same card must not scroll the page
  useEffect(() => {
    if (!pending) return;
    const smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    ref.current?.scrollIntoView({ block: "start", behavior: smooth ? "smooth" : "auto" });
    announceApproval(`A choice is needed: ${call} may or may not have happened before the server stopped. Did it happen, should it run again, or be skipped? The card is in view.`);
  }, []);
  const off = busy || !canDecide;
  const headingId = `outcome-${outcome.toolCallId}`;
  return (
    <section ref={ref} className={`approval card status-${status} ${styles.reveal}`} data-testid="outcome-card" data-tool-call-id={outcome.toolCallId} data-status={status} aria-labelledby={headingId}>
      <header className="row">
        <strong id={headingId}>
          {pending ? "Choice needed" : "Unknown outcome"}: <code data-testid="outcome-tool">{outcome.tool}</code>
        </strong>
        <span className={`badge status-${status}`} data-testid="outcome-status">
          {status === "pending" ? "waiting for a choice" : status === "retry" ? "run again" : status === "happened" ? "it happened" : "skipped"}
        </span>
      </header>
      <p data-testid="outcome-what">
        <code>{call}</code> started at <LocalTime at={outcome.startedAt} style="time" testId="outcome-started" />
        {outcome.attempt > 1 ? ` (attempt ${outcome.attempt})` : ""} but the server stopped before it finished; it may or may not have happened.
      </p>
      <div className="small">
        <span className="muted">Exact arguments</span>
        <pre className="args" data-testid="outcome-args">
          {json(outcome.args)}
        </pre>
      </div>
      <p className="small muted">
        sha256 <code data-testid="outcome-hash">{outcome.argsHash.slice(0, 16)}…</code> · call <code>{outcome.toolCallId}</code>
        {outcome.approvalId ? (
          <>
            {" "}
            · approval <code>{outcome.approvalId}</code>
          </>
        ) : null}
      </p>
      {pending ? (
        <>
          <p className="small muted">
            The run is paused until someone chooses. <strong>It happened: continue</strong> records that the call took effect (check first, e.g. at the receiver): it is not run again, and the step
            goes on as done. <strong>Run it again</strong> runs the call once more with these arguments (if it did happen, it happens twice). <strong>Skip it</strong> does not run it: the step is
            reported as not done, and steps that need it are skipped.
          </p>
          {!canDecide ? (
            <p className="small muted" data-testid="outcome-cannot-decide">
              Your role in this workspace lets you see this choice, not make it. Ask an owner or an approver.
            </p>
          ) : null}
          <div className="row gap wrap">
            <button type="button" disabled={off} onClick={() => onChoose("happened")} data-testid="outcome-happened">
              It happened: continue
            </button>
            <button type="button" className="secondary" disabled={off} onClick={() => onChoose("retry")} data-testid="outcome-retry">
              Run it again
            </button>
            <button type="button" className="secondary" disabled={off} onClick={() => onChoose("skip")} data-testid="outcome-skip">
              Skip it
            </button>
          </div>
        </>
      ) : (
        <p className="small" data-testid="outcome-chosen">
          {status === "retry"
            ? "Someone chose to run it again; the run goes on below."
            : status === "happened"
              ? "Someone confirmed it happened; it was not run again, and the run goes on below."
              : "Someone chose to skip it; the step is reported as not done."}
        </p>
      )}
      {error ? (
        <p className="error small" role="alert" data-testid="outcome-error">
          {error}
        </p>
      ) : null}
    </section>
  );
}
