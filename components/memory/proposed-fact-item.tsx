"use client";
import type { FactView } from "@/lib/memory/types";
import styles from "./memory.module.css";

/**
 * One fact proposed from the thread (docs/architecture.md#memory): its content, the step it
 * came from and its tags, with Accept and Dismiss (which the panel confirms first).
 * `readOnly` says why this user may not decide (viewers); `disabled` is set while any memory
 * action runs.
 */
export function ProposedFactItem({
  fact: f,
  readOnly,
  disabled,
  onAccept,
  onDismiss,
}: {
  fact: FactView;
  readOnly: string | undefined;
  disabled: boolean;
  onAccept: () => void;
  onDismiss: () => void;
}) {
  return (
    <li className={`card ${styles.fact}`} data-status="proposed" data-testid="proposed-fact" data-fact-id={f.id}>
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
        <button type="button" onClick={onAccept} disabled={readOnly !== undefined || disabled} title={readOnly} data-testid="proposed-accept">
          Accept
        </button>
        <button type="button" className="secondary" onClick={onDismiss} disabled={readOnly !== undefined || disabled} title={readOnly} data-testid="proposed-dismiss">
          Dismiss
        </button>
      </div>
    </li>
  );
}
