import type { RouteSpec } from "./compile";

/**
 * The first route whose condition holds for a task (SPEC.md 1 Router/condition, issue 5):
 * `contains` compares case-insensitively; `regex` tests the pattern (validated by the flow
 * schema: it compiles and has no nested quantifier) with the `i` flag, on at most the
 * first 10,000 chars of the task. Null when none holds: the Planner plans as usual.
 */
export function routeTask(routes: readonly RouteSpec[], task: string): RouteSpec | null {
  const text = task.slice(0, 10_000);
  const lower = text.toLowerCase();
  for (const route of routes) {
    if (route.match === "contains" ? lower.includes(route.value.toLowerCase()) : new RegExp(route.value, "i").test(text)) return route;
  }
  return null;
}
