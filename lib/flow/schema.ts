import { z } from "zod";

/**
 * The flow document the editor saves and the compiler reads (SPEC.md 1). A flow is nodes,
 * edges and settings; every save stores it as an immutable FlowVersion.
 */

/** Policy decisions (SPEC.md 4). */
export const Decision = z.enum(["ALLOW", "AUTH_REQUIRED", "BLOCKED"]);
/** Risk levels (SPEC.md 4). */
export const RiskLevel = z.enum(["low", "medium", "high", "critical"]);

const position = z.object({ x: z.number().finite(), y: z.number().finite() });
const nodeId = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, "letters, digits, _ and - only");
const toolName = z.string().min(1).max(64).regex(/^[a-z][a-z0-9_]*$/, "snake_case tool name");

/** An agent: an LLM with instructions and tools (tools are bound by edges agent -> tool). */
export const AgentData = z.object({
  name: z.string().min(1).max(80),
  role: z.enum(["context_builder", "planner", "plan_critic", "step_executor", "reviewer"]).default("step_executor"),
  instructions: z.string().max(20_000).default(""),
  /** Model id; empty means the flow default. */
  model: z.string().max(200).default(""),
  maxTries: z.number().int().min(1).max(10).default(3),
  icon: z.string().max(8).default("🤖"),
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/).default("#5b3cc4"),
});

/** One ordered policy rule: the first rule whose tool matches decides. */
export const PolicyRule = z.object({
  tool: toolName.or(z.literal("*")),
  decision: Decision,
  risk: RiskLevel.default("medium"),
});

const base = { id: nodeId, position };

/** Nodes of a flow, a union discriminated by `type` (React Flow's node type). */
export const FlowNode = z.discriminatedUnion("type", [
  z.object({ ...base, type: z.literal("start"), data: z.object({ label: z.string().default("Start") }) }),
  z.object({ ...base, type: z.literal("end"), data: z.object({ label: z.string().default("End") }) }),
  z.object({ ...base, type: z.literal("supervisor"), data: z.object({ name: z.string().min(1), instructions: z.string().default("") }) }),
  z.object({ ...base, type: z.literal("agent"), data: AgentData }),
  z.object({ ...base, type: z.literal("tool"), data: z.object({ tool: toolName }) }),
  z.object({ ...base, type: z.literal("policy"), data: z.object({ name: z.string().min(1), rules: z.array(PolicyRule).max(200) }) }),
]);

/** A connection between two nodes. */
export const FlowEdge = z.object({
  id: z.string().min(1).max(128),
  source: nodeId,
  target: nodeId,
});

/** Flow-level settings (SPEC.md 1, 2: limits). */
export const FlowSettings = z.object({
  name: z.string().min(1).max(120),
  description: z.string().max(2000).default(""),
  mode: z.enum(["autonomous", "directed"]).default("autonomous"),
  model: z.string().max(200).default(""),
  limits: z
    .object({
      maxIterations: z.number().int().min(1).max(1000).default(50),
      /** Wall-clock limit of a run, ms (SPEC.md 2: 5 minutes). */
      timeoutMs: z.number().int().min(1000).max(3_600_000).default(300_000),
    })
    .prefault({}),
});

/**
 * A whole flow document. Besides shape, checks that ids are unique and that every edge
 * joins existing nodes, with errors that name the field.
 */
export const FlowDocument = z
  .object({
    version: z.literal(1).default(1),
    settings: FlowSettings,
    nodes: z.array(FlowNode).min(1).max(5000),
    edges: z.array(FlowEdge).max(20_000),
  })
  .superRefine((doc, ctx) => {
    const ids = new Set<string>();
    doc.nodes.forEach((n, i) => {
      if (ids.has(n.id)) ctx.addIssue({ code: "custom", path: ["nodes", i, "id"], message: `duplicate node id "${n.id}"` });
      ids.add(n.id);
    });
    doc.edges.forEach((e, i) => {
      if (!ids.has(e.source)) ctx.addIssue({ code: "custom", path: ["edges", i, "source"], message: `no node "${e.source}"` });
      if (!ids.has(e.target)) ctx.addIssue({ code: "custom", path: ["edges", i, "target"], message: `no node "${e.target}"` });
    });
  });

export type FlowDocument = z.infer<typeof FlowDocument>;
export type FlowNode = z.infer<typeof FlowNode>;
export type FlowEdge = z.infer<typeof FlowEdge>;
export type PolicyRule = z.infer<typeof PolicyRule>;
export type Decision = z.infer<typeof Decision>;
export type RiskLevel = z.infer<typeof RiskLevel>;
