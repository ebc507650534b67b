import { describe, expect, it } from "vitest";
import { NEW_FLOW_TEMPLATES, TEMPLATES } from "../../templates";
import { getTool, isSideEffectTool } from "../tools/registry";
import { parseFlowImport } from "./describe-issue";
import type { FlowDocument, FlowEdge, FlowNode } from "./schema";
import { isRunnable, notRunnableReason, validateFlow } from "./validate";

const SIDE_EFFECTS = new Set(["write_file", "delete_file"]);
const catalog = {
  known: (name: string) => ["list_files", "read_file", "write_file", "delete_file", "rehydrate"].includes(name),
  sideEffect: (name: string) => SIDE_EFFECTS.has(name),
};
const pos = { x: 0, y: 0 };
const start: FlowNode = { id: "start", type: "start", position: pos, data: { label: "Start" } };
const end: FlowNode = { id: "end", type: "end", position: pos, data: { label: "End" } };
const sup: FlowNode = { id: "sup", type: "supervisor", position: pos, data: { name: "Supervisor", instructions: "" } };
const agent = (id: string): FlowNode => ({
  id,
  type: "agent",
  position: pos,
  data: { name: id, role: "step_executor", instructions: "", model: "", maxTries: 3, icon: "🤖", color: "#5b3cc4" },
});
const tool = (id: string, name: string): FlowNode => ({ id, type: "tool", position: pos, data: { tool: name } });
const edge = (source: string, target: string): FlowEdge => ({ id: `${source}-${target}`, source, target });
/** Start -> Supervisor -> agent a -> read tool; Supervisor -> End: a valid flow. */
const base = { nodes: [start, sup, agent("a"), tool("t", "read_file"), end], edges: [edge("start", "sup"), edge("sup", "a"), edge("a", "t"), edge("sup", "end")] };
const codes = (doc: { nodes: FlowNode[]; edges: FlowEdge[] }) => validateFlow(doc, catalog).map((p) => `${p.code}@${p.nodeId ?? p.edgeId ?? ""}`);

describe("validateFlow", () => {
  it.each(Object.entries(TEMPLATES))("template %s has no problems", (_key, doc: FlowDocument) => {
    // Templates are checked against the real built-in tools and their side-effect flags.
    expect(validateFlow(doc, { known: (n) => Boolean(getTool(n)), sideEffect: isSideEffectTool })).toEqual([]);
  });

  it("accepts the minimal flow", () => {
    expect(codes(base)).toEqual([]);
  });

  it("reports a missing Start, End and Agent", () => {
    expect(codes({ nodes: [sup], edges: [] })).toEqual(expect.arrayContaining(["missing_start@", "missing_end@", "missing_agent@"]));
  });

  it("reports nodes Start does not reach, but not policies or unbound tools", () => {
    const doc = { nodes: [...base.nodes, agent("lonely"), tool("free", "list_files"), { id: "p", type: "policy" as const, position: pos, data: { name: "P", rules: [] } }], edges: base.edges };
    expect(codes(doc)).toEqual(["unreachable@lonely", "unbound_tool@free"]);
  });

  it("reports edges between kinds the graph does not read", () => {
    const doc = { ...base, edges: [...base.edges, edge("t", "a")] };
    const [problem] = validateFlow(doc, catalog);
    expect(problem).toMatchObject({ code: "edge_invalid", edgeId: "t-a", nodeId: "t" });
    expect(problem?.message).toContain('Tool "read_file" cannot connect to Agent "a"');
  });

  it("reports an edge to a node that does not exist", () => {
    expect(codes({ ...base, edges: [...base.edges, edge("sup", "ghost")] })).toEqual(["edge_invalid@sup-ghost"]);
  });

  it("reports unknown tools and side-effect tools no policy covers", () => {
    const doc = { nodes: [...base.nodes, tool("w", "write_file"), tool("x", "launch_rockets")], edges: [...base.edges, edge("a", "w"), edge("a", "x")] };
    expect(codes(doc)).toEqual(expect.arrayContaining(["side_effect_uncovered@w", "unknown_tool@x"]));
    const covered = {
      ...doc,
      nodes: [
        ...doc.nodes,
        {
          id: "p",
          type: "policy" as const,
          position: pos,
          data: { name: "P", rules: [{ tool: "*_file", decision: "AUTH_REQUIRED" as const, risk: "medium" as const, permission: "any" as const, match: [] }] },
        },
      ],
    };
    expect(codes(covered)).toEqual(["unknown_tool@x"]);
  });

  it("reports a drawn cycle that never reaches End, on each of its nodes, and not one with an exit", () => {
    const loop = { nodes: [...base.nodes, agent("b"), agent("c")], edges: [...base.edges, edge("sup", "b"), edge("b", "c"), edge("c", "b")] };
    expect(codes(loop)).toEqual(["edge_invalid@b", "edge_invalid@c", "unreachable@c", "cycle_without_exit@b", "cycle_without_exit@c"]);
    expect(validateFlow(loop, catalog).at(-1)?.message).toBe('The cycle "b" → "c" never reaches End: add a way out.');
    const self = { nodes: base.nodes, edges: [...base.edges, edge("a", "a")] };
    expect(codes(self)).toEqual(["edge_invalid@a", "cycle_without_exit@a"]);
    const withExit = { nodes: [...base.nodes, agent("b")], edges: [...base.edges, edge("sup", "b"), edge("b", "sup")] };
    expect(codes(withExit)).toEqual(["edge_invalid@b"]);
  });

  it("reports router routes that lead nowhere", () => {
    const router: FlowNode = {
      id: "r",
      type: "router",
      position: pos,
      data: {
        name: "R",
        routes: [
          { match: "contains", value: "invoice", target: "a" },
          { match: "contains", value: "x", target: "end" },
        ],
      },
    };
    const doc = { nodes: [start, router, sup, agent("a"), end], edges: [edge("start", "r"), edge("r", "sup"), edge("sup", "a"), edge("sup", "end")] };
    const problems = validateFlow(doc, catalog);
    expect(problems.map((p) => [p.code, p.field])).toEqual([
      ["route_target_invalid", "routes.0.target"],
      ["route_target_invalid", "routes.1.target"],
    ]);
    expect(problems[0]?.message).toContain('the Router is not connected to "a"');
  });

  it("locates invalid fields on their node", () => {
    const bad = { ...base, nodes: base.nodes.map((n) => (n.id === "a" && n.type === "agent" ? { ...n, data: { ...n.data, name: "" } } : n)) };
    const [problem] = validateFlow(bad, catalog);
    expect(problem).toMatchObject({ code: "invalid_field", nodeId: "a", field: "name" });
    expect(problem?.message).toMatch(/^node "a" \(agent\), field data\.name: /);
  });

  it("says why a flow cannot run", () => {
    const problems = validateFlow({ nodes: [start, sup, agent("a")], edges: [edge("start", "sup"), edge("sup", "a")] }, catalog);
    expect(isRunnable(problems)).toBe(false);
    expect(notRunnableReason(problems)).toBe("The flow has no End node: add one and connect the Supervisor to it.");
    expect(notRunnableReason(validateFlow(base, catalog))).toBeNull();
  });
});

describe("building from scratch", () => {
  const builtIns = { known: (n: string) => Boolean(getTool(n)), sideEffect: isSideEffectTool };

  it("says what to add on an empty canvas, never the schema's text", () => {
    const problems = validateFlow({ nodes: [], edges: [] }, catalog);
    expect(problems).toEqual([
      {
        code: "empty_flow",
        severity: "error",
        message: "The canvas is empty. Add Start, a Supervisor, an Agent and End from the palette, then connect Start → Supervisor → Agent and Supervisor → End.",
      },
    ]);
    expect(notRunnableReason(problems)).not.toMatch(/too small|expected array/i);
  });

  it("saving an empty canvas is refused with words, not zod's default", () => {
    const read = parseFlowImport(JSON.stringify({ settings: { name: "x" }, nodes: [], edges: [] }));
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.issues[0]?.message).toBe("nodes: the flow has no nodes: add Start, a Supervisor, an Agent and End from the palette");
  });

  it("the Blank flow has one problem, which tells a newcomer to add and connect an Agent", () => {
    const blank = NEW_FLOW_TEMPLATES.blank as FlowDocument;
    expect(blank.nodes.map((n) => n.type).sort()).toEqual(["end", "policy", "start", "supervisor"]);
    const problems = validateFlow(blank, builtIns);
    expect(problems.map((p) => p.code)).toEqual(["missing_agent"]);
    expect(problems[0]?.message).toBe("The flow has no Agent, and the Supervisor only plans and hands each step to an agent. Add an Agent from the palette and connect the Supervisor to it.");
  });

  it("the Blank flow with an Agent connected from the Supervisor, using a tool without side effects, has no problems", () => {
    const blank = NEW_FLOW_TEMPLATES.blank as FlowDocument;
    const doc = {
      nodes: [...blank.nodes, agent("agent-1"), tool("tool-1", "list_files")],
      edges: [...blank.edges, edge("supervisor", "agent-1"), edge("agent-1", "tool-1")],
    };
    expect(validateFlow(doc, builtIns)).toEqual([]);
    // A tool with side effects under the empty Policy needs a rule first.
    const writing = { nodes: [...doc.nodes, tool("tool-2", "write_file")], edges: [...doc.edges, edge("agent-1", "tool-2")] };
    expect(validateFlow(writing, builtIns).map((p) => `${p.code}@${p.nodeId}`)).toEqual(["side_effect_uncovered@tool-2"]);
  });
});

describe("parseFlowImport", () => {
  it("reads an exported document back", () => {
    const doc = TEMPLATES["workspace-assistant"] as FlowDocument;
    const read = parseFlowImport(JSON.stringify(doc));
    expect(read).toEqual({ ok: true, document: doc });
  });

  it("names the node and field of each error", () => {
    const raw = {
      settings: { name: "x" },
      nodes: [
        { id: "w", type: "agent", position: pos, data: { name: 3 } },
        { id: "t", type: "tool", position: pos, data: { tool: "Bad Name" } },
      ],
      edges: [],
    };
    const read = parseFlowImport(JSON.stringify(raw));
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.issues.map((i) => [i.nodeId, i.path])).toEqual([
      ["w", "nodes.0.data.name"],
      ["t", "nodes.1.data.tool"],
    ]);
    expect(read.issues[1]?.message).toBe('node "t" (tool), field data.tool: snake_case tool name');
  });

  it("says when the text is not JSON", () => {
    const read = parseFlowImport("{nodes:");
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.issues[0]?.message).toMatch(/^The file is not JSON: /);
  });
});
