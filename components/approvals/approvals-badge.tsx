"use client";
import Link from "next/link";
import { useEffect, useState } from "react";
import { useApprovalEvents } from "./approval-events";

/**
 * The navigation link to the inbox with the count of approvals waiting for the user:
 * starts from the count the server rendered and follows the live stream of
 * `/api/approvals/events`, so it changes without a reload.
 */
export function ApprovalsNavLink({ initialCount }: { initialCount: number }) {
  const [count, setCount] = useState(initialCount);
  // A server refresh (e.g. after a run stops) brings a fresh count too.
  useEffect(() => setCount(initialCount), [initialCount]);
  useApprovalEvents((e) => setCount(e.pending));
  return (
    <Link href="/approvals" data-testid="nav-approvals">
      Approvals
      {count > 0 ? (
        <span className="badge status-pending" data-testid="approvals-badge" title={`${count} approval${count === 1 ? "" : "s"} wait for you`}>
          {count}
        </span>
      ) : null}
    </Link>
  );
}
