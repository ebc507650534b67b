import { z } from "zod";
import { nextNodeId } from "./node-defaults";
import { type EditorEdge, type EditorNode, fromReactFlow, nextEdgeId } from "./react-flow";
import { DEFAULT_NETWORK_AND_MEMORY, type FlowDocument, FlowEdge, FlowNode } from "./schema";

/**
 * Copy and paste of nodes ("copy/paste"): what is copied, how it is written as
 * text for the system clipboard, and how a paste gets fresh ids. Plain TypeScript.
 */

/** Marks clipboard text written by the editor. */
export const CLIPBOARD_KIND = "phylactery/flow-nodes";

// fromReactFlow builds a whole document; only its nodes and edges are kept.
const UNUSED_SETTINGS: FlowDocument["settings"] = {
  name: "clipboard",
  description: "",
  mode: "autonomous",
  model: "",
  limits: { maxIterations: 50, timeoutMs: 300_000 },
  ...DEFAULT_NETWORK_AND_MEMORY,
};

/** Copied nodes (document form) and the edges between them. */
export interface NodeClipboard {
  kind: typeof CLIPBOARD_KIND;
  nodes: FlowNode[];
  edges: FlowEdge[];
}

/**
 * The nodes whose ids are in `ids`, in document form (React Flow's own fields dropped), and
 * the edges with both ends among them. Null when no node is picked.
 */
export function copyNodes(nodes: readonly EditorNode[], edges: readonly EditorEdge[], ids: ReadonlySet<string>): NodeClipboard | null {
  const picked = nodes.filter((n) => ids.has(n.id));
  if (picked.length === 0) return null;
  const inner = edges.filter((e) => ids.has(e.source) && ids.has(e.target));
  const doc = fromReactFlow(UNUSED_SETTINGS, picked, inner);
  return { kind: CLIPBOARD_KIND, nodes: structuredClone(doc.nodes), edges: doc.edges };
}

const Pasted = z.object({ nodes: z.array(FlowNode).min(1).max(5000), edges: z.array(FlowEdge).max(20_000).default([]) });

/**
 * Reads clipboard text: the editor's own copies, and also a whole exported flow document
 * (its nodes and edges). Nodes must pass the schema; edges not between the nodes are
 * dropped. Null when the text is anything else. Never throws.
 */
export function readClipboard(text: string): NodeClipboard | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = Pasted.safeParse(raw);
  if (!parsed.success) return null;
  const ids = new Set(parsed.data.nodes.map((n) => n.id));
  if (ids.size !== parsed.data.nodes.length) return null;
  return { kind: CLIPBOARD_KIND, nodes: parsed.data.nodes, edges: parsed.data.edges.filter((e) => ids.has(e.source) && ids.has(e.target)) };
}

/** `agent-3` -> `agent`, `writer` -> `writer`: the stem a copy's id is numbered from. */
function stemOf(id: string): string {
  return id.replace(/-\d+$/, "") || "node";
}

/**
 * The clipboard's nodes and edges ready to add to a flow: every node gets a fresh id
 * (`{stem}-{n}`, `nextNodeId`) not in `takenNodeIds`, moved by `offset` (flow px); edges
 * get fresh ids (`nextEdgeId`) against `takenEdges` and follow their nodes' new ids, and so
 * do router routes that target a pasted node. Does not mutate its input.
 */
export function pasteNodes(
  clip: NodeClipboard,
  takenNodeIds: ReadonlySet<string>,
  takenEdges: readonly { id: string }[],
  offset: { x: number; y: number },
): { nodes: EditorNode[]; edges: EditorEdge[] } {
  const taken = new Set(takenNodeIds);
  const ids = new Map<string, string>();
  for (const node of clip.nodes) {
    const id = nextNodeId(stemOf(node.id), taken);
    taken.add(id);
    ids.set(node.id, id);
  }
  const nodes = clip.nodes.map((node): EditorNode => {
    const copy = structuredClone(node) as EditorNode;
    copy.id = ids.get(node.id) ?? node.id;
    copy.position = { x: node.position.x + offset.x, y: node.position.y + offset.y };
    if (copy.type === "router") copy.data.routes = copy.data.routes.map((r) => ({ ...r, target: ids.get(r.target) ?? r.target }));
    return copy;
  });
  const edgeIds: { id: string }[] = [...takenEdges];
  const edges = clip.edges.map((e): EditorEdge => {
    const source = ids.get(e.source) ?? e.source;
    const target = ids.get(e.target) ?? e.target;
    const edge = { id: nextEdgeId(edgeIds, source, target), source, target };
    edgeIds.push(edge);
    return edge;
  });
  return { nodes, edges };
}
