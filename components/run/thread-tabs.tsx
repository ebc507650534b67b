"use client";
import { type ReactNode, useState } from "react";
import { ThreadMemoryPanel, type ThreadMemoryProps } from "@/components/memory/thread-memory-panel";
import { CheckpointsPanel } from "./checkpoints-panel";

type Tab = "run" | "checkpoints" | "memory";

/**
 * The thread page's tabs: the run view, the thread's checkpoints (time travel: docs/architecture.md#time-travel) and
 * its memory (short-term entries, summary, proposed facts). The run view stays
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
