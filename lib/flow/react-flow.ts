import type { Edge, Node } from "@xyflow/react";
import type { Decision, FlowDocument, FlowEdge, FlowNode } from "./schema";

/**
 * The flow document as React Flow sees it, and back (SPEC.md 1). Plain TypeScript: the
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

/** A React Flow node of the editor: a union discriminated by `type` (STYLE.md rule 8). */
export type EditorNode =
  | StartNodeType
  | EndNodeType
  | SupervisorNodeType
  | AgentNodeType
  | ToolNodeType
  | PolicyNodeType;

/** A React Flow edge of the editor; edges carry no data. */
export type EditorEdge = Edge;

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
export function fromReactFlow(
  settings: FlowDocument["settings"],
  nodes: readonly EditorNode[],
  edges: readonly EditorEdge[],
): FlowDocument {
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

/** Which policy rule decides a tool; `policyId` and `ruleIndex` are null when the default applied. */
export interface PolicyCoverage {
  decision: Decision;
  policyId: string | null;
  ruleIndex: number | null;
}

/**
 * Decides a tool by the flow's policy rules: policy nodes in document order, rules in
 * order, the first rule whose tool is `toolName` or `*` wins. With no match, a tool with
 * side effects (per the tool catalog) needs approval, others are allowed (SPEC.md 4; the
 * same rule as `lib/policy/decide-tool.ts`, here with the catalog's side-effect flag and
 * the position of the deciding rule, for the editor). Accepts document or React Flow nodes.
 */
export function policyCoverage(
  doc: { nodes: readonly (FlowNode | EditorNode)[] },
  toolName: string,
  sideEffect: boolean,
): PolicyCoverage {
  for (const node of doc.nodes) {
    if (node.type !== "policy") continue;
    const ruleIndex = node.data.rules.findIndex((r) => r.tool === toolName || r.tool === "*");
    if (ruleIndex >= 0) {
      const rule = node.data.rules[ruleIndex];
      if (rule) return { decision: rule.decision, policyId: node.id, ruleIndex };
    }
  }
  return { decision: sideEffect ? "AUTH_REQUIRED" : "ALLOW", policyId: null, ruleIndex: null };
}
