/**
 * The memory page's state in its URL: which workspace, the search, the status
 * filter, a tag, and one fact to show on its own (the run view links to it). Client-safe.
 */

/** Statuses the page filters on; "all" is the default and stays out of the URL. */
export const FACT_STATUSES = ["all", "accepted", "proposed"] as const;
export type FactStatusFilter = (typeof FACT_STATUSES)[number];

/** The memory page's search params, parsed. */
export interface MemoryQuery {
  workspace?: string;
  q?: string;
  status?: FactStatusFilter;
  tag?: string;
  fact?: string;
}

/**
 * The /memory URL for a query: defaults (status all, empty fields) are left out, so the
 * plain page is `/memory`.
 */
export function memoryHref(query: MemoryQuery): string {
  const params = new URLSearchParams();
  if (query.workspace) params.set("workspace", query.workspace);
  if (query.q) params.set("q", query.q);
  if (query.status && query.status !== "all") params.set("status", query.status);
  if (query.tag) params.set("tag", query.tag);
  if (query.fact) params.set("fact", query.fact);
  const qs = params.toString();
  return qs ? `/memory?${qs}` : "/memory";
}
