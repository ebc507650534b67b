"use client";

import "@xyflow/react/dist/style.css";
import { Background, type Edge, Handle, MarkerType, type Node, type NodeProps, type NodeTypes, Position, ReactFlow } from "@xyflow/react";
import { memo, useMemo } from "react";
import { type DiffGraphEdge, type DiffGraphNode, type EdgeChangeKind, type NodeChangeKind, nodeLabel } from "@/lib/flow/diff";
import { KIND_LABEL } from "./format";
import styles from "./versions.module.css";

/** What a node of the compare canvas shows. */
type DiffNodeData = { docId: string; kind: string; label: string; change: NodeChangeKind };
type DiffNodeType = Node<DiffNodeData, "diff">;

const CHANGE_LABEL: Record<NodeChangeKind, string> = { added: "added", removed: "removed", changed: "changed", moved: "moved", unchanged: "" };

/** One node, colored by its change (read-only: handles only anchor the edges). */
const DiffNode = memo(function DiffNode({ data }: NodeProps<DiffNodeType>) {
  return (
    <div className={styles.node} data-testid={`diff-node-${data.docId}`} data-change={data.change} title={`${data.kind} ${data.docId}`}>
      <Handle type="target" position={Position.Left} isConnectable={false} />
      <div className={styles.nodeKind}>{data.kind}</div>
      <div className={styles.nodeTitle}>{data.label}</div>
      {data.change !== "unchanged" ? <span className={styles.nodeBadge}>{CHANGE_LABEL[data.change]}</span> : null}
      <Handle type="source" position={Position.Right} isConnectable={false} />
    </div>
  );
});

/** Defined outside any component. */
const nodeTypes: NodeTypes = { diff: DiffNode };

const EDGE_COLOR: Record<EdgeChangeKind, string> = { added: "#2e7d32", removed: "#c62828", changed: "#e08a00", unchanged: "#8a8f99" };

function toEdge(e: DiffGraphEdge): Edge {
  const color = EDGE_COLOR[e.change];
  return {
    id: e.key,
    source: e.source,
    target: e.target,
    className: `diff-edge-${e.change}`,
    style: { stroke: color, strokeWidth: e.change === "unchanged" ? 1.5 : 2.5, ...(e.change === "removed" ? { strokeDasharray: "6 4", opacity: 0.7 } : {}) },
    markerEnd: { type: MarkerType.ArrowClosed, color },
    ariaLabel: `edge ${e.edge.source} to ${e.edge.target}: ${e.change}`,
  };
}

/**
 * The visual diff of two versions: a read-only React Flow canvas of the "to"
 * version plus the removed nodes and edges as ghosts, each colored by its change, with a
 * legend. `graph` comes from `diffGraph` in lib/flow/diff.ts.
 */
export function DiffCanvas({ graph }: { graph: { nodes: DiffGraphNode[]; edges: DiffGraphEdge[] } }) {
  const nodes = useMemo(
    () =>
      graph.nodes.map(
        (n): DiffNodeType => ({
          id: n.key,
          type: "diff",
          position: n.node.position,
          data: { docId: n.node.id, kind: KIND_LABEL[n.node.type] ?? n.node.type, label: nodeLabel(n.node), change: n.change },
          // Ghosts below the current nodes.
          zIndex: n.change === "removed" ? 0 : 1,
        }),
      ),
    [graph.nodes],
  );
  const edges = useMemo(() => graph.edges.map(toEdge), [graph.edges]);
  return (
    <div>
      <div className={styles.canvas} data-testid="diff-canvas">
        <ReactFlow<DiffNodeType, Edge>
          nodes={nodes}
          edges={edges}
          nodeTypes={nodeTypes}
          nodesDraggable={false}
          nodesConnectable={false}
          elementsSelectable={false}
          edgesFocusable={false}
          colorMode="system"
          fitView
          minZoom={0.2}
        >
          <Background />
        </ReactFlow>
      </div>
      <DiffLegend />
    </div>
  );
}

/** The colors of the canvas, in words. */
export function DiffLegend() {
  const items: [NodeChangeKind, string][] = [
    ["added", "added"],
    ["removed", "removed (ghost)"],
    ["changed", "changed"],
    ["moved", "moved only"],
    ["unchanged", "unchanged"],
  ];
  return (
    <ul className={styles.legend} data-testid="diff-legend" aria-label="Legend">
      {items.map(([change, text]) => (
        <li key={change}>
          <span className={styles.swatch} data-change={change} aria-hidden="true" />
          {text}
        </li>
      ))}
    </ul>
  );
}
