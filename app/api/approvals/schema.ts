import { InboxFilters } from "@/lib/approvals/inbox-item";

/**
 * GET query: the inbox filters `flowId`, `risk` (low|medium|high|critical), `status`
 * (pending|approved|rejected|expired|consumed|all, default pending) and `sort`
 * (expiry|-expiry). Empty values count as absent; bad ones are a 422 naming the field.
 */
export const Query = InboxFilters;
