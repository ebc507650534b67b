import { Params } from "@/app/api/invitations/[invitationId]/schema";
import type { ApiOperation } from "@/lib/openapi/operation";

const TAG = "Invitations";

/** The signed-in account's own invitations: list, accept, decline. */
export const invitationOperations: ApiOperation[] = [
  {
    method: "GET",
    path: "/api/invitations",
    tag: TAG,
    summary: "List my invitations",
    description: "Pending invitations addressed to the user's email.",
    auth: "session-or-key",
    responses: { 200: { description: "`{ invitations }`." } },
  },
  {
    method: "POST",
    path: "/api/invitations/{invitationId}/accept",
    tag: TAG,
    summary: "Accept an invitation",
    description: "Joins the workspace with the invited role (the invitee only; 404 for anyone else). The request has no body.",
    auth: "session-or-key",
    params: Params,
    responses: { 200: { description: "`{ workspace }`: the workspace joined." } },
  },
  {
    method: "POST",
    path: "/api/invitations/{invitationId}/decline",
    tag: TAG,
    summary: "Decline an invitation",
    description: "The invitee only; 404 for anyone else. The request has no body.",
    auth: "session-or-key",
    params: Params,
    responses: { 204: { description: "Declined." } },
  },
];
