import { Params as FactAcceptParams } from "@/app/api/memory/facts/[factId]/accept/schema";
import { Params as FactParams } from "@/app/api/memory/facts/[factId]/schema";
import { Params as PromoteParams } from "@/app/api/threads/[threadId]/memory/promote/schema";
import { Params as ThreadMemoryParams } from "@/app/api/threads/[threadId]/memory/schema";
import { Params as SummarizeParams } from "@/app/api/threads/[threadId]/memory/summarize/schema";
import { Body as FactBody, Params as WorkspaceMemoryParams, Query as WorkspaceMemoryQuery } from "@/app/api/workspaces/[workspaceId]/memory/schema";
import type { ApiOperation } from "@/lib/openapi/operation";

const TAG = "Memory";

/** Memory operations: a thread's short-term memory, a workspace's long-term facts. */
export const memoryOperations: ApiOperation[] = [
  {
    method: "GET",
    path: "/api/threads/{threadId}/memory",
    tag: TAG,
    summary: "Read a thread's memory",
    description: "The thread's short-term memory, its summary and the facts proposed from it (any member who may view the thread).",
    auth: "session-or-key",
    params: ThreadMemoryParams,
    responses: { 200: { description: "Short-term entries, summary and proposed facts." } },
  },
  {
    method: "DELETE",
    path: "/api/threads/{threadId}/memory",
    tag: TAG,
    summary: "Clear a thread's short-term memory",
    description: "Forgets the thread's short-term memory (the thread's user or a workspace owner).",
    auth: "session-or-key",
    params: ThreadMemoryParams,
    responses: { 200: { description: "What was cleared." }, 403: { description: "Neither the thread's user nor an owner." } },
  },
  {
    method: "POST",
    path: "/api/threads/{threadId}/memory/promote",
    tag: TAG,
    summary: "Propose facts from a thread",
    description: "Proposes long-term facts from the thread's completed steps (accepted at once when the flow auto-promotes). Owners and approvers. The request has no body.",
    auth: "session-or-key",
    params: PromoteParams,
    responses: { 200: { description: "`{ facts }`: the facts proposed or accepted." }, 403: { description: "Viewers may not add facts." } },
  },
  {
    method: "POST",
    path: "/api/threads/{threadId}/memory/summarize",
    tag: TAG,
    summary: "Summarize a thread",
    description: "Writes the thread's summary (its user, owners and approvers). The request has no body.",
    auth: "session-or-key",
    params: SummarizeParams,
    responses: { 200: { description: "`{ summary }`." }, 403: { description: "A viewer who is not the thread's user." } },
  },
  {
    method: "GET",
    path: "/api/workspaces/{workspaceId}/memory",
    tag: TAG,
    summary: "List or search facts",
    description: "The workspace's long-term facts (any member); with `q` or `tag`, the best matches of a search on content and tags (and on meaning, with an embedding model).",
    auth: "session-or-key",
    params: WorkspaceMemoryParams,
    query: WorkspaceMemoryQuery,
    responses: { 200: { description: "`{ facts }`." } },
  },
  {
    method: "POST",
    path: "/api/workspaces/{workspaceId}/memory",
    tag: TAG,
    summary: "Add a fact",
    description: "Adds a fact stated by the user (owners and approvers). Facts are de-duplicated by their normalised content: stating a known fact again merges its tags into the existing one.",
    auth: "session-or-key",
    params: WorkspaceMemoryParams,
    body: FactBody,
    responses: {
      200: { description: "`{ fact }`: the existing fact with the same content, its tags merged." },
      201: { description: "`{ fact }`: the new fact." },
      403: { description: "Viewers may not add facts." },
    },
  },
  {
    method: "POST",
    path: "/api/memory/facts/{factId}/accept",
    tag: TAG,
    summary: "Accept a proposed fact",
    description: "Accepts a proposed fact so that agents retrieve it (owners and approvers). The request has no body.",
    auth: "session-or-key",
    params: FactAcceptParams,
    responses: { 200: { description: "`{ fact }`: the accepted fact." }, 403: { description: "Viewers may not accept facts." } },
  },
  {
    method: "DELETE",
    path: "/api/memory/facts/{factId}",
    tag: TAG,
    summary: "Forget a fact",
    description: "Forgets the fact and every fact promoted from the same source (right to erasure; owners and approvers).",
    auth: "session-or-key",
    params: FactParams,
    responses: { 200: { description: "What was forgotten." }, 403: { description: "Viewers may not forget facts." } },
  },
];
