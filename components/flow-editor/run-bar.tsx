"use client";

import { StartRunForm } from "@/components/run/start-run-form";
import type { EditorNode } from "@/lib/flow/react-flow";
import { type FlowProblem, notRunnableReason } from "@/lib/flow/validate";
import styles from "./flow-editor.module.css";

/** Why the Run button is disabled while the canvas has edits the run would not see. */
export const SAVE_FIRST = "Save first: the run uses the saved version.";

/**
 * Why the flow cannot run now, or undefined: validation errors first (invalid
 * flows cannot be run), then unsaved changes (a run pins the latest saved version).
 * @param dirty the canvas has unsaved edits a run would see; a change of node positions
 *   only (a drag, an auto-layout) is not one, as the saved version runs the same.
 */
export function runBlockedReason(problems: readonly FlowProblem[], dirty: boolean): string | undefined {
  const invalid = notRunnableReason(problems);
  if (invalid) return `Fix the flow first: ${invalid}`;
  return dirty ? SAVE_FIRST : undefined;
}

export interface RunBarProps {
  flowId: string;
  nodes: readonly EditorNode[];
  reason: string | undefined;
  /** The task the form starts with (templates/index.ts suggestedTask; empty for a Blank flow). */
  defaultTask?: string;
}

/**
 * "Run this flow" above the editor: the run form (directed mode offers the flow's agents),
 * disabled with its reason shown while the user's role cannot run, or the canvas is invalid
 * or unsaved.
 */
export function RunBar({ flowId, nodes, reason, defaultTask }: RunBarProps) {
  // Options of a <select> hold text only: the agent icons (SVG) are left out of them.
  const agents = nodes.flatMap((n) => (n.type === "agent" ? [{ id: n.id, name: n.data.name, icon: "" }] : []));
  return (
    <div className="editor-run card">
      <strong>Run this flow</strong> <span className="muted small">(runs the latest saved version)</span>
      <StartRunForm flowId={flowId} agents={agents} disabledReason={reason} {...(defaultTask === undefined ? {} : { defaultTask })} />
      {reason && (
        <output className={styles.runBlocked} data-testid="run-blocked-reason" title={reason}>
          {reason}
        </output>
      )}
    </div>
  );
}
