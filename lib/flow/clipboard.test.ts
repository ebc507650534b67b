import { describe, expect, it } from "vitest";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import { CLIPBOARD_KIND, copyNodes, pasteNodes, readClipboard } from "./clipboard";
import { type EditorNode, toReactFlow } from "./react-flow";

const { nodes, edges } = toReactFlow(workspaceAssistant);

describe("copyNodes", () => {
  it("copies the picked nodes in document form with only the edges between them", () => {
    const selected = nodes.map((n) => ({ ...n, selected: true, measured: { width: 1, height: 1 } }));
    const agent = nodes.find((n) => n.type === "agent");
    const tool = edges.find((e) => e.source === agent?.id);
    if (!agent || !tool) throw new Error("template has an agent with a tool");
    const clip = copyNodes(selected, edges, new Set([agent.id, tool.target]));
    expect(clip?.nodes.map((n) => n.id)).toEqual(nodes.filter((n) => n.id === agent.id || n.id === tool.target).map((n) => n.id));
    expect(clip?.nodes[0]).not.toHaveProperty("selected");
    expect(clip?.nodes[0]).not.toHaveProperty("measured");
    expect(clip?.edges).toEqual([{ id: tool.id, source: agent.id, target: tool.target }]);
  });

  it("is null when nothing is picked", () => {
    expect(copyNodes(nodes, edges, new Set())).toBeNull();
  });
});

describe("readClipboard", () => {
  it("reads the editor's own text and an exported document", () => {
    const clip = copyNodes(nodes, edges, new Set(nodes.map((n) => n.id)));
    expect(readClipboard(JSON.stringify(clip))).toEqual(clip);
    expect(readClipboard(JSON.stringify(workspaceAssistant))?.nodes).toHaveLength(workspaceAssistant.nodes.length);
  });

  it("refuses text that is not nodes, invalid nodes and duplicate ids, and drops dangling edges", () => {
    expect(readClipboard("hello")).toBeNull();
    expect(readClipboard(JSON.stringify({ nodes: [] }))).toBeNull();
    expect(readClipboard(JSON.stringify({ nodes: [{ id: "a", type: "agent", position: { x: 0, y: 0 }, data: { name: "" } }] }))).toBeNull();
    const start = { id: "s", type: "start", position: { x: 0, y: 0 }, data: { label: "Start" } };
    expect(readClipboard(JSON.stringify({ nodes: [start, start] }))).toBeNull();
    const clip = readClipboard(JSON.stringify({ nodes: [start], edges: [{ id: "e", source: "s", target: "gone" }] }));
    expect(clip).toEqual({ kind: CLIPBOARD_KIND, nodes: [start], edges: [] });
  });
});

describe("pasteNodes", () => {
  it("gives fresh node and edge ids, moves by the offset and rewires edges", () => {
    const clip = {
      kind: CLIPBOARD_KIND,
      nodes: [
        { id: "agent-1", type: "agent", position: { x: 10, y: 20 }, data: { name: "A", role: "step_executor", instructions: "", model: "", maxTries: 3, icon: "🤖", color: "#5b3cc4" } },
        { id: "reader", type: "tool", position: { x: 100, y: 20 }, data: { tool: "read_file" } },
      ],
      edges: [{ id: "e1", source: "agent-1", target: "reader" }],
    } satisfies Parameters<typeof pasteNodes>[0];
    const out = pasteNodes(clip, new Set(["agent-1", "agent-2", "reader"]), [{ id: "e-agent-3-reader-1-1" }], { x: 40, y: 40 });
    expect(out.nodes.map((n) => [n.id, n.position])).toEqual([
      ["agent-3", { x: 50, y: 60 }],
      ["reader-1", { x: 140, y: 60 }],
    ]);
    expect(out.edges).toEqual([{ id: "e-agent-3-reader-1-2", source: "agent-3", target: "reader-1" }]);
    expect(clip.nodes[0]?.id).toBe("agent-1");
  });

  it("points router routes at the pasted copies of their targets", () => {
    const router: EditorNode = {
      id: "r",
      type: "router",
      position: { x: 0, y: 0 },
      data: {
        name: "R",
        routes: [
          { match: "contains", value: "x", target: "w" },
          { match: "contains", value: "y", target: "elsewhere" },
        ],
      },
    };
    const writer = nodes.find((n) => n.type === "agent");
    if (!writer) throw new Error("template has an agent");
    const clip = copyNodes([router, { ...writer, id: "w" }], [], new Set(["r", "w"]));
    if (!clip) throw new Error("copied");
    const out = pasteNodes(clip, new Set(["r", "w"]), [], { x: 0, y: 0 });
    const pasted = out.nodes[0];
    expect(pasted?.type === "router" && pasted.data.routes.map((r) => r.target)).toEqual(["w-1", "elsewhere"]);
  });
});
