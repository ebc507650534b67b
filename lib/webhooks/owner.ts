import "server-only";
import type { Db } from "../db/client";
import { roleIn } from "../db/workspaces";
import { AppError } from "../errors";

/**
 * Only a workspace's owners manage its webhooks and read their deliveries (docs/security.md
 * "Roles and powers"): a webhook sends the workspace's approvals and runs to a URL of the
 * owner's choosing, and its log shows what was sent.
 * @throws AppError not_found ("workspace_not_found") for a non-member; forbidden
 *   ("role_forbidden") for approvers and viewers.
 */
export async function requireWebhookOwner(db: Db, userId: string, workspaceId: string): Promise<void> {
  const role = await roleIn(db, userId, workspaceId);
  if (!role) throw new AppError("not_found", "workspace_not_found", `No workspace ${workspaceId}.`);
  if (role !== "owner") {
    throw new AppError("forbidden", "role_forbidden", `Your role in this workspace is ${role}; only owners manage its webhooks and read their deliveries. Ask an owner.`);
  }
}
