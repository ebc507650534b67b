/**
 * What the instance admin sees of accounts and workspaces (docs/security.md "Roles and
 * powers"), shared by the server (lib/db/accounts.ts) and the Settings page; no server code.
 */

/** An account as the admin sees it. */
export interface AccountView {
  id: string;
  email: string;
  name: string | null;
  /** ISO 8601. */
  createdAt: string;
  admin: boolean;
  /** How many workspaces it is a member of. */
  workspaces: number;
}

/** A workspace as the admin sees it: its name and who owns it, nothing inside it. */
export interface InstanceWorkspaceView {
  id: string;
  name: string;
  /** ISO 8601. */
  createdAt: string;
  members: number;
  /** Emails of its owners. */
  owners: string[];
}
