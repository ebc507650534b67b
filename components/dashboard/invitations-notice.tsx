import Link from "next/link";

/**
 * A notice on the dashboard when invitations to join workspaces wait for the user
 * (docs/security.md "Membership"); they are answered in Settings.
 * @param workspaces names of the inviting workspaces.
 */
export function InvitationsNotice({ workspaces }: { workspaces: string[] }) {
  if (workspaces.length === 0) return null;
  const names = workspaces.length <= 3 ? workspaces.join(", ") : `${workspaces.slice(0, 3).join(", ")} and ${workspaces.length - 3} more`;
  return (
    <p className="card small" aria-live="polite" data-testid="invitations-notice">
      <span className="badge status-pending">{workspaces.length}</span> {workspaces.length === 1 ? "invitation" : "invitations"} to join {names}.{" "}
      <Link href="/settings" data-testid="invitations-notice-link">
        Accept or decline in Settings
      </Link>
    </p>
  );
}
