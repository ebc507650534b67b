import { type InternalNode, Position } from "@xyflow/react";
// React Flow's own functions (its core package): how it adopts user nodes and picks the visible ones.
import { adoptUserNodes, getNodesInside } from "@xyflow/system";
import { describe, expect, it } from "vitest";
import { dropEstimatedHandles, ESTIMATED_NODE_SIZE, estimatedHandles, withEstimatedSizes } from "./canvas-size";
import type { EditorNode } from "./react-flow";

const agent = (id: string, x: number): EditorNode => ({
  id,
  type: "agent",
  position: { x, y: 0 },
  data: { name: id, role: "planner", instructions: "", model: "", maxTries: 3, icon: "", color: "#5b3cc4" },
});
const policy: EditorNode = { id: "policy", type: "policy", position: { x: 0, y: 0 }, data: { name: "P", rules: [] } };
const start: EditorNode = { id: "start", type: "start", position: { x: 0, y: 0 }, data: { label: "Start" } };

/** The ids React Flow draws with onlyRenderVisibleElements, the view at zoom 1 over (0, 0)-(1000, 600). */
function drawn(nodes: EditorNode[]): string[] {
  const lookup = new Map<string, InternalNode>();
  adoptUserNodes(nodes, lookup, new Map());
  return getNodesInside(lookup, { x: 0, y: 0, width: 1_000, height: 600 }, [0, 0, 1], true).map((n) => n.id);
}

describe("estimatedHandles", () => {
  it("puts a target in the middle of the left side and a source in the middle of the right side, centred on the border", () => {
    expect(estimatedHandles("agent", { width: 220, height: 78 })).toEqual([
      { id: null, type: "target", position: Position.Left, x: -3, y: 36, width: 6, height: 6 },
      { id: null, type: "source", position: Position.Right, x: 217, y: 36, width: 6, height: 6 },
    ]);
  });

  it("follows the connection rule: a Start has only a source, a Policy none", () => {
    expect(estimatedHandles("start", ESTIMATED_NODE_SIZE.start).map((h) => h.type)).toEqual(["source"]);
    expect(estimatedHandles("policy", ESTIMATED_NODE_SIZE.policy)).toEqual([]);
  });
});

describe("withEstimatedSizes", () => {
  it("gives every unmeasured node its kind's size and handles, and leaves measured nodes as they are", () => {
    const measured = { ...agent("b", 300), measured: { width: 200, height: 70 } };
    const out = withEstimatedSizes([agent("a", 0), measured, policy, start]);
    expect(out[0]).toMatchObject({ id: "a", measured: ESTIMATED_NODE_SIZE.agent, handles: estimatedHandles("agent", ESTIMATED_NODE_SIZE.agent) });
    expect(out[1]).toBe(measured);
    expect(out[2]).toMatchObject({ measured: ESTIMATED_NODE_SIZE.policy, handles: [] });
    expect(out[3]?.handles?.map((h) => h.type)).toEqual(["source"]);
  });

  it("does not change the input nodes", () => {
    const input = [agent("a", 0)];
    withEstimatedSizes(input);
    expect(input[0]).not.toHaveProperty("measured");
    expect(input[0]).not.toHaveProperty("handles");
  });

  it("lets React Flow leave a node out of sight undrawn (onlyRenderVisibleElements), where an unmeasured node is drawn anywhere", () => {
    expect(drawn(withEstimatedSizes([agent("near", 0), agent("far", 5_000)]))).toEqual(["near"]);
    expect(drawn([agent("near", 0), agent("far", 5_000)])).toEqual(["near", "far"]);
  });
});

describe("dropEstimatedHandles", () => {
  it("drops the handles of the measured nodes only", () => {
    const [a, b] = withEstimatedSizes([agent("a", 0), agent("b", 300)]);
    const out = dropEstimatedHandles([a, b] as EditorNode[], new Set(["a"]));
    expect(out[0]).not.toHaveProperty("handles");
    expect(out[0]?.measured).toEqual(ESTIMATED_NODE_SIZE.agent);
    expect(out[1]).toBe(b);
  });

  it("returns the same array when nothing changes", () => {
    const nodes = [agent("a", 0)];
    expect(dropEstimatedHandles(nodes, new Set(["a"]))).toBe(nodes);
    expect(dropEstimatedHandles(nodes, new Set())).toBe(nodes);
  });
});
