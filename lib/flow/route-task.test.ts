import { describe, expect, it } from "vitest";
import type { RouteSpec } from "./compile";
import { routeTask } from "./route-task";

const route = (match: RouteSpec["match"], value: string, agentId: string, index = 0): RouteSpec => ({ routerId: "r", routerName: "R", index, match, value, agentId });

/** Router/condition routes (docs/architecture.md#flows-and-compilation): first match wins, contains ignores case, regexes get the i flag. */
describe("routeTask", () => {
  const routes = [route("contains", "Invoice", "billing", 0), route("regex", "^\\s*list\\b", "librarian", 1)];
  it.each([
    ["pay the INVOICE of May", "billing"],
    ["  List the files", "librarian"],
    ["please list the files", null],
    ["summarize notes.md", null],
    ["list invoices", "billing"],
  ])("%s -> %s", (task, agent) => {
    expect(routeTask(routes, task)?.agentId ?? null).toBe(agent);
  });

  it("no routes: no match", () => {
    expect(routeTask([], "anything")).toBeNull();
  });
});
