import "server-only";
import type { Db } from "../db/client";
import { type Caller, workspaceRole } from "../auth/membership";
import { requireCapability } from "../auth/roles";

/**
 * Only a workspace's owners manage its webhooks and read their deliveries (docs/security.md
 * "Roles and powers"): a webhook sends the workspace's approvals and runs to a URL of the
 * owner's choosing, and its log shows what was sent.
 * @throws AppError not_found ("workspace_not_found") for a non-member; forbidden
 *   ("role_forbidden") for approvers and viewers.
 * @param userId a user id, or the access the route resolved (lib/auth/membership.ts `Caller`: no query).
 */
export async function requireWebhookOwner(db: Db, userId: Caller, workspaceId: string): Promise<void> {
  requireCapability(await workspaceRole(db, userId, workspaceId), "manage", WEBHOOK_REFUSAL);
}

/** What the 403 says to members who cannot manage webhooks (lib/auth/roles.ts `requireCapability`). */
export const WEBHOOK_REFUSAL = "only owners manage its webhooks and read their deliveries. Ask an owner.";
