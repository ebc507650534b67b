import { describe, expect, it } from "vitest";
import { describeRoute, routerTargets, sameTargets } from "./router-targets";

const nodes = [
  { id: "router", type: "router", data: { name: "Router", routes: [] } },
  { id: "billing", type: "agent", data: { name: "Billing agent", icon: "💶" } },
  { id: "refunds", type: "agent", data: { name: "", icon: "↩" } },
  { id: "other", type: "agent", data: { name: "Other", icon: "🤖" } },
  { id: "supervisor", type: "supervisor", data: { name: "Supervisor", instructions: "" } },
];

describe("routerTargets", () => {
  it("lists the agents connected from the router, in edge order, each once", () => {
    const edges = [
      { source: "router", target: "refunds" },
      { source: "router", target: "supervisor" },
      { source: "router", target: "billing" },
      { source: "router", target: "refunds" },
      { source: "other", target: "billing" },
      { source: "router", target: "gone" },
    ];
    expect(routerTargets("router", nodes, edges)).toEqual([
      { id: "refunds", name: "refunds", icon: "↩" },
      { id: "billing", name: "Billing agent", icon: "💶" },
    ]);
  });

  it("is empty for a router connected to no agent", () => {
    expect(routerTargets("router", nodes, [{ source: "router", target: "supervisor" }])).toEqual([]);
  });
});

describe("describeRoute", () => {
  it("says the condition and the target agent", () => {
    expect(describeRoute({ match: "contains", value: "invoice", target: "billing" }, "Billing agent")).toBe("contains 'invoice' → Billing agent");
    expect(describeRoute({ match: "regex", value: "^refund", target: "refunds" }, "Refunds")).toBe("matches /^refund/ → Refunds");
  });

  it("names a missing target by its id", () => {
    expect(describeRoute({ match: "contains", value: "x", target: "gone" }, undefined)).toBe(`contains 'x' → "gone" (missing)`);
  });
});

describe("sameTargets", () => {
  it("compares ids, names and icons in order", () => {
    const a = [{ id: "a", name: "A", icon: "" }];
    expect(sameTargets(a, [{ id: "a", name: "A", icon: "" }])).toBe(true);
    expect(sameTargets(a, [{ id: "a", name: "B", icon: "" }])).toBe(false);
    expect(sameTargets(a, [])).toBe(false);
  });
});
