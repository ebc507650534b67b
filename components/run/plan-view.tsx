"use client";
import { Ban, Circle, CircleCheck, CircleMinus, CircleX, LoaderCircle, type LucideIcon } from "lucide-react";
import type { RunDataTypes } from "@/lib/events/ui-parts";
import { STEP_STATUS_LABEL, statusLabel } from "@/lib/run-status";

/** A step's status as an icon (the status is also in the step's badge and data-status). */
const ICON: Record<string, LucideIcon> = { pending: Circle, in_progress: LoaderCircle, completed: CircleCheck, failed: CircleX, skipped: CircleMinus, blocked: Ban, rejected: CircleX };
type StepView = RunDataTypes["plan"]["steps"][number];

/** Steps grouped by depth of their dependencies: each group's steps can run side by side. */
function waves(steps: StepView[]): StepView[][] {
  const depth = new Map<string, number>();
  const byId = new Map(steps.map((s) => [s.id, s]));
  const of = (s: StepView, seen: Set<string> = new Set()): number => {
    const known = depth.get(s.id);
    if (known !== undefined) return known;
    if (seen.has(s.id)) return 0;
    seen.add(s.id);
    const deps = (s.dependsOn ?? []).map((d) => byId.get(d)).filter((d): d is StepView => Boolean(d));
    const d = deps.length === 0 ? 0 : 1 + Math.max(...deps.map((x) => of(x, seen)));
    depth.set(s.id, d);
    return d;
  };
  const out: StepView[][] = [];
  for (const s of steps) {
    const d = of(s);
    out[d] = [...(out[d] ?? []), s];
  }
  return out.filter(Boolean);
}

/**
 * The plan (docs/architecture.md#state-and-channels): steps in waves by dependency; steps in one wave run side by side
 * (parallel branches), each with its status, agent, tries and error.
 */
export function PlanView({ plan }: { plan: RunDataTypes["plan"] }) {
  return (
    <section className="card plan" data-testid="plan" data-status={plan.status}>
      <h2>
        Plan <span className={`badge status-${plan.status}`}>{statusLabel(plan.status === "executing" ? "running" : plan.status)}</span>
      </h2>
      <ol className="waves">
        {waves(plan.steps).map((wave) => (
          <li key={wave[0]?.id} className="wave" data-testid="plan-wave" data-size={wave.length}>
            {wave.map((s) => {
              const Icon = ICON[s.status] ?? Circle;
              return (
                <div key={s.id} className={`step status-${s.status}`} data-testid="plan-step" data-status={s.status}>
                  <Icon className="icon step-icon" size="1em" /> <strong>{s.task}</strong>{" "}
                  {s.status === "blocked" || s.status === "rejected" || s.status === "skipped" ? <span className={`badge status-${s.status}`}>{STEP_STATUS_LABEL[s.status]}</span> : null}
                  <div className="muted small">
                    {s.agentName}
                    {s.tries > 1 ? ` · try ${s.tries}` : ""}
                  </div>
                  {s.error ? <div className="error small">{s.error}</div> : null}
                </div>
              );
            })}
          </li>
        ))}
      </ol>
    </section>
  );
}
