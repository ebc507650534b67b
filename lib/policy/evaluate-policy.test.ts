import { describe, expect, it } from "vitest";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import { FlowDocument, type FlowNode, type PermissionLevel } from "../flow/schema";
import { canonicalJson } from "./canonical";
import { evaluatePolicy } from "./evaluate-policy";

/** The risk engine's rule matcher (docs/architecture.md#state-and-channels): first match on canonical arguments. */

const sideEffects = new Set(["write_file", "delete_file", "send_email"]);
const ctx = (permission: PermissionLevel = "user") => ({ permission, isSideEffect: (t: string) => sideEffects.has(t) });

/** A flow whose policy nodes are `policies` (name -> rules as stored, parsed by the schema). */
function flow(...policies: [name: string, rules: unknown[]][]): { nodes: FlowNode[] } {
  return FlowDocument.parse({
    settings: { name: "f" },
    nodes: policies.map(([name, rules], i) => ({ id: `p${i + 1}`, type: "policy", position: { x: 0, y: 0 }, data: { name, rules } })),
    edges: [],
  });
}

const decide = (doc: { nodes: readonly FlowNode[] }, tool: string, args: unknown, permission?: PermissionLevel) => evaluatePolicy(doc, tool, canonicalJson(args), ctx(permission));

const fileSafety = flow([
  "File safety",
  [
    { tool: "write_file", decision: "ALLOW", risk: "low", match: [{ kind: "path_glob", field: "path", pattern: "docs/**" }] },
    { tool: "*_file", decision: "BLOCKED", risk: "high", match: [{ kind: "path_glob", field: "path", pattern: "secrets/**" }] },
    { tool: "write_file", decision: "AUTH_REQUIRED", risk: "medium" },
  ],
]);

describe("evaluatePolicy", () => {
  it("keeps the template's name-only decisions for any arguments", () => {
    const args = { path: "notes.md", content: "x" };
    const got = ["list_files", "read_file", "write_file", "delete_file", "rehydrate"].map((t) => decide(workspaceAssistant, t, args).decision);
    expect(got).toEqual(["ALLOW", "ALLOW", "AUTH_REQUIRED", "BLOCKED", "ALLOW"]);
  });

  it("returns the rule, its policy node and index, and the explanation", () => {
    expect(decide(fileSafety, "write_file", { path: "docs/a.md" })).toEqual({
      decision: "ALLOW",
      rule: { tool: "write_file", decision: "ALLOW", risk: "low", permission: "any", match: [{ kind: "path_glob", field: "path", pattern: "docs/**" }] },
      policy: { id: "p1", name: "File safety" },
      ruleIndex: 0,
      explanation: "File safety #1: write_file (path matches docs/**) → ALLOW (low)",
    });
    expect(decide(fileSafety, "write_file", { path: "notes.md" })).toMatchObject({
      decision: "AUTH_REQUIRED",
      ruleIndex: 2,
      explanation: "File safety #3: write_file → AUTH_REQUIRED (medium)",
    });
  });

  it("judges a path after normalising: docs/../secrets/x is secrets/x, and escaping paths match nothing", () => {
    expect(decide(fileSafety, "write_file", { path: "docs/../secrets/key.txt" })).toMatchObject({ decision: "BLOCKED", ruleIndex: 1 });
    expect(decide(fileSafety, "read_file", { path: "secrets/.key" })).toMatchObject({ decision: "BLOCKED", ruleIndex: 1 });
    // Absolute and climbing paths match no glob, so the unconditional rule (or default) decides.
    expect(decide(fileSafety, "write_file", { path: "/etc/passwd" })).toMatchObject({ decision: "AUTH_REQUIRED", ruleIndex: 2 });
    expect(decide(fileSafety, "write_file", { path: "docs/../../docs/a.md" })).toMatchObject({ decision: "AUTH_REQUIRED", ruleIndex: 2 });
  });

  it("decides on canonical text: key order and unicode escapes in the raw arguments change nothing", () => {
    const raws = ['{"path":"docs/a.md","content":"hi"}', '{"content":"hi","path":"docs/a.md"}', '{"content":"\\u0068i","path":"\\u0064ocs\\/a.md"}', '{ "path" : "docs/a.md", "content" : "hi" }'];
    const canonical = raws.map((raw) => canonicalJson(JSON.parse(raw)));
    expect(new Set(canonical).size).toBe(1);
    const decisions = canonical.map((text) => evaluatePolicy(fileSafety, "write_file", text, ctx()));
    expect(decisions.map((d) => [d.decision, d.ruleIndex])).toEqual(raws.map(() => ["ALLOW", 0]));
    // The escaped path that really is ../ is judged by its meaning, not its spelling.
    const sneaky = canonicalJson(JSON.parse('{"path":"docs\\/\\u002e\\u002e/secrets/k"}'));
    expect(evaluatePolicy(fileSafety, "write_file", sneaky, ctx()).decision).toBe("BLOCKED");
  });

  it("refuses text that is not canonical JSON (an engine bug, never guessed at)", () => {
    expect(() => evaluatePolicy(fileSafety, "write_file", '{"path":"docs/a.md", "x":1}', ctx())).toThrow(/canonical/);
    expect(() => evaluatePolicy(fileSafety, "write_file", '{"x":1,"path":"docs/a.md"}', ctx())).toThrow(/canonical/);
    expect(() => evaluatePolicy(fileSafety, "write_file", "{path:", ctx())).toThrow(/not JSON/);
    expect(() => evaluatePolicy(fileSafety, "write_file", "", ctx())).toThrow(Error);
  });

  it("needs every matcher of a rule (AND)", () => {
    const doc = flow([
      "Payments",
      [
        {
          tool: "pay",
          decision: "ALLOW",
          risk: "low",
          match: [
            { kind: "number", field: "amount", op: "lte", value: 100 },
            { kind: "url_host", field: "merchant", hosts: ["shop.example.com"] },
          ],
        },
      ],
    ]);
    expect(decide(doc, "pay", { amount: 100, merchant: "https://shop.example.com/" }).decision).toBe("ALLOW");
    expect(decide(doc, "pay", { amount: 101, merchant: "https://shop.example.com/" }).rule).toBeNull();
    expect(decide(doc, "pay", { amount: 5, merchant: "https://shop.example.com@evil.com/" }).rule).toBeNull();
    expect(decide(doc, "pay", { amount: "5", merchant: "https://shop.example.com/" }).rule).toBeNull();
  });

  it("applies a rule only to its permission level; `any` to all", () => {
    const doc = flow([
      "Roles",
      [
        { tool: "delete_file", decision: "AUTH_REQUIRED", risk: "high", permission: "admin" },
        { tool: "delete_file", decision: "ALLOW", risk: "low", permission: "system" },
        { tool: "delete_file", decision: "BLOCKED", risk: "critical" },
      ],
    ]);
    const at = (p: PermissionLevel) => decide(doc, "delete_file", { path: "a" }, p);
    expect([at("user"), at("admin"), at("system")].map((d) => [d.decision, d.ruleIndex])).toEqual([
      ["BLOCKED", 2],
      ["AUTH_REQUIRED", 0],
      ["ALLOW", 1],
    ]);
    expect(at("admin").explanation).toBe("Roles #1: delete_file (permission admin) → AUTH_REQUIRED (high)");
  });

  it("takes the first match across policy nodes in document order, tool globs included", () => {
    const doc = flow(
      ["First", [{ tool: "read_*", decision: "ALLOW", risk: "low" }]],
      [
        "Second",
        [
          { tool: "*", decision: "BLOCKED", risk: "critical" },
          { tool: "list_files", decision: "ALLOW", risk: "low" },
        ],
      ],
    );
    expect(decide(doc, "read_file", {})).toMatchObject({ decision: "ALLOW", policy: { id: "p1", name: "First" }, ruleIndex: 0 });
    expect(decide(doc, "list_files", {})).toMatchObject({ decision: "BLOCKED", policy: { id: "p2", name: "Second" }, ruleIndex: 0 });
    expect(decide(doc, "unread_file", {})).toMatchObject({ decision: "BLOCKED", policy: { id: "p2" } }); // read_* is anchored: unread_file is not covered
  });

  it("defaults: side-effect tools need approval, the rest are allowed, with no rule", () => {
    const doc = flow(["Empty", []]);
    expect(decide(doc, "send_email", { to: "a@b.c" })).toEqual({
      decision: "AUTH_REQUIRED",
      rule: null,
      policy: null,
      ruleIndex: null,
      explanation: "default for tools with side effects → AUTH_REQUIRED",
    });
    expect(decide(doc, "search_web", { q: "x" })).toMatchObject({ decision: "ALLOW", rule: null, explanation: "default for tools without side effects → ALLOW" });
    // A conditional rule that does not hold falls through to the default too.
    expect(decide(fileSafety, "delete_file", { path: "docs/a.md" })).toMatchObject({ decision: "AUTH_REQUIRED", rule: null });
  });
});
