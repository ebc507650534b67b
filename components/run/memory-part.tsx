import { Brain } from "lucide-react";
import Link from "next/link";
import { memoryHref } from "@/components/memory/memory-url";
import type { RunDataTypes } from "@/lib/events/ui-parts";
import { AgentBadge, type AgentIdentity } from "./agent-badge";
import styles from "./memory-part.module.css";

/** Characters of a short-term entry's result shown before it is cut. */
const RESULT_CHARS = 160;

/**
 * "Memory injected" (docs/architecture.md#memory): what the memory service put into an agent's
 * context before a step — the thread's recent short-term entries and the long-term facts
 * retrieved for the step's task, each with its score, how it was found and a link to it
 * on the memory page. Collapsed to one line until opened; the same while streaming and on
 * replay (it is a `data-memory` part).
 */
export function MemoryPart({ data, agent, workspaceId }: { data: RunDataTypes["memory"]; agent: AgentIdentity /** The thread's workspace, for links to its memory page. */; workspaceId?: string }) {
  const n = data.shortTerm.length;
  const m = data.facts.length;
  const empty = n === 0 && m === 0;
  return (
    <details className={styles.block} data-testid="memory-injected" data-step={data.stepId ?? ""} data-agent={data.agentId} data-facts={m} data-entries={n}>
      <summary className="small">
        <Brain className="icon" size="1em" /> <strong>Memory injected</strong> <AgentBadge agent={agent} />{" "}
        <span className="muted">{empty ? "nothing yet (no recent entries, no matching facts)" : `${n} recent entr${n === 1 ? "y" : "ies"} · ${m} fact${m === 1 ? "" : "s"}`}</span>
      </summary>
      <div className={styles.body}>
        <p className="small muted">
          Retrieved for: <q>{data.query.length > 200 ? `${data.query.slice(0, 200)}…` : data.query}</q>
        </p>
        {m > 0 ? (
          <>
            <h4 className={styles.heading}>Facts</h4>
            <ol className={styles.facts}>
              {data.facts.map((f) => (
                <li key={f.id} data-testid="memory-injected-fact" data-fact-id={f.id}>
                  <span className={styles.content}>{f.content}</span>{" "}
                  <span className="small muted" title="Relevance to the step's task: higher is better">
                    score {f.score.toFixed(2)}
                    {f.via.length ? ` · ${f.via.join(" + ")}` : ""}
                  </span>
                  {f.tags.map((t) => (
                    <span key={t}>
                      {" "}
                      <span className="badge">{t}</span>
                    </span>
                  ))}{" "}
                  <Link className="small" href={memoryHref({ workspace: workspaceId, fact: f.id })} data-testid="memory-injected-fact-link">
                    on the memory page
                  </Link>
                </li>
              ))}
            </ol>
          </>
        ) : (
          <p className="small muted">No long-term fact matched this step.</p>
        )}
        {n > 0 ? (
          <>
            <h4 className={styles.heading}>Recent short-term entries</h4>
            <ol className={styles.entries}>
              {data.shortTerm.map((e) => (
                <li key={e.id} className="small" data-testid="memory-injected-entry">
                  <span className="muted">{e.agentId}</span> {e.action}: {e.result.length > RESULT_CHARS ? `${e.result.slice(0, RESULT_CHARS)}…` : e.result}
                </li>
              ))}
            </ol>
          </>
        ) : null}
        <p className="small">
          <Link href={memoryHref({ workspace: workspaceId })}>Open the memory page</Link>
        </p>
      </div>
    </details>
  );
}
