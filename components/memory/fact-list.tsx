"use client";
import { useRouter } from "next/navigation";
import { type ReactNode, useState } from "react";
import { FactCard, type FactRow } from "./fact-card";
import styles from "./memory.module.css";

/**
 * The memory page's list of facts with a notice line for what the last accept or
 * forget did; after each, the server list reloads. `empty` shows when there are no rows.
 */
export function FactList({ rows, workspaceId, canEdit, empty }: { rows: FactRow[]; workspaceId: string; canEdit: boolean; empty: ReactNode }) {
  const router = useRouter();
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <>
      {notice ? (
        <p className={`card small ${styles.notice}`} aria-live="polite" data-testid="memory-notice">
          {notice}
        </p>
      ) : null}
      {rows.length === 0 ? (
        empty
      ) : (
        <ul className={styles.list} data-testid="fact-list">
          {rows.map((row) => (
            <li key={row.fact.id}>
              <FactCard
                row={row}
                workspaceId={workspaceId}
                canEdit={canEdit}
                onChanged={(text) => {
                  setNotice(text);
                  router.refresh();
                }}
              />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
