import { NODE_KIND_LABEL } from "./node-defaults";
import { nodeName } from "./node-name";
import type { FlowNode } from "./schema";

/**
 * Which nodes may be joined by an edge: the one rule the editor applies while a connection
 * is dragged (React Flow's `isValidConnection`) and validation applies to the saved edges
 * (`validate.ts`), so the two never disagree. The compiled graph reads edges Start ->
 * Supervisor | Router, Router -> Agent | Supervisor, Supervisor -> Agent | Human input |
 * End, Agent -> Tool (lib/flow/compile.ts); any other edge means nothing to it.
 */

type Kind = FlowNode["type"];

/** Source kind -> the kinds it may connect to. Policies apply to the whole flow and take no edges. */
export const ALLOWED_TARGETS: Readonly<Record<Kind, readonly Kind[]>> = {
  start: ["supervisor", "router"],
  router: ["agent", "supervisor"],
  supervisor: ["agent", "human_input", "end"],
  agent: ["tool"],
  human_input: [],
  tool: [],
  policy: [],
  end: [],
};

/**
 * Kinds that apply to the whole flow rather than to a place in it: they have no handles,
 * refuse every edge, and say so on the canvas.
 */
export const WHOLE_FLOW_KINDS: ReadonlySet<Kind> = new Set(["policy"]);

/** True when an edge from a `source` node to a `target` node is one the compiled graph reads. */
export function canConnect(source: Kind, target: Kind): boolean {
  return ALLOWED_TARGETS[source].includes(target);
}

/**
 * The handles a node of `kind` shows: a source handle (right) when it may connect to
 * something, a target handle (left) when something may connect to it. A Policy has none.
 */
export function handlesOf(kind: Kind): { source: boolean; target: boolean } {
  const kinds = Object.keys(ALLOWED_TARGETS) as Kind[];
  return { source: ALLOWED_TARGETS[kind].length > 0, target: kinds.some((k) => ALLOWED_TARGETS[k].includes(kind)) };
}

/** A node as the rule reads it: document or React Flow node. */
export interface RuleNode {
  id: string;
  type: Kind;
  data: unknown;
}

/** A kind's name with its article, for a sentence: "an Agent", "a Tool", "End". */
const A_KIND: Record<Kind, string> = {
  start: "Start",
  end: "End",
  supervisor: "a Supervisor",
  agent: "an Agent",
  tool: "a Tool",
  policy: "a Policy",
  human_input: "a Human input",
  router: "a Router",
};

/** "an Agent, a Human input or End": a list of kinds for a sentence. */
function kindList(kinds: readonly Kind[]): string {
  const names = kinds.map((k) => A_KIND[k]);
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
}

/**
 * Why the kinds of two nodes cannot be joined, in words a newcomer understands (no node
 * names), or null when they can. E.g. `a Policy applies to the whole flow and takes no
 * connections`, `a Supervisor connects only to an Agent, a Human input or End; a Tool is
 * connected from an Agent`.
 */
export function kindRefusal(source: Kind, target: Kind): string | null {
  if (canConnect(source, target)) return null;
  if (WHOLE_FLOW_KINDS.has(source) || WHOLE_FLOW_KINDS.has(target)) {
    const kind = WHOLE_FLOW_KINDS.has(source) ? source : target;
    return `${A_KIND[kind]} applies to the whole flow and takes no connections`;
  }
  const allowed = ALLOWED_TARGETS[source];
  if (allowed.length === 0) {
    const why: Partial<Record<Kind, string>> = {
      end: "End is where the run finishes",
      tool: "a Tool is used by the Agent connected to it",
      human_input: "a Human input hands its answer back to the Supervisor by itself",
    };
    return `${why[source] ?? `${A_KIND[source]} connects to nothing`}, so no edge leaves it`;
  }
  const feeders = (Object.keys(ALLOWED_TARGETS) as Kind[]).filter((k) => ALLOWED_TARGETS[k].includes(target));
  const into = feeders.length > 0 ? `; ${A_KIND[target]} is connected from ${kindList(feeders)}` : `; nothing connects to ${A_KIND[target]}`;
  return `${A_KIND[source]} connects only to ${kindList(allowed)}${into}`;
}

/**
 * Why a new edge from `source` to `target` is refused, as one sentence, or null when it is
 * allowed: the same node, an edge that already exists in `edges`, or kinds that cannot be
 * joined (see {@link kindRefusal}). E.g.
 * `Supervisor "Supervisor" cannot connect to Tool "read_file": a Supervisor connects only to
 * an Agent, a Human input or End; a Tool is connected from an Agent.`
 * @param edges the edges already drawn; omit to judge the kinds alone (validation of saved edges).
 */
export function connectionRefusal(source: RuleNode, target: RuleNode, edges: readonly { source: string; target: string }[] = []): string | null {
  const from = `${NODE_KIND_LABEL[source.type]} "${nodeName(source)}"`;
  if (source.id === target.id) return `${from} cannot connect to itself.`;
  const kinds = kindRefusal(source.type, target.type);
  if (kinds) return `${from} cannot connect to ${NODE_KIND_LABEL[target.type]} "${nodeName(target)}": ${kinds}.`;
  if (edges.some((e) => e.source === source.id && e.target === target.id)) return `${from} is already connected to ${NODE_KIND_LABEL[target.type]} "${nodeName(target)}".`;
  return null;
}
