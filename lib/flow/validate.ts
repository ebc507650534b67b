import { providerOf, unknownProviderMessage } from "../models/provider-ref";
import { connectionRefusal } from "./connection-rule";
import { describeIssue } from "./describe-issue";
import { NODE_KIND_LABEL } from "./node-defaults";
import { nodeName as nameOf } from "./node-name";
import { needsPolicyRule, uncoveredMessage } from "./policy-gap";
import type { EditorEdge, EditorNode } from "./react-flow";
import { policyCoverage } from "./react-flow";
import { FlowDocument, type FlowNode } from "./schema";

/**
 * Live validation of a flow as it is drawn ("validates as you draw"). Plain
 * TypeScript: the editor runs it on every change, the server runs it before a run starts.
 */

/** What a problem is about; stable strings the UI and tests may rely on. */
export type ProblemCode =
  | "empty_flow"
  | "invalid_field"
  | "missing_start"
  | "missing_end"
  | "missing_agent"
  | "edge_invalid"
  | "unreachable"
  | "unknown_tool"
  | "unbound_tool"
  | "cycle_without_exit"
  | "side_effect_uncovered"
  | "route_target_invalid"
  | "unknown_provider";

/**
 * One problem. `error`s make the flow not runnable; `warning`s do not. `nodeId` / `edgeId`
 * say where it is shown on the canvas; `field` is the dotted path inside the node's `data`
 * (e.g. `rules.0.tool`) for an invalid field.
 */
export interface FlowProblem {
  code: ProblemCode;
  severity: "error" | "warning";
  message: string;
  nodeId?: string;
  edgeId?: string;
  field?: string;
}

/** What validation needs to know about tools: the tool registry's view. */
export interface ToolCatalogView {
  known(name: string): boolean;
  sideEffect(name: string): boolean;
}

/**
 * The model providers the flow's runs can address (docs/models.md "Providers"): the names
 * configured in Settings or the environment, `offline` included.
 */
export interface ProviderCatalogView {
  configured(name: string): boolean;
}

type AnyNode = FlowNode | EditorNode;
type AnyEdge = { id: string; source: string; target: string } | EditorEdge;

/** The one problem of an empty canvas, in place of the missing Start, Supervisor, Agent and End. */
const EMPTY_FLOW = "The canvas is empty. Add Start, a Supervisor, an Agent and End from the palette, then connect Start → Supervisor → Agent and Supervisor → End.";

/** What a flow with a Supervisor but no Agent is told: the Supervisor only delegates. */
const NO_AGENT = "The flow has no Agent, and the Supervisor only plans and hands each step to an agent. Add an Agent from the palette and connect the Supervisor to it.";

/**
 * All problems of a flow, errors first, each at most once per (code, node, edge, field):
 * an empty canvas (one problem saying what to add), invalid node fields (the zod schema
 * of lib/flow/schema.ts), missing Start / End / Agent, edges that join kinds the compiled graph does
 * not read (the rule `connection-rule.ts` also applies while dragging), nodes unreachable from Start, unknown tools,
 * tool nodes no agent uses, cycles with no way to End, tools with side effects that no
 * policy rule covers (docs/architecture.md#flows-and-compilation), router routes that do not lead to a connected agent,
 * and, when `providers` is given, models of a provider that is not configured (docs/models.md "Validation").
 * Accepts document nodes or React Flow nodes. Never throws.
 */
export function validateFlow(doc: { nodes: readonly AnyNode[]; edges: readonly AnyEdge[] }, tools: ToolCatalogView, providers?: ProviderCatalogView): FlowProblem[] {
  if (doc.nodes.length === 0) return [{ code: "empty_flow", severity: "error", message: EMPTY_FLOW }];
  const problems: FlowProblem[] = [...fieldProblems(doc)];
  const byId = new Map(doc.nodes.map((n) => [n.id, n]));
  const kinds = new Set(doc.nodes.map((n) => n.type));
  if (!kinds.has("start")) problems.push({ code: "missing_start", severity: "error", message: "The flow has no Start node: add one and connect it to the Supervisor." });
  if (!kinds.has("end")) problems.push({ code: "missing_end", severity: "error", message: "The flow has no End node: add one and connect the Supervisor to it." });
  if (!kinds.has("agent")) {
    const message = kinds.has("supervisor") ? NO_AGENT : "The flow has no Agent: add one from the palette so the Supervisor can hand it steps.";
    problems.push({ code: "missing_agent", severity: "error", message });
  }

  const out = new Map<string, string[]>();
  const drawn = new Map<string, string[]>();
  for (const edge of doc.edges) {
    const source = byId.get(edge.source);
    const target = byId.get(edge.target);
    if (source && target) push(drawn, edge.source, edge.target);
    if (!source || !target) {
      const missing = source ? edge.target : edge.source;
      problems.push({ code: "edge_invalid", severity: "error", edgeId: edge.id, message: `Edge ${edge.id} points to node "${missing}", which does not exist.` });
      continue;
    }
    // Kinds only: a duplicate edge is refused while drawing but is harmless in a document.
    const refusal = connectionRefusal(source, target);
    if (refusal) {
      problems.push({ code: "edge_invalid", severity: "error", edgeId: edge.id, nodeId: source.id, message: refusal });
      continue;
    }
    push(out, edge.source, edge.target);
  }

  const reachable = reach(
    doc.nodes.filter((n) => n.type === "start").map((n) => n.id),
    out,
  );
  for (const node of doc.nodes) {
    // Tools are reached through their agent: an unreachable agent is reported, an unbound tool is a warning.
    if (node.type === "start" || node.type === "policy" || node.type === "tool" || reachable.has(node.id)) continue;
    problems.push({ code: "unreachable", severity: "error", nodeId: node.id, message: `${NODE_KIND_LABEL[node.type]} "${nameOf(node)}" cannot be reached from Start; connect it or delete it.` });
  }

  const boundTools = new Set<string>();
  for (const [source, targets] of out) if (byId.get(source)?.type === "agent") for (const t of targets) boundTools.add(t);
  for (const node of doc.nodes) {
    if (node.type === "tool") problems.push(...toolProblems(node, doc, tools, boundTools.has(node.id)));
    if (node.type === "router") problems.push(...routeProblems(node, byId, out));
    if (providers) problems.push(...providerProblems(node, providers));
  }
  // Cycles are looked for in the edges as drawn (a cycle of edges the graph does not read is
  // still a loop the user meant): a cycle with no way to End is reported on each of its nodes.
  problems.push(...cycleProblems(doc.nodes, drawn, byId));
  return dedupe(problems).sort((a, b) => (a.severity === b.severity ? 0 : a.severity === "error" ? -1 : 1));
}

/** True when no problem is an error: the flow may run (invalid flows cannot be run). */
export function isRunnable(problems: readonly FlowProblem[]): boolean {
  return !problems.some((p) => p.severity === "error");
}

/** The reason the Run button gives, e.g. `2 problems: The flow has no End node…`; null when runnable. */
export function notRunnableReason(problems: readonly FlowProblem[]): string | null {
  const errors = problems.filter((p) => p.severity === "error");
  const [first] = errors;
  if (!first) return null;
  return errors.length === 1 ? first.message : `${errors.length} problems, first: ${first.message}`;
}

/** Schema problems of node data and settings, located on their node (field paths inside `data`). */
function fieldProblems(doc: { nodes: readonly AnyNode[]; edges: readonly AnyEdge[] }): FlowProblem[] {
  const settings = { name: "flow" };
  const parsed = FlowDocument.safeParse({
    version: 1,
    settings,
    nodes: doc.nodes.map((n) => ({ id: n.id, type: n.type, position: n.position, data: n.data })),
    edges: doc.edges.map((e) => ({ id: e.id, source: e.source, target: e.target })),
  });
  if (parsed.success) return [];
  return parsed.error.issues.flatMap((issue): FlowProblem[] => {
    const [root, index, part, ...rest] = issue.path;
    if (root === "edges") return []; // edge endpoints are checked with clearer messages above
    if (root !== "nodes" || typeof index !== "number") return [{ code: "invalid_field", severity: "error", message: describeIssue(doc, issue) }];
    const node = doc.nodes[index];
    const field =
      part === "data"
        ? rest.map(String).join(".")
        : [part, ...rest]
            .filter((p) => p !== undefined)
            .map(String)
            .join(".");
    return [{ code: "invalid_field", severity: "error", nodeId: node?.id, field, message: describeIssue(doc, issue) }];
  });
}

function toolProblems(node: Extract<AnyNode, { type: "tool" }>, doc: { nodes: readonly AnyNode[] }, tools: ToolCatalogView, bound: boolean): FlowProblem[] {
  const name = node.data.tool;
  if (!tools.known(name)) return [{ code: "unknown_tool", severity: "error", nodeId: node.id, field: "tool", message: `Tool node "${node.id}" uses "${name}", which is not in the tool catalog.` }];
  const problems: FlowProblem[] = [];
  if (!bound) problems.push({ code: "unbound_tool", severity: "warning", nodeId: node.id, message: `No agent uses tool "${name}": connect an Agent to it, or delete it.` });
  const sideEffect = tools.sideEffect(name);
  if (sideEffect && needsPolicyRule(policyCoverage(doc, name, true), true)) {
    problems.push({ code: "side_effect_uncovered", severity: "error", nodeId: node.id, message: uncoveredMessage(name) });
  }
  return problems;
}

function routeProblems(node: Extract<AnyNode, { type: "router" }>, byId: Map<string, AnyNode>, out: Map<string, string[]>): FlowProblem[] {
  const targets = out.get(node.id) ?? [];
  return node.data.routes.flatMap((route, i): FlowProblem[] => {
    const target = byId.get(route.target);
    if (target?.type === "agent" && targets.includes(route.target)) return [];
    const why = !target ? `there is no node "${route.target}"` : target.type !== "agent" ? `"${route.target}" is not an Agent` : `the Router is not connected to "${route.target}"`;
    return [{ code: "route_target_invalid", severity: "error", nodeId: node.id, field: `routes.${i}.target`, message: `Route ${i + 1} of "${node.data.name}" goes nowhere: ${why}.` }];
  });
}

/** A node whose model names a provider that is not configured (docs/models.md "Validation"). */
function providerProblems(node: AnyNode, providers: ProviderCatalogView): FlowProblem[] {
  if (node.type !== "agent" && node.type !== "supervisor" && node.type !== "end") return [];
  const ref = typeof node.data.model === "string" ? node.data.model : "";
  const provider = providerOf(ref);
  if (!provider || providers.configured(provider)) return [];
  const who = node.type === "agent" ? `Agent '${nameOf(node)}'` : node.type === "supervisor" ? `The planner ('${nameOf(node)}')` : "The finalizer (End)";
  return [{ code: "unknown_provider", severity: "error", nodeId: node.id, field: "model", message: unknownProviderMessage(who, ref, provider) }];
}

/** Appends `value` to the list under `key`. */
function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Ids reachable from `from` along `out` (including `from`). */
function reach(from: readonly string[], out: Map<string, string[]>): Set<string> {
  const seen = new Set(from);
  const stack = [...from];
  for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
    for (const next of out.get(id) ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(next);
    }
  }
  return seen;
}

/**
 * Strongly connected components (Tarjan, iterative) with a cycle in them: more than one
 * node, or a self-loop. A cycle is reported when no node in it can reach an End node.
 */
function cycleProblems(nodes: readonly AnyNode[], out: Map<string, string[]>, byId: Map<string, AnyNode>): FlowProblem[] {
  const ends = nodes.filter((n) => n.type === "end").map((n) => n.id);
  const into = new Map<string, string[]>();
  for (const [source, targets] of out) for (const t of targets) push(into, t, source);
  const reachesEnd = reach(ends, into);
  const problems: FlowProblem[] = [];
  for (const component of stronglyConnected(
    nodes.map((n) => n.id),
    out,
  )) {
    const cyclic = component.length > 1 || (out.get(component[0] ?? "") ?? []).includes(component[0] ?? "");
    if (!cyclic || component.some((id) => reachesEnd.has(id))) continue;
    const names = component.map((id) => `"${byId.get(id) ? nameOf(byId.get(id) as AnyNode) : id}"`).join(" → ");
    for (const id of component) problems.push({ code: "cycle_without_exit", severity: "error", nodeId: id, message: `The cycle ${names} never reaches End: add a way out.` });
  }
  return problems;
}

function stronglyConnected(ids: readonly string[], out: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const result: string[][] = [];
  let counter = 0;
  for (const root of ids) {
    if (index.has(root)) continue;
    const work: { id: string; next: number }[] = [{ id: root, next: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { id: string; next: number };
      const targets = out.get(frame.id) ?? [];
      if (frame.next < targets.length) {
        const t = targets[frame.next++] as string;
        if (!index.has(t)) {
          index.set(t, counter);
          low.set(t, counter++);
          stack.push(t);
          onStack.add(t);
          work.push({ id: t, next: 0 });
        } else if (onStack.has(t)) {
          low.set(frame.id, Math.min(low.get(frame.id) as number, index.get(t) as number));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.id, Math.min(low.get(parent.id) as number, low.get(frame.id) as number));
      if (low.get(frame.id) === index.get(frame.id)) {
        const component: string[] = [];
        for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
          onStack.delete(id);
          component.push(id);
          if (id === frame.id) break;
        }
        result.push(component.reverse());
      }
    }
  }
  return result;
}

function dedupe(problems: FlowProblem[]): FlowProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = [p.code, p.nodeId, p.edgeId, p.field, p.message].join("\u0000");
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
