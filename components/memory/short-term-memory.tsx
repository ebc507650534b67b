"use client";
import { AgentBadge, type AgentIdentity } from "@/components/run/agent-badge";
import { LocalTime } from "@/components/ui/local-time";
import type { ShortTermEntry } from "@/lib/memory/types";
import { FoldedResult } from "./folded-result";
import styles from "./memory.module.css";

/**
 * The Memory tab's short-term section (docs/architecture.md#memory): what the agents did on
 * the thread (time, agent, action, result), the last 20 entries, each expiring `hours` after it
 * is written, with Clear (which the panel confirms first). `eraseReason` says why Clear is
 * off for this user; `disabled` is set while another memory action runs.
 */
export function ShortTermMemory({
  entries,
  hours,
  agents,
  eraseReason,
  disabled,
  onClear,
}: {
  entries: ShortTermEntry[];
  /** How long an entry lives, hours (the flow's setting). */
  hours: number;
  agents: AgentIdentity[];
  eraseReason: string | undefined;
  disabled: boolean;
  onClear: () => void;
}) {
  const byId = new Map(agents.map((a) => [a.id, a]));
  const agent = (id: string) => byId.get(id) ?? { id, name: id, icon: "🤖", color: "#5b3cc4" };
  return (
    <div className={styles.section} data-testid="short-term">
      <div className="row">
        <h3>Short-term memory</h3>
        <button
          type="button"
          className="secondary"
          onClick={onClear}
          disabled={eraseReason !== undefined || entries.length === 0 || disabled}
          title={eraseReason ?? (entries.length === 0 ? "There is nothing to clear." : undefined)}
          data-testid="short-term-clear"
        >
          Clear
        </button>
      </div>
      <p className="small muted">What the agents did on this thread, as they see it before each step (the last 20). Entries expire {hours} hours after they are written.</p>
      {entries.length === 0 ? (
        <p className="small muted" data-testid="short-term-empty">
          No short-term entries. Each step and tool call of a run adds one; they expire after {hours} hours or when cleared.
        </p>
      ) : (
        <table className={`small ${styles.entries}`}>
          <thead>
            <tr>
              <th>Time</th>
              <th>Agent</th>
              <th>Action</th>
              <th>Result</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.id} data-testid="short-term-entry" data-agent={e.agentId} data-step={e.stepId ?? ""}>
                <td className={`muted ${styles.nowrap}`}>
                  <LocalTime at={e.createdAt} />
                </td>
                <td className={styles.nowrap}>
                  <AgentBadge agent={agent(e.agentId)} />
                </td>
                <td>{e.action}</td>
                <td className={styles.result}>
                  <FoldedResult text={e.result} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
