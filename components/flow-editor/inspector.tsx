"use client";

import { memo, type ReactNode, useCallback, useLayoutEffect, useRef } from "react";
import type { EditorEdge, EditorNode, PolicyNodeType } from "@/lib/flow/react-flow";
import { routerTargets, sameTargets } from "@/lib/flow/router-targets";
import type { FlowProblem } from "@/lib/flow/validate";
import { type CatalogTool, useEditorContext } from "./editor-context";
import { AgentForm } from "./inspector-agent";
import type { ApplyData, PendingEdit, ReportPending } from "./inspector-form";
import { HumanInputForm } from "./inspector-human-input";
import { PolicyForm } from "./inspector-policy";
import { RouterForm } from "./inspector-router";
import { SupervisorForm } from "./inspector-supervisor";
import { EndForm, StartForm } from "./inspector-terminal";
import { ToolForm } from "./inspector-tool";
import styles from "./inspector.module.css";

export type { PendingEdit } from "./inspector-form";

/** The ids of the selected nodes and edges. */
export interface Selection {
  nodes: readonly string[];
  edges: readonly string[];
}

export interface InspectorProps {
  /**
   * The flow's nodes and edges for their ids, kinds and data (positions and `selected` flags
   * may be stale: the editor passes its structure, which stays the same array while nodes
   * are dragged, so a drag does not re-render the inspector).
   */
  nodes: readonly EditorNode[];
  edges: readonly EditorEdge[];
  selection: Selection;
  tools: readonly CatalogTool[];
  /** Replaces fields of the node's data; called with every valid change as the user types. */
  onNodeData: (nodeId: string, data: EditorNode["data"]) => void;
  onDisconnect: (edgeId: string) => void;
  /**
   * Told when the selected node's form holds values that fail the node's schema (they are
   * not on the canvas: not applied until fixed), and with null when it holds none. An
   * editor can save `pending.data` in place of that node's data, so the save refuses and
   * names the field instead of silently saving the last valid values.
   */
  onPendingChange?: (pending: PendingEdit | null) => void;
  /**
   * Why this user cannot change the flow (their role), or null: every field is then
   * disabled (a disabled fieldset) and the reason is shown above them.
   */
  readOnlyReason?: string | null;
}

/**
 * The side panel: the selected node's live problems and its form (one per node kind,
 * react-hook-form with the kind's zod schema), or the selected edge with Disconnect.
 * Forms are keyed by node id, so selecting another node starts a fresh form. Read-only
 * (a role that cannot edit): the same forms, every control disabled. Memoized: it renders
 * again when the structure or the selection changes, not on every frame of a drag.
 */
export const Inspector = memo(function Inspector({ nodes, edges, selection, tools, onNodeData, onDisconnect, onPendingChange, readOnlyReason = null }: InspectorProps) {
  const one = selection.nodes.length === 1 && selection.edges.length === 0 ? selection.nodes[0] : undefined;
  const node = one === undefined ? undefined : nodes.find((n) => n.id === one);
  const oneEdge = selection.nodes.length === 0 && selection.edges.length === 1 ? selection.edges[0] : undefined;
  const edge = oneEdge === undefined ? undefined : edges.find((e) => e.id === oneEdge);
  const count = selection.nodes.length + selection.edges.length;

  // Forms apply data to the node as it is now: the flow state patches the live node.
  const latest = useRef({ onNodeData, onPendingChange });
  useLayoutEffect(() => {
    latest.current = { onNodeData, onPendingChange };
  });
  const onApply = useCallback<ApplyData>((nodeId, data) => {
    latest.current.onNodeData(nodeId, data);
  }, []);
  const onPending = useCallback<ReportPending>((nodeId, pending) => {
    latest.current.onPendingChange?.(pending ? { nodeId, ...pending } : null);
  }, []);

  let body: ReactNode;
  if (node)
    body = (
      <>
        <NodeProblems nodeId={node.id} />
        <NodeForm key={node.id} node={node} nodes={nodes} edges={edges} tools={tools} onApply={onApply} onPending={onPending} />
      </>
    );
  else if (edge) body = <EdgeFields edge={edge} nodes={nodes} onDisconnect={onDisconnect} />;
  else if (count > 1)
    body = (
      <p className={styles.hint}>
        {count} items selected.{readOnlyReason ? "" : " Press Delete to remove them."}
      </p>
    );
  else
    body = (
      <p className={styles.hint} data-testid="inspector-hint">
        {readOnlyReason ? "Select a node to see its settings." : "Select a node to edit it. Drag from a handle to connect."}
      </p>
    );

  return (
    <aside className={styles.inspector} data-testid="inspector" aria-label="Inspector">
      {readOnlyReason && (node || edge) ? (
        <p className={styles.readOnlyNote} data-testid="inspector-read-only">
          Read-only: {readOnlyReason}
        </p>
      ) : null}
      <fieldset className={styles.readOnly} disabled={readOnlyReason !== null} data-testid="inspector-fields">
        {body}
      </fieldset>
    </aside>
  );
});

interface NodeFormSwitchProps {
  node: EditorNode;
  nodes: readonly EditorNode[];
  edges: readonly EditorEdge[];
  tools: readonly CatalogTool[];
  onApply: ApplyData;
  onPending: ReportPending;
}

/** The form of the node's kind. */
function NodeForm({ node, nodes, edges, tools, onApply, onPending }: NodeFormSwitchProps) {
  const common = { nodeId: node.id, onApply, onPending };
  switch (node.type) {
    case "start":
      return <StartForm {...common} data={node.data} />;
    case "end":
      return <EndForm {...common} data={node.data} />;
    case "supervisor":
      return <SupervisorForm {...common} data={node.data} />;
    case "agent":
      return <AgentForm {...common} data={node.data} />;
    case "tool":
      return <ToolFormWithPolicies {...common} data={node.data} tools={tools} nodes={nodes} />;
    case "policy":
      return <PolicyForm {...common} data={node.data} tools={tools} />;
    case "human_input":
      return <HumanInputForm {...common} data={node.data} />;
    case "router":
      return <RouterFormWithTargets {...common} data={node.data} nodes={nodes} edges={edges} />;
  }
}

function isPolicy(node: EditorNode): node is PolicyNodeType {
  return node.type === "policy";
}

/** Policy nodes with the same ids and data objects in the same order (they only moved). */
function samePolicies(a: readonly PolicyNodeType[], b: readonly PolicyNodeType[]): boolean {
  return a.length === b.length && a.every((p, i) => p.id === b[i]?.id && p.data === b[i]?.data);
}

/** The tool form with the flow's policy nodes, the same array while no policy changes. */
function ToolFormWithPolicies({ nodes, ...props }: Omit<Parameters<typeof ToolForm>[0], "policies"> & { nodes: readonly EditorNode[] }) {
  const policies = useStable(nodes.filter(isPolicy), samePolicies);
  return <ToolForm {...props} policies={policies} />;
}

/** The router form with the agents connected from the router, the same array while they stay the same. */
function RouterFormWithTargets({ nodes, edges, ...props }: Omit<Parameters<typeof RouterForm>[0], "targets"> & { nodes: readonly EditorNode[]; edges: readonly EditorEdge[] }) {
  const targets = useStable(routerTargets(props.nodeId, nodes, edges), sameTargets);
  return <RouterForm {...props} targets={targets} />;
}

/** `value`, or the previous one while `same` says they are equal (keeps memoized children from re-rendering). */
function useStable<T>(value: T, same: (a: T, b: T) => boolean): T {
  const ref = useRef(value);
  if (ref.current !== value && !same(ref.current, value)) ref.current = value;
  return ref.current;
}

/** The live validation problems of the node (lib/flow/validate.ts), errors first. */
function NodeProblems({ nodeId }: { nodeId: string }) {
  const { problems } = useEditorContext();
  const list = problems.get(nodeId);
  if (!list || list.length === 0) return null;
  return (
    <ul className={styles.problems} data-testid="inspector-problems" aria-label="Problems of this node">
      {list.map((p: FlowProblem, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a problem list is rebuilt whole on every change
        <li key={i} className={`${styles.problem} ${styles[`problem-${p.severity}`] ?? ""}`} data-severity={p.severity}>
          <span className="sr-only">{p.severity === "error" ? "Error: " : "Warning: "}</span>
          {p.message}
          {p.field && <span className={styles.problemField}> ({p.field})</span>}
        </li>
      ))}
    </ul>
  );
}

function EdgeFields({ edge, nodes, onDisconnect }: { edge: EditorEdge; nodes: readonly EditorNode[]; onDisconnect: (edgeId: string) => void }) {
  const name = (nodeId: string) => {
    const node = nodes.find((n) => n.id === nodeId);
    return node ? nodeName(node) : nodeId;
  };
  return (
    <section className={styles.fields}>
      <h2 className={styles.inspectorTitle}>Connection</h2>
      <p>
        {name(edge.source)} → {name(edge.target)}
      </p>
      <button type="button" className={styles.danger} data-testid="edge-disconnect" onClick={() => onDisconnect(edge.id)}>
        Disconnect
      </button>
    </section>
  );
}

function nodeName(node: EditorNode): string {
  switch (node.type) {
    case "start":
    case "end":
      return node.data.label;
    case "tool":
      return node.data.tool;
    default:
      return node.data.name;
  }
}
