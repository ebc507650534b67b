import { describe, expect, it } from "vitest";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import { fieldMessage } from "./field-message";
import { dataToApply, nodeDataSchema, sameData } from "./node-data";
import { AgentData, FlowNode, HumanInputData, RouterData } from "./schema";

const agent = { name: "Assistant", role: "step_executor", instructions: "", model: "", maxTries: 3, icon: "📁", color: "#2f7d5b" } as const;

describe("nodeDataSchema", () => {
  it("is the schema FlowNode parses each kind's data with", () => {
    expect(nodeDataSchema("agent")).toBe(AgentData);
    expect(nodeDataSchema("human_input")).toBe(HumanInputData);
    expect(nodeDataSchema("router")).toBe(RouterData);
    for (const node of workspaceAssistant.nodes) {
      expect(nodeDataSchema(node.type).safeParse(node.data).success, node.id).toBe(true);
    }
  });

  it("refuses what FlowNode refuses", () => {
    expect(nodeDataSchema("supervisor").safeParse({ name: "", instructions: "" }).success).toBe(false);
    expect(FlowNode.safeParse({ id: "s", type: "supervisor", position: { x: 0, y: 0 }, data: { name: "", instructions: "" } }).success).toBe(false);
    expect(nodeDataSchema("tool").safeParse({ tool: "Write File" }).success).toBe(false);
    expect(nodeDataSchema("policy").safeParse({ name: "P", rules: [{ tool: "*", decision: "MAYBE" }] }).success).toBe(false);
  });
});

describe("sameData", () => {
  it("compares objects by keys in any order and arrays in order", () => {
    expect(sameData({ a: 1, b: [1, { c: "x" }] }, { b: [1, { c: "x" }], a: 1 })).toBe(true);
    expect(sameData({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(sameData({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameData({ a: 1 }, { a: "1" })).toBe(false);
    expect(sameData([], {})).toBe(false);
    expect(sameData(null, {})).toBe(false);
  });

  it("treats an undefined key as missing and NaN as equal to itself", () => {
    expect(sameData({ kind: "regex", flags: undefined }, { kind: "regex" })).toBe(true);
    expect(sameData({ n: Number.NaN }, { n: Number.NaN })).toBe(true);
    expect(sameData({ n: 0 }, { n: 1 })).toBe(false);
  });
});

describe("dataToApply", () => {
  it("returns the parsed data when the values are valid and differ", () => {
    expect(dataToApply(AgentData, { ...agent, name: "Writer" }, agent)).toEqual({ ...agent, name: "Writer" });
  });

  it("returns null for invalid values: they are not applied until fixed", () => {
    expect(dataToApply(AgentData, { ...agent, name: "" }, agent)).toBeNull();
    expect(dataToApply(AgentData, { ...agent, maxTries: 11 }, agent)).toBeNull();
    expect(dataToApply(AgentData, { ...agent, maxTries: Number.NaN }, agent)).toBeNull();
    expect(dataToApply(AgentData, { ...agent, color: "red" }, agent)).toBeNull();
  });

  it("returns null when nothing changed, so a form reset does not write the node again", () => {
    expect(dataToApply(AgentData, { ...agent }, agent)).toBeNull();
  });

  it("fills the schema's defaults", () => {
    const rules = [{ tool: "write_*", decision: "BLOCKED" }];
    expect(dataToApply(nodeDataSchema("policy"), { name: "P", rules }, { name: "P", rules: [] })).toEqual({
      name: "P",
      rules: [{ tool: "write_*", decision: "BLOCKED", risk: "medium", permission: "any", match: [] }],
    });
  });
});

describe("fieldMessage", () => {
  const messages = (values: unknown) => AgentData.safeParse(values, { error: fieldMessage }).error?.issues.map((i) => [i.path.join("."), i.message]);

  it("says Required, At most and Enter a number instead of zod's generic text", () => {
    expect(messages({ ...agent, name: "" })).toEqual([["name", "Required"]]);
    expect(messages({ ...agent, maxTries: 11 })).toEqual([["maxTries", "At most 10"]]);
    expect(messages({ ...agent, maxTries: 0 })).toEqual([["maxTries", "At least 1"]]);
    expect(messages({ ...agent, maxTries: Number.NaN })).toEqual([["maxTries", "Enter a number"]]);
    expect(messages({ ...agent, maxTries: 2.5 })).toEqual([["maxTries", "Enter a whole number"]]);
    expect(messages({ ...agent, name: "x".repeat(81) })).toEqual([["name", "At most 80 characters"]]);
  });

  it("keeps the messages a schema sets itself", () => {
    const result = nodeDataSchema("tool").safeParse({ tool: "Write File" }, { error: fieldMessage });
    expect(result.error?.issues[0]?.message).toBe("snake_case tool name");
    const prompt = HumanInputData.safeParse({ name: "Ask", prompt: "" }, { error: fieldMessage });
    expect(prompt.error?.issues[0]?.message).toBe("write the question the user is asked");
  });
});
