import { SearchX, Workflow } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import styles from "./dashboard.module.css";

/**
 * The dashboard's empty states, each pointing to the next action: no flows (make
 * one from a template: the buttons are passed in), no runs (write a task under a flow and
 * press Run), and filters that match nothing (clear them).
 */

/** No flows yet: the template buttons to start from. */
export function NoFlows({ children }: { children: ReactNode }) {
  return (
    <div className={`card ${styles.empty}`} data-testid="dashboard-empty-flows">
      <Workflow className="icon empty-icon" size={28} />
      <p>
        <strong>Create your first flow from a template.</strong> A flow is a team of agents, their tools and the policy that decides which tool calls need your approval; a template gives you one that
        runs as is.
      </p>
      <div className="row gap">{children}</div>
    </div>
  );
}

/** Flows but no runs yet (or no flows either: then the step before). */
export function NoRuns({ hasFlows }: { hasFlows: boolean }) {
  return (
    <p className={`card muted ${styles.empty}`} data-testid="threads-empty">
      <Workflow className="icon empty-icon" size={28} />
      {hasFlows
        ? "No runs yet. Write a task under a flow and press Run; each run appears here with its status, steps, tokens and cost."
        : "No runs yet. Create a flow from a template above, then write a task under it and press Run."}
    </p>
  );
}

/** Filters that match no run: what was asked and a link back to every run. */
export function NoMatch({ what }: { what: string }) {
  return (
    <div className={`card muted ${styles.empty}`} data-testid="dashboard-empty-filtered">
      <SearchX className="icon empty-icon" size={28} />
      <p>
        <strong>No runs match these filters</strong>
        {what ? ` (${what})` : ""}. Try another status or flow, or fewer words.
      </p>
      <p>
        <Link href="/flows" data-testid="dashboard-clear-filters">
          Clear filters
        </Link>
      </p>
    </div>
  );
}

/** Search params that were ignored, and why (a mistyped or outdated link). */
export function FilterNotes({ notes }: { notes: string[] }) {
  return (
    <div className={`small ${styles.note}`} aria-live="polite" data-testid="dashboard-filter-note">
      {notes.map((n) => (
        <p key={n}>{n}</p>
      ))}
    </div>
  );
}
