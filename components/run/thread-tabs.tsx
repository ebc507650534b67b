"use client";
import { type ReactNode, useState } from "react";
import { CheckpointsPanel } from "./checkpoints-panel";

/**
 * The thread page's two tabs: the run view, and the thread's checkpoints (issue 5 time
 * travel). The run view stays mounted while the other tab shows, so a run keeps streaming;
 * the checkpoints panel mounts (and loads) each time its tab opens, so it is current.
 */
export function ThreadTabs({ threadId, canFork, children }: { threadId: string; canFork: boolean; children: ReactNode }) {
  const [tab, setTab] = useState<"run" | "checkpoints">("run");
  return (
    <div>
      <div className="row gap" role="tablist" aria-label="Thread views">
        <button type="button" role="tab" aria-selected={tab === "run"} className={tab === "run" ? "" : "secondary"} onClick={() => setTab("run")} data-testid="tab-run">
          Run
        </button>
        <button
          type="button"
          role="tab"
          aria-selected={tab === "checkpoints"}
          className={tab === "checkpoints" ? "" : "secondary"}
          onClick={() => setTab("checkpoints")}
          data-testid="tab-checkpoints"
        >
          Checkpoints
        </button>
      </div>
      <div role="tabpanel" hidden={tab !== "run"}>
        {children}
      </div>
      {tab === "checkpoints" ? <CheckpointsPanel threadId={threadId} canFork={canFork} /> : null}
    </div>
  );
}
