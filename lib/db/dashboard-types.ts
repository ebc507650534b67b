/**
 * The dashboard's row and totals shapes, without `server-only`, so the dashboard
 * components can name them; `lib/db/dashboard.ts` fills them.
 */

/** One dashboard row: a thread and the sums over its runs. Durations in ms, costs in USD. */
export interface DashboardRow {
  id: string;
  title: string;
  status: string;
  flow: { id: string; name: string };
  /** The flow version the thread runs (FlowVersion.version). */
  version: number;
  /** When the thread was created (its first run starts then). */
  startedAt: Date;
  /** Sum of the runs' endedAt - startedAt; a run still running counts until now; null without runs. */
  durationMs: number | null;
  /** True while one of its runs has no end yet. */
  running: boolean;
  /** Completed / all steps of the latest plan; null when the thread has no plan (conversation). */
  steps: { done: number; total: number } | null;
  tokens: { input: number; output: number };
  /** Estimated cost at list price (lib/models/pricing.ts); null when a run's price is unknown. */
  costUsd: number | null;
  /** Why the cost is unknown, for a tooltip; null when known. */
  priceNote: string | null;
  /** Model ids its runs used, in order of first use. */
  models: string[];
  /** Email of the user who started the thread. */
  startedBy: string;
}

/** Sums over every thread that matches the filters (all pages). Costs in USD. */
export interface DashboardTotals {
  threads: number;
  /** Run rows (a start and each resume are runs). */
  runs: number;
  tokens: { input: number; output: number };
  /** Estimated cost of all of them; null when some run's price is unknown. */
  costUsd: number | null;
  /** Estimated cost of the runs whose price is known. */
  pricedUsd: number;
  /** Runs that used tokens at an unknown price. */
  unpricedRuns: number;
}
