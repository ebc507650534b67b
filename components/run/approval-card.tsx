"use client";
import { useEffect, useState } from "react";
import type { RunDataTypes } from "@/lib/engine/ui-parts";

/** Time left until `iso`, as "m:ss", or null when past. */
function timeLeft(iso: string, now: number): string | null {
  const ms = new Date(iso).getTime() - now;
  if (ms <= 0) return null;
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/**
 * The approval card (SPEC.md 4): tool, the exact canonical arguments (RFC 8785) that will
 * run, a hash prefix, time left, Approve and Reject (with an optional reason).
 */
export function ApprovalCard({
  approval,
  status,
  busy,
  onDecide,
}: {
  approval: RunDataTypes["approval"];
  /** pending | approved | rejected | expired | consumed | invalid */
  status: string;
  busy: boolean;
  onDecide: (decision: "approve" | "reject", comment: string) => void;
}) {
  const [now, setNow] = useState(() => Date.now());
  const [comment, setComment] = useState("");
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  const left = timeLeft(approval.expiresAt, now);
  const effective = status === "pending" && !left ? "expired" : status;
  let pretty = approval.canonicalArgs;
  try {
    pretty = JSON.stringify(JSON.parse(approval.canonicalArgs), null, 2);
  } catch {
    // show the canonical text as is
  }
  return (
    <section className={`approval card status-${effective}`} data-testid="approval-card" data-status={effective} aria-label={`Approval for ${approval.toolName}`}>
      <header className="row">
        <strong>
          Approval needed: <code data-testid="approval-tool">{approval.toolName}</code>
        </strong>
        <span className="badge" data-testid="approval-status">
          {effective}
        </span>
      </header>
      <p className="small muted">
        The run is paused. It continues only if you approve these exact arguments; the approval works once and is bound to this thread and your account.
      </p>
      <pre className="args" data-testid="approval-args">
        {pretty}
      </pre>
      <p className="small muted">
        sha256 <code data-testid="approval-hash">{approval.argsHash.slice(0, 16)}…</code> · id <code>{approval.approvalId}</code> ·{" "}
        {left ? <span data-testid="approval-expiry">expires in {left}</span> : <span>expired {new Date(approval.expiresAt).toLocaleTimeString()}</span>}
      </p>
      {effective === "pending" ? (
        <div className="row gap">
          <button type="button" disabled={busy} onClick={() => onDecide("approve", comment)} data-testid="approve">
            Approve
          </button>
          <input aria-label="Reason (optional)" placeholder="Reason (optional)" value={comment} onChange={(e) => setComment(e.target.value)} data-testid="reject-reason" />
          <button type="button" className="danger" disabled={busy} onClick={() => onDecide("reject", comment)} data-testid="reject">
            Reject
          </button>
        </div>
      ) : null}
    </section>
  );
}
