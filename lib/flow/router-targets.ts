import type { RouteCondition } from "./schema";

/**
 * Where a Router/condition node may send a task (docs/architecture.md#flows-and-compilation): the agents it is connected
 * to, and its routes in words for the canvas. Plain TypeScript for the editor.
 */

/** An agent a router's route may target. */
export interface RouteTarget {
  id: string;
  name: string;
  icon: string;
}

type NodeLike = { id: string; type?: string; data: unknown };
type EdgeLike = { source: string; target: string };

/**
 * The agents at the end of an edge from `routerId`, in edge order, each once: the only
 * valid route targets (lib/flow/validate.ts reports any other as route_target_invalid).
 * Nodes of other kinds (the Supervisor fallback) are left out. Accepts document or React
 * Flow nodes and edges.
 */
export function routerTargets(routerId: string, nodes: readonly NodeLike[], edges: readonly EdgeLike[]): RouteTarget[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const seen = new Set<string>();
  const targets: RouteTarget[] = [];
  for (const edge of edges) {
    if (edge.source !== routerId || seen.has(edge.target)) continue;
    const node = byId.get(edge.target);
    if (node?.type !== "agent") continue;
    seen.add(edge.target);
    const data = node.data as { name?: unknown; icon?: unknown };
    targets.push({
      id: node.id,
      name: typeof data.name === "string" && data.name ? data.name : node.id,
      icon: typeof data.icon === "string" ? data.icon : "",
    });
  }
  return targets;
}

/**
 * One route in words, e.g. `contains 'invoice' → Billing agent` or
 * `matches /^refund/ → Refunds`. `targetName` is the target agent's name; without one
 * (no such agent) the route names the target id and says it is missing.
 */
export function describeRoute(route: Pick<RouteCondition, "match" | "value" | "target">, targetName: string | undefined): string {
  const condition = route.match === "regex" ? `matches /${route.value}/` : `contains '${route.value}'`;
  const target = targetName ?? `"${route.target}" (missing)`;
  return `${condition} → ${target}`;
}

/** Two target lists with the same agents, names and icons in the same order. */
export function sameTargets(a: readonly RouteTarget[], b: readonly RouteTarget[]): boolean {
  return a.length === b.length && a.every((t, i) => t.id === b[i]?.id && t.name === b[i]?.name && t.icon === b[i]?.icon);
}
