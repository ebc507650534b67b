import { describe, expect, it } from "vitest";
import { TEMPLATES } from "../../templates";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import { compileFlowSpec } from "./compile";
import { FlowDocument } from "./schema";

describe("FlowDocument", () => {
  it("accepts the workspace assistant template", () => {
    expect(FlowDocument.parse(workspaceAssistant)).toEqual(workspaceAssistant);
  });

  it("fills defaults for agent fields", () => {
    const doc = FlowDocument.parse({
      settings: { name: "x" },
      nodes: [{ id: "a", type: "agent", position: { x: 0, y: 0 }, data: { name: "A" } }],
      edges: [],
    });
    const agent = doc.nodes[0];
    expect(agent?.type === "agent" && agent.data.maxTries).toBe(3);
    expect(doc.settings.limits).toEqual({ maxIterations: 50, timeoutMs: 300_000 });
  });

  it('takes a model call time limit of 1 s to 10 minutes, absent by default (docs/runs.md "When the model misbehaves")', () => {
    const withLimit = (modelCallTimeoutMs: number) =>
      FlowDocument.safeParse({ ...workspaceAssistant, settings: { ...workspaceAssistant.settings, limits: { maxIterations: 50, timeoutMs: 300_000, modelCallTimeoutMs } } });
    expect(withLimit(30_000).data?.settings.limits.modelCallTimeoutMs).toBe(30_000);
    expect(withLimit(999).error?.issues.map((i) => i.path.join("."))).toEqual(["settings.limits.modelCallTimeoutMs"]);
    expect(withLimit(600_001).success).toBe(false);
    expect(FlowDocument.parse(workspaceAssistant).settings.limits.modelCallTimeoutMs).toBeUndefined();
  });

  it('mounts the workspace library unless the owner switched it off (docs/library.md "Mounting")', () => {
    const { library: _dropped, ...stored } = workspaceAssistant.settings;
    // A flow stored without the key mounts; one that says false keeps it off.
    expect(FlowDocument.parse({ ...workspaceAssistant, settings: stored }).settings.library).toEqual({ mount: true });
    expect(FlowDocument.parse({ ...workspaceAssistant, settings: { ...stored, library: {} } }).settings.library.mount).toBe(true);
    const off = FlowDocument.parse({ ...workspaceAssistant, settings: { ...stored, library: { mount: false } } });
    expect(off.settings.library.mount).toBe(false);
    expect(() => compileFlowSpec(off, { known: () => true, sideEffect: (n) => n === "write_file" || n === "delete_file" })).not.toThrow();
    for (const [key, doc] of Object.entries(TEMPLATES)) expect(FlowDocument.parse(doc).settings.library.mount, key).toBe(true);
  });

  it("names the field of a dangling edge and of a duplicate id", () => {
    const bad = {
      ...workspaceAssistant,
      nodes: [...workspaceAssistant.nodes, workspaceAssistant.nodes[0]],
      edges: [...workspaceAssistant.edges, { id: "e-x", source: "start", target: "ghost" }],
    };
    const result = FlowDocument.safeParse(bad);
    expect(result.success).toBe(false);
    const paths = result.error?.issues.map((i) => i.path.join(".")) ?? [];
    expect(paths).toContain(`nodes.${workspaceAssistant.nodes.length}.id`);
    expect(paths).toContain(`edges.${workspaceAssistant.edges.length}.target`);
  });

  it("refuses an unknown node type and a bad policy decision", () => {
    const unknown = { ...workspaceAssistant, nodes: [{ id: "z", type: "teleporter", position: { x: 0, y: 0 }, data: {} }] };
    expect(FlowDocument.safeParse(unknown).success).toBe(false);
    const policy = {
      ...workspaceAssistant,
      nodes: [{ id: "p", type: "policy", position: { x: 0, y: 0 }, data: { name: "p", rules: [{ tool: "write_file", decision: "MAYBE" }] } }],
      edges: [],
    };
    const r = FlowDocument.safeParse(policy);
    expect(r.error?.issues[0]?.path.join(".")).toBe("nodes.0.data.rules.0.decision");
  });
});

describe("PolicyRule", () => {
  /** A one-policy document with `rules` as stored. */
  const withRules = (rules: unknown[]) => ({
    settings: { name: "f" },
    edges: [],
    nodes: [
      { id: "s", type: "start", position: { x: 0, y: 0 }, data: {} },
      { id: "p", type: "policy", position: { x: 0, y: 0 }, data: { name: "p", rules } },
    ],
  });
  /** Distinct paths of the issues (one field may break several checks). */
  const paths = (rules: unknown[]) => [...new Set(FlowDocument.safeParse(withRules(rules)).error?.issues.map((i) => i.path.join(".")))];
  const messages = (rules: unknown[]) => FlowDocument.safeParse(withRules(rules)).error?.issues.map((i) => i.message) ?? [];

  it("parses a rule stored before matchers existed unchanged, with permission any and no matchers", () => {
    const doc = FlowDocument.parse(withRules([{ tool: "write_file", decision: "AUTH_REQUIRED" }]));
    const policy = doc.nodes[1];
    expect(policy?.type === "policy" && policy.data.rules).toEqual([{ tool: "write_file", decision: "AUTH_REQUIRED", risk: "medium", permission: "any", match: [] }]);
  });

  it("accepts tool globs and each matcher kind", () => {
    const match = [
      { kind: "path_glob", field: "path", pattern: "docs/**" },
      { kind: "url_host", field: "request.url", hosts: ["example.com", "*.example.org"] },
      { kind: "number", field: "items.0.amount", op: "gte", value: 1000 },
      { kind: "regex", field: "note", pattern: "^draft", flags: "i" },
    ];
    for (const tool of ["*", "*_file", "read_*", "write_file"]) {
      expect(paths([{ tool, decision: "ALLOW", permission: "admin", match }])).toEqual([]);
    }
  });

  it.each([
    [{ tool: "Write_File", decision: "ALLOW" }, "nodes.1.data.rules.0.tool"],
    [{ tool: "write-file", decision: "ALLOW" }, "nodes.1.data.rules.0.tool"],
    [{ tool: "", decision: "ALLOW" }, "nodes.1.data.rules.0.tool"],
    [{ tool: "x", decision: "MAYBE" }, "nodes.1.data.rules.0.decision"],
    [{ tool: "x", decision: "ALLOW", permission: "root" }, "nodes.1.data.rules.0.permission"],
    [{ tool: "x", decision: "ALLOW", match: [{ kind: "glob", field: "path", pattern: "a" }] }, "nodes.1.data.rules.0.match.0.kind"],
    [{ tool: "x", decision: "ALLOW", match: [{ kind: "path_glob", field: "a..b", pattern: "a" }] }, "nodes.1.data.rules.0.match.0.field"],
    [{ tool: "x", decision: "ALLOW", match: [{ kind: "path_glob", field: "a b", pattern: "a" }] }, "nodes.1.data.rules.0.match.0.field"],
    [{ tool: "x", decision: "ALLOW", match: [{ kind: "path_glob", field: "p".repeat(101), pattern: "a" }] }, "nodes.1.data.rules.0.match.0.field"],
    [{ tool: "x", decision: "ALLOW", match: [{ kind: "path_glob", field: "path", pattern: "/etc/**" }] }, "nodes.1.data.rules.0.match.0.pattern"],
    [{ tool: "x", decision: "ALLOW", match: [{ kind: "url_host", field: "url", hosts: [] }] }, "nodes.1.data.rules.0.match.0.hosts"],
    [{ tool: "x", decision: "ALLOW", match: [{ kind: "url_host", field: "url", hosts: ["ok.com", "https://bad.com"] }] }, "nodes.1.data.rules.0.match.0.hosts.1"],
    [{ tool: "x", decision: "ALLOW", match: [{ kind: "number", field: "n", op: "ge", value: 1 }] }, "nodes.1.data.rules.0.match.0.op"],
    [{ tool: "x", decision: "ALLOW", match: [{ kind: "number", field: "n", op: "gt", value: "1000" }] }, "nodes.1.data.rules.0.match.0.value"],
    [{ tool: "x", decision: "ALLOW", match: [{ kind: "regex", field: "n", pattern: "a".repeat(201) }] }, "nodes.1.data.rules.0.match.0.pattern"],
    [{ tool: "x", decision: "ALLOW", match: [{ kind: "regex", field: "n", pattern: "a", flags: "g" }] }, "nodes.1.data.rules.0.match.0.flags"],
  ])("refuses %j naming %s", (rule, path) => {
    expect(paths([rule])).toEqual([path]);
  });

  it("refuses a regex that does not compile, naming the field and why", () => {
    const rule = {
      tool: "x",
      decision: "ALLOW",
      match: [
        { kind: "path_glob", field: "p", pattern: "a" },
        { kind: "regex", field: "note", pattern: "(unclosed" },
      ],
    };
    expect(paths([rule])).toEqual(["nodes.1.data.rules.0.match.1.pattern"]);
    expect(messages([rule])[0]).toMatch(/^not a valid regular expression \(missing closing \)/);
  });

  it.each(["(a)\\1", "foo(?=bar)", "(?<!x)y", "(?<name>a)\\k<name>"])("refuses %s, which RE2 cannot run in linear time (backreference or lookaround), naming the field", (pattern) => {
    const rule = { tool: "x", decision: "ALLOW", match: [{ kind: "regex", field: "note", pattern }] };
    expect(paths([rule])).toEqual(["nodes.1.data.rules.0.match.0.pattern"]);
    expect(messages([rule])[0]).toMatch(/use RE2 syntax/);
  });

  it.each(["(a+)+$", "(a|aa)*", "(\\w*){2,}", "((a+))+$"])("accepts the nested quantifier %s: the linear-time engine runs it safely", (pattern) => {
    expect(paths([{ tool: "x", decision: "ALLOW", match: [{ kind: "regex", field: "note", pattern }] }])).toEqual([]);
  });

  it.each(["^docs/.*\\.md$", "(foo)+", "^(abc|def)$", "(\\d{3})-\\d+"])("accepts the linear regex %s", (pattern) => {
    expect(paths([{ tool: "x", decision: "ALLOW", match: [{ kind: "regex", field: "note", pattern }] }])).toEqual([]);
  });

  it("says what a number matcher wants", () => {
    expect(messages([{ tool: "x", decision: "ALLOW", match: [{ kind: "number", field: "n", op: "gt", value: Number.NaN }] }])).toEqual(["a finite number"]);
  });

  it("allows at most 20 matchers", () => {
    const m = { kind: "number", field: "n", op: "gt", value: 0 };
    expect(paths([{ tool: "x", decision: "ALLOW", match: Array(20).fill(m) }])).toEqual([]);
    expect(paths([{ tool: "x", decision: "ALLOW", match: Array(21).fill(m) }])).toEqual(["nodes.1.data.rules.0.match"]);
  });
});
