import { InboxFilters } from "@/lib/approvals/inbox-item";

/**
 * GET query: the inbox filters `flowId`, `risk` (low|medium|high|critical), `status`
 * (pending|approved|rejected|expired|consumed|all, default pending) and `sort`
 * (expiry|-expiry). Empty values count as absent; bad ones are a 422 naming the field.
 */
export const Query = InboxFilters;

/** The query string of a request as a plain object (the last value of a repeated key wins). */
export function queryOf(req: Request): Record<string, string> {
  return Object.fromEntries(new URL(req.url).searchParams);
}
