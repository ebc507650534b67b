import Link from "next/link";
import type { InboxFilters } from "@/lib/approvals/inbox-item";

const WORD: Record<InboxFilters["status"], string> = {
  pending: "pending",
  approved: "approved",
  rejected: "rejected",
  consumed: "done (approved and run)",
  expired: "expired",
  all: "",
};

/**
 * The inbox's empty state, one per filter: says what the filters are, why
 * nothing matches, and what to do next (clear a filter, look at another status, or start
 * a run that asks for approval).
 */
export function InboxEmpty({ filters, flowName }: { filters: InboxFilters /** Name of the filtered flow, if any. */; flowName: string | null }) {
  const narrowed = [filters.risk ? `with risk ${filters.risk}` : null, filters.flowId ? `in flow ${flowName ?? "(unknown)"}` : null].filter(Boolean).join(" ");
  const what = `${WORD[filters.status] ? `${WORD[filters.status]} ` : ""}approvals${narrowed ? ` ${narrowed}` : ""}`;
  let next: string;
  if (filters.status === "pending" && !narrowed) {
    next = "Nothing waits for your decision. When a run reaches a tool that needs approval, it appears here at once (no reload needed) and on the run's page.";
  } else if (filters.status === "pending") {
    next = `No ${what} wait for you. Choose ${filters.risk ? "“Any risk”" : ""}${filters.risk && filters.flowId ? " and " : ""}${filters.flowId ? "“All flows”" : ""} to see every pending approval.`;
  } else if (filters.status === "expired") {
    next = `No ${what}. An approval expires when nobody decides in time (15 minutes by default); its run is told and stops waiting.`;
  } else if (filters.status === "all") {
    next = `No ${what} yet. Run a flow whose policy asks for approval, e.g. the Workspace assistant with “Summarize notes.md into summary.md”.`;
  } else {
    next = `No ${what} yet. Decisions made here or on a run's card are listed under their status; pending ones are under “Pending”.`;
  }
  const filtered = filters.status !== "pending" || narrowed;
  return (
    <div className="card muted" data-testid="inbox-empty" data-status={filters.status} data-risk={filters.risk ?? ""}>
      <p>{next}</p>
      {filtered ? (
        <p className="small">
          <Link href="/approvals" data-testid="inbox-clear-filters">
            Show pending approvals of every flow
          </Link>
        </p>
      ) : null}
    </div>
  );
}
