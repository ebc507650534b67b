import { Body as RunBody, CancelQuery, JoinQuery, JoinStreamQuery, ListQuery as RunListQuery, Params as RunsParams, RunParams } from "@/app/api/langgraph/threads/[threadId]/runs/schema";
import type { ApiOperation } from "@/lib/openapi/operation";
import { TAG } from "./langgraph";

/** What `runs.wait` and `runs.join` answer (lib/langgraph-api/runs-api.ts finalValues). */
const FINAL_VALUES = "The thread's state values after the run (secrets redacted); with `__interrupt__` (the interrupts) when it waits on a person, and `__error__ { error, message }` when it failed.";

/** A Platform run stream (lib/langgraph-api/run-stream.ts), as both stream operations answer it. */
const RUN_STREAM =
  "Server-sent events of the Platform: first `metadata` `{ run_id, attempt }`, then one event per stream mode asked for (`values`, `updates`, `messages`, `custom`, `events`), and `error` `{ error, message }` when the run fails. Every event has an `id` to resume after (`Last-Event-ID`). `Content-Location` names the run; `Location` is the path (relative to `/api/langgraph`) to join its stream again.";

/** Why a run may be refused before it is accepted (lib/langgraph-api/accept-run.ts, lib/runs/run-thread.ts). */
const RUN_REFUSALS: ApiOperation["responses"] = {
  403: { description: "A viewer may not run the thread's flow; a decision's token does not verify (`bad_token`) or the user may not decide (`role_forbidden`)." },
  404: { description: 'No such thread for this caller (unless `if_not_exists: "create"` and the id is free), or no such assistant.' },
  409: {
    description:
      'Another run holds the thread (`run_in_progress`; only `multitask_strategy: "reject"`), the thread runs another assistant (`assistant_mismatch`), the approval was already decided, or the resume matches no interrupt.',
  },
  410: { description: "The approval has expired (`approval_expired`); the waiting run is told." },
  429: { description: "Too many runs at once; retry later." },
};

/** How a run's body is read, shared by create, stream and wait (docs/langgraph-api.md#runs). */
const RUN_INPUT =
  "`input.messages`: the last user message is the task (at most 4,000 chars); `command.resume`: a HumanResponse (or an answer) to what the thread waits on, with the approval's one-time token echoed for accept and edit; neither: continue a run the server stopped. The first run of a thread made with `POST /threads` binds it to `assistant_id` (a flow). Options that would change what a run does and are not supported are refused with 422 naming the field.";

/** LangGraph Platform API runs: create, stream, wait, list, get, join, join the stream, cancel, delete (docs/langgraph-api.md#runs). */
export const langgraphRunOperations: ApiOperation[] = [
  {
    method: "POST",
    path: "/api/langgraph/threads/{threadId}/runs",
    tag: TAG,
    summary: "Create a run",
    description: `Starts a run in the background (runs.create) and answers at once. ${RUN_INPUT} The run is a job: it goes on whatever the client does.`,
    auth: "session-or-key",
    params: RunsParams,
    body: RunBody,
    responses: { 200: { description: 'The Run (`status: "pending"`); `Content-Location` names it.' }, ...RUN_REFUSALS },
  },
  {
    method: "GET",
    path: "/api/langgraph/threads/{threadId}/runs",
    tag: TAG,
    summary: "List a thread's runs",
    description: "The thread's runs, newest first, optionally only those of one Platform `status`. Each Run also carries `phylactery_status`, our exact status.",
    auth: "session-or-key",
    params: RunsParams,
    query: RunListQuery,
    responses: { 200: { description: "A list of Runs." } },
  },
  {
    method: "POST",
    path: "/api/langgraph/threads/{threadId}/runs/stream",
    tag: TAG,
    summary: "Create a run and stream it",
    description: `Starts a run (runs.stream) and streams it in the \`stream_mode\`s asked for (default \`values\`). ${RUN_INPUT} Every refusal comes before the stream starts. Closing the connection stops following, not the run, unless \`on_disconnect: "cancel"\`.`,
    auth: "session-or-key",
    stream: "sse",
    params: RunsParams,
    body: RunBody,
    responses: { 200: { description: RUN_STREAM }, ...RUN_REFUSALS },
  },
  {
    method: "POST",
    path: "/api/langgraph/threads/{threadId}/runs/wait",
    tag: TAG,
    summary: "Create a run and wait for it",
    description: `Starts a run (runs.wait) and answers when it has ended or stopped to wait on a person. ${RUN_INPUT}`,
    auth: "session-or-key",
    params: RunsParams,
    body: RunBody,
    responses: { 200: { description: `${FINAL_VALUES} \`Content-Location\` names the run.` }, ...RUN_REFUSALS },
  },
  {
    method: "GET",
    path: "/api/langgraph/threads/{threadId}/runs/{runId}",
    tag: TAG,
    summary: "Get a run",
    description: "One run of the thread (runs.get), with its Platform `status` and `phylactery_status`.",
    auth: "session-or-key",
    params: RunParams,
    responses: { 200: { description: "The Run." } },
  },
  {
    method: "DELETE",
    path: "/api/langgraph/threads/{threadId}/runs/{runId}",
    tag: TAG,
    summary: "Delete a run",
    description: "Deletes an ended run's record and its events (runs.delete); the thread's checkpoints stay. Owners and approvers only.",
    auth: "session-or-key",
    params: RunParams,
    responses: {
      204: { description: "Deleted." },
      403: { description: "A viewer may not delete runs." },
      409: { description: "The run has not ended (`run_in_progress`); cancel it first." },
    },
  },
  {
    method: "GET",
    path: "/api/langgraph/threads/{threadId}/runs/{runId}/join",
    tag: TAG,
    summary: "Wait for a run",
    description: "Waits until the run has ended or stopped to wait on a person (runs.join). With `cancel_on_disconnect`, a client that goes away first cancels the run.",
    auth: "session-or-key",
    params: RunParams,
    query: JoinQuery,
    responses: { 200: { description: FINAL_VALUES } },
  },
  {
    method: "GET",
    path: "/api/langgraph/threads/{threadId}/runs/{runId}/stream",
    tag: TAG,
    summary: "Join a run's stream",
    description:
      "Streams a run (runs.joinStream) from its first event, even one that has ended, or after the event a reconnecting client last got (`Last-Event-ID`, which the SDK sends by itself): its stored events are replayed, then followed live, whichever server process executes the run.",
    auth: "session-or-key",
    stream: "sse",
    params: RunParams,
    query: JoinStreamQuery,
    responses: { 200: { description: RUN_STREAM } },
  },
  {
    method: "POST",
    path: "/api/langgraph/threads/{threadId}/runs/{runId}/cancel",
    tag: TAG,
    summary: "Cancel a run",
    description:
      "Cancels a queued or executing run (runs.cancel, `action=interrupt`; `rollback` is refused because it would erase checkpoints): it becomes `cancelled` and the thread is free at once; a worker executing it stops at its next heartbeat. With `wait`, answers once it has stopped. Owners and approvers only.",
    auth: "session-or-key",
    params: RunParams,
    query: CancelQuery,
    responses: {
      202: { description: "The Run, cancelled." },
      403: { description: "A viewer may not cancel runs." },
      409: { description: "The run has already ended (`run_not_active`)." },
    },
  },
];
