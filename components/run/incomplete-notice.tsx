import type { RunDataTypes } from "@/lib/events/ui-parts";
import { STEP_STATUS_LABEL } from "@/lib/run-status";
import styles from "./incomplete-notice.module.css";

type StepView = RunDataTypes["plan"]["steps"][number];

/** Step statuses that mean the work was not done, in the order the notice counts them. */
const NOT_DONE = ["blocked", "rejected", "failed", "skipped"] as const;

/**
 * Says, above the timeline, that an incomplete run finished without doing everything:
 * how many steps were done and how many were blocked, rejected, failed or skipped, each with
 * why (docs/runs.md "Status vocabulary"). The answer below repeats the list in words.
 */
export function IncompleteNotice({ steps }: { steps: StepView[] }) {
  const done = steps.filter((s) => s.status === "completed").length;
  const missed = steps.filter((s) => (NOT_DONE as readonly string[]).includes(s.status));
  const counts = NOT_DONE.map((k) => [k, missed.filter((s) => s.status === k).length] as const).filter(([, n]) => n > 0);
  return (
    <section className={`card small ${styles.notice}`} aria-label="What was not done" data-testid="run-incomplete">
      <strong>
        Not everything was done: {done} of {steps.length} step{steps.length === 1 ? "" : "s"} done
        {counts.map(([k, n]) => `, ${n} ${STEP_STATUS_LABEL[k]?.toLowerCase()}`).join("")}.
      </strong>
      <ul>
        {missed.map((s) => (
          <li key={s.id} data-testid="not-done" data-status={s.status}>
            Step {s.index + 1} “{s.task}”: {STEP_STATUS_LABEL[s.status]?.toLowerCase()}
            {s.error ? ` (${s.error})` : ""}
          </li>
        ))}
      </ul>
    </section>
  );
}
