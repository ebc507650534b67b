"use client";

import { type NodeProps, type NodeTypes, useNodesData } from "@xyflow/react";
import { Globe } from "lucide-react";
import { memo, useMemo } from "react";
import { AgentIcon } from "@/components/ui/agent-icon";
import { toolCoverage } from "@/lib/flow/coverage-memo";
import type { AgentNodeType, EditorNode, EndNodeType, HumanInputNodeType, NodeKind, PolicyNodeType, RouterNodeType, StartNodeType, SupervisorNodeType, ToolNodeType } from "@/lib/flow/react-flow";
import { describeRoute } from "@/lib/flow/router-targets";
import { ruleConditions } from "@/lib/policy/describe-rule";
import { useEditorContext } from "./editor-context";
import { KindIcon } from "./kind-icon";
import { DecisionBadge, firstLine, More, NeedsRuleBadge, NodeShell } from "./node-parts";
import styles from "./nodes.module.css";

/**
 * Custom React Flow nodes, one per document node kind, memoized. A drag
 * re-renders every node of the canvas, so nodes do no work that depends on other nodes
 * beyond cached lookups (tool coverage: lib/flow/coverage-memo.ts).
 */

/** What a Policy without rules means, as validation enforces it (lib/flow/policy-gap.ts). */
const NO_RULES = "No rules yet: a tool with side effects needs one before the flow runs.";

/** Rules and routes shown on a node; the inspector shows all of them. */
const MAX_LISTED = 6;

export const StartNode = memo(function StartNode({ id, data, selected, isConnectable }: NodeProps<StartNodeType>) {
  return (
    <NodeShell id={id} kind="start" selected={selected} connectable={isConnectable}>
      <span className={styles.terminal}>
        <KindIcon kind="start" /> {data.label}
      </span>
    </NodeShell>
  );
});

export const EndNode = memo(function EndNode({ id, data, selected, isConnectable }: NodeProps<EndNodeType>) {
  return (
    <NodeShell id={id} kind="end" selected={selected} connectable={isConnectable}>
      <span className={styles.terminal}>
        <KindIcon kind="end" /> {data.label}
      </span>
    </NodeShell>
  );
});

export const SupervisorNode = memo(function SupervisorNode({ id, data, selected, isConnectable }: NodeProps<SupervisorNodeType>) {
  return (
    <NodeShell id={id} kind="supervisor" selected={selected} connectable={isConnectable}>
      <div className={styles.nodeKind}>Supervisor · planner</div>
      <div className={styles.nodeTitle}>
        <KindIcon kind="supervisor" /> {data.name}
      </div>
      {data.instructions && (
        <div className={styles.nodeLine} title={data.instructions}>
          {firstLine(data.instructions)}
        </div>
      )}
    </NodeShell>
  );
});

export const AgentNode = memo(function AgentNode({ id, data, selected, isConnectable }: NodeProps<AgentNodeType>) {
  const reviewer = data.role === "reviewer";
  return (
    <NodeShell id={id} kind="agent" selected={selected} connectable={isConnectable} accent={data.color} className={reviewer ? styles.nodeReviewer : undefined}>
      <div className={styles.nodeKind}>
        {reviewer ? (
          <span className={styles.chip} data-testid={`flow-node-${id}-reviewer`}>
            Reviewer
          </span>
        ) : (
          <>Agent · {data.role.replaceAll("_", " ")}</>
        )}
        {data.model && <span title={`Model: ${data.model}`}>· {data.model}</span>}
      </div>
      <div className={styles.nodeTitle}>
        <AgentIcon icon={data.icon} color={data.color} /> {data.name}
      </div>
      {data.instructions && (
        <div className={styles.nodeLine} title={data.instructions}>
          {firstLine(data.instructions)}
        </div>
      )}
    </NodeShell>
  );
});

export const ToolNode = memo(function ToolNode({ id, data, selected, isConnectable }: NodeProps<ToolNodeType>) {
  const { tools, policies } = useEditorContext();
  const entry = tools.get(data.tool);
  // An unknown tool counts as having side effects, as validation and the engine treat it.
  const sideEffect = entry?.sideEffect ?? true;
  const { coverage, needsRule, line, title } = toolCoverage(policies, data.tool, sideEffect);
  // Compact: tool nodes are often stacked close together. The badge is the decision when no
  // conditional rule holds; conditional rules get one clamped line (two at most).
  return (
    <NodeShell id={id} kind="tool" selected={selected} connectable={isConnectable}>
      <div className={styles.nodeTitle} title={entry?.description}>
        <KindIcon kind="tool" /> <code>{data.tool}</code>
      </div>
      <div className={styles.badges}>
        {entry?.sideEffect && (
          <span className={styles.sideEffect} data-testid={`flow-node-${id}-side-effect`}>
            side effect
          </span>
        )}
        {!entry && <span className={styles.unknownTool}>not in catalog</span>}
        {needsRule ? <NeedsRuleBadge testId={`flow-node-${id}-decision`} title={title} /> : <DecisionBadge decision={coverage.decision} testId={`flow-node-${id}-decision`} title={title} />}
      </div>
      {line && (
        <div className={styles.coverageLine} data-testid={`flow-node-${id}-coverage`} title={title}>
          {line}
        </div>
      )}
    </NodeShell>
  );
});

/**
 * A Policy: it applies to the whole flow, so it has no handles (lib/flow/connection-rule.ts)
 * and says so. With no rules it says what validation enforces: tools without side effects
 * run, and each tool with side effects needs a rule before the flow may run.
 */
export const PolicyNode = memo(function PolicyNode({ id, data, selected, isConnectable }: NodeProps<PolicyNodeType>) {
  const shown = data.rules.slice(0, MAX_LISTED);
  return (
    <NodeShell id={id} kind="policy" selected={selected} connectable={isConnectable}>
      <div className={styles.nodeKind}>Policy</div>
      <div className={styles.nodeTitle}>
        <KindIcon kind="policy" /> {data.name}
      </div>
      <div className={styles.scope} data-testid={`flow-node-${id}-scope`}>
        <Globe size={12} aria-hidden /> Applies to the whole flow
      </div>
      {data.rules.length === 0 ? (
        <div className={styles.nodeClamp} data-testid={`flow-node-${id}-no-rules`} title={NO_RULES}>
          {NO_RULES}
        </div>
      ) : (
        <ol className={styles.ruleList}>
          {shown.map((rule, index) => (
            // Rules have no id; their position is their identity (first match wins).
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <li key={index}>
              <code>{rule.tool}</code> → <DecisionBadge decision={rule.decision} />
              <RuleConditions conditions={ruleConditions(rule)} />
            </li>
          ))}
        </ol>
      )}
      <More count={data.rules.length - shown.length} />
    </NodeShell>
  );
});

export const HumanInputNode = memo(function HumanInputNode({ id, data, selected, isConnectable }: NodeProps<HumanInputNodeType>) {
  return (
    <NodeShell id={id} kind="human_input" selected={selected} connectable={isConnectable}>
      <div className={styles.nodeKind}>Human input · waits for you</div>
      <div className={styles.nodeTitle}>
        <KindIcon kind="human_input" /> {data.name}
      </div>
      {data.prompt && (
        <div className={`${styles.nodeClamp} ${styles.prompt}`} title={data.prompt} data-testid={`flow-node-${id}-prompt`}>
          “{data.prompt}”
        </div>
      )}
    </NodeShell>
  );
});

export const RouterNode = memo(function RouterNode({ id, data, selected, isConnectable }: NodeProps<RouterNodeType>) {
  const shown = data.routes.slice(0, MAX_LISTED);
  const targetIds = useMemo(() => data.routes.slice(0, MAX_LISTED).map((r) => r.target), [data.routes]);
  // Only the target agents' data: a drag elsewhere does not re-render this node.
  const targets = useNodesData<EditorNode>(targetIds);
  const names = new Map(targets.flatMap((t) => (t.type === "agent" ? [[t.id, t.data.name] as const] : [])));
  return (
    <NodeShell id={id} kind="router" selected={selected} connectable={isConnectable}>
      <div className={styles.nodeKind}>Router</div>
      <div className={styles.nodeTitle}>
        <KindIcon kind="router" /> {data.name}
      </div>
      <ul className={styles.routeList} data-testid={`flow-node-${id}-routes`}>
        {shown.map((route, index) => {
          const text = describeRoute(route, names.get(route.target));
          return (
            // Routes have no id; their position is their identity (first match wins).
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <li key={index} title={text}>
              {text}
            </li>
          );
        })}
        {data.routes.length > shown.length && <li className={styles.more}>+{data.routes.length - shown.length} more</li>}
        <li className={styles.routeFallback}>otherwise → Planner</li>
      </ul>
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
