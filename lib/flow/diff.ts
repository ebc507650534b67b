import microdiff, { type Difference } from "microdiff";
import type { FlowDocument, FlowEdge, FlowNode } from "./schema";

/**
 * What changed between two versions of a flow document (every save is
 * an immutable version): settings, nodes and edges, down to the field. Plain TypeScript, no
 * React or database: the compare page runs it on the server and a unit test runs it alone.
 */

/** How one field differs. `before` is absent for `added`, `after` for `removed`. */
export type FieldChangeKind = "added" | "removed" | "changed";

/**
 * One field that differs, by dotted path relative to what was compared: `data.instructions`
 * and `data.rules.2.decision` for a node, `limits.timeoutMs` for the settings, `source` for
 * an edge. An array index appears as a number segment.
 */
export interface FieldChange {
  path: string;
  kind: FieldChangeKind;
  before?: unknown;
  after?: unknown;
}

/** How a node shows in the visual diff; `moved` means only its position changed. */
export type NodeChangeKind = "added" | "removed" | "changed" | "moved" | "unchanged";
/** How an edge shows in the visual diff. */
export type EdgeChangeKind = "added" | "removed" | "changed" | "unchanged";

/** A canvas position, in flow coordinates. */
export interface Position {
  x: number;
  y: number;
}

/** A node present in both versions with the same type whose data or position differ. */
export interface ChangedNode {
  id: string;
  type: FlowNode["type"];
  /** The node's name in the "to" version (see {@link nodeLabel}). */
  label: string;
  /** `changed` when `fields` is not empty (it may also have moved); `moved` when only the position differs. */
  change: "changed" | "moved";
  /** Data changes, paths starting with `data.`; never the position. */
  fields: FieldChange[];
  /** Set when the position differs. */
  moved: { from: Position; to: Position } | null;
}

/** An edge present in both versions (same id) whose source or target differ. */
export interface ChangedEdge {
  id: string;
  before: FlowEdge;
  after: FlowEdge;
  /** `source` and/or `target` changes. */
  fields: FieldChange[];
}

/** The whole difference from one version of a flow to another. */
export interface FlowDiff {
  /** Settings changes, paths relative to `settings` (`name`, `limits.maxIterations`). */
  settings: FieldChange[];
  /** Nodes matched by id; a node whose type changed counts as removed and added. */
  nodes: { added: FlowNode[]; removed: FlowNode[]; changed: ChangedNode[] };
  /** Edges matched by id. */
  edges: { added: FlowEdge[]; removed: FlowEdge[]; changed: ChangedEdge[] };
}

type Path = (string | number)[];

/**
 * Compares two flow documents (the same or different versions of one flow). Nodes and edges
 * are matched by id, whatever their order in the document; a node whose type changed is
 * reported as removed (the old one) and added (the new one). Field-level changes come from
 * microdiff; arrays whose length changed (e.g. a policy rule inserted or removed) are first
 * aligned on their equal elements, so the rules after an inserted one are not reported as
 * changed. A position-only change is `moved`, kept apart from data changes.
 * @param from the older document (the "from" version), already parsed by `FlowDocument`.
 * @param to the newer document (the "to" version).
 */
export function diffFlows(from: FlowDocument, to: FlowDocument): FlowDiff {
  const before = new Map(from.nodes.map((n) => [n.id, n]));
  const after = new Map(to.nodes.map((n) => [n.id, n]));
  const nodes: FlowDiff["nodes"] = { added: [], removed: [], changed: [] };
  for (const old of from.nodes) {
    const now = after.get(old.id);
    if (!now || now.type !== old.type) nodes.removed.push(old);
  }
  for (const now of to.nodes) {
    const old = before.get(now.id);
    if (!old || old.type !== now.type) {
      nodes.added.push(now);
      continue;
    }
    const fields = fieldChanges(["data"], old.data, now.data);
    const moved = old.position.x !== now.position.x || old.position.y !== now.position.y ? { from: { ...old.position }, to: { ...now.position } } : null;
    if (fields.length > 0 || moved) nodes.changed.push({ id: now.id, type: now.type, label: nodeLabel(now), change: fields.length > 0 ? "changed" : "moved", fields, moved });
  }

  const oldEdges = new Map(from.edges.map((e) => [e.id, e]));
  const newEdges = new Map(to.edges.map((e) => [e.id, e]));
  const edges: FlowDiff["edges"] = { added: [], removed: from.edges.filter((e) => !newEdges.has(e.id)), changed: [] };
  for (const now of to.edges) {
    const old = oldEdges.get(now.id);
    if (!old) {
      edges.added.push(now);
      continue;
    }
    const fields = fieldChanges([], { source: old.source, target: old.target }, { source: now.source, target: now.target });
    if (fields.length > 0) edges.changed.push({ id: now.id, before: old, after: now, fields });
  }

  return { settings: fieldChanges([], from.settings, to.settings), nodes, edges };
}

/** True when the two versions are the same (nothing added, removed, changed or moved). */
export function isEmptyDiff(diff: FlowDiff): boolean {
  const { nodes, edges } = diff;
  return diff.settings.length + nodes.added.length + nodes.removed.length + nodes.changed.length + edges.added.length + edges.removed.length + edges.changed.length === 0;
}

/** A node's name for people: its name, label or tool, else its id. */
export function nodeLabel(node: FlowNode): string {
  switch (node.type) {
    case "start":
    case "end":
      return node.data.label || node.id;
    case "tool":
      return node.data.tool;
    default:
      return node.data.name || node.id;
  }
}

/** A node of the visual diff: the "to" version's nodes plus the removed ones as ghosts. */
export interface DiffGraphNode {
  /** Unique on the canvas: the node id, or `removed:<id>` for a ghost of a removed node. */
  key: string;
  node: FlowNode;
  change: NodeChangeKind;
}

/** An edge of the visual diff, between `DiffGraphNode` keys. */
export interface DiffGraphEdge {
  /** The edge id, or `removed:<id>` for a ghost of a removed edge. */
  key: string;
  edge: FlowEdge;
  source: string;
  target: string;
  change: EdgeChangeKind;
}

/** The canvas key of a removed node or edge (kept apart from a new one with the same id). */
export const ghostKey = (id: string): string => `removed:${id}`;

/**
 * What the compare canvas draws: every node and edge of the "to" version marked
 * added / changed / moved / unchanged, plus the removed nodes (at their old position) and
 * removed edges as ghosts. A removed edge is drawn to a ghost when its end was removed and
 * otherwise to the node still there.
 */
export function diffGraph(to: FlowDocument, diff: FlowDiff): { nodes: DiffGraphNode[]; edges: DiffGraphEdge[] } {
  const added = new Set(diff.nodes.added.map((n) => n.id));
  const changed = new Map(diff.nodes.changed.map((c) => [c.id, c.change]));
  const removed = new Set(diff.nodes.removed.map((n) => n.id));
  const nodes: DiffGraphNode[] = [
    ...to.nodes.map((node) => ({ key: node.id, node, change: added.has(node.id) ? "added" : (changed.get(node.id) ?? "unchanged") }) satisfies DiffGraphNode),
    ...diff.nodes.removed.map((node) => ({ key: ghostKey(node.id), node, change: "removed" }) satisfies DiffGraphNode),
  ];
  const addedEdges = new Set(diff.edges.added.map((e) => e.id));
  const changedEdges = new Set(diff.edges.changed.map((e) => e.id));
  const end = (id: string) => (removed.has(id) ? ghostKey(id) : id);
  const edges: DiffGraphEdge[] = [
    ...to.edges.map(
      (edge) =>
        ({
          key: edge.id,
          edge,
          source: edge.source,
          target: edge.target,
          change: addedEdges.has(edge.id) ? "added" : changedEdges.has(edge.id) ? "changed" : "unchanged",
        }) satisfies DiffGraphEdge,
    ),
    ...diff.edges.removed.map((edge) => ({ key: ghostKey(edge.id), edge, source: end(edge.source), target: end(edge.target), change: "removed" }) satisfies DiffGraphEdge),
  ];
  return { nodes, edges };
}

// ---- field-level changes ----------------------------------------------------------------

const isContainer = (v: unknown): v is Record<string, unknown> | unknown[] => typeof v === "object" && v !== null;

/** Deep equality of JSON values. */
function same(a: unknown, b: unknown): boolean {
  if (isContainer(a) && isContainer(b)) return Array.isArray(a) === Array.isArray(b) && microdiff(a, b).length === 0;
  return Object.is(a, b);
}

const startsWith = (path: Path, prefix: Path) => prefix.length <= path.length && prefix.every((p, i) => p === path[i]);

function at(value: unknown, path: Path): unknown {
  let v = value;
  for (const p of path) v = isContainer(v) ? (v as Record<string | number, unknown>)[p] : undefined;
  return v;
}

function change(path: Path, d: Difference): FieldChange {
  const p = path.concat(d.path).join(".");
  if (d.type === "CREATE") return { path: p, kind: "added", after: d.value };
  if (d.type === "REMOVE") return { path: p, kind: "removed", before: d.oldValue };
  return { path: p, kind: "changed", before: d.oldValue, after: d.value };
}

/** Field changes from `before` to `after`, with paths under `base`. */
function fieldChanges(base: Path, before: unknown, after: unknown): FieldChange[] {
  if (Array.isArray(before) && Array.isArray(after) && before.length !== after.length) return alignedChanges(base, before, after);
  if (!isContainer(before) || !isContainer(after) || Array.isArray(before) !== Array.isArray(after)) {
    return same(before, after) ? [] : [{ path: base.join("."), kind: "changed", before, after }];
  }
  const diffs = microdiff(before, after);
  // microdiff pairs array elements by index: an added or removed index means the array's
  // length changed. Those arrays (the outermost ones) are aligned instead.
  const candidates = diffs.filter((d) => d.type !== "CHANGE" && typeof d.path[d.path.length - 1] === "number").map((d) => d.path.slice(0, -1));
  const resized = candidates.filter((p, k) => !candidates.some((q, l) => (q.length < p.length || (q.length === p.length && l < k)) && startsWith(p, q)));
  const out: FieldChange[] = [];
  const done = new Set<Path>();
  for (const d of diffs) {
    const under = resized.find((r) => startsWith(d.path, r) && d.path.length > r.length);
    if (!under) out.push(change(base, d));
    else if (!done.has(under)) {
      done.add(under);
      out.push(...alignedChanges(base.concat(under), at(before, under) as unknown[], at(after, under) as unknown[]));
    }
  }
  return out;
}

/**
 * Changes between two arrays aligned on their longest common subsequence of equal elements.
 * Between two kept elements, removed and inserted elements are paired in order and compared
 * field by field (path: the new index); what is left over is `removed` (old index) or
 * `added` (new index).
 */
function alignedChanges(base: Path, a: unknown[], b: unknown[]): FieldChange[] {
  // lcs[i][j] = length of the longest common subsequence of a[i..] and b[j..].
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      const row = lcs[i] as number[];
      row[j] = same(a[i], b[j]) ? (lcs[i + 1]?.[j + 1] ?? 0) + 1 : Math.max(lcs[i + 1]?.[j] ?? 0, row[j + 1] ?? 0);
    }
  }
  const out: FieldChange[] = [];
  let gone: number[] = [];
  let come: number[] = [];
  const flush = () => {
    const pairs = Math.min(gone.length, come.length);
    for (let k = 0; k < pairs; k++) out.push(...fieldChanges(base.concat(come[k] as number), a[gone[k] as number], b[come[k] as number]));
    for (const i of gone.slice(pairs)) out.push({ path: base.concat(i).join("."), kind: "removed", before: a[i] });
    for (const j of come.slice(pairs)) out.push({ path: base.concat(j).join("."), kind: "added", after: b[j] });
    gone = [];
    come = [];
  };
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && same(a[i], b[j])) {
      flush();
      i++;
      j++;
    } else if (j >= b.length || (i < a.length && (lcs[i + 1]?.[j] ?? 0) >= (lcs[i]?.[j + 1] ?? 0))) {
      gone.push(i++);
    } else {
      come.push(j++);
    }
  }
  flush();
  return out;
}
