/**
 * What the signed-in user may do in the editor, from their role in the flow's workspace
 * (the page asks `can()` of lib/auth/roles.ts; the server enforces the same table on
 * save and run). Owners edit and run, approvers run, viewers only look.
 */
export interface EditorAccess {
  role: "owner" | "approver" | "viewer";
  /** Save, and every change on the canvas, in the inspector and in Flow settings. */
  canEdit: boolean;
  /** Start a run of the saved flow. */
  canRun: boolean;
}

/** Full access: an owner's editor. */
export const OWNER_ACCESS: EditorAccess = { role: "owner", canEdit: true, canRun: true };

/**
 * Why this user cannot change the flow, shown on the disabled Save button and in the
 * read-only notice; null when they can.
 */
export function editDeniedReason(access: EditorAccess): string | null {
  if (access.canEdit) return null;
  return access.role === "approver"
    ? "Approvers can run this flow but can't edit it; ask an owner of the workspace for the owner role."
    : "Viewers can't edit this flow; ask an owner of the workspace for the owner role.";
}

/** Why this user cannot start a run, shown on the disabled Run button; null when they can. */
export function runDeniedReason(access: EditorAccess): string | null {
  if (access.canRun) return null;
  return "Viewers can't run this flow; ask an owner of the workspace for the approver role.";
}
