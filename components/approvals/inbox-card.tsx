"use client";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { type ApprovalDecision, ApprovalCard } from "@/components/run/approval-card";
import type { InboxItem } from "@/lib/approvals/inbox-item";
import { LocalTime } from "@/components/ui/local-time";
import { statusLabel } from "@/lib/run-status";
import { showDecisionNotice } from "./decision-notice";
import { postDecision } from "./post-decision";

/**
 * An approval in the inbox: where it comes from (flow, workspace, thread, agent, step,
 * requester) and the same card as in the run view (a file write's rendered content and line
 * diff, the schema-driven edit form), with every decision. Times render in the reader's
 * zone on the client only. Deciding
 * sends it to the thread's run (which resumes and goes on to its next stop), confirms it in
 * the page's DecisionNotice as soon as the server accepts it (with a link to the run), says
 * how the run ended up, and refreshes the page.
 */
export function InboxCard({ item, detail = false }: { item: InboxItem /** On the detail page: no origin line (the page shows it) and no link to itself. */; detail?: boolean }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function decide(d: ApprovalDecision) {
    setBusy(true);
    setError(null);
    setResult(null);
    const about = { decision: d.decision, toolName: item.toolName, threadId: item.threadId, threadTitle: item.threadTitle };
    // Confirmed at once, above the list (this card leaves the pending list once it refreshes).
    const out = await postDecision(item.threadId, item, d, () => showDecisionNotice({ ...about, outcome: "The run resumed." }));
    setBusy(false);
    if (!out.ok) {
      const message = `${out.message}${out.status ? ` (${out.status} ${out.reason})` : ""}`;
      setError(message);
      showDecisionNotice({ ...about, outcome: "", error: message, failed: true });
      return;
    }
    const run = out.runStatus ? `The run is now ${statusLabel(out.runStatus).toLowerCase()}.` : "The run went on.";
    setResult(`Decision sent (${d.decision}). ${run}${out.error ? ` ${out.error}` : ""}`);
    showDecisionNotice({ ...about, outcome: run, error: out.error });
    router.refresh();
  }

  return (
    <article className="inbox-item" data-testid={`inbox-item-${item.approvalId}`} data-risk={item.risk} data-status={item.status}>
      {detail ? null : (
        <p className="small muted inbox-meta">
          <strong className="flow-ref">
            {item.flowName} v{item.flowVersion}
          </strong>{" "}
          · {item.workspaceName} · thread <Link href={`/threads/${item.threadId}`}>{item.threadTitle}</Link>
          {item.agentName ? <> · agent {item.agentName}</> : null}
          {item.stepTask ? <> · step “{item.stepTask}”</> : null} · requested by <span data-testid="inbox-requested-by">{item.requestedBy}</span> <LocalTime at={item.requestedAt} /> ·{" "}
          <Link href={`/approvals/${item.approvalId}`} data-testid="inbox-detail-link">
            details
          </Link>
        </p>
      )}
      <ApprovalCard
        approval={{
          approvalId: item.approvalId,
          toolName: item.toolName,
          toolCallId: item.toolCallId,
          canonicalArgs: item.canonicalArgs,
          argsHash: item.argsHash,
          token: item.token ?? "",
          expiresAt: item.expiresAt,
          status: item.status,
          risk: item.risk,
          rule: item.rule || "default for tools with side effects",
        }}
        status={item.status}
        decision={item.decision}
        busy={busy}
        canDecide={item.canDecide}
        onDecide={decide}
      />
      {item.status !== "pending" && item.decidedAt ? (
        <p className="small muted" data-testid="inbox-decided">
          {item.decision ?? item.status} by {item.decidedBy ?? "—"} <LocalTime at={item.decidedAt} />
          {item.comment ? <> · “{item.comment}”</> : null}
        </p>
      ) : null}
      {result ? (
        <output className="small block" data-testid="decision-result">
          {result}
        </output>
      ) : null}
      {error ? (
        <p className="error" role="alert" data-testid="decision-error">
          {error}
        </p>
      ) : null}
    </article>
  );
}
