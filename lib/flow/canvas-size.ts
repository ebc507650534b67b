import { type Node, type NodeHandle, Position } from "@xyflow/react";
import { handlesOf } from "./connection-rule";
import type { EditorNode, NodeKind } from "./react-flow";

/**
 * Sizes the editor assumes for nodes it has not drawn yet (docs/benchmarks.md, bench:canvas).
 *
 * React Flow draws every node once before it knows its size: with `onlyRenderVisibleElements`
 * a node without measured dimensions and handle bounds counts as visible, so opening a
 * 1,000-node flow mounted, measured and unmounted all 1,000 nodes before the view could be
 * fitted. A node that arrives with an estimated size and its handles (as React Flow's own
 * server-side rendering expects) is drawn only once it is on screen; React Flow measures it
 * then, and the measurement replaces the estimate (`dropEstimatedHandles`). Until then the
 * estimate serves fitting the view, the minimap, layout and the ends of edges to nodes out
 * of sight. Plain TypeScript: unit-tested without a browser.
 */

/** Width and height in px at zoom 1, per node kind: the common case drawn by components/flow-editor/nodes.tsx. */
export const ESTIMATED_NODE_SIZE: Readonly<Record<NodeKind, { width: number; height: number }>> = {
  start: { width: 80, height: 32 },
  end: { width: 76, height: 32 },
  supervisor: { width: 220, height: 78 },
  agent: { width: 220, height: 78 },
  tool: { width: 160, height: 57 },
  policy: { width: 220, height: 150 },
  human_input: { width: 220, height: 80 },
  router: { width: 220, height: 110 },
};

/** React Flow's default handle size in px (its stylesheet's `.react-flow__handle`). */
const HANDLE_PX = 6;

/**
 * The handles a node of `kind` draws (the connection rule's `handlesOf`): a target on the
 * middle of the left side and a source on the middle of the right side, each centred on the
 * border, as React Flow's stylesheet places `Position.Left` / `Position.Right` handles.
 * Coordinates are relative to the node's top-left corner, px at zoom 1.
 */
export function estimatedHandles(kind: NodeKind, size: { width: number; height: number }): NodeHandle[] {
  const { source, target } = handlesOf(kind);
  const y = size.height / 2 - HANDLE_PX / 2;
  const out: NodeHandle[] = [];
  if (target) out.push({ id: null, type: "target", position: Position.Left, x: -HANDLE_PX / 2, y, width: HANDLE_PX, height: HANDLE_PX });
  if (source) out.push({ id: null, type: "source", position: Position.Right, x: size.width - HANDLE_PX / 2, y, width: HANDLE_PX, height: HANDLE_PX });
  return out;
}

/**
 * `nodes` with an estimated `measured` size and `handles` on every node React Flow has not
 * measured (no `measured` width and height); measured nodes are returned as they are (the
 * same objects). For a freshly loaded or imported document, before the first render.
 */
export function withEstimatedSizes(nodes: readonly EditorNode[]): EditorNode[] {
  return nodes.map((node) => {
    if (node.measured?.width && node.measured.height) return node;
    const size = ESTIMATED_NODE_SIZE[node.type];
    return { ...node, measured: { ...size }, handles: estimatedHandles(node.type, size) };
  });
}

/**
 * `nodes` without the estimated `handles` of the nodes whose ids are in `measured` (React
 * Flow has just measured them): from then on React Flow keeps the handle bounds it measured
 * in the DOM, where an estimated `handles` list would override them on every later change of
 * the node. Returns `nodes` itself when no node changes.
 */
export function dropEstimatedHandles<N extends Node>(nodes: N[], measured: ReadonlySet<string>): N[] {
  if (measured.size === 0) return nodes;
  let changed = false;
  const out = nodes.map((node) => {
    if (node.handles === undefined || !measured.has(node.id)) return node;
    changed = true;
    const { handles: _estimated, ...rest } = node;
    return rest as N;
  });
  return changed ? out : nodes;
}
