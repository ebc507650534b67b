"use client";
import { useEffect, useMemo, useRef, useState } from "react";
import { announceApproval } from "@/components/approvals/announcer";
import styles from "@/components/approvals/approvals.module.css";
import { argsValue, prettyArgs } from "@/components/approvals/args-diff";
import { EditArgsPanel } from "@/components/approvals/edit-args-panel";
import { type FileNow, FileWriteView } from "@/components/approvals/file-write-view";
import { LocalTime } from "@/components/ui/local-time";
import { useApprovalPreview } from "@/components/approvals/use-approval-preview";
import { COUNTDOWN_MS, useNow } from "@/components/ui/use-now";
import { fileWriteOf } from "@/lib/approvals/file-write";
import type { HumanDecision } from "@/lib/approvals/inbox-item";
import type { RunDataTypes } from "@/lib/events/ui-parts";

/**
 * One decision on an approval card: `approve` runs the proposal; `edit` runs `args`
 * instead; `respond` sends `comment` to the agent as feedback (the tool does not run);
 * `reject` stops the tool with `comment` as the reason; `ignore` ends the run as cancelled.
 */
export interface ApprovalDecision {
  decision: HumanDecision;
  comment?: string;
  args?: Record<string, unknown>;
}

/** What the interrupt allows; absent flags mean allowed (HumanInterrupt config). */
type Allow = NonNullable<RunDataTypes["approval"]["allow"]>;
const ALLOW_ALL: Allow = { accept: true, edit: true, respond: true, ignore: true };

/** Past-tense labels of stored decisions. */
const DECIDED: Record<string, string> = {
  approve: "approved",
  edit: "edited",
  respond: "answered with feedback",
  reject: "rejected",
  ignore: "ignored",
  expired: "expired",
  revise: "replaced by an edited call",
};

/** Time left until `iso`, as "m:ss", or null when past. */
function timeLeft(iso: string, now: number): string | null {
  const ms = new Date(iso).getTime() - now;
  if (ms <= 0) return null;
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** What the live region says when a card appears, e.g. "Approval needed: write_file to summary.md. …". */
function announcement(toolName: string, path: string | null): string {
  return `Approval needed: ${toolName}${path ? ` to ${path}` : ""}. The run is paused until someone decides; the card is in view.`;
}

/**
 * The approval card (docs/architecture.md#approvals): tool, what will run, a hash prefix, risk and rule when
 * known, time left, and the decisions the interrupt allows: Approve, Edit (a form generated
 * from the tool's input schema, or raw JSON, with a diff), Respond (feedback), Reject (with
 * a reason) and Ignore (confirm; cancels the run). A file write shows the content rendered
 * and its line diff against the file as it is now (loaded from the approval's preview while
 * it is pending); the exact canonical arguments (RFC 8785) are always one click away, and
 * shown as they are for other tools. The countdown runs in the browser only (the server
 * renders a placeholder, so hydration matches), and only while pending. Users whose role
 * cannot decide see the buttons disabled, with a note.
 */
export function ApprovalCard({
  approval,
  status,
  busy,
  onDecide,
  canDecide = true,
  decision = null,
  reveal = false,
}: {
  approval: RunDataTypes["approval"];
  /** pending | approved | rejected | expired | consumed | invalid */
  status: string;
  busy: boolean;
  onDecide: (d: ApprovalDecision) => void;
  /** False for roles that only see (viewers): every button is disabled. */
  canDecide?: boolean;
  /** How it was decided (approve | edit | respond | reject | ignore | expired), when known. */
  decision?: string | null;
  /**
   * Scroll a pending card into view when it appears, and announce it in the page's live
   * region (see ApprovalAnnouncer): the run view, where a new approval may open below the fold.
   */
  reveal?: boolean;
}) {
  const now = useNow(status === "pending" ? COUNTDOWN_MS : null);
  const [comment, setComment] = useState("");
  const [feedback, setFeedback] = useState("");
  const [mode, setMode] = useState<"edit" | "respond" | "ignore" | null>(null);
  const [sentHash, setSentHash] = useState<string | null>(null);
  const ref = useRef<HTMLElement>(null);
  // null until the browser's clock is known (server render and hydration).
  const left = now === null ? null : timeLeft(approval.expiresAt, now);
  const effective = status === "pending" && now !== null && !left ? "expired" : status;
  const write = useMemo(() => fileWriteOf(approval.toolName, argsValue(approval.canonicalArgs)), [approval.toolName, approval.canonicalArgs]);
  const pending = effective === "pending";
  const { preview, error: previewError, loading: previewLoading } = useApprovalPreview(approval.approvalId, pending && (write !== null || mode === "edit"));
  const fileNow: FileNow = !pending ? { state: "off" } : preview?.file ? preview.file.current : previewError ? { state: "unknown", message: previewError } : { state: "loading" };

  // A pending card that appears is brought into view and announced, once.
  // biome-ignore lint/correctness/useExhaustiveDependencies: on mount only; later renders of the same card must not scroll the page
  useEffect(() => {
    if (!reveal || status !== "pending" || new Date(approval.expiresAt).getTime() <= Date.now()) return;
    const smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    ref.current?.scrollIntoView({ block: "start", behavior: smooth ? "smooth" : "auto" });
    announceApproval(announcement(approval.toolName, write?.path ?? null));
  }, []);
  const allow = approval.allow ?? ALLOW_ALL;
  const off = busy || !canDecide;
  const note = comment.trim() ? { comment: comment.trim() } : {};
  const toggle = (m: "edit" | "respond" | "ignore") => setMode((cur) => (cur === m ? null : m));
  const decidedLabel = decision ? DECIDED[decision] : undefined;
  return (
    <section
      ref={ref}
      className={`approval card status-${effective} ${styles.reveal}`}
      data-testid="approval-card"
      data-approval-id={approval.approvalId}
      data-status={effective}
      aria-label={`Approval for ${approval.toolName}`}
    >
      <header className="row">
        <strong>
          {effective === "pending" ? "Approval needed" : "Approval"}: <code data-testid="approval-tool">{approval.toolName}</code>
        </strong>
        <span className="row gap">
          {decidedLabel && decision !== "approve" && decidedLabel !== effective ? (
            <span className="badge" data-testid="approval-decision" data-decision={decision}>
              {decidedLabel}
            </span>
          ) : null}
          <span className={`badge status-${effective}`} data-testid="approval-status">
            {effective}
          </span>
        </span>
      </header>
      {effective === "pending" ? (
        <p className="small muted">The run is paused. It continues only if you approve these exact arguments (or your edit of them); the approval works once and is bound to this thread.</p>
      ) : null}
      {write && mode !== "edit" ? <FileWriteView write={write} now={fileNow} /> : null}
      {write ? (
        <details className="small">
          <summary>Exact arguments (JSON)</summary>
          <pre className="args" data-testid="approval-args">
            {prettyArgs(approval.canonicalArgs)}
          </pre>
        </details>
      ) : (
        <pre className="args" data-testid="approval-args">
          {prettyArgs(approval.canonicalArgs)}
        </pre>
      )}
      <p className="small muted">
        sha256 <code data-testid="approval-hash">{approval.argsHash.slice(0, 16)}…</code> · id <code>{approval.approvalId}</code>
        {effective === "pending" ? (
          <>
            {" "}
            · <span data-testid="approval-expiry">expires in {left ?? "…"}</span>
          </>
        ) : effective === "expired" ? (
          <>
            {" "}
            ·{" "}
            <span data-testid="approval-expired-at">
              expired <LocalTime at={approval.expiresAt} style="time" />
            </span>
          </>
        ) : null}
        {approval.risk ? (
          <>
            {" "}
            · risk{" "}
            <span className={`badge risk-${approval.risk}`} data-testid="approval-risk">
              {approval.risk}
            </span>
          </>
        ) : null}
        {approval.rule ? <span data-testid="approval-rule"> · rule {approval.rule}</span> : null}
      </p>
      {sentHash ? (
        <p className="small" data-testid="edit-sent">
          Edited arguments sent · canonical sha256 <code data-testid="edit-sent-hash">{sentHash.slice(0, 16)}…</code>
        </p>
      ) : null}
      {effective === "pending" ? (
        <>
          {!canDecide ? (
            <p className="small muted" data-testid="cannot-decide">
              Your role in this workspace lets you see this approval, not decide it. Ask an owner or an approver.
            </p>
          ) : null}
          <div className="row gap wrap">
            {allow.accept ? (
              <button type="button" disabled={off} onClick={() => onDecide({ decision: "approve", ...note })} data-testid="approve">
                Approve
              </button>
            ) : null}
            {allow.edit ? (
              <button type="button" className="secondary" aria-pressed={mode === "edit"} disabled={off} onClick={() => toggle("edit")} data-testid="edit">
                Edit
              </button>
            ) : null}
            {allow.respond ? (
              <button type="button" className="secondary" aria-pressed={mode === "respond"} disabled={off} onClick={() => toggle("respond")} data-testid="respond">
                Respond
              </button>
            ) : null}
            {allow.ignore ? (
              <button type="button" className="secondary" aria-pressed={mode === "ignore"} disabled={off} onClick={() => toggle("ignore")} data-testid="ignore">
                Ignore
              </button>
            ) : null}
          </div>
          <div className="row gap">
            <input
              aria-label="Comment or reason (optional)"
              placeholder="Comment or reason (optional)"
              value={comment}
              disabled={!canDecide}
              onChange={(e) => setComment(e.target.value)}
              data-testid="reject-reason"
            />
            <button type="button" className="danger" disabled={off} onClick={() => onDecide({ decision: "reject", ...note })} data-testid="reject">
              Reject
            </button>
          </div>
          {mode === "edit" && canDecide ? (
            <EditArgsPanel
              approvalId={approval.approvalId}
              toolName={approval.toolName}
              canonicalArgs={approval.canonicalArgs}
              argsHash={approval.argsHash}
              preview={preview}
              previewLoading={previewLoading}
              busy={busy}
              onCancel={() => setMode(null)}
              onSubmit={(args, hash) => {
                setSentHash(hash);
                onDecide({ decision: "edit", args, ...note });
              }}
            />
          ) : null}
          {mode === "respond" && canDecide ? (
            <div className="decision-panel stack">
              <label>
                <span className="small">Feedback to the agent (the tool does not run; the run goes on with your answer)</span>
                <textarea
                  rows={3}
                  value={feedback}
                  onChange={(e) => setFeedback(e.target.value)}
                  placeholder="e.g. Don't overwrite files; write the summary to drafts/summary.md."
                  data-testid="respond-text"
                />
              </label>
              <div className="row gap">
                <button type="button" disabled={busy || !feedback.trim()} onClick={() => onDecide({ decision: "respond", comment: feedback.trim() })} data-testid="respond-submit">
                  Send feedback
                </button>
                <button type="button" className="secondary" disabled={busy} onClick={() => setMode(null)}>
                  Cancel
                </button>
              </div>
            </div>
          ) : null}
          {mode === "ignore" && canDecide ? (
            <div className="decision-panel row gap wrap">
              <span className="small">Ignoring dismisses this request and ends the whole run as cancelled: nothing else runs.</span>
              <button type="button" className="danger" disabled={busy} onClick={() => onDecide({ decision: "ignore", ...note })} data-testid="ignore-confirm">
                Ignore and cancel the run
              </button>
              <button type="button" className="secondary" disabled={busy} onClick={() => setMode(null)}>
                Keep it
              </button>
            </div>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
