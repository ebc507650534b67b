import { Params as InvitationParams } from "@/app/api/workspaces/[workspaceId]/invitations/[invitationId]/schema";
import { Params as InvitationsParams } from "@/app/api/workspaces/[workspaceId]/invitations/schema";
import { Body as RoleBody, Params as MemberParams } from "@/app/api/workspaces/[workspaceId]/members/[userId]/schema";
import { Body as InviteBody, Params as MembersParams } from "@/app/api/workspaces/[workspaceId]/members/schema";
import type { ApiOperation } from "@/lib/openapi/operation";

const TAG = "Workspaces";

/** Workspace operations: my workspaces, members, and the invitations owners send. */
export const workspaceOperations: ApiOperation[] = [
  {
    method: "GET",
    path: "/api/workspaces",
    tag: TAG,
    summary: "List my workspaces",
    description: "The workspaces the user is a member of, each with the user's role (owner, approver or viewer).",
    auth: "session-or-key",
    responses: { 200: { description: "`{ workspaces }`." } },
  },
  {
    method: "GET",
    path: "/api/workspaces/{workspaceId}/members",
    tag: TAG,
    summary: "List members",
    description: "The workspace's members and their roles (any member).",
    auth: "session-or-key",
    params: MembersParams,
    responses: { 200: { description: "`{ members }`." } },
  },
  {
    method: "POST",
    path: "/api/workspaces/{workspaceId}/members",
    tag: TAG,
    summary: "Invite someone",
    description: "Invites an email with a role (owners only). Nobody joins here: the invitee accepts in the app. The answer is the same whether or not an account has that email.",
    auth: "session-or-key",
    params: MembersParams,
    body: InviteBody,
    responses: { 202: { description: "`{ invitation }`: the pending invitation." }, 403: { description: "Only owners invite." } },
  },
  {
    method: "PATCH",
    path: "/api/workspaces/{workspaceId}/members/{userId}",
    tag: TAG,
    summary: "Change a member's role",
    description: "Owners only; a workspace always keeps an owner.",
    auth: "session-or-key",
    params: MemberParams,
    body: RoleBody,
    responses: {
      200: { description: "`{ member }`: the member with the new role." },
      403: { description: "Only owners change roles." },
      409: { description: "The change would leave the workspace without an owner." },
    },
  },
  {
    method: "DELETE",
    path: "/api/workspaces/{workspaceId}/members/{userId}",
    tag: TAG,
    summary: "Remove a member",
    description: "Owners only; a workspace always keeps an owner.",
    auth: "session-or-key",
    params: MemberParams,
    responses: {
      204: { description: "Removed." },
      403: { description: "Only owners remove members." },
      409: { description: "The member is the last owner." },
    },
  },
  {
    method: "GET",
    path: "/api/workspaces/{workspaceId}/invitations",
    tag: TAG,
    summary: "List pending invitations",
    description: "The workspace's pending invitations (owners only).",
    auth: "session-or-key",
    params: InvitationsParams,
    responses: { 200: { description: "`{ invitations }`." }, 403: { description: "Only owners see invitations." } },
  },
  {
    method: "DELETE",
    path: "/api/workspaces/{workspaceId}/invitations/{invitationId}",
    tag: TAG,
    summary: "Revoke an invitation",
    description: "Revokes a pending invitation (owners only).",
    auth: "session-or-key",
    params: InvitationParams,
    responses: { 204: { description: "Revoked." }, 403: { description: "Only owners revoke invitations." } },
  },
];
