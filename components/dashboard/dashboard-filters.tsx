"use client";
import { FlowOptions } from "@/components/ui/flow-options";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import styles from "./dashboard.module.css";
import { CHIP_STATUSES, type DashboardQuery, dashboardHref, EXTRA_STATUSES, STATUS_LABEL } from "./dashboard-url";

/** A flow the runs can be filtered by. */
export interface FilterFlow {
  id: string;
  name: string;
}

/**
 * The dashboard's filters: status chips with their counts, a flow select and a
 * search in the tasks. Each is a URL search param, so a filtered view can be shared and
 * survives a reload; changing one navigates and the server renders the list.
 */
export function DashboardFilters({ query, counts, flows }: { query: DashboardQuery; counts: Record<string, number>; flows: FilterFlow[] }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [q, setQ] = useState(query.q ?? "");
  const go = (next: DashboardQuery) => startTransition(() => router.push(dashboardHref(next)));
  const base = { flow: query.flow, q: query.q };
  const statuses = [...CHIP_STATUSES, ...EXTRA_STATUSES.filter((s) => (counts[s] ?? 0) > 0 || query.status === s)];

  return (
    <div className={styles.filters} aria-busy={pending} data-testid="dashboard-filters">
      <nav className={styles.chips} aria-label="Filter runs by status">
        <Chip href={dashboardHref(base)} active={!query.status} label="All" count={counts.all ?? 0} testId="dashboard-filter-status-all" />
        {statuses.map((s) => (
          <Chip key={s} href={dashboardHref({ ...base, status: s })} active={query.status === s} label={STATUS_LABEL[s] ?? s} count={counts[s] ?? 0} testId={`dashboard-filter-status-${s}`} />
        ))}
      </nav>
      <div className={styles.controls}>
        <label className={styles.control}>
          <span className="small muted">Flow</span>
          <select value={query.flow ?? ""} onChange={(e) => go({ status: query.status, q: query.q, flow: e.target.value })} data-testid="dashboard-flow-filter">
            <option value="">All flows</option>
            <FlowOptions flows={flows} />
          </select>
        </label>
        <form
          aria-label="Search tasks"
          className={styles.control}
          onSubmit={(e) => {
            e.preventDefault();
            go({ status: query.status, flow: query.flow, q });
          }}
        >
          <label htmlFor="dashboard-search" className="small muted">
            Search tasks
          </label>
          <span className={styles.searchRow}>
            <input id="dashboard-search" type="search" value={q} maxLength={200} placeholder="e.g. notes.md" onChange={(e) => setQ(e.target.value)} data-testid="dashboard-search" />
            <button type="submit" className="secondary" data-testid="dashboard-search-submit">
              Search
            </button>
          </span>
        </form>
      </div>
    </div>
  );
}

function Chip({ href, active, label, count, testId }: { href: string; active: boolean; label: string; count: number; testId: string }) {
  return (
    <Link href={href} className={active ? `${styles.chip} ${styles.chipActive}` : styles.chip} aria-current={active ? "page" : undefined} data-testid={testId} data-active={active}>
      {label} <span className={styles.chipCount}>{count}</span>
    </Link>
  );
}
