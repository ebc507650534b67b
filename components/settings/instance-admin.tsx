"use client";
import { type FormEvent, useState } from "react";
import { LocalTime } from "@/components/ui/local-time";
import type { AccountView, InstanceWorkspaceView } from "@/lib/db/instance-types";
import { useApiCall } from "./use-api-call";

/**
 * Settings' "Instance" section, for instance admins only (docs/security.md "Roles and powers"):
 * every account and workspace, and a form that creates an account (there is no sign-up). The
 * new person then signs in with the password set here; invitations already sent to the email
 * wait for them in Settings.
 */
export function InstanceAdmin({ accounts, workspaces }: { accounts: AccountView[]; workspaces: InstanceWorkspaceView[] }) {
  const { call, busy, error, setError } = useApiCall();
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [notice, setNotice] = useState<string | null>(null);

  async function create(e: FormEvent) {
    e.preventDefault();
    setNotice(null);
    if (!email.trim() || !password) {
      setError("Enter the new account's email and a password of at least 12 characters.");
      return;
    }
    const made = email.trim().toLowerCase();
    if (await call("/api/admin/users", "POST", { email, password, ...(name.trim() ? { name } : {}) }, `Account ${made} created.`)) {
      setEmail("");
      setName("");
      setPassword("");
      setNotice(`Account ${made} created; give its owner the password through a channel you trust.`);
    }
  }

  return (
    <section className="stack" data-testid="instance-admin">
      <h2>Instance</h2>
      <p className="muted">
        You are an <strong>instance admin</strong>: you create accounts and see every account and workspace by name. You see what is inside a workspace only as its member, like everyone else.
      </p>
      <form className="card row gap" style={{ alignItems: "flex-end", flexWrap: "wrap" }} onSubmit={create} noValidate>
        <label>
          Email
          <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} placeholder="name@example.com" data-testid="account-email" />
        </label>
        <label>
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} placeholder="optional" data-testid="account-name" />
        </label>
        <label>
          Password
          <input type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} placeholder="12 characters or more" data-testid="account-password" />
        </label>
        <button type="submit" disabled={busy} data-testid="account-create">
          Create account
        </button>
      </form>
      {notice ? (
        <p className="small" aria-live="polite" data-testid="account-notice">
          {notice}
        </p>
      ) : null}
      {error ? (
        <p className="error" role="alert" data-testid="account-error">
          {error}
        </p>
      ) : null}
      <table className="card threads" data-testid="instance-accounts">
        <thead>
          <tr>
            <th>Account</th>
            <th>Created</th>
            <th>Workspaces</th>
          </tr>
        </thead>
        <tbody>
          {accounts.map((a) => (
            <tr key={a.id} data-testid={`account-row-${a.email}`}>
              <td>
                {a.email} {a.name ? <span className="muted small">({a.name})</span> : null} {a.admin ? <span className="badge">admin</span> : null}
              </td>
              <td className="small">
                <LocalTime at={a.createdAt} />
              </td>
              <td>{a.workspaces}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table className="card threads" data-testid="instance-workspaces">
        <thead>
          <tr>
            <th>Workspace</th>
            <th>Owners</th>
            <th>Members</th>
          </tr>
        </thead>
        <tbody>
          {workspaces.map((w) => (
            <tr key={w.id}>
              <td>{w.name}</td>
              <td className="small">{w.owners.join(", ") || "—"}</td>
              <td>{w.members}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
