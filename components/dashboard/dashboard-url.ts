/**
 * The dashboard's filters as URL search params (shareable, survive a reload):
 * `/flows?status=failed&flow=<flowId>&q=<words>&cursor=<threadId>`. Default values are
 * left out so that the plain dashboard stays `/flows`.
 */

/** Filters as they appear in the URL, already validated by the page. */
export interface DashboardQuery {
  status?: string;
  flow?: string;
  q?: string;
  cursor?: string;
}

/** People's words for thread statuses: the one vocabulary of lib/run-status.ts. */
export { STATUS_LABEL } from "@/lib/run-status";

/** Status chips always shown, in order; the others appear only when some thread has them. */
export const CHIP_STATUSES = ["running", "awaiting_approval", "completed", "incomplete", "failed", "cancelled"] as const;
export const EXTRA_STATUSES = ["awaiting_input", "idle"] as const;

/** The dashboard URL for a set of filters (a new filter always starts at the first page). */
export function dashboardHref(query: DashboardQuery): string {
  const params = new URLSearchParams();
  for (const key of ["status", "flow", "q", "cursor"] as const) {
    const value = query[key]?.trim();
    if (value) params.set(key, value);
  }
  const qs = params.toString();
  return qs ? `/flows?${qs}` : "/flows";
}
