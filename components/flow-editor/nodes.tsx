"use client";

import { Handle, type NodeProps, type NodeTypes, Position } from "@xyflow/react";
import { type CSSProperties, memo, type ReactNode } from "react";
import {
  type AgentNodeType,
  describeCoverage,
  type EndNodeType,
  type HumanInputNodeType,
  type NodeKind,
  type PolicyNodeType,
  policyCoverage,
  type RouterNodeType,
  type StartNodeType,
  type SupervisorNodeType,
  type ToolNodeType,
} from "@/lib/flow/react-flow";
import type { Decision } from "@/lib/flow/schema";
import { ruleConditions } from "@/lib/policy/describe-rule";
import { useEditorContext } from "./editor-context";
import styles from "./flow-editor.module.css";

/** Custom React Flow nodes, one per document node kind (STYLE.md rule 8). */

interface ShellProps {
  id: string;
  kind: NodeKind;
  selected: boolean;
  /** Which handles the node has: target on the left, source on the right. */
  handles: "both" | "source" | "target";
  accent?: string;
  children: ReactNode;
}

function NodeShell({ id, kind, selected, handles, accent, children }: ShellProps) {
  const style = accent ? ({ "--node-accent": accent } as CSSProperties) : undefined;
  return (
    <div
      data-testid={`flow-node-${id}`}
      data-kind={kind}
      className={`${styles.node} ${styles[`node-${kind}`] ?? ""} ${selected ? styles.nodeSelected : ""}`}
      style={style}
    >
      {handles !== "source" && <Handle type="target" position={Position.Left} />}
      {children}
      {handles !== "target" && <Handle type="source" position={Position.Right} />}
    </div>
  );
}

function DecisionBadge({ decision, testId, title }: { decision: Decision; testId?: string; title?: string }) {
  return (
    <span className={`${styles.decision} ${styles[`decision-${decision}`] ?? ""}`} data-testid={testId} title={title}>
      {decision}
    </span>
  );
}

export const StartNode = memo(function StartNode({ id, data, selected }: NodeProps<StartNodeType>) {
  return (
    <NodeShell id={id} kind="start" selected={selected} handles="source">
      <span className={styles.terminal}>▶ {data.label}</span>
    </NodeShell>
  );
});

export const EndNode = memo(function EndNode({ id, data, selected }: NodeProps<EndNodeType>) {
  return (
    <NodeShell id={id} kind="end" selected={selected} handles="target">
      <span className={styles.terminal}>■ {data.label}</span>
    </NodeShell>
  );
});

export const SupervisorNode = memo(function SupervisorNode({ id, data, selected }: NodeProps<SupervisorNodeType>) {
  return (
    <NodeShell id={id} kind="supervisor" selected={selected} handles="both">
      <div className={styles.nodeKind}>Supervisor</div>
      <div className={styles.nodeTitle}><span aria-hidden="true">🧭</span> {data.name}</div>
      {data.instructions && <div className={styles.nodeLine}>{firstLine(data.instructions)}</div>}
    </NodeShell>
  );
});

export const AgentNode = memo(function AgentNode({ id, data, selected }: NodeProps<AgentNodeType>) {
  return (
    <NodeShell id={id} kind="agent" selected={selected} handles="both" accent={data.color}>
      <div className={styles.nodeKind}>Agent · {data.role.replaceAll("_", " ")}</div>
      <div className={styles.nodeTitle}>
        <span aria-hidden="true">{data.icon}</span> {data.name}
      </div>
      {data.instructions && <div className={styles.nodeLine}>{firstLine(data.instructions)}</div>}
    </NodeShell>
  );
});

export const ToolNode = memo(function ToolNode({ id, data, selected }: NodeProps<ToolNodeType>) {
  const { tools, policies } = useEditorContext();
  const entry = tools.get(data.tool);
  const sideEffect = entry?.sideEffect ?? false;
  const coverage = policyCoverage({ nodes: policies }, data.tool, sideEffect);
  const { line, title } = describeCoverage(coverage, sideEffect);
  // Compact: tool nodes are often stacked close together. The badge is the decision when no
  // conditional rule holds; conditional rules get one clamped line (two at most).
  return (
    <NodeShell id={id} kind="tool" selected={selected} handles="both">
      <div className={styles.nodeTitle} title={entry?.description}>
        <span aria-hidden="true">🔧</span> <code>{data.tool}</code>
      </div>
      <div className={styles.badges}>
        {sideEffect && (
          <span className={styles.sideEffect} data-testid={`flow-node-${id}-side-effect`}>
            side effect
          </span>
        )}
        {!entry && <span className={styles.unknownTool}>not in catalog</span>}
        <DecisionBadge decision={coverage.decision} testId={`flow-node-${id}-decision`} title={title} />
      </div>
      {line && (
        <div className={styles.coverageLine} data-testid={`flow-node-${id}-coverage`} title={title}>
          {line}
        </div>
      )}
    </NodeShell>
  );
});

export const PolicyNode = memo(function PolicyNode({ id, data, selected }: NodeProps<PolicyNodeType>) {
  return (
    <NodeShell id={id} kind="policy" selected={selected} handles="both">
      <div className={styles.nodeKind}>Policy</div>
      <div className={styles.nodeTitle}><span aria-hidden="true">🛡</span> {data.name}</div>
      {data.rules.length === 0 ? (
        <div className={styles.nodeLine}>No rules: defaults apply.</div>
      ) : (
        <ol className={styles.ruleList}>
          {data.rules.map((rule, index) => (
            // Rules have no id; their position is their identity (first match wins).
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <li key={index}>
              <code>{rule.tool}</code> → <DecisionBadge decision={rule.decision} />
              <RuleConditions conditions={ruleConditions(rule)} />
            </li>
          ))}
        </ol>
      )}
    </NodeShell>
  );
});

export const HumanInputNode = memo(function HumanInputNode({ id, data, selected }: NodeProps<HumanInputNodeType>) {
  return (
    <NodeShell id={id} kind="human_input" selected={selected} handles="both">
      <div className={styles.nodeKind}>Human input</div>
      <div className={styles.nodeTitle}>
        <span aria-hidden="true">🙋</span> {data.name}
      </div>
      <div className={styles.nodeLine}>{firstLine(data.prompt)}</div>
    </NodeShell>
  );
});

export const RouterNode = memo(function RouterNode({ id, data, selected }: NodeProps<RouterNodeType>) {
  return (
    <NodeShell id={id} kind="router" selected={selected} handles="both">
      <div className={styles.nodeKind}>Router</div>
      <div className={styles.nodeTitle}>
        <span aria-hidden="true">🔀</span> {data.name}
      </div>
      <div className={styles.nodeLine}>
        {data.routes.length} route{data.routes.length === 1 ? "" : "s"}; otherwise the Planner
      </div>
    </NodeShell>
  );
});

/** A rule's matchers and permission on one clamped line; the full text in the tooltip. */
function RuleConditions({ conditions }: { conditions: string }) {
  if (!conditions) return null;
  return (
    <div className={styles.ruleCond} title={conditions}>
      if {conditions}
    </div>
  );
}

function firstLine(text: string): string {
  return text.split("\n", 1)[0] ?? "";
}

/** Node components by document node kind; module level so React Flow never remounts them. */
export const nodeTypes = {
  start: StartNode,
  end: EndNode,
  supervisor: SupervisorNode,
  agent: AgentNode,
  tool: ToolNode,
  policy: PolicyNode,
  human_input: HumanInputNode,
  router: RouterNode,
} satisfies NodeTypes & Record<NodeKind, unknown>;
