import { z } from "zod";

/**
 * The JSON Schemas of our graph for `GET /assistants/{id}/schemas`
 * (docs/langgraph-api.md#schemas). The state is a LangGraph Annotation (lib/engine/state.ts),
 * which carries no schema, so its public channels are described here by hand, as the
 * Platform API publishes them (messages as LangChain message dicts).
 */

const Message = z.object({
  type: z.enum(["human", "ai", "tool", "system"]),
  content: z.string(),
  id: z.string().optional(),
  name: z.string().optional(),
  tool_calls: z.array(z.object({ id: z.string(), name: z.string(), args: z.record(z.string(), z.unknown()) })).optional(),
  tool_call_id: z.string().optional(),
});

/** A run's input: the user's message (the last `human` message is the task). */
const Input = z.object({ messages: z.array(Message).min(1).describe("The user's message; the last human message is the task or the answer.") });

const Step = z.object({
  id: z.string(),
  index: z.number().int(),
  agent_id: z.string(),
  task: z.string(),
  status: z.enum(["pending", "in_progress", "completed", "failed", "skipped", "blocked", "rejected"]),
  result: z.string().nullable(),
  error: z.string().nullable(),
});

/** The state's public channels. */
const State = z.object({
  messages: z.array(Message),
  plan: z
    .object({ id: z.string(), query: z.string(), status: z.enum(["planning", "executing", "completed", "incomplete", "failed", "cancelled"]), steps: z.array(Step), summary: z.string().nullable() })
    .passthrough()
    .nullable(),
  branches: z.record(z.string(), z.object({ step_id: z.string(), phase: z.enum(["running", "returned", "awaiting_approval", "done"]) }).passthrough()),
  lifecycle: z.string(),
  question: z.string().nullable(),
  final_answer: z.string().nullable(),
  error: z.object({ code: z.string(), message: z.string() }).passthrough().nullable(),
  current_agent: z.object({ id: z.string(), name: z.string() }).passthrough().nullable(),
  token_usage: z.object({ input_tokens: z.number().int(), output_tokens: z.number().int() }),
  audit_trail: z.array(z.object({ action: z.string(), at: z.string(), actor: z.string() }).passthrough()),
});

/** What a run leaves: the final answer and the messages. */
const Output = State.pick({ messages: true, final_answer: true, plan: true, error: true });

/** Nothing is configurable: a flow's behaviour is drawn in the editor. */
const Config = z.object({ configurable: z.object({}).strict().optional() });

/** The Platform's GraphSchema for one assistant (flow). */
export function graphSchemas(graphId: string) {
  const json = (s: z.ZodType) => z.toJSONSchema(s, { io: "input", unrepresentable: "any" });
  return {
    graph_id: graphId,
    input_schema: json(Input),
    output_schema: json(Output),
    state_schema: json(State),
    config_schema: json(Config),
    context_schema: json(z.object({})),
  };
}
