import { FlowDocument, type FlowEdge, type FlowNode, type PolicyRule } from "../../lib/flow/schema";

/**
 * A large flow for the canvas benchmark: Start -> Supervisor -> many agents, each
 * agent -> a few tool nodes of the built-in catalog, Supervisor -> End, and one policy node
 * whose rules cover every catalog tool (one conditional rule, so tool nodes show a coverage
 * line). Deterministic: the same `nodes` always gives the same document.
 */

/** The built-in tools (lib/tools/registry.ts), cycled over the agents' tool nodes. */
const TOOLS = ["list_files", "read_file", "write_file", "delete_file", "rehydrate"] as const;
const ROLES = ["context_builder", "planner", "plan_critic", "step_executor", "reviewer"] as const;
const ICONS = ["🤖", "📁", "🔎", "🧮", "📝", "🧪"] as const;
const COLORS = ["#5b3cc4", "#2f7d5b", "#b7491f", "#1f6fb7", "#8a3c9e", "#7d6a2f"] as const;

/** Start, Supervisor, End and the policy node. */
const FIXED = 4;

/** Grid geometry, in flow coordinates (px at zoom 1). */
const TOOL_DX = 240;
const TOOL_DY = 90;
const CELL_W = 520;
const GRID_X = 700;

export interface GenerateOptions {
  /** Total node count, at least 5 and at most 5000 (the schema's limit). Default 1000. */
  nodes?: number;
  /** Tool nodes per agent (the last agent may get fewer). Default 4. */
  toolsPerAgent?: number;
}

function pick<T>(list: readonly T[], i: number): T {
  const value = list[i % list.length];
  if (value === undefined) throw new Error("empty list");
  return value;
}

/** The policy: a conditional write rule first, then one unconditional rule per catalog tool. */
function policyRules(): PolicyRule[] {
  return [
    { tool: "write_file", decision: "ALLOW", risk: "low", permission: "any", match: [{ kind: "path_glob", field: "path", pattern: "notes/**" }] },
    { tool: "list_files", decision: "ALLOW", risk: "low", permission: "any", match: [] },
    { tool: "read_file", decision: "ALLOW", risk: "low", permission: "any", match: [] },
    { tool: "write_file", decision: "AUTH_REQUIRED", risk: "medium", permission: "any", match: [] },
    { tool: "delete_file", decision: "BLOCKED", risk: "high", permission: "any", match: [] },
    { tool: "rehydrate", decision: "ALLOW", risk: "low", permission: "any", match: [] },
  ];
}

/**
 * Builds a valid flow document of exactly `nodes` nodes: 4 fixed nodes, then agents with
 * `toolsPerAgent` tool nodes each until the count is reached. Agents sit on a grid of
 * cells (agent on the left, its tools stacked on the right); Start, Supervisor, End and
 * the policy node sit in a column left of the grid.
 * @throws RangeError when `nodes` is outside 5..5000 or `toolsPerAgent` is below 1.
 * @throws ZodError if the result does not parse (a bug in the generator).
 */
export function generateFlow({ nodes = 1000, toolsPerAgent = 4 }: GenerateOptions = {}): FlowDocument {
  if (!Number.isInteger(nodes) || nodes < FIXED + 1 || nodes > 5000) throw new RangeError(`nodes must be an integer in ${FIXED + 1}..5000, got ${nodes}`);
  if (!Number.isInteger(toolsPerAgent) || toolsPerAgent < 1) throw new RangeError(`toolsPerAgent must be a positive integer, got ${toolsPerAgent}`);

  const groups = Math.ceil((nodes - FIXED) / (toolsPerAgent + 1));
  const columns = Math.ceil(Math.sqrt(groups));
  const cellH = toolsPerAgent * TOOL_DY + 60;
  const rows = Math.ceil(groups / columns);
  const midY = (rows * cellH) / 2;

  const out: FlowNode[] = [
    { id: "start", type: "start", position: { x: 0, y: midY }, data: { label: "Start" } },
    { id: "supervisor", type: "supervisor", position: { x: 260, y: midY }, data: { name: "Supervisor", instructions: "Plan the task and delegate each step to the best agent.\nKeep steps small." } },
    { id: "end", type: "end", position: { x: 260, y: midY + 200 }, data: { label: "End" } },
    { id: "policy", type: "policy", position: { x: 260, y: midY + 360 }, data: { name: "File safety", rules: policyRules() } },
  ];
  const edges: FlowEdge[] = [
    { id: "e-start", source: "start", target: "supervisor" },
    { id: "e-end", source: "supervisor", target: "end" },
  ];

  let left = nodes - FIXED;
  for (let g = 0; left > 0; g++) {
    const x = GRID_X + (g % columns) * CELL_W;
    const y = Math.floor(g / columns) * cellH;
    const agentId = `agent-${g}`;
    out.push({
      id: agentId,
      type: "agent",
      position: { x, y: y + ((toolsPerAgent - 1) * TOOL_DY) / 2 },
      data: {
        name: `Agent ${g + 1}`,
        role: pick(ROLES, g),
        instructions: `Handle part ${g + 1} of the work with the file tools.\nQuote what you read.`,
        model: "",
        maxTries: 3,
        icon: pick(ICONS, g),
        color: pick(COLORS, g),
      },
    });
    edges.push({ id: `e-${agentId}`, source: "supervisor", target: agentId });
    left--;
    for (let t = 0; t < toolsPerAgent && left > 0; t++, left--) {
      const toolId = `${agentId}-t${t}`;
      out.push({ id: toolId, type: "tool", position: { x: x + TOOL_DX, y: y + t * TOOL_DY }, data: { tool: pick(TOOLS, g + t) } });
      edges.push({ id: `e-${toolId}`, source: agentId, target: toolId });
    }
  }

  return FlowDocument.parse({
    version: 1,
    settings: {
      name: `Canvas bench (${nodes} nodes)`,
      description: "Generated by bench/canvas/generate.ts for the canvas benchmark.",
      mode: "autonomous",
      model: "",
      limits: { maxIterations: 50, timeoutMs: 300_000 },
    },
    nodes: out,
    edges,
  });
}
