import { AppError } from "../errors";
import { evaluatePolicy, type ToolDecision } from "../policy/evaluate-policy";
import type { FlowDocument, PermissionLevel } from "./schema";

/**
 * The model a node calls and its settings (docs/models.md "Per-node settings"): `model` is a
 * `provider:model` reference or a bare model id, "" for the flow default; `temperature` 0-2
 * and `maxOutputTokens` (tokens) are sent only when set.
 */
export interface NodeModel {
  model: string;
  temperature?: number;
  maxOutputTokens?: number;
}

/** An agent as the engine runs it: the canvas agent plus the tools wired to it by edges. */
export interface AgentSpec extends NodeModel {
  id: string;
  name: string;
  role: string;
  instructions: string;
  maxTries: number;
  icon: string;
  color: string;
  /** Tool names bound by edges agent -> tool node, in edge order. */
  tools: string[];
}

/**
 * A Human input node as the engine runs it (docs/architecture.md#flows-and-compilation): the Planner may assign a step to
 * it; the Supervisor then asks the user `prompt` and the answer is the step's result.
 */
export interface HumanInputSpec {
  id: string;
  name: string;
  prompt: string;
}

/**
 * One route of a Router/condition node (docs/architecture.md#flows-and-compilation): a new task whose text contains
 * `value` (case-insensitive) or matches the regex `value` goes to `agentId` as a one-step
 * plan, with a capability_match handoff, instead of the Planner.
 */
export interface RouteSpec {
  routerId: string;
  routerName: string;
  /** 0-based position of the route in its router. */
  index: number;
  match: "contains" | "regex";
  value: string;
  agentId: string;
}

/** What the graph builder needs from a flow document (docs/architecture.md#flows-and-compilation). */
export interface FlowSpec {
  name: string;
  mode: "autonomous" | "directed";
  defaultModel: string;
  /** The Supervisor node; its model settings are the Planner's. */
  supervisor: { name: string; instructions: string } & NodeModel;
  /** The finalizer's model settings (the End node's). */
  finalizer: NodeModel;
  agents: AgentSpec[];
  /** Human input nodes, in document order. */
  humanInputs: HumanInputSpec[];
  /** Routes of the Router/condition nodes, routers in document order, routes in order. */
  routes: RouteSpec[];
  /** Run limits; `modelCallTimeoutMs` absent = DEFAULT_MODEL_CALL_TIMEOUT_MS (lib/models/call-timeout.ts). */
  limits: { maxIterations: number; timeoutMs: number; modelCallTimeoutMs?: number };
  /**
   * The policy decision for a tool call (via `evaluatePolicy`): first rule whose
   * tool pattern, permission and argument matchers hold; side effects default to
   * AUTH_REQUIRED. `canonicalArgs` is the RFC 8785 canonical JSON text of the arguments;
   * `permission` is the run's level ("user" when omitted).
   * @throws Error when `canonicalArgs` is not canonical JSON (an engine bug).
   */
  decide(tool: string, canonicalArgs: string, permission?: PermissionLevel): ToolDecision;
}

/**
 * Reads a validated flow document into a {@link FlowSpec}: agents with their tools (edges
 * from an agent to a tool node), human inputs, router routes (those whose target is an
 * agent), the supervisor, limits and the policy decision function. The editor's live
 * validation (`validate.ts`) is stricter; this checks only what the engine cannot do without.
 * @param registry tells whether a tool exists and whether it has side effects.
 * @throws AppError unprocessable ("flow_not_runnable") naming the node when the flow has no
 *   agent, an agent bound to an unknown tool, or no start node.
 */
export function compileFlowSpec(doc: FlowDocument, registry: { known(name: string): boolean; sideEffect(name: string): boolean }): FlowSpec {
  const knownTool = registry.known;
  const byId = new Map(doc.nodes.map((n) => [n.id, n]));
  if (!doc.nodes.some((n) => n.type === "start")) {
    throw new AppError("unprocessable", "flow_not_runnable", "The flow has no Start node; add one and connect it to the supervisor.");
  }
  const agents: AgentSpec[] = [];
  for (const node of doc.nodes) {
    if (node.type !== "agent") continue;
    const tools: string[] = [];
    for (const edge of doc.edges) {
      if (edge.source !== node.id) continue;
      const target = byId.get(edge.target);
      if (target?.type !== "tool") continue;
      if (!knownTool(target.data.tool)) {
        throw new AppError("unprocessable", "flow_not_runnable", `Tool node "${target.id}" uses unknown tool "${target.data.tool}".`);
      }
      if (!tools.includes(target.data.tool)) tools.push(target.data.tool);
    }
    agents.push({ id: node.id, ...node.data, tools });
  }
  if (agents.length === 0) {
    throw new AppError("unprocessable", "flow_not_runnable", "The flow has no Agent node; add one so the supervisor can delegate steps.");
  }
  const agentIds = new Set(agents.map((a) => a.id));
  const humanInputs = doc.nodes.flatMap((n) => (n.type === "human_input" ? [{ id: n.id, name: n.data.name, prompt: n.data.prompt }] : []));
  const routes = doc.nodes.flatMap((n) =>
    n.type === "router"
      ? n.data.routes.flatMap((r, index) => (agentIds.has(r.target) ? [{ routerId: n.id, routerName: n.data.name, index, match: r.match, value: r.value, agentId: r.target }] : []))
      : [],
  );
  const sup = doc.nodes.find((n) => n.type === "supervisor");
  const end = doc.nodes.find((n) => n.type === "end");
  return {
    name: doc.settings.name,
    mode: doc.settings.mode,
    defaultModel: doc.settings.model,
    supervisor: sup?.type === "supervisor" ? { name: sup.data.name, instructions: sup.data.instructions, ...nodeModel(sup.data) } : { name: "Supervisor", instructions: "", model: "" },
    finalizer: end?.type === "end" ? nodeModel(end.data) : { model: "" },
    agents,
    humanInputs,
    routes,
    limits: doc.settings.limits,
    decide: (tool, canonicalArgs, permission = "user") => evaluatePolicy(doc, tool, canonicalArgs, { permission, isSideEffect: registry.sideEffect }),
  };
}

/** A node's model settings, without the unset ones. */
function nodeModel(data: { model?: string; temperature?: number; maxOutputTokens?: number }): NodeModel {
  return {
    model: data.model?.trim() ?? "",
    ...(data.temperature !== undefined ? { temperature: data.temperature } : {}),
    ...(data.maxOutputTokens !== undefined ? { maxOutputTokens: data.maxOutputTokens } : {}),
  };
}

/**
 * The reference a node's model resolves from (docs/models.md "Per-node settings"): its own
 * model, else the flow's default model, else "" (the default provider's model).
 */
export function modelRefOf(node: NodeModel, flow: Pick<FlowSpec, "defaultModel">): string {
  return node.model.trim() || flow.defaultModel.trim();
}

/** The AI SDK call settings of a node: temperature and maxOutputTokens, only those set. */
export function callSettingsOf(node: NodeModel): { temperature?: number; maxOutputTokens?: number } {
  return {
    ...(node.temperature !== undefined ? { temperature: node.temperature } : {}),
    ...(node.maxOutputTokens !== undefined ? { maxOutputTokens: node.maxOutputTokens } : {}),
  };
}
