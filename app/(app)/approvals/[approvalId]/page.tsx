import Link from "next/link";
import type { ReactNode } from "react";
import { ArgsDiff, argsValue, prettyArgs } from "@/components/approvals/args-diff";
import { FileWriteView } from "@/components/approvals/file-write-view";
import { InboxCard } from "@/components/approvals/inbox-card";
import { LiveRefresh } from "@/components/approvals/live-refresh";
import { DecisionNotice } from "@/components/approvals/decision-notice";
import { fileWriteOf } from "@/lib/approvals/file-write";
import { getApproval } from "@/lib/approvals/inbox";
import { db } from "@/lib/db/client";
import { orNotFound } from "@/lib/http/or-not-found";
import { requireUser } from "@/lib/http/with-user";

export const dynamic = "force-dynamic";

/** How each decision reads on the page. */
const OUTCOME: Record<string, string> = {
  approve: "Approved",
  edit: "Edited: the edited arguments ran instead",
  respond: "Answered with feedback: the tool did not run",
  reject: "Rejected: the tool did not run",
  ignore: "Ignored: the run was cancelled",
  expired: "Expired: nobody decided in time",
  revise: "Edited without the token: nothing ran; the edited call waits for its own approval",
};

/** One row of the facts list. */
function Fact({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}

const when = (iso: string | null) => (iso ? new Date(iso).toISOString().replace("T", " ").slice(0, 19) : "—");

/**
 * One approval: where it comes from, what exactly would run (canonical
 * arguments and their full SHA-256), risk and rule, who asked and until when; while
 * pending, the decision panel (approve, edit with an argument diff, respond, reject,
 * ignore); once decided, the decision, who, when, the comment, for a file write the content
 * that was proposed or, after an edit, that ran (rendered), and for an edit both hashes and
 * the diff. Approvals of other workspaces are a 404. Follows live changes. The
 * workspace is always named: an approval is decided knowing whose it is (docs/security.md
 * "Membership").
 */
export default async function ApprovalDetailPage({ params }: { params: Promise<{ approvalId: string }> }) {
  const user = await requireUser();
  const { approvalId } = await params;
  const item = await orNotFound(getApproval(db(), user.id, approvalId));
  const written = item.status === "pending" ? null : fileWriteOf(item.toolName, argsValue(item.editedArgs ?? item.canonicalArgs));
  return (
    <main className="wide">
      <LiveRefresh approvalId={item.approvalId} />
      <p className="small muted">
        <Link href="/approvals">← Approvals</Link> · <code>{item.approvalId}</code>
      </p>
      <h1>
        <code>{item.toolName}</code> in {item.flowName}
      </h1>
      <DecisionNotice />
      <dl className="card facts" data-testid="approval-detail" data-status={item.status}>
        <Fact label="Status" testId="detail-status">
          <span className={`badge status-${item.status}`}>{item.status}</span>
        </Fact>
        <Fact label="Risk" testId="detail-risk">
          <span className={`badge risk-${item.risk}`}>{item.risk}</span>
        </Fact>
        <Fact label="Matched rule" testId="detail-rule">
          {item.rule || "default for tools with side effects"}
        </Fact>
        <Fact label="Flow" testId="detail-flow">
          <Link href={`/flows/${item.flowId}`}>{item.flowName}</Link> v{item.flowVersion}
        </Fact>
        <Fact label="Workspace" testId="detail-workspace">
          {item.workspaceName}
        </Fact>
        <Fact label="Thread" testId="detail-thread">
          <Link href={`/threads/${item.threadId}`}>{item.threadTitle}</Link>
        </Fact>
        <Fact label="Agent" testId="detail-agent">
          {item.agentName || "—"}
        </Fact>
        <Fact label="Step" testId="detail-step">
          {item.stepTask || "—"}
        </Fact>
        <Fact label="Tool" testId="detail-tool">
          <code>{item.toolName}</code> <span className="small muted">call {item.toolCallId}</span>
        </Fact>
        <Fact label="Arguments sha256" testId="detail-args-hash">
          <code className="small">{item.argsHash}</code>
        </Fact>
        <Fact label="Requested by" testId="detail-requested-by">
          {item.requestedBy}
        </Fact>
        <Fact label="Requested (UTC)" testId="detail-requested-at">
          {when(item.requestedAt)}
        </Fact>
        <Fact label="Expires (UTC)" testId="detail-expires-at">
          {when(item.expiresAt)}
        </Fact>
      </dl>
      {item.status === "pending" ? (
        <section aria-label="Decision">
          <h2>Decide</h2>
          <InboxCard item={item} detail />
        </section>
      ) : (
        <section className="card" aria-label="Outcome" data-testid="detail-outcome" data-decision={item.decision ?? ""}>
          <h2>Outcome</h2>
          <p>
            <strong data-testid="detail-decision">{OUTCOME[item.decision ?? ""] ?? item.status}</strong>
            {item.decidedBy ? (
              <>
                {" "}
                by <span data-testid="detail-decided-by">{item.decidedBy}</span>
              </>
            ) : null}
            {item.decidedAt ? <> at {when(item.decidedAt)} UTC</> : null}
          </p>
          {item.comment ? (
            <blockquote className="comment" data-testid="detail-comment">
              {item.comment}
            </blockquote>
          ) : null}
          {written ? (
            <>
              <h3 className="small">{item.editedArgs ? "The edited write" : "The proposed write"}</h3>
              <FileWriteView write={written} now={{ state: "off" }} testId="detail-file-write" />
            </>
          ) : null}
          <h3 className="small">Proposed arguments</h3>
          <pre className="args" data-testid="approval-args">
            {prettyArgs(item.canonicalArgs)}
          </pre>
          <p className="small muted">
            sha256 <code data-testid="original-hash">{item.argsHash}</code>
          </p>
          {item.editedArgs ? (
            <>
              <h3 className="small">Edited arguments (what ran instead)</h3>
              <ArgsDiff before={argsValue(item.canonicalArgs)} after={argsValue(item.editedArgs)} testId="decided-diff" />
              <pre className="args" data-testid="detail-edited-args">
                {prettyArgs(item.editedArgs)}
              </pre>
              <p className="small muted">
                sha256 <code data-testid="edited-hash">{item.editedArgsHash ?? "—"}</code>
              </p>
            </>
          ) : null}
        </section>
      )}
    </main>
  );
}
