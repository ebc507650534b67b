import type { Edge, Node } from "@xyflow/react";
import { ruleConditions } from "../policy/describe-rule";
import { toolMatches } from "../policy/tool-pattern";
import type { Decision, FlowDocument, FlowEdge, FlowNode } from "./schema";

/**
 * The flow document as React Flow sees it, and back (docs/architecture.md#flows-and-compilation). Plain TypeScript: the
 * editor imports it, and a unit test runs it without a browser.
 */

/** The node kinds of a flow document, which are also React Flow node types. */
export type NodeKind = FlowNode["type"];
/** The `data` of a document node of one kind. */
export type NodeData<K extends NodeKind> = Extract<FlowNode, { type: K }>["data"];

export type StartNodeType = Node<NodeData<"start">, "start">;
export type EndNodeType = Node<NodeData<"end">, "end">;
export type SupervisorNodeType = Node<NodeData<"supervisor">, "supervisor">;
export type AgentNodeType = Node<NodeData<"agent">, "agent">;
export type ToolNodeType = Node<NodeData<"tool">, "tool">;
export type PolicyNodeType = Node<NodeData<"policy">, "policy">;
export type HumanInputNodeType = Node<NodeData<"human_input">, "human_input">;
export type RouterNodeType = Node<NodeData<"router">, "router">;

/** A React Flow node of the editor: a union discriminated by `type`. */
export type EditorNode = StartNodeType | EndNodeType | SupervisorNodeType | AgentNodeType | ToolNodeType | PolicyNodeType | HumanInputNodeType | RouterNodeType;

/** A React Flow edge of the editor; edges carry no data. */
export type EditorEdge = Edge;

/** A copy of an editor node with some of its data fields replaced (the inspector's edits). */
export function withData<N extends EditorNode>(node: N, patch: Partial<N["data"]>): N {
  return { ...node, data: { ...node.data, ...patch } };
}

/**
 * Turns a flow document into React Flow nodes and edges. Nodes keep the document's id,
 * type, position and data (deep-copied, so editing never touches the input document).
 */
export function toReactFlow(doc: FlowDocument): { nodes: EditorNode[]; edges: EditorEdge[] } {
  return {
    nodes: doc.nodes.map((node): EditorNode => structuredClone(node)),
    edges: doc.edges.map((e) => ({ id: e.id, source: e.source, target: e.target })),
  };
}

/**
 * Builds a flow document from React Flow state, keeping only what the schema knows: node
 * id, type, position ({x, y} in flow coordinates) and data; edge id, source and target.
 * React Flow's own fields (selected, measured, handles...) are dropped. Does not validate:
 * run `FlowDocument.safeParse` on the result before saving.
 */
export function fromReactFlow(settings: FlowDocument["settings"], nodes: readonly EditorNode[], edges: readonly EditorEdge[]): FlowDocument {
  return {
    version: 1,
    settings,
    nodes: nodes.map(toDocumentNode),
    edges: edges.map((e): FlowEdge => ({ id: e.id, source: e.source, target: e.target })),
  };
}

function toDocumentNode(node: EditorNode): FlowNode {
  const base = { id: node.id, position: { x: node.position.x, y: node.position.y } };
  switch (node.type) {
    case "start":
      return { ...base, type: node.type, data: node.data };
    case "end":
      return { ...base, type: node.type, data: node.data };
    case "supervisor":
      return { ...base, type: node.type, data: node.data };
    case "agent":
      return { ...base, type: node.type, data: node.data };
    case "tool":
      return { ...base, type: node.type, data: node.data };
    case "policy":
      return { ...base, type: node.type, data: node.data };
    case "human_input":
      return { ...base, type: node.type, data: node.data };
    case "router":
      return { ...base, type: node.type, data: node.data };
  }
}

/**
 * A fresh edge id `e-${source}-${target}-${n}`, with the smallest n >= 1 that no edge in
 * `edges` already uses.
 */
export function nextEdgeId(edges: readonly { id: string }[], source: string, target: string): string {
  const taken = new Set(edges.map((e) => e.id));
  let n = 1;
  while (taken.has(`e-${source}-${target}-${n}`)) n++;
  return `e-${source}-${target}-${n}`;
}

/** A conditional rule (argument matchers or a specific permission) met before the fallback. */
export interface CoverageCondition {
  policyId: string;
  policyName: string;
  /** 0-based position of the rule in its policy node. */
  ruleIndex: number;
  decision: Decision;
  /** The rule's conditions in words, e.g. `path matches docs/** and permission admin`. */
  when: string;
}

/**
 * Which policy rules decide a tool, as the editor can tell without the call's arguments.
 * `decision`, `policyId`, `policyName` and `ruleIndex` describe the fallback: the first
 * unconditional rule that covers the tool (ids null when the default applies). `conditions`
 * are the conditional rules that cover the tool and come first, in order: one of them
 * decides instead whenever its conditions hold.
 */
export interface PolicyCoverage {
  decision: Decision;
  policyId: string | null;
  policyName: string | null;
  ruleIndex: number | null;
  conditions: CoverageCondition[];
}

/**
 * Decides a tool by the flow's policy rules without arguments, for the editor
 * (docs/architecture.md#policies; the same order as `lib/policy/evaluate-policy.ts`): policy nodes in document order,
 * rules in order, rules whose tool pattern covers `toolName` (`*`, `*_file`: see
 * `toolMatches`). Rules with argument matchers or a specific permission level are collected
 * as `conditions` and the scan goes on; the first unconditional rule is the fallback. With
 * none, a tool with side effects (per the tool catalog) needs approval, others are allowed.
 * Accepts document or React Flow nodes.
 */
export function policyCoverage(doc: { nodes: readonly (FlowNode | EditorNode)[] }, toolName: string, sideEffect: boolean): PolicyCoverage {
  const conditions: CoverageCondition[] = [];
  for (const node of doc.nodes) {
    if (node.type !== "policy") continue;
    for (const [ruleIndex, rule] of node.data.rules.entries()) {
      if (!toolMatches(rule.tool, toolName)) continue;
      const when = ruleConditions(rule);
      const at = { policyId: node.id, policyName: node.data.name, ruleIndex };
      if (!when) return { decision: rule.decision, ...at, conditions };
      conditions.push({ ...at, decision: rule.decision, when });
    }
  }
  const decision = sideEffect ? "AUTH_REQUIRED" : "ALLOW";
  return { decision, policyId: null, policyName: null, ruleIndex: null, conditions };
}

/**
 * Coverage in words for a tool node: `line` is the short text shown on the node (null when
 * no conditional rule applies, the decision badge then says it all), e.g.
 * `policy File safety rule 2 when path matches docs/** → ALLOW; otherwise AUTH_REQUIRED`;
 * `title` is the full detail for the tooltip, one rule a line.
 */
export function describeCoverage(coverage: PolicyCoverage, sideEffect: boolean): { line: string | null; title: string } {
  const fallback =
    coverage.policyName !== null && coverage.ruleIndex !== null
      ? `policy "${coverage.policyName}", rule ${coverage.ruleIndex + 1}`
      : `the default for tools ${sideEffect ? "with" : "without"} side effects`;
  const [first, ...more] = coverage.conditions;
  if (!first) {
    const title = coverage.policyId !== null ? `Decided by ${fallback}` : `No rule matches: ${fallback}`;
    return { line: null, title };
  }
  const extra = more.length > 0 ? `; +${more.length} more` : "";
  const line = `policy ${first.policyName} rule ${first.ruleIndex + 1} when ${first.when} → ${first.decision}${extra}; otherwise ${coverage.decision}`;
  const title = [...coverage.conditions.map((c) => `Policy "${c.policyName}", rule ${c.ruleIndex + 1}, when ${c.when} → ${c.decision}`), `Otherwise ${fallback} → ${coverage.decision}`].join("\n");
  return { line, title };
}
