"use client";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";

/** Roles of a workspace member (issue 4): owner, approver, viewer. */
export type MemberRole = "owner" | "approver" | "viewer";

/** A member as `GET /api/workspaces/:id/members` answers it. */
export interface MemberRow {
  userId: string;
  email: string;
  name: string | null;
  role: MemberRole;
}

const ROLES: MemberRole[] = ["owner", "approver", "viewer"];

/**
 * One workspace's members with their roles (issue 4 roles). Owners also get an add-by-email
 * form, a role menu per member and a remove button that asks for confirmation; everyone
 * else sees the list only. Changes go through `/api/workspaces/:id/members`; errors are
 * shown inline with the server's message, which says what to do.
 */
export function MembersForm({ workspace, members, myUserId }: { workspace: { id: string; name: string; role: MemberRole }; members: MemberRow[]; myUserId: string }) {
  const router = useRouter();
  const isOwner = workspace.role === "owner";
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<MemberRole>("viewer");
  const [confirming, setConfirming] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const base = `/api/workspaces/${encodeURIComponent(workspace.id)}/members`;

  async function call(url: string, method: "POST" | "PATCH" | "DELETE", body?: unknown): Promise<boolean> {
    setError(null);
    setBusy(true);
    try {
      const res = await fetch(url, { method, ...(body ? { headers: { "content-type": "application/json" }, body: JSON.stringify(body) } : {}) });
      if (!res.ok) {
        const err = await res.json().catch(() => null);
        setError(err?.error?.message ?? `The server answered HTTP ${res.status}; reload the page and try again.`);
        return false;
      }
      router.refresh();
      return true;
    } catch {
      setError("Could not reach the server; check that it is running and try again.");
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function add(e: FormEvent) {
    e.preventDefault();
    if (!email.trim()) {
      setError("email: enter the email of an existing account.");
      return;
    }
    if (await call(base, "POST", { email, role })) setEmail("");
  }

  async function remove(m: MemberRow) {
    setConfirming(null);
    await call(`${base}/${encodeURIComponent(m.userId)}`, "DELETE");
  }

  return (
    <section className="card stack" data-testid={`members-${workspace.id}`}>
      <h3>
        {workspace.name} <span className="badge">your role: {workspace.role}</span>
      </h3>
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
                    onChange={(e) => call(`${base}/${encodeURIComponent(m.userId)}`, "PATCH", { role: e.target.value })}
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
                  {confirming === m.userId ? (
                    <span className="row gap">
                      <span className="small">Remove {m.userId === myUserId ? "yourself" : m.email}?</span>
                      <button type="button" className="danger" disabled={busy} onClick={() => remove(m)} data-testid={`member-remove-confirm-${m.email}`}>
                        Remove
                      </button>
                      <button type="button" className="secondary" onClick={() => setConfirming(null)}>
                        Cancel
                      </button>
                    </span>
                  ) : (
                    <button type="button" className="secondary" disabled={busy} onClick={() => setConfirming(m.userId)} data-testid={`member-remove-${m.email}`}>
                      Remove
                    </button>
                  )}
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
      {isOwner ? (
        <form className="row gap" style={{ alignItems: "flex-end", flexWrap: "wrap" }} onSubmit={add} noValidate>
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
            Add member
          </button>
        </form>
      ) : (
        <p className="muted small">Only owners add, change or remove members; ask an owner of this workspace.</p>
      )}
      {error ? (
        <p className="error" role="alert" data-testid="members-error">
          {error}
        </p>
      ) : null}
    </section>
  );
}
