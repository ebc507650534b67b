import "server-only";
import { env } from "../env";
import { serverSecret } from "../secrets";

/**
 * The approval HMAC key (docs/architecture.md#approvals): APPROVAL_SECRET, else a generated key
 * persisted owner-only in SECRETS_DIR.
 * @throws Error when the secrets directory cannot be created or read.
 */
export function approvalSecret(): string {
  return serverSecret("approval", env().APPROVAL_SECRET);
}
