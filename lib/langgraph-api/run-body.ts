import { z } from "zod";

/**
 * The stream modes Phylactery serves (docs/langgraph-api.md#stream-modes): `values` (the
 * thread's state after each step), `updates` (what each node wrote), `messages` and
 * `messages-tuple` (the text of the answer and of each step as the model writes it), `custom` (the run's named events, as the run view
 * gets them) and `events` (one `on_chain_end` per node that finished, one `on_chain_start` per node that starts, and errors).
 */
export const StreamMode = z.enum(["values", "updates", "messages", "messages-tuple", "custom", "events"], {
  error: "stream_mode: one of values, updates, messages, messages-tuple, custom, events (docs/langgraph-api.md#stream-modes)",
});
export type StreamMode = z.infer<typeof StreamMode>;

/** Agent Inbox's ActionRequest as a client echoes it back: the call, and the approval it was shown with. */
export const ActionRequestEcho = z.object({
  action: z.string().max(200),
  args: z.record(z.string(), z.unknown()),
  /** What the HumanInterrupt carried (docs/langgraph-api.md#deciding-approvals): the challenge and its one-time token. */
  approval: z
    .object({
      id: z
        .string()
        .regex(/^[A-Za-z0-9_-]{6,64}$/, "approval ids are 6-64 of [A-Za-z0-9_-]")
        .optional(),
      token: z
        .string()
        .regex(/^[A-Za-z0-9_-]{1,128}$/, "tokens are base64url")
        .optional(),
      args_hash: z
        .string()
        .regex(/^[0-9a-f]{64}$/, "a lower-case hex SHA-256")
        .optional(),
      expires_at: z.string().max(40).optional(),
    })
    .optional(),
});
export type ActionRequestEcho = z.infer<typeof ActionRequestEcho>;

/** LangGraph's `HumanResponse` (Agent Inbox's schema): accept, edit, response or ignore. */
export const HumanResponse = z.object({
  type: z.enum(["accept", "edit", "response", "ignore"], "type: accept, edit, response or ignore"),
  args: z.union([z.null(), z.string().max(4000), ActionRequestEcho]).optional(),
});
export type HumanResponse = z.infer<typeof HumanResponse>;

/** What `Command({ resume })` may carry: a HumanResponse, a list of one (Agent Inbox), an answer, or a map by interrupt id. */
export const ResumeValue = z.union([
  HumanResponse,
  z.array(HumanResponse).length(1, "resume: decide one interrupt per run (a list of one HumanResponse)"),
  z.string().trim().min(1).max(4000),
  z.record(z.string().max(200), z.union([HumanResponse, z.array(HumanResponse).length(1), z.string().trim().min(1).max(4000)])),
]);
export type ResumeValue = z.infer<typeof ResumeValue>;

const unsupported = (field: string, what: string) =>
  z
    .unknown()
    .refine((v) => v === undefined || v === null || (Array.isArray(v) && v.length === 0), `${field}: ${what} (docs/langgraph-api.md#runs)`)
    .optional();

/**
 * The body of a run (`runs.create`, `runs.stream`, `runs.wait` of @langchain/langgraph-sdk):
 * the fields Phylactery honours, and a 422 naming each option that would change what a run
 * does and that it does not support. `config` and `context` are accepted and not used (a flow
 * is configured on the canvas), `stream_subgraphs` has nothing to add (flows have no
 * subgraphs) and `durability` is always `sync` (docs/langgraph-api.md#runs). `input` starts a
 * task from its last user message; `command.resume` answers what the thread waits on.
 */
export const RunBody = z.object({
  /** The flow to run (an assistant id is a flow id). */
  assistant_id: z.string().min(1).max(64),
  input: z
    .object({ messages: z.array(z.unknown()).max(100).optional() })
    .catchall(z.unknown())
    .nullable()
    .optional(),
  command: z
    .object({
      resume: ResumeValue.optional(),
      update: unsupported("command.update", "writing the state is not supported; send a message or a resume"),
      goto: unsupported("command.goto", "jumping to a node is not supported"),
    })
    .nullable()
    .optional(),
  metadata: z
    .record(z.string(), z.unknown())
    .refine((m) => JSON.stringify(m).length <= 16_384, "metadata: at most 16 KB of JSON")
    .nullable()
    .optional(),
  config: z.record(z.string(), z.unknown()).nullable().optional(),
  context: z.record(z.string(), z.unknown()).nullable().optional(),
  stream_mode: z.union([StreamMode, z.array(StreamMode).max(6)]).optional(),
  stream_subgraphs: z.boolean().optional(),
  stream_resumable: z.boolean().optional(),
  on_disconnect: z.enum(["cancel", "continue"]).optional(),
  on_completion: z
    .enum(["delete", "keep"])
    .refine((v) => v === "keep", "on_completion: threads are kept (delete them with threads.delete)")
    .optional(),
  if_not_exists: z.enum(["create", "reject"]).optional(),
  multitask_strategy: z
    .enum(["reject", "enqueue", "interrupt", "rollback"])
    .refine((s) => s === "reject", "multitask_strategy: only reject (one run per thread at a time; docs/langgraph-api.md#runs)")
    .optional(),
  durability: z.enum(["sync", "async", "exit"]).optional(),
  feedback_keys: unsupported("feedback_keys", "LangSmith feedback is not supported"),
  interrupt_before: unsupported("interrupt_before", "breakpoints are not supported; policies decide where a run stops"),
  interrupt_after: unsupported("interrupt_after", "breakpoints are not supported; policies decide where a run stops"),
  checkpoint_id: unsupported("checkpoint_id", "running from an older checkpoint is not supported; fork the thread in the run view"),
  checkpoint: unsupported("checkpoint", "running from an older checkpoint is not supported; fork the thread in the run view"),
  webhook: unsupported("webhook", "per-run webhooks are not supported; add a workspace webhook in Settings (docs/webhooks.md)"),
  after_seconds: unsupported("after_seconds", "delayed runs are not supported"),
});
export type RunBody = z.infer<typeof RunBody>;

/** The stream modes a body asks for, `values` when it names none (the Platform's default). */
export function streamModesOf(body: Pick<RunBody, "stream_mode">): Set<StreamMode> {
  const m = body.stream_mode;
  if (m === undefined) return new Set(["values"]);
  return new Set(Array.isArray(m) ? m : [m]);
}
