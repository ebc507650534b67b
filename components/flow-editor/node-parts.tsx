"use client";

import { Handle, Position } from "@xyflow/react";
import { CircleAlert, CircleX } from "lucide-react";
import { type CSSProperties, memo, type ReactNode, useMemo } from "react";
import { handlesOf } from "@/lib/flow/connection-rule";
import type { NodeKind } from "@/lib/flow/react-flow";
import type { Decision } from "@/lib/flow/schema";
import type { FlowProblem } from "@/lib/flow/validate";
import { useEditorContext } from "./editor-context";
import styles from "./nodes.module.css";

/** The frame every custom node shares: handles, accent colour, selection and problems. */

export interface NodeShellProps {
  id: string;
  kind: NodeKind;
  selected: boolean;
  /** React Flow's `isConnectable` for the node: false in a read-only editor, so no drag starts from its handles. */
  connectable: boolean;
  /** The top border's colour (an agent's colour). */
  accent?: string;
  className?: string;
  children: ReactNode;
}

/**
 * A node's frame (`flow-node-{id}`): its handles, its live problems as a badge
 * (`node-problems-{id}`, red for errors, amber for warnings, the messages as its title)
 * and an outline in the same colour. The handles follow the connection rule
 * (lib/flow/connection-rule.ts `handlesOf`): a target handle on the left only when some
 * kind may connect to this one, a source handle on the right only when this kind may
 * connect to something; a Policy has none.
 */
export function NodeShell({ id, kind, selected, connectable, accent, className, children }: NodeShellProps) {
  const { problems } = useEditorContext();
  const list = problems.get(id);
  const summary = useMemo(() => summarize(list), [list]);
  const style = accent ? ({ "--node-accent": accent } as CSSProperties) : undefined;
  const classes = [styles.node, styles[`node-${kind}`], selected ? styles.nodeSelected : "", summary ? styles[`nodeHas-${summary.severity}`] : "", className ?? ""];
  return (
    <div data-testid={`flow-node-${id}`} data-kind={kind} className={classes.filter(Boolean).join(" ")} style={style}>
      {HANDLES[kind].target && <Handle type="target" position={Position.Left} isConnectable={connectable} isConnectableStart={connectable} isConnectableEnd={connectable} />}
      {summary && <ProblemBadge nodeId={id} severity={summary.severity} count={summary.count} title={summary.title} />}
      {children}
      {HANDLES[kind].source && <Handle type="source" position={Position.Right} isConnectable={connectable} isConnectableStart={connectable} isConnectableEnd={connectable} />}
    </div>
  );
}

/** Each kind's handles, worked out once. */
const HANDLES = Object.fromEntries((["start", "end", "supervisor", "agent", "tool", "policy", "human_input", "router"] as const).map((k) => [k, handlesOf(k)])) as Record<
  NodeKind,
  { source: boolean; target: boolean }
>;

interface ProblemSummary {
  severity: FlowProblem["severity"];
  count: number;
  title: string;
}

/** The worst severity, the count and the messages (one a line) of a node's problems; null with none. */
function summarize(list: readonly FlowProblem[] | undefined): ProblemSummary | null {
  if (!list || list.length === 0) return null;
  const severity = list.some((p) => p.severity === "error") ? "error" : "warning";
  return { severity, count: list.length, title: list.map((p) => p.message).join("\n") };
}

/** The problem badge: a crossed circle for errors, an exclamation for warnings, and how many; the messages in the tooltip. */
const ProblemBadge = memo(function ProblemBadge({ nodeId, severity, count, title }: { nodeId: string } & ProblemSummary) {
  return (
    <span className={styles.problemBadge} data-testid={`node-problems-${nodeId}`} data-severity={severity} title={title}>
      {severity === "error" ? <CircleX size={12} aria-hidden /> : <CircleAlert size={12} aria-hidden />}
      {count > 1 ? count : ""}
      <span className="sr-only">
        {count} {severity === "error" ? "error" : "warning"}
        {count === 1 ? "" : "s"}: {title}
      </span>
    </span>
  );
});

/** A policy decision as a coloured pill. */
export function DecisionBadge({ decision, testId, title }: { decision: Decision; testId?: string; title?: string }) {
  return (
    <span className={`${styles.decision} ${styles[`decision-${decision}`] ?? ""}`} data-testid={testId} title={title}>
      {decision}
    </span>
  );
}

/**
 * In place of a decision, for a tool with side effects that no policy rule covers: the flow
 * cannot run until one does (lib/flow/policy-gap.ts), so no decision is shown as if it held.
 */
export function NeedsRuleBadge({ testId, title }: { testId?: string; title?: string }) {
  return (
    <span className={`${styles.decision} ${styles.needsRule}`} data-testid={testId} data-decision="none" title={title}>
      needs a rule
    </span>
  );
}

/** "+N more" under a list cut short on the canvas (the inspector shows them all). */
export function More({ count }: { count: number }) {
  return count > 0 ? <div className={styles.more}>+{count} more</div> : null;
}

/** The first line of a text, for one-line previews. */
export function firstLine(text: string): string {
  return text.split("\n", 1)[0] ?? "";
}
