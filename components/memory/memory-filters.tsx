"use client";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import styles from "./memory.module.css";
import { FACT_STATUSES, type FactStatusFilter, type MemoryQuery, memoryHref } from "./memory-url";

const STATUS_LABEL: Record<FactStatusFilter, string> = {
  all: "Accepted and proposed",
  accepted: "Accepted (agents use them)",
  proposed: "Proposed (waiting for you)",
};

/**
 * The memory page's filters, all in the URL: the workspace (a picker when the
 * user is in several), a search over the facts (lexical and semantic), the status, and the
 * tag picked on a fact. Changing one navigates; the server renders the list.
 */
export function MemoryFilters({ query, workspaces }: { query: MemoryQuery; workspaces: { id: string; name: string; role: string }[] }) {
  const router = useRouter();
  const [q, setQ] = useState(query.q ?? "");
  const [pending, startTransition] = useTransition();
  const go = (next: MemoryQuery) => startTransition(() => router.push(memoryHref(next)));
  return (
    <div className={styles.filters} aria-busy={pending} data-testid="memory-filters">
      {workspaces.length > 1 ? (
        <label>
          <span className="small">Workspace</span>
          <select value={query.workspace ?? ""} onChange={(e) => go({ workspace: e.target.value })} data-testid="memory-workspace">
            {workspaces.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name} ({w.role})
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <form
        className={styles.search}
        aria-label="Search facts"
        onSubmit={(e) => {
          e.preventDefault();
          go({ ...query, q: q.trim() || undefined, fact: undefined });
        }}
      >
        <label>
          <span className="small">Search facts</span>
          <input type="search" value={q} onChange={(e) => setQ(e.target.value)} maxLength={200} placeholder="e.g. summary format" data-testid="memory-search" />
        </label>
        <button type="submit" data-testid="memory-search-submit">
          Search
        </button>
        {query.q ? (
          <button
            type="button"
            className="secondary"
            onClick={() => {
              setQ("");
              go({ ...query, q: undefined });
            }}
            data-testid="memory-search-clear"
          >
            Clear search
          </button>
        ) : null}
      </form>
      <label>
        <span className="small">Status</span>
        <select value={query.status ?? "all"} onChange={(e) => go({ ...query, status: e.target.value as FactStatusFilter, fact: undefined })} data-testid="memory-status">
          {FACT_STATUSES.map((s) => (
            <option key={s} value={s}>
              {STATUS_LABEL[s]}
            </option>
          ))}
        </select>
      </label>
      {query.tag ? (
        <span className="small">
          tag <span className="badge">{query.tag}</span>{" "}
          <button type="button" className="link" onClick={() => go({ ...query, tag: undefined })} data-testid="memory-tag-clear">
            any tag
          </button>
        </span>
      ) : null}
    </div>
  );
}
