import Link from "next/link";
import { InboxCard } from "@/components/approvals/inbox-card";
import { pendingApprovals } from "@/lib/approvals/inbox";
import { db } from "@/lib/db/client";
import { requireUser } from "@/lib/http/with-user";

export const dynamic = "force-dynamic";

/** Approval inbox (SPEC.md 4): every pending approval the user may decide, soonest to expire first. */
export default async function ApprovalsPage() {
  const user = await requireUser();
  const items = await pendingApprovals(db(), user.id);
  return (
    <main className="wide">
      <h1>Approvals</h1>
      {items.length === 0 ? (
        <p className="card muted" data-testid="inbox-empty">
          Nothing waits for your decision. When a run reaches a tool that needs approval, it appears here and on the run's page.
        </p>
      ) : (
        <ul className="flow-list" data-testid="inbox">
          {items.map((item) => (
            <li key={item.approvalId}>
              <InboxCard item={item} />
              <p className="small muted">
                <Link href={`/threads/${item.threadId}`}>{item.threadTitle}</Link> · {item.flowName} v{item.flowVersion}
              </p>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
