import { z } from "zod";
import { Params as BlobParams } from "@/app/api/threads/[threadId]/blobs/[blobId]/schema";
import { Params as CheckpointParams } from "@/app/api/threads/[threadId]/checkpoints/[checkpointId]/schema";
import { Params as CheckpointsParams, Query as CheckpointsQuery } from "@/app/api/threads/[threadId]/checkpoints/schema";
import { Params as EventsParams, Query as EventsQuery } from "@/app/api/threads/[threadId]/events/schema";
import { Body as ForkBody, Params as ForkParams } from "@/app/api/threads/[threadId]/fork/schema";
import { Params as ThreadParams } from "@/app/api/threads/[threadId]/schema";
import { Body as StreamBody, FollowQuery, Params as StreamParams } from "@/app/api/threads/[threadId]/stream/schema";
import { Params as FilesParams, ZipQuery } from "@/app/api/threads/[threadId]/files/schema";
import { Params as WorkspaceParams, Query as WorkspaceQuery } from "@/app/api/threads/[threadId]/workspace/schema";
import { Body as NewThreadBody } from "@/app/api/threads/schema";
import type { ApiOperation } from "@/lib/openapi/operation";

const TAG = "Threads";

/** A run stream (the AI SDK UI message stream protocol over server-sent events), as both stream routes answer it. */
const RUN_STREAM =
  "An AI SDK UI message stream (server-sent events whose `data:` lines are JSON parts: `start`, text parts, `data-*` parts such as `data-run`, `data-approval`, `data-step`, then `finish`). The run followed is named in the `x-run-id` header.";

/** Thread operations: create, run and follow, time travel, workspace files, erase. */
export const threadOperations: ApiOperation[] = [
  {
    method: "POST",
    path: "/api/threads",
    tag: TAG,
    summary: "Create a thread",
    description:
      "Creates a thread (a run view) on a flow the user may run, pinned to `version` or the flow's latest version, with its own workspace directory. The task is shown as the thread's title; start a run by posting a message to the thread's stream.",
    auth: "session-or-key",
    body: NewThreadBody,
    responses: {
      201: { description: "The thread was created.", schema: z.object({ threadId: z.string() }) },
      403: { description: "The user may not run this flow (a viewer)." },
    },
  },
  {
    method: "DELETE",
    path: "/api/threads/{threadId}",
    tag: TAG,
    summary: "Erase a thread",
    description:
      "Erases the thread and everything about it: checkpoints, runs, events, approvals, audit, evicted outputs, short-term memory, proposed facts and workspace files. The thread's user or a workspace owner only.",
    auth: "session-or-key",
    params: ThreadParams,
    responses: {
      200: { description: "What was erased, as counts per kind.", schema: z.object({ counts: z.record(z.string(), z.number().int()) }) },
      403: { description: "Neither the thread's user nor an owner." },
      409: { description: "A run of the thread is streaming; try again when it ends." },
    },
  },
  {
    method: "POST",
    path: "/api/threads/{threadId}/stream",
    tag: TAG,
    summary: "Start a run and follow it",
    description:
      "Accepts a run of the thread's graph: a user `message`, a `decision` on a pending approval (approve and edit need the card's one-time token and the hash of the arguments shown), `continue` after an interrupted run, or the `outcome` choice for a side-effecting call whose result is unknown. Every refusal (403, 404, 409, 410, 422, 429) comes before the stream starts; the run then executes as a job, and closing the connection stops following, not the run.",
    auth: "session-or-key",
    stream: "sse",
    params: StreamParams,
    body: StreamBody,
    responses: {
      200: { description: RUN_STREAM },
      403: { description: "The user may not run the thread's flow, or may not decide approvals." },
      409: { description: "Another run of the thread is under way, or the approval was already decided." },
      410: { description: "The approval has expired." },
      429: { description: "Too many runs at once; retry later." },
    },
  },
  {
    method: "GET",
    path: "/api/threads/{threadId}/stream",
    tag: TAG,
    summary: "Follow a run",
    description:
      "Follows the thread's active run (or `runId`, even one that has ended) from its first event (or after `after`, a seq from an earlier follow): the stored events are replayed, then new ones follow until the run's final part. Any member who may view the thread may follow; approval cards carry their token only for those who may decide.",
    auth: "session-or-key",
    stream: "sse",
    params: StreamParams,
    query: FollowQuery,
    responses: {
      200: { description: RUN_STREAM },
      204: { description: "No run to follow." },
    },
  },
  {
    method: "GET",
    path: "/api/threads/{threadId}/events",
    tag: TAG,
    summary: "Hear about new runs of a thread",
    description:
      'Server-sent events: `event: run` with `data: {"runId": "…"}` once for each run that starts on the thread after the stream opened (from the inbox, another tab or another device), so a viewer can follow it; a `: keep-alive` comment every 15 s.',
    auth: "session-or-key",
    stream: "sse",
    params: EventsParams,
    query: EventsQuery,
    responses: { 200: { description: "An endless event stream; it ends when the client goes away." } },
  },
  {
    method: "GET",
    path: "/api/threads/{threadId}/checkpoints",
    tag: TAG,
    summary: "List checkpoints",
    description: "The thread's LangGraph checkpoints, newest first, a page at a time: pass the answer's `nextBefore` as `before` for the next page (null on the last).",
    auth: "session-or-key",
    params: CheckpointsParams,
    query: CheckpointsQuery,
    responses: { 200: { description: "`{ checkpoints, nextBefore }`: a page of checkpoints and the cursor of the next one." } },
  },
  {
    method: "GET",
    path: "/api/threads/{threadId}/checkpoints/{checkpointId}",
    tag: TAG,
    summary: "State at a checkpoint",
    description: "The graph state at one checkpoint (time travel), with tokens and secrets redacted.",
    auth: "session-or-key",
    params: CheckpointParams,
    responses: { 200: { description: "The state and the checkpoint's metadata." } },
  },
  {
    method: "POST",
    path: "/api/threads/{threadId}/fork",
    tag: TAG,
    summary: "Fork from a checkpoint",
    description:
      "Starts a new thread from one of this thread's checkpoints (\"fork from here\"). Tool calls that were waiting on the origin's approvals are listed in `dropped`; the fork proposes them again.",
    auth: "session-or-key",
    params: ForkParams,
    body: ForkBody,
    responses: {
      201: {
        description: "The new thread.",
        schema: z.object({
          threadId: z.string(),
          status: z.string(),
          checkpointId: z.string(),
          dropped: z.array(z.object({ stepId: z.string(), tool: z.string().nullable(), approvalId: z.string().nullable() })),
        }),
      },
    },
  },
  {
    method: "GET",
    path: "/api/threads/{threadId}/workspace",
    tag: TAG,
    summary: "List or read workspace files",
    description: "Without `path`, the files of the thread's workspace; with `path`, one file's content. Paths outside the workspace are refused (403).",
    auth: "session-or-key",
    params: WorkspaceParams,
    query: WorkspaceQuery,
    responses: {
      200: { description: "The listing or the file, as the `list_files` / `read_file` tools return it." },
      403: { description: "The path leaves the workspace." },
    },
  },
  {
    method: "POST",
    path: "/api/threads/{threadId}/files",
    tag: TAG,
    summary: "Upload files into the workspace",
    description:
      "A `multipart/form-data` body with one or more parts named `file`; each part's filename is its workspace path (the sandbox's path rules; sub-folders are made). The type is judged from the content: PDF, DOCX, PNG, JPEG, GIF, WebP or UTF-8 text; PDF and DOCX text is extracted, and `read_file` returns it. Limits: UPLOAD_MAX_FILE_BYTES per file (10 MB), UPLOAD_MAX_WORKSPACE_BYTES per workspace (50 MB), UPLOAD_MAX_FILES per workspace (200). Owners and approvers; not while a run owns the thread. A cookie request must come from the app's page (Origin / Sec-Fetch-Site). See docs/documents.md.",
    auth: "session-or-key",
    params: FilesParams,
    responses: {
      201: { description: "`{ files: [{ path, sizeBytes, sha256, type, kind, pages, extractedChars, replaced, note? }] }`; `note` says when a PDF has no text layer (a scan; no OCR)." },
      403: { description: "A viewer, or a cookie request from another site." },
      409: { description: "`run_in_progress`: a run owns the thread." },
      413: { description: "`file_too_large` or `workspace_full`, naming the part (`file[0]`) and the limit." },
      415: { description: "`not_multipart`, or `type_refused` (the content is not an accepted type, whatever the name)." },
      422: { description: "`invalid_file_name`, `too_many_files`, `duplicate_file_name`, `no_files`, or the PDF/DOCX cannot be read (`pdf_encrypted`, `extraction_failed`, `extraction_timeout`)." },
    },
  },
  {
    method: "GET",
    path: "/api/threads/{threadId}/files",
    tag: TAG,
    summary: "Download the workspace as a zip",
    description: "`?format=zip`: every regular file of the thread's workspace as a zip (DEFLATE), streamed; symlinks are not followed and extracted text is not included. See docs/documents.md.",
    auth: "session-or-key",
    params: FilesParams,
    query: ZipQuery,
    responses: { 200: { description: "The zip (`application/zip`, attachment)." } },
  },
  {
    method: "GET",
    path: "/api/threads/{threadId}/files/{path}",
    tag: TAG,
    summary: "Download one workspace file",
    description:
      "The original bytes of one file (a PDF as the PDF, not its text), as an attachment with its detected content type and `nosniff`. `path` may hold `/` for files in folders. See docs/documents.md.",
    auth: "session-or-key",
    params: z.object({ threadId: z.string().min(1).max(64), path: z.string().min(1).max(1024).describe("The workspace path, e.g. `contract.pdf` or `docs/spec.md`.") }),
    responses: {
      200: { description: "The file's bytes." },
      403: { description: "The path leaves the workspace, is a symlink out of it, or is the reserved `.phylactery` folder." },
      404: { description: "No such file." },
    },
  },
  {
    method: "GET",
    path: "/api/threads/{threadId}/blobs/{blobId}",
    tag: TAG,
    summary: "Read an evicted tool output",
    description: "A tool output too large to keep in the run's state, stored aside and named `blob:<id>` in the run.",
    auth: "session-or-key",
    params: BlobParams,
    responses: {
      200: {
        description: "The output.",
        schema: z.object({ pointer: z.string(), toolName: z.string(), sizeChars: z.number().int(), content: z.string() }),
      },
    },
  },
];
