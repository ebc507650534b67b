import { Query as PreviewQuery } from "@/app/api/approvals/[approvalId]/preview/schema";
import { Params as ApprovalParams } from "@/app/api/approvals/[approvalId]/schema";
import { Query as EventsQuery } from "@/app/api/approvals/events/schema";
import { Query as InboxQuery } from "@/app/api/approvals/schema";
import type { ApiOperation } from "@/lib/openapi/operation";

const TAG = "Approvals";

/**
 * Approval operations: the inbox, one approval, its preview, live counts. Decisions are
 * sent to the thread's run stream (`POST /api/threads/{threadId}/stream`, input kind
 * `decision`), because deciding resumes the run.
 */
export const approvalOperations: ApiOperation[] = [
  {
    method: "GET",
    path: "/api/approvals",
    tag: TAG,
    summary: "List approvals (the inbox)",
    description:
      "Approvals of the user's workspaces, filtered by flow, risk and status (default: pending ones), soonest to expire first. Each item says where (flow, thread), who (agent, step), what (tool, canonical arguments and their SHA-256), how risky, and its outcome. To decide, post a `decision` input to the thread's stream.",
    auth: "session-or-key",
    query: InboxQuery,
    responses: { 200: { description: "`{ items, flows }`: the approvals and the flows the filter can pick." } },
  },
  {
    method: "GET",
    path: "/api/approvals/events",
    tag: TAG,
    summary: "Follow the pending count",
    description:
      'Server-sent events: `event: approvals` with `data: {"pending": N}` on connect, then the same event with the approval\'s id, change type and status whenever an approval the user may see changes; a `: keep-alive` comment every 15 s.',
    auth: "session-or-key",
    stream: "sse",
    query: EventsQuery,
    responses: { 200: { description: "An endless event stream; it ends when the client goes away." } },
  },
  {
    method: "GET",
    path: "/api/approvals/{approvalId}",
    tag: TAG,
    summary: "Read an approval",
    description: "One approval of the user's workspaces, whatever its status (404 for another workspace's).",
    auth: "session-or-key",
    params: ApprovalParams,
    responses: { 200: { description: "The approval, as an inbox item." } },
  },
  {
    method: "GET",
    path: "/api/approvals/{approvalId}/preview",
    tag: TAG,
    summary: "Preview an approval's effect",
    description: "The tool's input schema and, for a file write, the file as it is now (or the file at `path`, for an approver who edits the path), to compare with the proposed content.",
    auth: "session-or-key",
    params: ApprovalParams,
    query: PreviewQuery,
    responses: { 200: { description: "The tool's input schema and the current file, if any." } },
  },
];
