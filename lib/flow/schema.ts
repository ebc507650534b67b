import { z } from "zod";
import { linearRegexProblem } from "../policy/linear-regex";

/**
 * The flow document the editor saves and the compiler reads (docs/architecture.md#flows-and-compilation). A flow is nodes,
 * edges and settings; every save stores it as an immutable FlowVersion.
 */

/** Policy decisions (docs/architecture.md#policies). */
export const Decision = z.enum(["ALLOW", "AUTH_REQUIRED", "BLOCKED"]);
/** Risk levels (docs/architecture.md#approvals). */
export const RiskLevel = z.enum(["low", "medium", "high", "critical"]);

const position = z.object({ x: z.number().finite(), y: z.number().finite() });
const nodeId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, "letters, digits, _ and - only");
const toolName = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z][a-z0-9_]*$/, "snake_case tool name");

/**
 * The model settings a node picks (docs/models.md "Per-node settings"): the planner
 * (Supervisor), each Agent and the finalizer (End). `model` is `provider:model` (or a bare
 * model id of the default provider, as saved before providers were named); empty or absent:
 * the flow default. `temperature` 0-2 and `maxOutputTokens` 1-64,000 tokens; absent: the provider's default.
 */
export const NodeModelFields = {
  model: z.string().trim().max(200).optional(),
  temperature: z.number({ error: "temperature: a number from 0 to 2" }).min(0, "temperature: 0 to 2").max(2, "temperature: 0 to 2").optional(),
  maxOutputTokens: z
    .number({ error: "maxOutputTokens: a whole number from 1 to 64000" })
    .int("maxOutputTokens: a whole number")
    .min(1, "maxOutputTokens: 1 to 64000")
    .max(64_000, "maxOutputTokens: 1 to 64000")
    .optional(),
};

/** An agent: an LLM with instructions and tools (tools are bound by edges agent -> tool). */
export const AgentData = z.object({
  name: z.string().min(1).max(80),
  role: z.enum(["context_builder", "planner", "plan_critic", "step_executor", "reviewer"]).default("step_executor"),
  instructions: z.string().max(20_000).default(""),
  ...NodeModelFields,
  /** `provider:model` or a model id; empty means the flow default (see NodeModelFields). */
  model: z.string().max(200).default(""),
  maxTries: z.number().int().min(1).max(10).default(3),
  /**
   * A lucide icon name from `AGENT_ICON_NAMES` (lib/flow/agent-icons.ts), e.g. "bot"; older
   * documents hold an emoji, which is shown as its nearest icon. Up to 32 chars.
   */
  icon: z.string().max(32).default("bot"),
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/)
    .default("#5b3cc4"),
});

/** Permission levels a run may have; a rule may apply to one of them (docs/architecture.md#policies). */
export const PermissionLevel = z.enum(["user", "admin", "system"]);
/** The permission level a rule applies to: one level, or "any" for every level (docs/architecture.md#policies). */
export const RulePermission = z.enum(["any", ...PermissionLevel.options]);

/** A dotted path into the tool arguments: `path`, `request.url`, `items.0.amount`. */
const fieldPath = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/, "dotted path of letters, digits, _ and - (e.g. request.url)");

/** A host name (`example.com`) or every subdomain of one (`*.example.com`). */
const hostEntry = z
  .string()
  .min(1)
  .max(253)
  .regex(/^(?:\*\.)?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*$/, "host name like example.com or *.example.com");

/**
 * A regular expression source in RE2 syntax (policy matchers and Router conditions run on a
 * linear-time engine: docs/security.md "Regular expressions"). RE2 has no backreferences
 * or lookaround; any pattern it accepts runs in time linear in its input.
 */
const regexSource = z
  .string()
  .min(1)
  .max(200)
  .superRefine((source, ctx) => {
    const problem = linearRegexProblem(source);
    if (problem) ctx.addIssue({ code: "custom", message: `not a valid regular expression (${problem}); use RE2 syntax: no backreferences or lookaround` });
  });

/**
 * One condition on the (RFC 8785 canonical) tool arguments; a rule applies only when all
 * its matchers hold (argument patterns). `field` names a value in the arguments;
 * a missing field or a value of the wrong type never matches. Evaluated by
 * `lib/policy/match-argument.ts`.
 */
export const ArgMatcher = z.discriminatedUnion("kind", [
  /** The string field, normalised as a POSIX path, matches a glob (picomatch). */
  z.object({
    kind: z.literal("path_glob"),
    field: fieldPath,
    pattern: z
      .string()
      .min(1)
      .max(200)
      .refine((p) => !p.startsWith("/"), "paths are relative to the workspace: an absolute pattern never matches"),
  }),
  /** The string field is a URL whose host is one of `hosts` (`*.example.com`: any subdomain). */
  z.object({ kind: z.literal("url_host"), field: fieldPath, hosts: z.array(hostEntry).min(1).max(50) }),
  /** The field is a finite number (not a numeric string) and compares to `value`. */
  z.object({ kind: z.literal("number"), field: fieldPath, op: z.enum(["gt", "gte", "lt", "lte", "eq", "neq"]), value: z.number({ error: "a finite number" }) }),
  /** The string field (at most 10,000 chars) matches a regular expression; `flags` "i" ignores case. */
  z.object({ kind: z.literal("regex"), field: fieldPath, pattern: regexSource, flags: z.literal("i").optional() }),
]);

/**
 * One ordered policy rule (docs/architecture.md#policies): the first rule whose tool pattern, permission level
 * and argument matchers all hold decides. `tool` is a tool name or a glob over tool names
 * (`*`, `*_file`, `read_*`). Every field added after the first release has a default, so
 * stored documents parse unchanged.
 */
export const PolicyRule = z.object({
  tool: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[a-z*][a-z0-9_*]*$/, "tool name or glob: lower-case letters, digits, _ and * (e.g. *_file)"),
  decision: Decision,
  risk: RiskLevel.default("medium"),
  permission: RulePermission.default("any"),
  match: z.array(ArgMatcher).max(20).default([]),
});

const base = { id: nodeId, position };

/**
 * Human input (docs/architecture.md#flows-and-compilation): a step the Supervisor hands to the user instead of an agent. The
 * run waits (status awaiting_input) with `prompt` as its question; the user's reply is the
 * step's result. Wired like an agent: Supervisor -> Human input.
 */
export const HumanInputData = z.object({
  name: z.string().min(1).max(80),
  prompt: z.string().min(1, "write the question the user is asked").max(2000),
});

/**
 * One route of a Router/condition node: when the task text contains `value` (case
 * insensitive) or matches the regex `value`, the task goes straight to the agent `target`
 * as a one-step plan (handoff reason capability_match) instead of the Planner.
 */
export const RouteCondition = z
  .object({
    match: z.enum(["contains", "regex"]),
    value: z.string().min(1).max(200),
    target: nodeId,
  })
  .superRefine((route, ctx) => {
    if (route.match !== "regex") return;
    const issue = regexSource.safeParse(route.value);
    if (!issue.success) for (const i of issue.error.issues) ctx.addIssue({ code: "custom", path: ["value"], message: i.message });
  });

/**
 * Router/condition (docs/architecture.md#flows-and-compilation): deterministic routing of a new task, no LLM. Routes are
 * tried in order; with no match the Planner plans as usual. Wired Start -> Router ->
 * agents (the route targets) and Router -> Supervisor (the fallback).
 */
export const RouterData = z.object({
  name: z.string().min(1).max(80),
  routes: z.array(RouteCondition).max(50).default([]),
});

/** Nodes of a flow, a union discriminated by `type` (React Flow's node type). */
export const FlowNode = z.discriminatedUnion("type", [
  z.object({ ...base, type: z.literal("start"), data: z.object({ label: z.string().default("Start") }) }),
  // End writes the final answer (the Finalizer): its model settings are the finalizer's.
  z.object({ ...base, type: z.literal("end"), data: z.object({ label: z.string().default("End"), ...NodeModelFields }) }),
  // The Supervisor's model settings are the Planner's.
  z.object({ ...base, type: z.literal("supervisor"), data: z.object({ name: z.string().min(1), instructions: z.string().default(""), ...NodeModelFields }) }),
  z.object({ ...base, type: z.literal("agent"), data: AgentData }),
  z.object({ ...base, type: z.literal("tool"), data: z.object({ tool: toolName }) }),
  z.object({ ...base, type: z.literal("policy"), data: z.object({ name: z.string().min(1), rules: z.array(PolicyRule).max(200) }) }),
  z.object({ ...base, type: z.literal("human_input"), data: HumanInputData }),
  z.object({ ...base, type: z.literal("router"), data: RouterData }),
]);

/** A connection between two nodes. */
export const FlowEdge = z.object({
  id: z.string().min(1).max(128),
  source: nodeId,
  target: nodeId,
});

/** An allowlisted host with an optional port: `api.example.com`, `*.example.com`, `127.0.0.1:8080`. */
const networkHost = z
  .string()
  .min(1)
  .max(260)
  .regex(/^(?:\*\.)?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*(?::\d{1,5})?$/, "host like api.example.com, *.example.com or 127.0.0.1:8080");

/** HTTP methods the http_request tool may use. */
export const HttpMethod = z.enum(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]);

/**
 * Network access of the flow's tools (off unless the allowlist names the host).
 * An empty `allowHosts` means no network at all. A host without a port allows ports 80 and
 * 443 only; `*.example.com` allows the subdomains, not example.com itself.
 */
export const FlowNetwork = z.object({
  allowHosts: z.array(networkHost).max(100).default([]),
  methods: z.array(HttpMethod).min(1).max(6).default(["GET", "HEAD"]),
  /** Largest response body http_request reads, bytes (1 MB default, 10 MB at most). */
  maxResponseBytes: z.number().int().min(1).max(10_485_760).default(1_048_576),
  /** Wall-clock limit of one request, ms (30 s default). */
  timeoutMs: z.number().int().min(100).max(120_000).default(30_000),
});

/** The flow's memory (docs/architecture.md#memory). */
export const FlowMemory = z.object({
  /** Inject the last 20 short-term entries and the top 3 facts into each agent's context. */
  enabled: z.boolean().default(true),
  /** Accept the facts promote(thread) proposes without asking (else a user accepts them). */
  autoPromote: z.boolean().default(false),
  /** How long short-term entries live, hours (24 h). */
  shortTermTtlHours: z
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(24),
});

/**
 * The workspace library as the flow's threads see it (docs/library.md "Mounting"): when
 * `mount` is on, every thread's file tools see the library's files read-only under the
 * thread's own files.
 */
export const FlowLibrary = z.object({
  /** On unless the owner switches it off: a stored flow without the key mounts (docs/library.md "Mounting"). */
  mount: z.boolean().default(true),
});

/** Flow-level settings (limits; 6: memory; 7: network; the workspace library). */
export const FlowSettings = z.object({
  name: z.string().min(1).max(120),
  description: z.string().max(2000).default(""),
  mode: z.enum(["autonomous", "directed"]).default("autonomous"),
  model: z.string().max(200).default(""),
  limits: z
    .object({
      maxIterations: z.number().int().min(1).max(1000).default(50),
      /** Wall-clock limit of a run, ms (5 minutes). */
      timeoutMs: z.number().int().min(1000).max(3_600_000).default(300_000),
      /**
       * Time limit of one model call, ms: a call that produces nothing for this long is
       * aborted (docs/runs.md "When the model misbehaves"). Absent: 120000 (2 minutes).
       */
      modelCallTimeoutMs: z.number().int().min(1000).max(600_000).optional(),
    })
    .prefault({}),
  network: FlowNetwork.prefault({}),
  memory: FlowMemory.prefault({}),
  library: FlowLibrary.prefault({}),
});

/**
 * A whole flow document. Besides shape, checks that ids are unique and that every edge
 * joins existing nodes, with errors that name the field.
 */
export const FlowDocument = z
  .object({
    version: z.literal(1).default(1),
    settings: FlowSettings,
    nodes: z.array(FlowNode).min(1, "the flow has no nodes: add Start, a Supervisor, an Agent and End from the palette").max(5000),
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
export type PermissionLevel = z.infer<typeof PermissionLevel>;
export type RulePermission = z.infer<typeof RulePermission>;
export type ArgMatcher = z.infer<typeof ArgMatcher>;
export type RouteCondition = z.infer<typeof RouteCondition>;

/** The network, memory and library settings of a new flow: no network, memory on, accept promoted facts by hand, the workspace library mounted. */
export const DEFAULT_NETWORK_AND_MEMORY: Pick<FlowDocument["settings"], "network" | "memory" | "library"> = {
  network: FlowNetwork.parse({}),
  memory: FlowMemory.parse({}),
  library: FlowLibrary.parse({}),
};
