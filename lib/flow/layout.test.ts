import { describe, expect, it } from "vitest";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import { autoLayout, DEFAULT_NODE_SIZE, freeSpot, type LayoutNode } from "./layout";
import { toReactFlow } from "./react-flow";

const at = (id: string, size?: { width: number; height: number }): LayoutNode => ({
  id,
  position: { x: 0, y: 0 },
  ...(size ? { measured: size } : {}),
});

type Box = { x: number; y: number; width: number; height: number };

function boxes(nodes: LayoutNode[]): Map<string, Box> {
  return new Map(
    nodes.map((n) => [
      n.id,
      {
        ...n.position,
        width: n.measured?.width ?? DEFAULT_NODE_SIZE.width,
        height: n.measured?.height ?? DEFAULT_NODE_SIZE.height,
      },
    ]),
  );
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

function get(map: Map<string, Box>, id: string): Box {
  const box = map.get(id);
  if (!box) throw new Error(`no node ${id}`);
  return box;
}

describe("autoLayout", () => {
  it("ranks a chain left to right with no overlap", () => {
    const nodes = ["a", "b", "c"].map((id) => at(id));
    const laid = boxes(
      autoLayout(nodes, [
        { source: "a", target: "b" },
        { source: "b", target: "c" },
      ]),
    );
    const [a, b, c] = [get(laid, "a"), get(laid, "b"), get(laid, "c")];
    expect(a.x + a.width).toBeLessThan(b.x);
    expect(b.x + b.width).toBeLessThan(c.x);
    expect(a.y).toBe(b.y);
  });

  it("ranks top to bottom with direction TB", () => {
    const nodes = ["a", "b"].map((id) => at(id));
    const laid = boxes(autoLayout(nodes, [{ source: "a", target: "b" }], { direction: "TB" }));
    expect(get(laid, "a").y + DEFAULT_NODE_SIZE.height).toBeLessThan(get(laid, "b").y);
    expect(get(laid, "a").x).toBe(get(laid, "b").x);
  });

  it("uses measured sizes: wide siblings do not overlap", () => {
    const nodes = [at("root"), at("wide", { width: 400, height: 200 }), at("tall", { width: 120, height: 300 })];
    const out = autoLayout(nodes, [
      { source: "root", target: "wide" },
      { source: "root", target: "tall" },
    ]);
    const laid = new Map(out.map((n) => [n.id, { ...n.position, width: n.measured?.width ?? 180, height: n.measured?.height ?? 64 }]));
    expect(overlaps(get(laid, "wide"), get(laid, "tall"))).toBe(false);
  });

  it("puts nodes without edges in a row under the graph, in input order", () => {
    const nodes = [at("p1"), at("a"), at("b"), at("p2")];
    const laid = boxes(autoLayout(nodes, [{ source: "a", target: "b" }]));
    const graphBottom = Math.max(get(laid, "a").y, get(laid, "b").y) + DEFAULT_NODE_SIZE.height;
    expect(get(laid, "p1").y).toBeGreaterThan(graphBottom);
    expect(get(laid, "p2").y).toBe(get(laid, "p1").y);
    expect(get(laid, "p1").x + DEFAULT_NODE_SIZE.width).toBeLessThan(get(laid, "p2").x);
  });

  it("lays out the workspace assistant template without overlaps, Start first", () => {
    const { nodes, edges } = toReactFlow(workspaceAssistant);
    const laid = boxes(autoLayout(nodes, edges));
    const list = [...laid.entries()];
    for (const [i, [idA, a]] of list.entries()) {
      for (const [idB, b] of list.slice(i + 1)) expect(overlaps(a, b), `${idA} overlaps ${idB}`).toBe(false);
    }
    for (const e of edges) expect(get(laid, e.source).x, `${e.source} left of ${e.target}`).toBeLessThan(get(laid, e.target).x);
  });

  it("ignores dangling edges and self-loops, keeps other fields, does not mutate its input", () => {
    const nodes = [{ ...at("a"), data: { keep: true } }, at("b")];
    const before = structuredClone(nodes);
    const out = autoLayout(nodes, [
      { source: "a", target: "b" },
      { source: "a", target: "ghost" },
      { source: "b", target: "b" },
    ]);
    expect(nodes).toEqual(before);
    expect(out.map((n) => n.id)).toEqual(["a", "b"]);
    expect(out[0]).toMatchObject({ data: { keep: true } });
    expect(get(boxes(out), "a").x).toBeLessThan(get(boxes(out), "b").x);
  });

  it("handles cycles and an empty flow", () => {
    const out = autoLayout(
      [at("a"), at("b")],
      [
        { source: "a", target: "b" },
        { source: "b", target: "a" },
      ],
    );
    expect(overlaps(get(boxes(out), "a"), get(boxes(out), "b"))).toBe(false);
    expect(autoLayout([], [])).toEqual([]);
  });
});

describe("freeSpot", () => {
  const box = (id: string, x: number, y: number): LayoutNode => ({ id, position: { x, y }, measured: { width: 180, height: 64 } });
  const overlaps = (p: { x: number; y: number }, n: LayoutNode) => p.x < n.position.x + 180 && n.position.x < p.x + 180 && p.y < n.position.y + 64 && n.position.y < p.y + 64;

  it("keeps the drop point when nothing is there", () => {
    expect(freeSpot({ x: 500, y: 500 }, [box("a", 0, 0)])).toEqual({ x: 500, y: 500 });
  });

  it("moves a node dropped onto another to the nearest free spot, clear of it", () => {
    const a = box("a", 0, 0);
    const p = freeSpot({ x: 10, y: 10 }, [a]);
    expect(overlaps(p, a)).toBe(false);
    // Nearest: only far enough to clear the other box and the gap (64 + 16 = 80 px below or above).
    expect(Math.hypot(p.x - 10, p.y - 10)).toBeLessThanOrEqual(100);
  });

  it("the same drop three times gives three spots, none overlapping", () => {
    const nodes: LayoutNode[] = [box("a", 0, 0)];
    for (const id of ["b", "c", "d"]) {
      const p = freeSpot({ x: 0, y: 0 }, nodes);
      expect(nodes.some((n) => overlaps(p, n))).toBe(false);
      nodes.push(box(id, p.x, p.y));
    }
    expect(new Set(nodes.map((n) => `${n.position.x},${n.position.y}`)).size).toBe(4);
  });

  it("is deterministic and uses the placed node's own size", () => {
    const nodes = [box("a", 0, 0), box("b", 0, 100)];
    const size = { width: 300, height: 120 };
    const p = freeSpot({ x: 20, y: 20 }, nodes, { size });
    expect(freeSpot({ x: 20, y: 20 }, nodes, { size })).toEqual(p);
    for (const n of nodes) {
      const clear = p.x + size.width <= n.position.x || n.position.x + 180 <= p.x || p.y + size.height <= n.position.y || n.position.y + 64 <= p.y;
      expect(clear).toBe(true);
    }
  });
});
