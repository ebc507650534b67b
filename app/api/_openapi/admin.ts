import { Body } from "@/app/api/admin/users/schema";
import type { ApiOperation } from "@/lib/openapi/operation";

const TAG = "Admin";

/** Instance administration: accounts and workspaces (instance admins only; 403 for everyone else). */
export const adminOperations: ApiOperation[] = [
  {
    method: "GET",
    path: "/api/admin/users",
    tag: TAG,
    summary: "List accounts and workspaces",
    description: "Every account and workspace of the instance, with counts (never their flows, runs or approvals).",
    auth: "session-or-key",
    responses: { 200: { description: "`{ accounts, workspaces }`." }, 403: { description: "Not an instance admin." } },
  },
  {
    method: "POST",
    path: "/api/admin/users",
    tag: TAG,
    summary: "Create an account",
    description: "There is no sign-up: an instance admin creates accounts. Pending invitations to the email show up for the new account.",
    auth: "session-or-key",
    body: Body,
    responses: {
      201: { description: "`{ account }`." },
      403: { description: "Not an instance admin." },
      409: { description: "An account with that email exists." },
    },
  },
];
