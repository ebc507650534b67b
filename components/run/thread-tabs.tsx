"use client";
import { type ReactNode, useState } from "react";
import { type FlowMemorySettings, ThreadMemoryPanel } from "@/components/memory/thread-memory-panel";
import type { AgentIdentity } from "./agent-badge";
import { CheckpointsPanel } from "./checkpoints-panel";

type Tab = "run" | "checkpoints" | "memory";

/** What the Memory tab needs: the thread's workspace and status, the flow's agents and memory settings, and whether the user may change memory. */
export interface ThreadMemoryProps {
  workspaceId: string;
  threadStatus: string;
  agents: AgentIdentity[];
  /** Owners and approvers: propose, accept and dismiss facts. */
  canEdit: boolean;
  /** The thread's own user or a workspace owner: clear its short-term memory. */
  canErase: boolean;
  /** The thread's own user, owners and approvers: write its summary. */
  canSummarize: boolean;
  settings: FlowMemorySettings;
}

/**
 * The thread page's tabs: the run view, the thread's checkpoints (issue 5 time travel) and
 * its memory (issue 6: short-term entries, summary, proposed facts). The run view stays
 * mounted while another tab shows, so a run keeps streaming; the other panels mount (and
 * load) each time their tab opens, so they are current.
 */
export function ThreadTabs({ threadId, canFork, memory, children }: { threadId: string; canFork: boolean; memory: ThreadMemoryProps; children: ReactNode }) {
  const [tab, setTab] = useState<Tab>("run");
  const tabButton = (id: Tab, label: string) => (
    <button
      type="button"
      role="tab"
      id={`thread-tab-${id}`}
      aria-selected={tab === id}
      aria-controls={`thread-panel-${id}`}
      className={tab === id ? "" : "secondary"}
      onClick={() => setTab(id)}
      data-testid={`tab-${id}`}
    >
      {label}
    </button>
  );
  return (
    <div>
      <div className="row gap" role="tablist" aria-label="Thread views">
        {tabButton("run", "Run")}
        {tabButton("checkpoints", "Checkpoints")}
        {tabButton("memory", "Memory")}
      </div>
      <div role="tabpanel" id="thread-panel-run" aria-labelledby="thread-tab-run" hidden={tab !== "run"}>
        {children}
      </div>
      {tab === "checkpoints" ? (
        <div role="tabpanel" id="thread-panel-checkpoints" aria-labelledby="thread-tab-checkpoints">
          <CheckpointsPanel threadId={threadId} canFork={canFork} />
        </div>
      ) : null}
      {tab === "memory" ? (
        <div role="tabpanel" id="thread-panel-memory" aria-labelledby="thread-tab-memory">
          <ThreadMemoryPanel threadId={threadId} {...memory} />
        </div>
      ) : null}
    </div>
  );
}
