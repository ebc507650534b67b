"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { ApprovalCard } from "@/components/run/approval-card";
import type { InboxItem } from "@/lib/approvals/inbox";

/**
 * An approval in the inbox: the same card as in the run view. Deciding sends the decision
 * to the thread's run (which resumes and runs to its next stop) and refreshes the list.
 */
export function InboxCard({ item }: { item: InboxItem }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState("pending");
  const [error, setError] = useState<string | null>(null);

  async function decide(decision: "approve" | "reject", comment: string) {
    setBusy(true);
    setError(null);
    const input = { kind: "decision", approvalId: item.approvalId, decision, ...(decision === "approve" ? { token: item.token } : {}), ...(comment ? { comment } : {}) };
    const res = await fetch(`/api/threads/${item.threadId}/stream`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ input }) });
    if (!res.ok) {
      const body = await res.json().catch(() => null);
      setError(body?.error?.message ?? `HTTP ${res.status}`);
      setBusy(false);
      return;
    }
    await res.text(); // the run continues to its next stop before the list refreshes
    setStatus(decision === "approve" ? "consumed" : "rejected");
    setBusy(false);
    router.refresh();
  }

  return (
    <div data-testid={`inbox-item-${item.approvalId}`} data-risk={item.risk}>
      <ApprovalCard
        approval={{ approvalId: item.approvalId, toolName: item.toolName, toolCallId: item.toolCallId, canonicalArgs: item.canonicalArgs, argsHash: item.argsHash, token: item.token, expiresAt: item.expiresAt, status: "pending" }}
        status={status}
        busy={busy}
        onDecide={decide}
      />
      <p className="small muted">
        risk <span className={`badge risk-${item.risk}`}>{item.risk}</span> · rule {item.rule} · requested {new Date(item.requestedAt).toLocaleString("en")}
      </p>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
