"use client";
import type { RunDataTypes } from "@/lib/engine/ui-parts";

const ICON: Record<string, string> = { pending: "○", in_progress: "◐", completed: "●", failed: "✕", skipped: "–" };

/** The plan and every step's status, agent and result (SPEC.md 3). */
export function PlanView({ plan }: { plan: RunDataTypes["plan"] }) {
  return (
    <section className="card plan" data-testid="plan" data-status={plan.status}>
      <h2>
        Plan <span className={`badge status-${plan.status}`}>{plan.status}</span>
      </h2>
      <ol>
        {plan.steps.map((s) => (
          <li key={s.id} className={`step status-${s.status}`} data-testid="plan-step" data-status={s.status}>
            <span aria-hidden>{ICON[s.status] ?? "○"}</span> <strong>{s.task}</strong> <span className="muted small">· {s.agentName}</span>
            {s.tries > 1 ? <span className="muted small"> · try {s.tries}</span> : null}
            {s.error ? <div className="error small">{s.error}</div> : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
