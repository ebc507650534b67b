"use client";
import { type ReactNode, useState } from "react";
import type { RunDataTypes } from "@/lib/engine/ui-parts";

/** One row of the run view's timeline. */
export type TimelineItem =
  | { key: string; kind: "user"; text: string }
  | { key: string; kind: "text"; text: string }
  | { [K in keyof RunDataTypes]: { key: string; kind: `data-${K}`; data: RunDataTypes[K] } }[keyof RunDataTypes];

function json(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}

/** An output evicted from the run's state (SPEC.md 2): opened on demand from blob storage. */
function EvictedOutput({ threadId, pointer, sizeChars }: { threadId: string; pointer: string; sizeChars: number }) {
  const [content, setContent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function open() {
    const res = await fetch(`/api/threads/${threadId}/blobs/${pointer.replace(/^blob:/, "")}`);
    const body = await res.json();
    if (res.ok) setContent(String(body.content));
    else setError(body?.error?.message ?? `HTTP ${res.status}`);
  }
  return (
    <div className="small" data-testid="evicted-output">
      <span className="muted">
        output evicted ({sizeChars.toLocaleString("en")} chars) · <code>{pointer}</code>
      </span>{" "}
      {content === null ? (
        <button type="button" className="link" onClick={open} data-testid="open-evicted">
          open
        </button>
      ) : null}
      {error ? <span className="error"> {error}</span> : null}
      {content !== null ? (
        <pre className="small file-content" data-testid="evicted-content">
          {content}
        </pre>
      ) : null}
    </div>
  );
}

/** A step's result: short ones in full, long ones folded behind their first line. */
function StepResult({ text }: { text: string }) {
  if (text.length <= 240) return <pre className="result small">{text}</pre>;
  const first = text.split("\n", 1)[0] ?? "";
  return (
    <details className="result">
      <summary className="small">
        {first.slice(0, 160)} <span className="muted">({text.length} chars)</span>
      </summary>
      <pre className="small">{text}</pre>
    </details>
  );
}

/** The timeline: messages, step starts and ends, handoffs, tool calls with results, approval cards, the answer. */
export function Timeline({
  threadId,
  items,
  renderApproval,
}: {
  threadId: string;
  items: TimelineItem[];
  renderApproval: (a: RunDataTypes["approval"]) => ReactNode;
}) {
  if (items.length === 0) return <p className="muted card">Nothing has run on this thread yet.</p>;
  return (
    <ol className="timeline" data-testid="timeline">
      {items.map((item) => {
        switch (item.kind) {
          case "user":
            return (
              <li key={item.key} className="bubble user" data-testid="user-message">
                {item.text}
              </li>
            );
          case "text":
            return (
              <li key={item.key} className="bubble answer" data-testid="final-answer">
                {item.text}
              </li>
            );
          case "data-step":
            return (
              <li key={item.key} className={`event step status-${item.data.status}`} data-testid="step-event" data-status={item.data.status}>
                <strong>Step {item.data.index + 1}</strong> {item.data.task} <span className="muted small">· {item.data.agentName}</span>{" "}
                <span className={`badge status-${item.data.status}`}>{item.data.status.replace("_", " ")}</span>
                {item.data.usage ? (
                  <span className="small muted" data-testid="step-tokens">
                    {" "}
                    · {item.data.usage.inputTokens + item.data.usage.outputTokens} tokens
                  </span>
                ) : null}
                {item.data.result ? <StepResult text={item.data.result} /> : null}
                {item.data.error ? <div className="error small">{item.data.error}</div> : null}
              </li>
            );
          case "data-handoff":
            return (
              <li key={item.key} className="event handoff small muted" data-testid="handoff">
                Supervisor → <span style={{ color: item.data.color }}>{item.data.icon}</span> {item.data.agentName} ({item.data.reason.replace("_", " ")})
              </li>
            );
          case "data-tool":
            return (
              <li key={item.key} className={`event tool status-${item.data.status}`} data-testid="tool-call" data-tool={item.data.toolName} data-status={item.data.status}>
                <div>
                  <code>{item.data.toolName}</code> <span className={`badge status-${item.data.status}`}>{item.data.status.replace("_", " ")}</span>
                  {item.data.decision ? <span className="small muted"> · policy {item.data.decision}</span> : null}
                  {item.data.rule ? <span className="small muted"> ({item.data.rule})</span> : null}
                  {item.data.risk ? (
                    <span className={`badge risk-${item.data.risk}`} data-testid="tool-risk" title={item.data.reason}>
                      risk {item.data.risk}
                    </span>
                  ) : null}
                </div>
                <details>
                  <summary className="small">arguments · sha256 {item.data.argsHash.slice(0, 12)}…</summary>
                  <pre className="small">{json(item.data.args)}</pre>
                </details>
                {item.data.evicted ? (
                  <EvictedOutput threadId={threadId} pointer={item.data.evicted.pointer} sizeChars={item.data.evicted.sizeChars} />
                ) : item.data.output ? (
                  <details>
                    <summary className="small">output ({item.data.output.length} chars)</summary>
                    <pre className="small">{item.data.output}</pre>
                  </details>
                ) : null}
              </li>
            );
          case "data-approval":
            return <li key={item.key}>{renderApproval(item.data)}</li>;
          default:
            return null;
        }
      })}
    </ol>
  );
}
