import { describe, expect, it } from "vitest";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import { FlowDocument } from "../flow/schema";
import { decideTool } from "./decide-tool";

/** The name-only view of the policies (SPEC.md 4), for callers without the call's arguments. */
describe("decideTool", () => {
  it("applies the template policy", () => {
    expect(decideTool(workspaceAssistant, "read_file").decision).toBe("ALLOW");
    expect(decideTool(workspaceAssistant, "list_files").decision).toBe("ALLOW");
    expect(decideTool(workspaceAssistant, "write_file")).toMatchObject({ decision: "AUTH_REQUIRED", ruleIndex: 2, policy: { id: "policy" } });
    expect(decideTool(workspaceAssistant, "delete_file")).toMatchObject({
      decision: "BLOCKED",
      rule: { risk: "high" },
      explanation: "File safety #4: delete_file → BLOCKED (high)",
    });
  });

  it("defaults side-effect tools no rule covers to AUTH_REQUIRED", () => {
    const noPolicy = { ...workspaceAssistant, nodes: workspaceAssistant.nodes.filter((n) => n.type !== "policy") };
    expect(decideTool(noPolicy, "write_file")).toEqual({
      decision: "AUTH_REQUIRED",
      rule: null,
      policy: null,
      ruleIndex: null,
      explanation: "default for tools with side effects → AUTH_REQUIRED",
    });
    expect(decideTool(noPolicy, "delete_file").decision).toBe("AUTH_REQUIRED");
    expect(decideTool(noPolicy, "read_file").decision).toBe("ALLOW");
    expect(decideTool(noPolicy, "read_file", () => true).decision).toBe("AUTH_REQUIRED");
  });

  it("skips rules with matchers or a specific permission, and reads tool globs", () => {
    const doc = FlowDocument.parse({
      settings: { name: "f" },
      edges: [],
      nodes: [
        {
          id: "p",
          type: "policy",
          position: { x: 0, y: 0 },
          data: {
            name: "P",
            rules: [
              { tool: "write_file", decision: "ALLOW", match: [{ kind: "path_glob", field: "path", pattern: "docs/**" }] },
              { tool: "*_file", decision: "ALLOW", permission: "admin" },
              { tool: "*_file", decision: "BLOCKED", risk: "high" },
            ],
          },
        },
      ],
    });
    expect(decideTool(doc, "write_file")).toMatchObject({ decision: "BLOCKED", ruleIndex: 2 });
    expect(decideTool(doc, "send_email", () => true)).toMatchObject({ decision: "AUTH_REQUIRED", ruleIndex: null });
  });
});
