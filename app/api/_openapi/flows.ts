import { z } from "zod";
import { Params as RestoreParams } from "@/app/api/flows/[flowId]/versions/[version]/restore/schema";
import { Params as VersionParams } from "@/app/api/flows/[flowId]/versions/[version]/schema";
import { Body as SaveBody, Params as VersionsParams } from "@/app/api/flows/[flowId]/versions/schema";
import { Body as NewFlowBody } from "@/app/api/flows/schema";
import type { ApiOperation } from "@/lib/openapi/operation";

const TAG = "Flows";

/** A version summary as the list and the detail answer it. */
const VersionSummary = z.object({
  version: z.number().int(),
  id: z.string(),
  message: z.string(),
  author: z.string().describe('The author\'s email; "" when the account is gone.'),
  createdAt: z.string().describe("ISO 8601"),
  runs: z.number().int().describe("Threads run on this version."),
});

/** The saved version's number and id. */
const Saved = z.object({ version: z.number().int(), id: z.string() });

/** Flow operations: create, and the immutable versions of a flow. */
export const flowOperations: ApiOperation[] = [
  {
    method: "POST",
    path: "/api/flows",
    tag: TAG,
    summary: "Create a flow",
    description:
      "Creates a flow (its version 1) from a template key or `blank`, named and described by the user, in `workspaceId` (one where the user may edit flows; 403 `role_forbidden` where their role is viewer or approver) or the user's own workspace, created when they have none.",
    auth: "session-or-key",
    body: NewFlowBody,
    responses: {
      201: {
        description: "The flow and the workspace it was created in (by id and name; the user's own workspace is created when they have none).",
        schema: z.object({ flowId: z.string(), workspaceId: z.string(), workspaceName: z.string().nullable() }),
      },
      403: { description: "The user may not edit flows in that workspace." },
    },
  },
  {
    method: "GET",
    path: "/api/flows/{flowId}/versions",
    tag: TAG,
    summary: "List a flow's versions",
    description: "Every version of the flow, newest first, with its author, message and how many threads ran on it.",
    auth: "session-or-key",
    params: VersionsParams,
    responses: { 200: { description: "The versions.", schema: z.object({ versions: z.array(VersionSummary) }) } },
  },
  {
    method: "POST",
    path: "/api/flows/{flowId}/versions",
    tag: TAG,
    summary: "Save a version",
    description: "Validates the flow document (`document`) and saves it as the flow's next immutable version (owners only). The body may have up to 5 MiB (other routes: 1 MiB).",
    auth: "session-or-key",
    params: VersionsParams,
    body: SaveBody,
    responses: {
      201: { description: "The new version.", schema: Saved },
      403: { description: "Only the workspace's owners edit flows." },
    },
  },
  {
    method: "GET",
    path: "/api/flows/{flowId}/versions/{version}",
    tag: TAG,
    summary: "Read a version",
    description: "One version of the flow with its whole flow document.",
    auth: "session-or-key",
    params: VersionParams,
    responses: { 200: { description: "The version and its document.", schema: VersionSummary.extend({ document: z.unknown() }) } },
  },
  {
    method: "POST",
    path: "/api/flows/{flowId}/versions/{version}/restore",
    tag: TAG,
    summary: "Restore a version",
    description: "Saves that version's document as the flow's next version (\"Restored vN\"); owners only. The request has no body.",
    auth: "session-or-key",
    params: RestoreParams,
    responses: {
      201: { description: "The new version.", schema: Saved },
      403: { description: "Only the workspace's owners edit flows." },
    },
  },
];
