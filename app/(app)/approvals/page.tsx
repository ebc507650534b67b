import type { Metadata } from "next";
import Link from "next/link";
import { DecisionNotice } from "@/components/approvals/decision-notice";
import { InboxCard } from "@/components/approvals/inbox-card";
import { InboxEmpty } from "@/components/approvals/inbox-empty";
import { InboxFilters as FilterBar } from "@/components/approvals/inbox-filters";
import { LiveRefresh } from "@/components/approvals/live-refresh";
import { INBOX_LIMIT, inboxFlows, listApprovals } from "@/lib/approvals/inbox";
import { InboxFilters } from "@/lib/approvals/inbox-item";
import { db } from "@/lib/db/client";
import { requireUser } from "@/lib/http/with-user";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Approvals" };

type SearchParams = Record<string, string | string[] | undefined>;

/** The last value of each search param. */
function lastValues(params: SearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) {
    const last = Array.isArray(v) ? v.at(-1) : v;
    if (last !== undefined) out[k] = last;
  }
  return out;
}

/**
 * The approval inbox (docs/architecture.md#approvals): approvals of every workspace the user belongs
 * to, filtered by flow, risk and status (URL search params; default: pending), sorted by
 * expiry, each decidable in place; a link opens the detail view. The list follows
 * `/api/approvals/events` and refreshes itself when approvals appear or are decided.
 */
export default async function ApprovalsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requireUser();
  const parsed = InboxFilters.safeParse(lastValues(await searchParams));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return (
      <main className="wide">
        <h1>Approvals</h1>
        <p className="card error" role="alert" data-testid="inbox-filter-error">
          {issue ? `${issue.path.join(".")}: ${issue.message}` : "These filters are not valid."} <Link href="/approvals">Show pending approvals</Link>
        </p>
      </main>
    );
  }
  const filters = parsed.data;
  const [items, flows] = await Promise.all([listApprovals(db(), user.id, filters), inboxFlows(db(), user.id)]);
  const flowName = flows.find((f) => f.id === filters.flowId)?.name ?? null;
  return (
    <main className="wide">
      <LiveRefresh />
      <div className="row">
        <h1>Approvals</h1>
        <span className="small muted" data-testid="inbox-count">
          {items.length === INBOX_LIMIT ? `the first ${INBOX_LIMIT}` : items.length} {filters.status === "all" ? "" : `${filters.status} `}· sorted by expiry,{" "}
          {filters.sort === "expiry" ? "soonest first" : "latest first"}
        </span>
      </div>
      <FilterBar filters={filters} flows={flows} />
      <DecisionNotice />
      {items.length === 0 ? (
        <InboxEmpty filters={filters} flowName={flowName} />
      ) : (
        <ul className="inbox-list" data-testid="inbox">
          {items.map((item) => (
            <li key={item.approvalId}>
              <InboxCard item={item} />
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
