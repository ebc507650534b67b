import { describe, expect, it } from "vitest";
import { ALLOWED_TARGETS, canConnect, connectionRefusal, handlesOf, kindRefusal, type RuleNode } from "./connection-rule";
import type { FlowNode } from "./schema";
import { validateFlow } from "./validate";

type Kind = FlowNode["type"];
const KINDS = Object.keys(ALLOWED_TARGETS) as Kind[];
const node = (id: string, type: Kind, data: Record<string, unknown> = {}): RuleNode => ({ id, type, data });

describe("canConnect", () => {
  it("allows exactly the edges the compiled graph reads", () => {
    const allowed = KINDS.flatMap((s) => KINDS.filter((t) => canConnect(s, t)).map((t) => `${s}->${t}`));
    expect(allowed.sort()).toEqual(
      ["start->supervisor", "start->router", "router->agent", "router->supervisor", "supervisor->agent", "supervisor->human_input", "supervisor->end", "agent->tool"].sort(),
    );
  });
});

describe("handlesOf", () => {
  it("gives a Policy no handle at all, and each other kind only the sides it can use", () => {
    expect(handlesOf("policy")).toEqual({ source: false, target: false });
    expect(handlesOf("start")).toEqual({ source: true, target: false });
    expect(handlesOf("end")).toEqual({ source: false, target: true });
    expect(handlesOf("tool")).toEqual({ source: false, target: true });
    expect(handlesOf("human_input")).toEqual({ source: false, target: true });
    for (const k of ["supervisor", "agent", "router"] as const) expect(handlesOf(k)).toEqual({ source: true, target: true });
  });
});

describe("kindRefusal", () => {
  it("is null for allowed kinds and a sentence for the others", () => {
    expect(kindRefusal("supervisor", "agent")).toBeNull();
    expect(kindRefusal("supervisor", "tool")).toBe("a Supervisor connects only to an Agent, a Human input or End; a Tool is connected from an Agent");
  });

  it("says a Policy applies to the whole flow, from either side", () => {
    expect(kindRefusal("supervisor", "policy")).toBe("a Policy applies to the whole flow and takes no connections");
    expect(kindRefusal("policy", "agent")).toBe("a Policy applies to the whole flow and takes no connections");
  });

  it("says why nothing leaves an End, a Tool or a Human input", () => {
    expect(kindRefusal("end", "supervisor")).toBe("End is where the run finishes, so no edge leaves it");
    expect(kindRefusal("tool", "agent")).toBe("a Tool is used by the Agent connected to it, so no edge leaves it");
    expect(kindRefusal("human_input", "end")).toContain("hands its answer back to the Supervisor");
  });

  it("names where a Start may be connected from: nowhere", () => {
    expect(kindRefusal("supervisor", "start")).toBe("a Supervisor connects only to an Agent, a Human input or End; nothing connects to Start");
  });
});

describe("connectionRefusal", () => {
  const sup = node("sup", "supervisor", { name: "Boss" });
  const agent = node("a", "agent", { name: "Writer" });
  const tool = node("t", "tool", { tool: "read_file" });

  it("allows an allowed edge that is not drawn yet", () => {
    expect(connectionRefusal(sup, agent, [])).toBeNull();
  });

  it("refuses the same node, an edge already drawn, and kinds that cannot be joined, naming both nodes", () => {
    expect(connectionRefusal(agent, agent)).toBe('Agent "Writer" cannot connect to itself.');
    expect(connectionRefusal(sup, agent, [{ source: "sup", target: "a" }])).toBe('Supervisor "Boss" is already connected to Agent "Writer".');
    expect(connectionRefusal(sup, tool)).toBe('Supervisor "Boss" cannot connect to Tool "read_file": a Supervisor connects only to an Agent, a Human input or End; a Tool is connected from an Agent.');
  });

  it("gives validation the same sentence for a saved edge as the editor gives while dragging", () => {
    const pos = { x: 0, y: 0 };
    const nodes: FlowNode[] = [
      { id: "start", type: "start", position: pos, data: { label: "Start" } },
      { id: "sup", type: "supervisor", position: pos, data: { name: "Boss", instructions: "" } },
      { id: "p", type: "policy", position: pos, data: { name: "Rules", rules: [] } },
    ];
    const problems = validateFlow({ nodes, edges: [{ id: "e1", source: "sup", target: "p" }] }, { known: () => true, sideEffect: () => false });
    const edge = problems.find((p) => p.code === "edge_invalid");
    expect(edge?.message).toBe(connectionRefusal(node("sup", "supervisor", { name: "Boss" }), node("p", "policy", { name: "Rules" })));
    expect(edge?.message).toContain("a Policy applies to the whole flow");
  });
});
