"use client";
import { FlowOptions } from "@/components/ui/flow-options";
import { usePathname, useRouter } from "next/navigation";
import type { InboxFilters as Filters, InboxFlow } from "@/lib/approvals/inbox-item";

const RISKS = ["low", "medium", "high", "critical"] as const;
const STATUSES = [
  ["pending", "Pending (waiting for a decision)"],
  ["approved", "Approved"],
  ["rejected", "Rejected"],
  ["consumed", "Done (approved and run)"],
  ["expired", "Expired"],
  ["all", "All"],
] as const;

/**
 * The inbox's filters as URL search params: flow, risk, status and sort by
 * expiry. Changing one navigates to the same page with the new params; the server
 * renders the filtered list. Default values leave the URL clean.
 */
export function InboxFilters({ filters, flows }: { filters: Filters; flows: InboxFlow[] }) {
  const router = useRouter();
  const pathname = usePathname();
  const set = (key: keyof Filters, value: string) => {
    const next = new URLSearchParams();
    const merged: Record<string, string | undefined> = { ...filters, [key]: value };
    const defaults: Record<string, string> = { status: "pending", sort: "expiry" };
    for (const [k, v] of Object.entries(merged)) if (v && v !== defaults[k]) next.set(k, v);
    const qs = next.toString();
    router.push(qs ? `${pathname}?${qs}` : pathname);
  };
  return (
    <form className="inbox-filters row gap wrap" aria-label="Filter approvals" onSubmit={(e) => e.preventDefault()}>
      <label>
        <span className="small">Flow</span>
        <select value={filters.flowId ?? ""} onChange={(e) => set("flowId", e.target.value)} data-testid="inbox-filter-flow">
          <option value="">All flows</option>
          <FlowOptions flows={flows} />
          {filters.flowId && !flows.some((f) => f.id === filters.flowId) ? <option value={filters.flowId}>(a flow with no approvals)</option> : null}
        </select>
      </label>
      <label>
        <span className="small">Risk</span>
        <select value={filters.risk ?? ""} onChange={(e) => set("risk", e.target.value)} data-testid="inbox-filter-risk">
          <option value="">Any risk</option>
          {RISKS.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span className="small">Status</span>
        <select value={filters.status} onChange={(e) => set("status", e.target.value)} data-testid="inbox-filter-status">
          {STATUSES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span className="small">Sort</span>
        <select value={filters.sort} onChange={(e) => set("sort", e.target.value)} data-testid="inbox-sort">
          <option value="expiry">Expires soonest first</option>
          <option value="-expiry">Expires latest first</option>
        </select>
      </label>
    </form>
  );
}
