"use client";
import type { FactView } from "@/lib/memory/types";
import styles from "./memory.module.css";
import { ProposedFactItem } from "./proposed-fact-item";

/** What "Propose facts" did, in words: proposed for a decision, or accepted at once by the flow's setting (then `factId` is the first, to link to). */
export function promotedOutcome(facts: FactView[]): { text: string; factId?: string } {
  if (facts.length === 0) return { text: "Nothing new to propose: every result of this thread is already proposed below or in memory." };
  const n = facts.length;
  const s = n === 1 ? "" : "s";
  if (facts.every((f) => f.status === "accepted")) {
    return { text: `Accepted ${n} fact${s} at once (this flow auto-promotes); agents of this workspace now get ${n === 1 ? "it" : "them"}.`, factId: facts[0]?.id };
  }
  return { text: `Proposed ${n} fact${s}. Accept the ones worth keeping; the rest can be dismissed.` };
}

/**
 * The Memory tab's proposed facts (docs/architecture.md#memory): the facts from this thread
 * waiting for a decision, with "Propose facts" to look at the thread again once it has
 * `finished`, and what the flow's `autoPromote` setting does. `readOnly` says why this user may
 * not decide; `proposing` marks Propose running, `disabled` any memory action.
 */
export function ProposedFacts({
  facts,
  finished,
  autoPromote,
  readOnly,
  proposing,
  disabled,
  onPropose,
  onAccept,
  onDismiss,
}: {
  facts: FactView[];
  finished: boolean;
  autoPromote: boolean;
  readOnly: string | undefined;
  proposing: boolean;
  disabled: boolean;
  onPropose: () => void;
  onAccept: (fact: FactView) => void;
  onDismiss: (fact: FactView) => void;
}) {
  return (
    <div className={styles.section} data-testid="proposed-facts">
      <div className="row">
        <h3>Proposed facts</h3>
        <button
          type="button"
          onClick={onPropose}
          disabled={readOnly !== undefined || !finished || disabled}
          title={readOnly ?? (finished ? undefined : "Propose facts once the run has finished.")}
          data-testid="thread-promote"
        >
          {proposing ? "Proposing…" : "Propose facts"}
        </button>
      </div>
      <p className="small muted">
        {finished
          ? "When a run completes, its steps' results are proposed as facts for the workspace's long-term memory; Propose facts looks at the thread again. Accepted facts reach every later run; dismissed ones are forgotten."
          : "When the run completes, its steps' results are proposed here as facts for the workspace's long-term memory."}
        {autoPromote ? " This flow auto-promotes: the facts it finds are accepted without asking (a flow setting)." : ""}
      </p>
      {facts.length === 0 ? (
        <p className="small muted" data-testid="proposed-empty">
          No facts from this thread wait for a decision.
        </p>
      ) : (
        <ul className={styles.list}>
          {facts.map((f) => (
            <ProposedFactItem key={f.id} fact={f} readOnly={readOnly} disabled={disabled} onAccept={() => onAccept(f)} onDismiss={() => onDismiss(f)} />
          ))}
        </ul>
      )}
    </div>
  );
}
