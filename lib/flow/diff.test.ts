import { describe, expect, it } from "vitest";
import { fileSafetyRules } from "../../templates/file-policy";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import { diffFlows, diffGraph, type FieldChange, ghostKey, isEmptyDiff, nodeLabel } from "./diff";
import { FlowDocument, type FlowNode } from "./schema";

/** A valid copy of the Workspace assistant template after `change` (which may mutate it). */
function edited(change: (doc: FlowDocument) => void = () => {}): FlowDocument {
  const doc = structuredClone(workspaceAssistant);
  change(doc);
  return FlowDocument.parse(doc);
}

function node<T extends FlowNode["type"]>(doc: FlowDocument, id: string, type: T): Extract<FlowNode, { type: T }> {
  const n = doc.nodes.find((x) => x.id === id);
  if (n?.type !== type) throw new Error(`no ${type} node ${id}`);
  return n as Extract<FlowNode, { type: T }>;
}

const rules = (doc: FlowDocument) => node(doc, "policy", "policy").data.rules;
const base = edited();
const RULES = fileSafetyRules();

describe("diffFlows: field-level changes of one node", () => {
  const cases: { name: string; id: string; change: (doc: FlowDocument) => void; fields: FieldChange[] }[] = [
    {
      name: "agent instructions changed",
      id: "assistant",
      change: (d) => {
        node(d, "assistant", "agent").data.instructions = "Be brief.";
      },
      fields: [{ path: "data.instructions", kind: "changed", before: node(base, "assistant", "agent").data.instructions, after: "Be brief." }],
    },
    {
      name: "two agent fields changed, in schema order",
      id: "assistant",
      change: (d) => {
        const data = node(d, "assistant", "agent").data;
        data.maxTries = 5;
        data.name = "Helper";
      },
      fields: [
        { path: "data.name", kind: "changed", before: "Assistant", after: "Helper" },
        { path: "data.maxTries", kind: "changed", before: 3, after: 5 },
      ],
    },
    {
      name: "a tool node's tool changed",
      id: "t-list",
      change: (d) => {
        node(d, "t-list", "tool").data.tool = "search_web";
      },
      fields: [{ path: "data.tool", kind: "changed", before: "list_files", after: "search_web" }],
    },
    {
      name: "a policy rule's decision changed",
      id: "policy",
      change: (d) => {
        const rule = rules(d)[2];
        if (rule) rule.decision = "ALLOW";
      },
      fields: [{ path: "data.rules.2.decision", kind: "changed", before: "AUTH_REQUIRED", after: "ALLOW" }],
    },
    {
      name: "a rule appended at the end",
      id: "policy",
      change: (d) => {
        rules(d).push({ tool: "*", decision: "BLOCKED", risk: "high", permission: "any", match: [] });
      },
      fields: [{ path: "data.rules.5", kind: "added", after: { tool: "*", decision: "BLOCKED", risk: "high", permission: "any", match: [] } }],
    },
    {
      name: "a rule inserted first: only the new rule is reported, not the five it pushed down",
      id: "policy",
      change: (d) => {
        rules(d).unshift({ tool: "*_file", decision: "AUTH_REQUIRED", risk: "medium", permission: "user", match: [] });
      },
      fields: [{ path: "data.rules.0", kind: "added", after: { tool: "*_file", decision: "AUTH_REQUIRED", risk: "medium", permission: "user", match: [] } }],
    },
    {
      name: "a rule removed from the middle: reported at its old index",
      id: "policy",
      change: (d) => {
        rules(d).splice(1, 1);
      },
      fields: [{ path: "data.rules.1", kind: "removed", before: RULES[1] }],
    },
    {
      name: "a rule removed and a later one changed: the change is named by its new index",
      id: "policy",
      change: (d) => {
        rules(d).splice(0, 1);
        const rule = rules(d)[2];
        if (rule) rule.risk = "critical";
      },
      fields: [
        { path: "data.rules.0", kind: "removed", before: RULES[0] },
        { path: "data.rules.2.risk", kind: "changed", before: "high", after: "critical" },
      ],
    },
    {
      name: "two rules swapped (same length): compared index by index",
      id: "policy",
      change: (d) => {
        const r = rules(d);
        [r[0], r[1]] = [r[1] as (typeof r)[number], r[0] as (typeof r)[number]];
      },
      fields: [
        { path: "data.rules.0.tool", kind: "changed", before: "list_files", after: "read_file" },
        { path: "data.rules.1.tool", kind: "changed", before: "read_file", after: "list_files" },
      ],
    },
    {
      name: "a matcher added inside a rule (an array inside an array)",
      id: "policy",
      change: (d) => {
        rules(d)[2]?.match.push({ kind: "path_glob", field: "path", pattern: "docs/**" });
      },
      fields: [{ path: "data.rules.2.match.0", kind: "added", after: { kind: "path_glob", field: "path", pattern: "docs/**" } }],
    },
    {
      name: "a matcher added and a rule appended: each reported once",
      id: "policy",
      change: (d) => {
        rules(d)[1]?.match.push({ kind: "regex", field: "path", pattern: "\\.md$", flags: "i" });
        rules(d).push({ tool: "*", decision: "BLOCKED", risk: "high", permission: "any", match: [] });
      },
      fields: [
        { path: "data.rules.1.match.0", kind: "added", after: { kind: "regex", field: "path", pattern: "\\.md$", flags: "i" } },
        { path: "data.rules.5", kind: "added", after: { tool: "*", decision: "BLOCKED", risk: "high", permission: "any", match: [] } },
      ],
    },
    {
      name: "matchers added to two rules",
      id: "policy",
      change: (d) => {
        const r = rules(d);
        r[0]?.match.push({ kind: "url_host", field: "url", hosts: ["a.dev"] });
        r[1]?.match.push({ kind: "regex", field: "path", pattern: "x" });
      },
      fields: [
        { path: "data.rules.0.match.0", kind: "added", after: { kind: "url_host", field: "url", hosts: ["a.dev"] } },
        { path: "data.rules.1.match.0", kind: "added", after: { kind: "regex", field: "path", pattern: "x" } },
      ],
    },
  ];

  it.each(cases)("$name", ({ id, change, fields }) => {
    const diff = diffFlows(base, edited(change));
    expect(diff.nodes.changed).toEqual([{ id, type: base.nodes.find((n) => n.id === id)?.type, label: expect.any(String), change: "changed", fields, moved: null }]);
    expect(diff.nodes.added).toEqual([]);
    expect(diff.nodes.removed).toEqual([]);
    expect(diff.settings).toEqual([]);
    expect(diff.edges).toEqual({ added: [], removed: [], changed: [] });
  });
});

describe("diffFlows: arrays inside data, between versions that already differ", () => {
  const withHosts = (hosts: string[]) =>
    edited((d) => {
      rules(d)[0]?.match.push({ kind: "url_host", field: "url", hosts });
    });
  const fieldsOf = (from: FlowDocument, to: FlowDocument) => diffFlows(from, to).nodes.changed.flatMap((c) => c.fields);

  it.each([
    { name: "a host appended", from: ["a.dev"], to: ["a.dev", "b.dev"], fields: [{ path: "data.rules.0.match.0.hosts.1", kind: "added", after: "b.dev" }] },
    { name: "a host removed first", from: ["a.dev", "b.dev", "c.dev"], to: ["b.dev", "c.dev"], fields: [{ path: "data.rules.0.match.0.hosts.0", kind: "removed", before: "a.dev" }] },
    { name: "a host replaced", from: ["a.dev", "b.dev"], to: ["a.dev", "z.dev"], fields: [{ path: "data.rules.0.match.0.hosts.1", kind: "changed", before: "b.dev", after: "z.dev" }] },
    {
      name: "one replaced and one inserted",
      from: ["a.dev", "b.dev"],
      to: ["x.dev", "a.dev", "y.dev"],
      fields: [
        { path: "data.rules.0.match.0.hosts.0", kind: "added", after: "x.dev" },
        { path: "data.rules.0.match.0.hosts.2", kind: "changed", before: "b.dev", after: "y.dev" },
      ],
    },
  ])("$name", ({ from, to, fields }) => {
    expect(fieldsOf(withHosts(from), withHosts(to))).toEqual(fields);
  });

  it("router routes: a route added to a router node and one changed", () => {
    const router = (routes: { match: "contains" | "regex"; value: string; target: string }[]): FlowDocument =>
      edited((d) => {
        d.nodes.push({ id: "router", type: "router", position: { x: 0, y: 0 }, data: { name: "Router", routes } });
      });
    const a = router([{ match: "contains", value: "summary", target: "assistant" }]);
    const b = router([
      { match: "regex", value: "summar(y|ise)", target: "assistant" },
      { match: "contains", value: "list", target: "assistant" },
    ]);
    expect(fieldsOf(a, b)).toEqual([
      { path: "data.routes.0.match", kind: "changed", before: "contains", after: "regex" },
      { path: "data.routes.0.value", kind: "changed", before: "summary", after: "summar(y|ise)" },
      { path: "data.routes.1", kind: "added", after: { match: "contains", value: "list", target: "assistant" } },
    ]);
    expect(fieldsOf(b, a)).toEqual([
      { path: "data.routes.0.match", kind: "changed", before: "regex", after: "contains" },
      { path: "data.routes.0.value", kind: "changed", before: "summar(y|ise)", after: "summary" },
      { path: "data.routes.1", kind: "removed", before: { match: "contains", value: "list", target: "assistant" } },
    ]);
  });

  it("every rule removed", () => {
    const empty = edited((d) => {
      rules(d).length = 0;
    });
    expect(fieldsOf(base, empty)).toEqual(RULES.map((r, i) => ({ path: `data.rules.${i}`, kind: "removed", before: r })));
  });
});

describe("diffFlows: nodes", () => {
  it("the same document, or the same nodes and edges in another order, has no differences", () => {
    expect(isEmptyDiff(diffFlows(base, edited()))).toBe(true);
    const shuffled = edited((d) => {
      d.nodes.reverse();
      d.edges.reverse();
    });
    expect(isEmptyDiff(diffFlows(base, shuffled))).toBe(true);
  });

  it("a position-only change is moved, with no data fields", () => {
    const diff = diffFlows(
      base,
      edited((d) => {
        node(d, "t-read", "tool").position = { x: 800, y: 40 };
      }),
    );
    expect(diff.nodes.changed).toEqual([{ id: "t-read", type: "tool", label: "read_file", change: "moved", fields: [], moved: { from: { x: 720, y: 40 }, to: { x: 800, y: 40 } } }]);
    expect(isEmptyDiff(diff)).toBe(false);
  });

  it("a node moved and edited is changed, and the move is kept apart", () => {
    const diff = diffFlows(
      base,
      edited((d) => {
        const sup = node(d, "supervisor", "supervisor");
        sup.position = { x: 200, y: 0 };
        sup.data.instructions = "Delegate.";
      }),
    );
    expect(diff.nodes.changed).toEqual([
      {
        id: "supervisor",
        type: "supervisor",
        label: "Supervisor",
        change: "changed",
        fields: [{ path: "data.instructions", kind: "changed", before: "Plan the task into steps and delegate each to the assistant.", after: "Delegate." }],
        moved: { from: { x: 200, y: 120 }, to: { x: 200, y: 0 } },
      },
    ]);
  });

  it("added and removed nodes (with their edges)", () => {
    const to = edited((d) => {
      d.nodes = d.nodes.filter((n) => n.id !== "t-delete");
      d.edges = d.edges.filter((e) => e.id !== "e-delete");
      d.nodes.push({ id: "ask", type: "human_input", position: { x: 0, y: 400 }, data: { name: "Ask", prompt: "Which file?" } });
      d.edges.push({ id: "e-ask", source: "supervisor", target: "ask" });
    });
    const diff = diffFlows(base, to);
    expect(diff.nodes.added.map((n) => n.id)).toEqual(["ask"]);
    expect(diff.nodes.removed).toEqual([node(base, "t-delete", "tool")]);
    expect(diff.nodes.changed).toEqual([]);
    expect(diff.edges.added).toEqual([{ id: "e-ask", source: "supervisor", target: "ask" }]);
    expect(diff.edges.removed).toEqual([{ id: "e-delete", source: "assistant", target: "t-delete" }]);
    // And back: the roles swap.
    const back = diffFlows(to, base);
    expect(back.nodes.added.map((n) => n.id)).toEqual(["t-delete"]);
    expect(back.nodes.removed.map((n) => n.id)).toEqual(["ask"]);
  });

  it("a node whose type changed counts as removed and added, never as changed", () => {
    const to = edited((d) => {
      const i = d.nodes.findIndex((n) => n.id === "supervisor");
      d.nodes[i] = { id: "supervisor", type: "agent", position: { x: 200, y: 120 }, data: { ...node(base, "assistant", "agent").data, name: "Boss" } };
    });
    const diff = diffFlows(base, to);
    expect(diff.nodes.removed.map((n) => [n.id, n.type])).toEqual([["supervisor", "supervisor"]]);
    expect(diff.nodes.added.map((n) => [n.id, n.type])).toEqual([["supervisor", "agent"]]);
    expect(diff.nodes.changed).toEqual([]);
  });
});

describe("diffFlows: edges and settings", () => {
  it("an edge with a new target is changed, naming the field", () => {
    const diff = diffFlows(
      base,
      edited((d) => {
        const e = d.edges.find((x) => x.id === "e-end");
        if (e) e.source = "assistant";
      }),
    );
    expect(diff.edges.changed).toEqual([
      {
        id: "e-end",
        before: { id: "e-end", source: "supervisor", target: "end" },
        after: { id: "e-end", source: "assistant", target: "end" },
        fields: [{ path: "source", kind: "changed", before: "supervisor", after: "assistant" }],
      },
    ]);
    expect(diff.edges.added).toEqual([]);
    expect(diff.edges.removed).toEqual([]);
    expect(diff.nodes.changed).toEqual([]);
  });

  it.each([
    {
      name: "name",
      change: (d: FlowDocument) => {
        d.settings.name = "Renamed";
      },
      fields: [{ path: "name", kind: "changed", before: "Workspace assistant", after: "Renamed" }],
    },
    {
      name: "mode",
      change: (d: FlowDocument) => {
        d.settings.mode = "directed";
      },
      fields: [{ path: "mode", kind: "changed", before: "autonomous", after: "directed" }],
    },
    {
      name: "a nested limit",
      change: (d: FlowDocument) => {
        d.settings.limits.maxIterations = 10;
      },
      fields: [{ path: "limits.maxIterations", kind: "changed", before: 50, after: 10 }],
    },
  ])("settings: $name", ({ change, fields }) => {
    const diff = diffFlows(base, edited(change));
    expect(diff.settings).toEqual(fields);
    expect(diff.nodes).toEqual({ added: [], removed: [], changed: [] });
  });
});

describe("diffGraph", () => {
  it("draws the 'to' version with each node's change and the removed nodes and edges as ghosts", () => {
    const to = edited((d) => {
      d.nodes = d.nodes.filter((n) => n.id !== "t-delete");
      d.edges = d.edges.filter((e) => e.id !== "e-delete" && e.id !== "e-end");
      d.edges.push({ id: "e-end-2", source: "assistant", target: "end" });
      node(d, "assistant", "agent").data.instructions = "New.";
      node(d, "t-list", "tool").position = { x: 0, y: 0 };
      d.nodes.push({ id: "t-write-2", type: "tool", position: { x: 900, y: 140 }, data: { tool: "write_file" } });
    });
    const g = diffGraph(to, diffFlows(base, to));
    const nodes = Object.fromEntries(g.nodes.map((n) => [n.key, n.change]));
    expect(nodes).toEqual({
      start: "unchanged",
      supervisor: "unchanged",
      assistant: "changed",
      "t-list": "moved",
      "t-read": "unchanged",
      "t-write": "unchanged",
      "t-rehydrate": "unchanged",
      policy: "unchanged",
      end: "unchanged",
      "t-write-2": "added",
      [ghostKey("t-delete")]: "removed",
    });
    expect(g.nodes.find((n) => n.key === ghostKey("t-delete"))?.node.position).toEqual({ x: 720, y: 240 });
    const edges = Object.fromEntries(g.edges.map((e) => [e.key, [e.change, e.source, e.target]]));
    expect(edges["e-end-2"]).toEqual(["added", "assistant", "end"]);
    expect(edges["e-read"]).toEqual(["unchanged", "assistant", "t-read"]);
    // A removed edge ends at the ghost of a removed node, or at the node that is still there.
    expect(edges[ghostKey("e-delete")]).toEqual(["removed", "assistant", ghostKey("t-delete")]);
    expect(edges[ghostKey("e-end")]).toEqual(["removed", "supervisor", "end"]);
    expect(new Set(g.nodes.map((n) => n.key)).size).toBe(g.nodes.length);
  });

  it("a node whose type changed is drawn twice: the new one added and the old one as a ghost", () => {
    const to = edited((d) => {
      const i = d.nodes.findIndex((n) => n.id === "t-list");
      d.nodes[i] = { id: "t-list", type: "human_input", position: { x: 720, y: -60 }, data: { name: "Ask", prompt: "Which files?" } };
    });
    const g = diffGraph(to, diffFlows(base, to));
    expect(g.nodes.filter((n) => n.node.id === "t-list").map((n) => [n.key, n.change, n.node.type])).toEqual([
      ["t-list", "added", "human_input"],
      [ghostKey("t-list"), "removed", "tool"],
    ]);
    expect(g.edges.find((e) => e.key === "e-list")).toMatchObject({ change: "unchanged", target: "t-list" });
  });
});

describe("nodeLabel", () => {
  it.each([
    ["start", "Start"],
    ["assistant", "Assistant"],
    ["t-read", "read_file"],
    ["policy", "File safety"],
  ])("%s -> %s", (id, label) => {
    const n = base.nodes.find((x) => x.id === id);
    if (!n) throw new Error(id);
    expect(nodeLabel(n)).toBe(label);
  });
});
