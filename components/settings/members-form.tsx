"use client";
import { type FormEvent, useState } from "react";
import { ConfirmAction } from "./confirm-action";
import { FormError } from "./form-error";
import { SettingsCard } from "./settings-card";
import { useApiCall } from "./use-api-call";

/** Roles of a workspace member: owner, approver, viewer. */
export type MemberRole = "owner" | "approver" | "viewer";

/** A member as `GET /api/workspaces/:id/members` answers it. */
export interface MemberRow {
  userId: string;
  email: string;
  name: string | null;
  role: MemberRole;
}

/** A pending invitation as `GET /api/workspaces/:id/invitations` answers it (owners only). */
export interface InvitationRow {
  id: string;
  email: string;
  role: MemberRole;
  invitedBy: string;
  createdAt: string;
}

const ROLES: MemberRole[] = ["owner", "approver", "viewer"];

/**
 * One workspace's members with their roles (docs/security.md "Roles and powers", "Membership").
 * Owners also get an invite-by-email form, the pending invitations (each revocable), a role
 * menu per member and a remove button that asks for confirmation; everyone else sees the list
 * only. An invitation reads the same whatever the email: the person joins only by accepting it
 * in their own Settings. Changes go through `/api/workspaces/:id/members` and
 * `/api/workspaces/:id/invitations`; errors are shown inline with the server's message.
 */
export function MembersForm({
  workspace,
  members,
  invitations = [],
  myUserId,
}: {
  workspace: { id: string; name: string; role: MemberRole };
  members: MemberRow[];
  /** The workspace's pending invitations; only owners get them. */
  invitations?: InvitationRow[];
  myUserId: string;
}) {
  const isOwner = workspace.role === "owner";
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<MemberRole>("viewer");
  const [confirming, setConfirming] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const { call, busy, error, setError } = useApiCall();
  const base = `/api/workspaces/${encodeURIComponent(workspace.id)}/members`;

  async function invite(e: FormEvent) {
    e.preventDefault();
    setNotice(null);
    if (!email.trim()) {
      setError("email: enter the email of the person to invite.");
      return;
    }
    const invited = email.trim().toLowerCase();
    if (await call(base, "POST", { email, role }, `Invitation sent to ${invited}.`)) {
      setEmail("");
      setNotice(`Invitation to ${invited} as ${role} sent. They join once they accept it in Settings, signed in with that email.`);
    }
  }

  async function remove(m: MemberRow) {
    setConfirming(null);
    await call(`${base}/${encodeURIComponent(m.userId)}`, "DELETE", undefined, `${m.userId === myUserId ? "You left" : `${m.email} removed from`} ${workspace.name}.`);
  }

  return (
    <SettingsCard
      testId={`members-${workspace.id}`}
      title={
        <>
          {workspace.name} <span className="badge">your role: {workspace.role}</span>
        </>
      }
    >
      <table className="threads">
        <thead>
          <tr>
            <th>Member</th>
            <th>Role</th>
            {isOwner ? <th aria-label="Actions" /> : null}
          </tr>
        </thead>
        <tbody>
          {members.map((m) => (
            <tr key={m.userId} data-testid={`member-row-${m.email}`}>
              <td>
                {m.email}
                {m.userId === myUserId ? <span className="muted small"> (you)</span> : null}
              </td>
              <td>
                {isOwner ? (
                  <select
                    aria-label={`Role of ${m.email}`}
                    value={m.role}
                    disabled={busy}
                    onChange={(e) => call(`${base}/${encodeURIComponent(m.userId)}`, "PATCH", { role: e.target.value }, `${m.email} is now ${e.target.value} of ${workspace.name}.`)}
                    data-testid={`member-role-${m.email}`}
                  >
                    {ROLES.map((r) => (
                      <option key={r} value={r}>
                        {r}
                      </option>
                    ))}
                  </select>
                ) : (
                  <span className="badge" data-testid={`member-role-${m.email}`}>
                    {m.role}
                  </span>
                )}
              </td>
              {isOwner ? (
                <td>
                  <ConfirmAction
                    confirming={confirming === m.userId}
                    setConfirming={(on) => setConfirming(on ? m.userId : null)}
                    onConfirm={() => remove(m)}
                    busy={busy}
                    label="Remove"
                    prompt={`Remove ${m.userId === myUserId ? "yourself" : m.email}?`}
                    confirmLabel="Remove"
                    row
                    testId={`member-remove-${m.email}`}
                    confirmTestId={`member-remove-confirm-${m.email}`}
                  />
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
      {isOwner && invitations.length > 0 ? (
        <table className="threads" data-testid="invitations">
          <thead>
            <tr>
              <th>Invited</th>
              <th>Role</th>
              <th>By</th>
              <th aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {invitations.map((inv) => (
              <tr key={inv.id} data-testid={`invitation-row-${inv.email}`}>
                <td>
                  {inv.email} <span className="badge status-pending">pending</span>
                </td>
                <td>{inv.role}</td>
                <td className="small">{inv.invitedBy}</td>
                <td>
                  <button
                    type="button"
                    className="secondary"
                    disabled={busy}
                    onClick={() => call(`/api/workspaces/${encodeURIComponent(workspace.id)}/invitations/${encodeURIComponent(inv.id)}`, "DELETE", undefined, `Invitation of ${inv.email} revoked.`)}
                    data-testid={`invitation-revoke-${inv.email}`}
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {isOwner ? (
        <form className="row gap" style={{ alignItems: "flex-end", flexWrap: "wrap" }} onSubmit={invite} noValidate>
          <label>
            Email
            <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} placeholder="name@example.com" data-testid="member-add-email" />
          </label>
          <label>
            Role
            <select value={role} onChange={(e) => setRole(e.target.value as MemberRole)} data-testid="member-add-role">
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={busy} data-testid="member-add-submit">
            Invite
          </button>
        </form>
      ) : (
        <p className="muted small">Only owners invite, change or remove members; ask an owner of this workspace.</p>
      )}
      {notice ? (
        <p className="small" aria-live="polite" data-testid="members-notice">
          {notice}
        </p>
      ) : null}
      <FormError error={error} testId="members-error" />
    </SettingsCard>
  );
}
