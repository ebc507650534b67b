"use client";
import { Wrench } from "lucide-react";
import { type ReactNode, useState } from "react";
import type { RunDataTypes } from "@/lib/events/ui-parts";
import { formatChars } from "@/lib/format-size";
import { AgentBadge, type AgentIdentity } from "./agent-badge";
import { MemoryPart } from "./memory-part";

/** One row of the run view's timeline (tool calls carry the id of the agent that proposed them). */
export type TimelineItem =
  | { key: string; kind: "user"; text: string }
  | { key: string; kind: "text"; text: string /** Still being written (its text grows). */; streaming?: boolean }
  | { [K in keyof RunDataTypes]: { key: string; kind: `data-${K}`; data: RunDataTypes[K] } }[keyof RunDataTypes];

/** Inputs and outputs up to this many characters show inline; longer ones fold. */
const INLINE_CHARS = 400;

function json(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}

/** An output evicted from the run's state (docs/architecture.md#retries-limits-and-eviction): opened on demand from blob storage. */
function EvictedOutput({ threadId, pointer, sizeChars }: { threadId: string; pointer: string; sizeChars: number }) {
  const [content, setContent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  async function open() {
    setLoading(true);
    setError(null);
    try {
      const res = await fetch(`/api/threads/${threadId}/blobs/${pointer.replace(/^blob:/, "")}`);
      const body = await res.json();
      if (res.ok) setContent(String(body.content));
      else setError(body?.error?.message ?? `HTTP ${res.status}`);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setLoading(false);
    }
  }
  return (
    <div className="small" data-testid="evicted-output">
      <span className="muted">
        output evicted from the run's state ({formatChars(sizeChars)}) · <code>{pointer}</code>
      </span>{" "}
      {content === null ? (
        <button type="button" className="link" onClick={open} disabled={loading} data-testid="open-evicted">
          {loading ? "Opening…" : "Open full output"}
        </button>
      ) : null}
      {error ? (
        <span className="error" data-testid="evicted-error">
          {" "}
          {error}
        </span>
      ) : null}
      {content !== null ? (
        <pre className="small file-content" data-testid="evicted-content">
          {content}
        </pre>
      ) : null}
    </div>
  );
}

/** A tool call's input or output: inline when short, folded behind its size when long. */
function Payload({ label, text, testId }: { label: string; text: string; testId: string }) {
  if (text.length <= INLINE_CHARS) {
    return (
      <div className="small" data-testid={testId}>
        <span className="muted">{label}</span>
        <pre className="small">{text}</pre>
      </div>
    );
  }
  return (
    <details className="small" data-testid={testId}>
      <summary>
        {label} ({formatChars(text.length)})
      </summary>
      <pre className="small file-content">{text}</pre>
    </details>
  );
}

/** The agent of a step or tool call: the flow's identity, else a plain one from the name. */
function identity(agents: Record<string, AgentIdentity>, id: string, name = id): AgentIdentity {
  return agents[id] ?? { id, name, icon: "🤖", color: "#5b3cc4" };
}

/** A step's result: short ones in full, long ones folded behind their first line. */
function StepResult({ text }: { text: string }) {
  if (text.length <= 240) return <pre className="result small">{text}</pre>;
  const first = text.split("\n", 1)[0] ?? "";
  return (
    <details className="result">
      <summary className="small">
        {first.slice(0, 160)} <span className="muted">({formatChars(text.length)})</span>
      </summary>
      <pre className="small">{text}</pre>
    </details>
  );
}

/**
 * The memory injected before each step, by step id (the last one when a step was tried
 * again), for the memory parts whose step is in the timeline; the others show on their own.
 */
function memoryByStep(items: TimelineItem[]): Map<string, RunDataTypes["memory"]> {
  const steps = new Set(items.flatMap((i) => (i.kind === "data-step" ? [i.data.id] : [])));
  const out = new Map<string, RunDataTypes["memory"]>();
  for (const i of items) if (i.kind === "data-memory" && i.data.stepId && steps.has(i.data.stepId)) out.set(i.data.stepId, i.data);
  return out;
}

/**
 * The timeline of the run view: messages, step starts and ends and handoffs with the
 * agent's identity badge, tool calls with their agent, input and output (evicted outputs
 * open on demand), approval cards and unknown-outcome cards inline, step errors, and the answer; and on each step,
 * folded, the memory injected into its agent's context.
 */
export function Timeline({
  threadId,
  items,
  stepText = {},
  agents,
  renderApproval,
  renderOutcome,
  workspaceId,
}: {
  threadId: string;
  items: TimelineItem[];
  /** The text each running step's agent is writing, by step id (docs/runs.md "Streaming"): shown while the step is in progress. */
  stepText?: Record<string, { text: string }>;
  /** The flow's agents by id (icon and colour for the badges). */
  agents: Record<string, AgentIdentity>;
  renderApproval: (a: RunDataTypes["approval"]) => ReactNode;
  /** The card of a call whose outcome is unknown after a crash (retry or skip). */
  renderOutcome: (o: RunDataTypes["outcome"]) => ReactNode;
  /** The thread's workspace, for links to its memory page. */
  workspaceId?: string;
}) {
  if (items.length === 0) return <p className="muted card">Nothing has run on this thread yet.</p>;
  const memory = memoryByStep(items);
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
              <li key={item.key} className="bubble answer" data-testid="final-answer" data-streaming={item.streaming ? "true" : undefined} aria-busy={item.streaming || undefined}>
                {item.text}
              </li>
            );
          case "data-step":
            return (
              <li key={item.key} className={`event step status-${item.data.status}`} data-testid="step-event" data-status={item.data.status} data-agent={item.data.agentId}>
                <AgentBadge agent={identity(agents, item.data.agentId, item.data.agentName)} /> <strong>Step {item.data.index + 1}</strong> {item.data.task}{" "}
                <span className={`badge status-${item.data.status}`}>{item.data.status.replace("_", " ")}</span>
                {item.data.tries > 1 ? <span className="small muted"> · try {item.data.tries}</span> : null}
                {item.data.usage ? (
                  <span className="small muted" data-testid="step-tokens">
                    {" "}
                    · {item.data.usage.inputTokens + item.data.usage.outputTokens} tokens
                  </span>
                ) : null}
                {item.data.result ? <StepResult text={item.data.result} /> : null}
                {item.data.status === "in_progress" && stepText[item.data.id]?.text ? (
                  <pre className="result small" data-testid="step-live-text" data-streaming="true" aria-busy>
                    {stepText[item.data.id]?.text}
                  </pre>
                ) : null}
                {item.data.error ? (
                  <div className="error small" data-testid="step-error">
                    {item.data.error}
                  </div>
                ) : null}
                {memory.has(item.data.id) ? (
                  <MemoryPart data={memory.get(item.data.id) as RunDataTypes["memory"]} agent={identity(agents, item.data.agentId, item.data.agentName)} workspaceId={workspaceId} />
                ) : null}
              </li>
            );
          case "data-memory":
            // Shown on its step when the step is in the timeline; on its own otherwise (e.g. a directed run without a plan).
            if (item.data.stepId && memory.has(item.data.stepId)) return null;
            return (
              <li key={item.key} className="event">
                <MemoryPart data={item.data} agent={identity(agents, item.data.agentId)} workspaceId={workspaceId} />
              </li>
            );
          case "data-handoff":
            return (
              <li key={item.key} className="event handoff small muted" data-testid="handoff" data-agent={item.data.to} data-reason={item.data.reason}>
                Supervisor → <AgentBadge agent={{ id: item.data.to, name: item.data.agentName, icon: item.data.icon, color: item.data.color }} /> ({item.data.reason.replace("_", " ")})
              </li>
            );
          case "data-tool": {
            const agent = item.data.agentId ? identity(agents, item.data.agentId) : null;
            const output = item.data.output;
            return (
              <li key={item.key} className={`event tool status-${item.data.status}`} data-testid="tool-call" data-tool={item.data.toolName} data-status={item.data.status} data-agent={agent?.id ?? ""}>
                <div>
                  {agent ? <AgentBadge agent={agent} /> : null} <Wrench className="icon muted" size="1em" /> <code>{item.data.toolName}</code>{" "}
                  <span className={`badge status-${item.data.status}`}>{item.data.status.replace("_", " ")}</span>
                  {item.data.decision ? <span className="small muted"> · policy {item.data.decision}</span> : null}
                  {item.data.rule ? <span className="small muted"> ({item.data.rule})</span> : null}
                  {item.data.risk ? (
                    <span className={`badge risk-${item.data.risk}`} data-testid="tool-risk" title={item.data.reason}>
                      risk {item.data.risk}
                    </span>
                  ) : null}
                </div>
                <Payload label={`input · sha256 ${item.data.argsHash.slice(0, 12)}…`} text={json(item.data.args)} testId="tool-input" />
                {item.data.evicted ? (
                  <EvictedOutput threadId={threadId} pointer={item.data.evicted.pointer} sizeChars={item.data.evicted.sizeChars} />
                ) : output ? (
                  <Payload label={item.data.status === "error" || item.data.status === "blocked" ? "error" : "output"} text={output} testId="tool-output" />
                ) : null}
              </li>
            );
          }
          case "data-approval":
            return <li key={item.key}>{renderApproval(item.data)}</li>;
          case "data-outcome":
            return <li key={item.key}>{renderOutcome(item.data)}</li>;
          default:
            return null;
        }
      })}
    </ol>
  );
}
