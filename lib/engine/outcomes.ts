import { parseVerdict } from "../models/brief-review";
import type { Plan, PlanStep } from "./state";

/** Argument names that say what a call acts on, in the order they are looked for. */
const TARGET_KEYS = ["path", "file", "filename", "url", "name", "query", "key"] as const;

/** A target shown in a report is cut to this many chars. */
const TARGET_CHARS = 80;

/**
 * A call as a person reads it: the tool and what it acts on, e.g. `delete_file
 * release-notes.md` (the first of path, file, filename, url, name, query, key that is a
 * string; the tool alone otherwise).
 */
export function describeCall(tool: string, args: unknown): string {
  if (args && typeof args === "object") {
    const record = args as Record<string, unknown>;
    for (const key of TARGET_KEYS) {
      const value = record[key];
      if (typeof value === "string" && value.trim()) {
        const v = value.trim();
        return `${tool} ${v.length > TARGET_CHARS ? `${v.slice(0, TARGET_CHARS)}…` : v}`;
      }
    }
  }
  return tool;
}

/**
 * Error codes of tool refusals by the flow's configuration (docs/runs.md "Status
 * vocabulary"): the network is off, a host, port, method, scheme or credentials in the URL
 * are not allowed, a workspace secret is unknown, not allowed for the call's host or not in a
 * header (docs/secrets.md), a path resolves outside the workspace or is not permitted, reading back
 * an evicted output is off, or a tool wired in the flow is missing from the catalog
 * (`unknown_tool` from the gateway). Trying again cannot change them: only a person changing
 * the flow can, so the step is `blocked` at once, never retried or re-planned. A model that
 * names a tool its agent does not have never gets this far: that is a failed try, retried
 * (lib/engine/nodes/unknown-tool.ts; docs/runs.md "When the model misbehaves").
 */
export const CONFIG_REFUSALS: ReadonlySet<string> = new Set([
  "network_off",
  "unknown_secret",
  "secret_host_not_allowed",
  "secret_not_allowed_here",
  "secrets_unavailable",
  "host_not_allowed",
  "port_not_allowed",
  "method_not_allowed",
  "scheme_not_allowed",
  "userinfo_not_allowed",
  "sandbox_violation",
  "permission_denied",
  "rehydration_not_allowed",
  "unknown_tool",
]);

/** True when a tool result is a refusal by the flow's configuration ({@link CONFIG_REFUSALS}). */
export function isConfigRefusal(result: { status: string; metadata: Record<string, unknown> } | null | undefined): boolean {
  const code = result?.status === "error" ? result.metadata.code : undefined;
  return typeof code === "string" && CONFIG_REFUSALS.has(code);
}

/** Step statuses that mean the step's work was not done (docs/runs.md "Status vocabulary"). */
export const NOT_DONE: readonly PlanStep["status"][] = ["blocked", "rejected", "failed", "skipped"];

/** How a step that was not done reads in the run's report. */
const VERB: Partial<Record<PlanStep["status"], string>> = { blocked: "blocked", rejected: "rejected", failed: "failed", skipped: "skipped" };

/**
 * The run's account of what it did not do, one line per step that was blocked, rejected,
 * failed or skipped, with why (the policy rule, the person, the error), e.g.
 * `- Step 1 "Delete release-notes.md" was blocked: delete_file release-notes.md was not done:
 * blocked by policy (File safety #4 …).`. Empty when every step was done.
 */
export function notDoneLines(plan: Plan): string[] {
  return plan.steps.filter((s) => NOT_DONE.includes(s.status)).map((s) => `- Step ${s.index + 1} "${s.task}" was ${VERB[s.status]}${s.error ? `: ${s.error}` : "."}`);
}

/**
 * The status a finished plan reports (docs/runs.md "Status vocabulary"): `completed` only
 * when every step was completed; `incomplete` when the plan ran to its end but some step was
 * blocked, rejected, skipped or failed for good.
 */
export function finishedPlanStatus(steps: PlanStep[]): "completed" | "incomplete" {
  return steps.every((s) => s.status === "completed") ? "completed" : "incomplete";
}

/**
 * A reviewing agent's verdict (lib/models/brief-review.ts `parseVerdict` reads the format):
 * a result whose first line is `Verdict: changes needed` asks the Supervisor to revise the
 * reviewed step; anything else is no objection (docs/runs.md "Reviews").
 */
export function reviewVerdict(result: string | null): "changes_needed" | "approved" {
  return parseVerdict(result ?? "")?.approved === false ? "changes_needed" : "approved";
}
