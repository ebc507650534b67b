import { Params as GraphParams, Query as GraphQuery } from "@/app/api/langgraph/assistants/[assistantId]/graph/schema";
import { Params as LatestParams } from "@/app/api/langgraph/assistants/[assistantId]/latest/schema";
import { Params as AssistantParams } from "@/app/api/langgraph/assistants/[assistantId]/schema";
import { Params as SchemasParams } from "@/app/api/langgraph/assistants/[assistantId]/schemas/schema";
import { Params as SubgraphsParams, Query as SubgraphsQuery } from "@/app/api/langgraph/assistants/[assistantId]/subgraphs/schema";
import { Body as VersionsBody, Params as VersionsParams } from "@/app/api/langgraph/assistants/[assistantId]/versions/schema";
import { Body as AssistantCountBody } from "@/app/api/langgraph/assistants/count/schema";
import { Body as AssistantSearchBody } from "@/app/api/langgraph/assistants/search/schema";
import { Params as CopyParams } from "@/app/api/langgraph/threads/[threadId]/copy/schema";
import { Body as HistoryBody, Params as HistoryParams } from "@/app/api/langgraph/threads/[threadId]/history/schema";
import { Body as ThreadPatchBody, Params as ThreadParams, Query as ThreadQuery } from "@/app/api/langgraph/threads/[threadId]/schema";
import { Params as AtCheckpointParams, Query as AtCheckpointQuery } from "@/app/api/langgraph/threads/[threadId]/state/[checkpointId]/schema";
import { Body as CheckpointBody, Params as CheckpointParams } from "@/app/api/langgraph/threads/[threadId]/state/checkpoint/schema";
import { Params as StateParams, Query as StateQuery, UpdateBody as UpdateStateBody } from "@/app/api/langgraph/threads/[threadId]/state/schema";
import { Body as ThreadCountBody } from "@/app/api/langgraph/threads/count/schema";
import { Body as NewThreadBody } from "@/app/api/langgraph/threads/schema";
import { Body as ThreadSearchBody } from "@/app/api/langgraph/threads/search/schema";
import type { ApiOperation } from "@/lib/openapi/operation";

/** The tag of every LangGraph Platform API operation. */
export const TAG = "LangGraph Platform API";

/** The 405 of an endpoint we deliberately do not offer (lib/langgraph-api/unsupported.ts). */
const NOT_OFFERED = (instead: string) => ({ description: `Not offered: \`detail\` says what to do instead. ${instead}` });

/**
 * LangGraph Platform API operations under `/api/langgraph` (docs/langgraph-api.md): assistants
 * (our flows, read only), threads, their state and history (runs and their streams are in
 * langgraph-runs.ts), for
 * `@langchain/langgraph-sdk` and Agent Inbox. Their errors are the Platform's `{ detail, error }`
 * (the document's `PlatformError`). The catch-all `[...rest]` (404 for every Platform endpoint
 * we do not offer) is not an operation: lib/openapi/document.test.ts says why.
 */
export const langgraphOperations: ApiOperation[] = [
  {
    method: "GET",
    path: "/api/langgraph/info",
    tag: TAG,
    summary: "Server info",
    description: "What this LangGraph Platform API offers: versions and flags (`assistants: true`, `crons: false`...), no secrets. The SDK reads it to learn what it may call.",
    auth: "none",
    responses: { 200: { description: "`{ version, langgraph_js_version, flags, host }`." } },
  },
  // Assistants: our flows, read only.
  {
    method: "POST",
    path: "/api/langgraph/assistants/search",
    tag: TAG,
    summary: "Search assistants",
    description:
      "The flows of the caller's workspaces as LangGraph assistants (`assistant_id` and `graph_id` are the flow id, `version` its latest published version), newest first. `name` matches a part of the name; `metadata` matches `workspace_id` and `workspace_name` exactly; `select` keeps only the named fields.",
    auth: "session-or-key",
    body: AssistantSearchBody,
    responses: { 200: { description: "A list of assistants." } },
  },
  {
    method: "POST",
    path: "/api/langgraph/assistants/count",
    tag: TAG,
    summary: "Count assistants",
    description: "How many of the caller's flows match the filters of a search.",
    auth: "session-or-key",
    body: AssistantCountBody,
    responses: { 200: { description: "A number." } },
  },
  {
    method: "POST",
    path: "/api/langgraph/assistants",
    tag: TAG,
    summary: "Create an assistant (not offered)",
    description: "Assistants are flows, drawn and published in the editor; the API reads them.",
    auth: "session-or-key",
    responses: { 405: NOT_OFFERED("Draw and publish a flow in the editor.") },
  },
  {
    method: "GET",
    path: "/api/langgraph/assistants/{assistantId}",
    tag: TAG,
    summary: "Get an assistant",
    description: "One flow as a LangGraph assistant: its name, description, latest published version, and `metadata` `{ workspace_id, workspace_name }`.",
    auth: "session-or-key",
    params: AssistantParams,
    responses: { 200: { description: "The assistant." } },
  },
  {
    method: "PATCH",
    path: "/api/langgraph/assistants/{assistantId}",
    tag: TAG,
    summary: "Update an assistant (not offered)",
    description: "Assistants are flows: edit and publish them in the editor. Another workspace's flow answers 404 first.",
    auth: "session-or-key",
    params: AssistantParams,
    responses: { 405: NOT_OFFERED("Edit the flow in the editor.") },
  },
  {
    method: "DELETE",
    path: "/api/langgraph/assistants/{assistantId}",
    tag: TAG,
    summary: "Delete an assistant (not offered)",
    description: "Assistants are flows: delete a flow from its page. Another workspace's flow answers 404 first.",
    auth: "session-or-key",
    params: AssistantParams,
    responses: { 405: NOT_OFFERED("Delete the flow from its page.") },
  },
  {
    method: "GET",
    path: "/api/langgraph/assistants/{assistantId}/graph",
    tag: TAG,
    summary: "Draw an assistant's graph",
    description:
      "The flow's compiled LangGraph graph (its latest version, compiled as runs compile it) in LangGraph's own format: `{ nodes: [{ id, type, data }], edges: [{ source, target, conditional? }] }`. The nodes are the supervisor graph's, the same for every flow; its agents, tools and policies are data they read.",
    auth: "session-or-key",
    params: GraphParams,
    query: GraphQuery,
    responses: { 200: { description: "`{ nodes, edges }`." } },
  },
  {
    method: "GET",
    path: "/api/langgraph/assistants/{assistantId}/schemas",
    tag: TAG,
    summary: "An assistant's schemas",
    description: "JSON Schemas of the graph's `input_schema` (`{ messages }`), `state_schema`, `output_schema`, and the empty `config_schema` and `context_schema` (nothing is configured per call).",
    auth: "session-or-key",
    params: SchemasParams,
    responses: { 200: { description: "`{ graph_id, input_schema, output_schema, state_schema, config_schema, context_schema }`." } },
  },
  {
    method: "GET",
    path: "/api/langgraph/assistants/{assistantId}/subgraphs",
    tag: TAG,
    summary: "An assistant's subgraphs",
    description: "Always `{}`: a flow's graph has no subgraphs.",
    auth: "session-or-key",
    params: SubgraphsParams,
    query: SubgraphsQuery,
    responses: { 200: { description: "`{}`." } },
  },
  {
    method: "POST",
    path: "/api/langgraph/assistants/{assistantId}/versions",
    tag: TAG,
    summary: "List an assistant's versions",
    description: "The flow's published versions, newest first, each as an assistant with that `version`, `metadata.message` (the version's message) and `created_at` (when it was published).",
    auth: "session-or-key",
    params: VersionsParams,
    body: VersionsBody,
    responses: { 200: { description: "A list of assistant versions." } },
  },
  {
    method: "POST",
    path: "/api/langgraph/assistants/{assistantId}/latest",
    tag: TAG,
    summary: "Set the latest version (not offered)",
    description: "The latest version is always the one last published in the editor. Another workspace's flow answers 404 first.",
    auth: "session-or-key",
    params: LatestParams,
    responses: { 405: NOT_OFFERED("Publish the version in the editor.") },
  },
  // Threads.
  {
    method: "POST",
    path: "/api/langgraph/threads",
    tag: TAG,
    summary: "Create a thread",
    description:
      "Makes an API thread (a new UUID unless `thread_id` is given), seen only by its maker (through a scoped key: only in that workspace). It has no flow until its first run, which binds it to the run's assistant; a `metadata.graph_id` must name an assistant the caller sees and fixes that assistant. `supersteps` and `ttl` are not offered (422).",
    auth: "session-or-key",
    body: NewThreadBody,
    responses: {
      200: { description: 'The Thread (`status: "idle"`).' },
      404: { description: "`metadata.graph_id` names no assistant the caller sees." },
      409: { description: 'The id is taken (`thread_exists`); `if_exists: "do_nothing"` returns the caller\'s own thread with that id instead.' },
    },
  },
  {
    method: "POST",
    path: "/api/langgraph/threads/search",
    tag: TAG,
    summary: "Search threads",
    description:
      "The threads of the caller's workspaces and their own API threads, newest first. `metadata` and `values` match exactly per key; `status` is `idle`, `busy`, `interrupted` or `error` (Agent Inbox lists `interrupted` ones); `select` keeps only the named fields. A `values` filter reads each candidate's latest checkpoint: narrow it with status, ids or metadata.",
    auth: "session-or-key",
    body: ThreadSearchBody,
    responses: { 200: { description: "A list of Threads." } },
  },
  {
    method: "POST",
    path: "/api/langgraph/threads/count",
    tag: TAG,
    summary: "Count threads",
    description: "How many of the caller's visible threads match the filters of a search.",
    auth: "session-or-key",
    body: ThreadCountBody,
    responses: { 200: { description: "A number." } },
  },
  {
    method: "POST",
    path: "/api/langgraph/threads/prune",
    tag: TAG,
    summary: "Prune threads (not offered)",
    description: "Threads are deleted one by one; old checkpoints are pruned by the server's checkpoint retention.",
    auth: "session-or-key",
    responses: { 405: NOT_OFFERED("Delete each thread with `DELETE /threads/{thread_id}`.") },
  },
  {
    method: "GET",
    path: "/api/langgraph/threads/{threadId}",
    tag: TAG,
    summary: "Get a thread",
    description:
      "One thread: `status` (`idle`, `busy`, `interrupted`, `error`), `metadata` (`graph_id` and `assistant_id` name its flow), its latest `values` and its `interrupts` by task id (each a HumanInterrupt; an approval's one-time token only for callers who may decide it).",
    auth: "session-or-key",
    params: ThreadParams,
    query: ThreadQuery,
    responses: { 200: { description: "The Thread." } },
  },
  {
    method: "PATCH",
    path: "/api/langgraph/threads/{threadId}",
    tag: TAG,
    summary: "Update a thread's metadata",
    description:
      "Merges the keys of `metadata` into the thread's (keys replaced, others kept). Owners and approvers of the thread's workspace, or the maker of an API thread. On a thread that runs a flow, `graph_id` and `assistant_id` are not stored: they always name its flow. `ttl` is not offered (422).",
    auth: "session-or-key",
    params: ThreadParams,
    body: ThreadPatchBody,
    responses: { 200: { description: "The Thread." }, 403: { description: "A viewer may not change the thread." } },
  },
  {
    method: "DELETE",
    path: "/api/langgraph/threads/{threadId}",
    tag: TAG,
    summary: "Delete a thread",
    description:
      "Erases the thread as the run view does (checkpoints, runs, events, approvals, audit, blobs, memory, workspace files); the thread's user or a workspace owner only. An API thread's row is deleted.",
    auth: "session-or-key",
    params: ThreadParams,
    responses: {
      204: { description: "Deleted." },
      403: { description: "Neither the thread's user nor an owner." },
      409: { description: "A run holds the thread; try again when it ends." },
    },
  },
  {
    method: "POST",
    path: "/api/langgraph/threads/{threadId}/copy",
    tag: TAG,
    summary: "Copy a thread (not offered)",
    description: "Fork the thread at its latest checkpoint instead (the run view, or `POST /api/threads/{threadId}/fork`).",
    auth: "session-or-key",
    params: CopyParams,
    responses: { 405: NOT_OFFERED("Fork the thread at a checkpoint.") },
  },
  // State and history.
  {
    method: "GET",
    path: "/api/langgraph/threads/{threadId}/state",
    tag: TAG,
    summary: "Get a thread's state",
    description:
      "The latest ThreadState: `values` (secrets redacted, `messages` as LangChain message dicts), `next`, `tasks` with their interrupts, `checkpoint`, `metadata`, `parent_checkpoint` and `interrupts`. An API thread that has not run has an empty state (`checkpoint: null`).",
    auth: "session-or-key",
    params: StateParams,
    query: StateQuery,
    responses: { 200: { description: "The ThreadState." } },
  },
  {
    method: "POST",
    path: "/api/langgraph/threads/{threadId}/state",
    tag: TAG,
    summary: "Mark a thread as resolved (other state updates are not offered)",
    description:
      'Only Agent Inbox\'s "Mark as resolved": `{ values: null, as_node: "__end__" }` dismisses the approval the thread waits on (the `ignore` decision: nothing runs, the run ends cancelled) and answers the checkpoint config. Any other update answers 405: to go back in time, fork the thread at a checkpoint (the run view, or `POST /api/threads/{threadId}/fork`), then run the fork. Another workspace\'s thread answers 404 first.',
    auth: "session-or-key",
    params: StateParams,
    body: UpdateStateBody,
    responses: {
      200: { description: "`{ configurable: { thread_id, checkpoint_ns, checkpoint_id } }` of the thread after the approval was dismissed." },
      403: { description: "Only an owner or approver may dismiss an approval." },
      405: NOT_OFFERED("Fork the thread at a checkpoint."),
      409: { description: "The thread waits on no approval (`nothing_to_resolve`), or a run holds it." },
    },
  },
  {
    method: "PATCH",
    path: "/api/langgraph/threads/{threadId}/state",
    tag: TAG,
    summary: "Update a checkpoint's metadata (not offered)",
    description: "Change the thread's metadata with `PATCH /threads/{thread_id}` instead. Another workspace's thread answers 404 first.",
    auth: "session-or-key",
    params: StateParams,
    responses: { 405: NOT_OFFERED("Use `PATCH /threads/{thread_id}`.") },
  },
  {
    method: "GET",
    path: "/api/langgraph/threads/{threadId}/state/{checkpointId}",
    tag: TAG,
    summary: "Get a thread's state at a checkpoint",
    description: "The ThreadState at one of the thread's checkpoints (404 when it has no such checkpoint).",
    auth: "session-or-key",
    params: AtCheckpointParams,
    query: AtCheckpointQuery,
    responses: { 200: { description: "The ThreadState." } },
  },
  {
    method: "POST",
    path: "/api/langgraph/threads/{threadId}/state/checkpoint",
    tag: TAG,
    summary: "Get a thread's state at the checkpoint named in the body",
    description: "The ThreadState at `checkpoint.checkpoint_id` (404 when the thread has no such checkpoint).",
    auth: "session-or-key",
    params: CheckpointParams,
    body: CheckpointBody,
    responses: { 200: { description: "The ThreadState." } },
  },
  {
    method: "POST",
    path: "/api/langgraph/threads/{threadId}/history",
    tag: TAG,
    summary: "A thread's history",
    description:
      "Past ThreadStates, newest first, `limit` at a time. `before` is a checkpoint id, `{ checkpoint_id }` or a config `{ configurable: { checkpoint_id } }`; `metadata` filters on checkpoint metadata (`source`, `step`...). An API thread that has not run has none.",
    auth: "session-or-key",
    params: HistoryParams,
    body: HistoryBody,
    responses: { 200: { description: "A list of ThreadStates." } },
  },
];
