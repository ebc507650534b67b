import dagre from "@dagrejs/dagre";

/**
 * Auto-layout of a flow ("auto-layout (elkjs or dagre)"). Plain TypeScript: the
 * editor calls it with React Flow nodes, a unit test with plain objects.
 */

/** What the layout reads of a node: its id, where it is, and its size when measured. */
export interface LayoutNode {
  id: string;
  position: { x: number; y: number };
  /** React Flow's measured size, when the node has been rendered. */
  measured?: { width?: number; height?: number };
  width?: number;
  height?: number;
}

/** What the layout reads of an edge. */
export interface LayoutEdge {
  source: string;
  target: string;
}

export interface LayoutOptions {
  /** `LR`: ranks left to right (the editor's handles are on the left and right); `TB`: top to bottom. */
  direction?: "LR" | "TB";
  /** Gap between nodes of one rank, px. */
  nodeGap?: number;
  /** Gap between ranks, px. */
  rankGap?: number;
}

/** Size assumed for a node React Flow has not measured yet, px. */
export const DEFAULT_NODE_SIZE = { width: 180, height: 64 } as const;

function sizeOf(node: LayoutNode): { width: number; height: number } {
  return {
    width: node.measured?.width ?? node.width ?? DEFAULT_NODE_SIZE.width,
    height: node.measured?.height ?? node.height ?? DEFAULT_NODE_SIZE.height,
  };
}

/**
 * New positions for `nodes` (top-left corners in flow coordinates, px), laid out by dagre
 * in ranks along `direction` (default `LR`) from the edges between them. Nodes without any
 * edge (policies are global and take none) are put in a row under the laid-out graph
 * (`LR`) or in a column to its right (`TB`), in their input order, instead of crowding the
 * first rank. Edges whose ends are not in `nodes` are ignored. Returns copies of the nodes
 * with only `position` changed, in input order; the input is not mutated. Never throws.
 */
export function autoLayout<N extends LayoutNode>(nodes: readonly N[], edges: readonly LayoutEdge[], options: LayoutOptions = {}): N[] {
  const direction = options.direction ?? "LR";
  const nodeGap = options.nodeGap ?? 40;
  const rankGap = options.rankGap ?? 90;
  const ids = new Set(nodes.map((n) => n.id));
  const links = edges.filter((e) => ids.has(e.source) && ids.has(e.target) && e.source !== e.target);
  const linked = new Set(links.flatMap((e) => [e.source, e.target]));
  const graphNodes = nodes.filter((n) => linked.has(n.id));
  const loose = linked.size > 0 ? nodes.filter((n) => !linked.has(n.id)) : [...nodes];

  const positions = new Map<string, { x: number; y: number }>();
  let bounds = { minX: 0, minY: 0, maxX: 0, maxY: 0 };
  if (graphNodes.length > 0) {
    const g = new dagre.graphlib.Graph({ multigraph: true });
    g.setGraph({ rankdir: direction, nodesep: nodeGap, ranksep: rankGap, marginx: 0, marginy: 0 });
    g.setDefaultEdgeLabel(() => ({}));
    for (const node of graphNodes) g.setNode(node.id, sizeOf(node));
    links.forEach((e, i) => {
      g.setEdge(e.source, e.target, {}, `e${i}`);
    });
    dagre.layout(g);
    bounds = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
    for (const node of graphNodes) {
      const laid = g.node(node.id) as { x: number; y: number };
      const { width, height } = sizeOf(node);
      const x = Math.round(laid.x - width / 2);
      const y = Math.round(laid.y - height / 2);
      positions.set(node.id, { x, y });
      bounds = { minX: Math.min(bounds.minX, x), minY: Math.min(bounds.minY, y), maxX: Math.max(bounds.maxX, x + width), maxY: Math.max(bounds.maxY, y + height) };
    }
  }

  // Loose nodes: a row under the graph (LR) or a column to its right (TB).
  const hasGraph = graphNodes.length > 0;
  let cursor = direction === "LR" ? bounds.minX : bounds.minY;
  for (const node of loose) {
    const { width, height } = sizeOf(node);
    if (direction === "LR") {
      positions.set(node.id, { x: cursor, y: hasGraph ? bounds.maxY + rankGap : 0 });
      cursor += width + nodeGap;
    } else {
      positions.set(node.id, { x: hasGraph ? bounds.maxX + rankGap : 0, y: cursor });
      cursor += height + nodeGap;
    }
  }

  return nodes.map((node) => ({ ...node, position: positions.get(node.id) ?? node.position }));
}

/** Options of {@link freeSpot}. */
export interface FreeSpotOptions {
  /** Size of the node being placed, px (default DEFAULT_NODE_SIZE). */
  size?: { width: number; height: number };
  /** Space kept between the placed node and any other, px (default 16). */
  gap?: number;
  /** Distance between two candidate spots, px (default 20). */
  step?: number;
  /** Rings of candidates tried around `at` before giving up and placing it below every node (default 60). */
  rings?: number;
}

/**
 * Where to put a node that should go at `at` (its top-left corner, flow coordinates, px)
 * without covering another: `at` itself when the node's box, grown by `gap`, overlaps no
 * box of `nodes` (measured sizes when known, else DEFAULT_NODE_SIZE); else the nearest
 * free spot on a grid of `step` around it (ring by ring, nearest first, then upper-left
 * first, so the result is deterministic); else, past `rings` rings, just below the lowest
 * node. Used for nodes dropped or added from the palette (docs/architecture.md#flows-and-compilation).
 * Never throws.
 */
export function freeSpot(at: { x: number; y: number }, nodes: readonly LayoutNode[], options: FreeSpotOptions = {}): { x: number; y: number } {
  const size = options.size ?? DEFAULT_NODE_SIZE;
  const gap = options.gap ?? 16;
  const step = options.step ?? 20;
  const rings = options.rings ?? 60;
  const boxes = nodes.map((n) => ({ ...n.position, ...sizeOf(n) }));
  const free = (p: { x: number; y: number }) => boxes.every((b) => p.x + size.width + gap <= b.x || b.x + b.width + gap <= p.x || p.y + size.height + gap <= b.y || b.y + b.height + gap <= p.y);
  if (free(at)) return at;
  for (let r = 1; r <= rings; r++) {
    const ring: { x: number; y: number; d: number }[] = [];
    for (let i = -r; i <= r; i++) {
      for (let j = -r; j <= r; j++) {
        if (Math.max(Math.abs(i), Math.abs(j)) !== r) continue;
        ring.push({ x: at.x + i * step, y: at.y + j * step, d: i * i + j * j });
      }
    }
    ring.sort((a, b) => a.d - b.d || a.y - b.y || a.x - b.x);
    const hit = ring.find(free);
    if (hit) return { x: hit.x, y: hit.y };
  }
  const bottom = boxes.reduce((m, b) => Math.max(m, b.y + b.height), at.y);
  return { x: at.x, y: bottom + gap };
}
