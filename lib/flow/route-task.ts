import { testLinear } from "../policy/linear-regex";
import type { RouteSpec } from "./compile";

/**
 * The first route whose condition holds for a task (docs/architecture.md#flows-and-compilation):
 * `contains` compares case-insensitively; `regex` searches the pattern (validated by the
 * flow schema as RE2 syntax) ignoring case with RE2's linear-time engine (docs/security.md
 * "Regular expressions"), on at most the first 10,000 chars of the task. Null when none
 * holds: the Planner plans as usual.
 */
export function routeTask(routes: readonly RouteSpec[], task: string): RouteSpec | null {
  const text = task.slice(0, 10_000);
  const lower = text.toLowerCase();
  for (const route of routes) {
    if (route.match === "contains" ? lower.includes(route.value.toLowerCase()) : testLinear(route.value, "i", text)) return route;
  }
  return null;
}
