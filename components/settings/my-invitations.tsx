"use client";
import { useApiCall } from "./use-api-call";
import type { MemberRole } from "./members-form";

/** A pending invitation as `GET /api/invitations` answers it. */
export interface MyInvitationRow {
  id: string;
  workspace: { id: string; name: string };
  role: MemberRole;
  invitedBy: string;
  createdAt: string;
}

/**
 * The signed-in account's pending invitations (docs/security.md "Membership"): each names the
 * workspace, the role and who invited; Accept joins with that role, Decline discards it. Until
 * then the account is not a member and nothing of the workspace is visible to it.
 */
export function MyInvitations({ invitations }: { invitations: MyInvitationRow[] }) {
  const { call, busy, error } = useApiCall();
  const answer = (inv: MyInvitationRow, what: "accept" | "decline") =>
    call(
      `/api/invitations/${encodeURIComponent(inv.id)}/${what}`,
      "POST",
      undefined,
      what === "accept" ? `You joined ${inv.workspace.name} as ${inv.role}.` : `Invitation to ${inv.workspace.name} declined.`,
    );
  return (
    <section className="card stack" data-testid="my-invitations">
      <h2>Invitations for you</h2>
      <ul className="stack">
        {invitations.map((inv) => (
          <li key={inv.id} className="row" data-testid={`my-invitation-${inv.workspace.name}`}>
            <span>
              <strong>{inv.workspace.name}</strong> as <span className="badge">{inv.role}</span> <span className="muted small">invited by {inv.invitedBy}</span>
            </span>
            <span className="row gap">
              <button type="button" disabled={busy} onClick={() => answer(inv, "accept")} data-testid="invitation-accept">
                Accept
              </button>
              <button type="button" className="secondary" disabled={busy} onClick={() => answer(inv, "decline")} data-testid="invitation-decline">
                Decline
              </button>
            </span>
          </li>
        ))}
      </ul>
      {error ? (
        <p className="error" role="alert" data-testid="my-invitations-error">
          {error}
        </p>
      ) : null}
    </section>
  );
}
