"use client";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { LocalTime } from "@/components/ui/local-time";
import { ConfirmAction } from "./confirm-action";
import { CopyButton } from "./copy-button";
import { FormError } from "./form-error";
import { RowTable } from "./row-table";
import { useApiCall } from "./use-api-call";
import type { ApiKeyView } from "@/lib/auth/api-keys";

/** A key as `GET /api/keys` answers it (never the key itself, never its hash). */
export type ApiKeyRow = ApiKeyView;

/** A key just made: `POST /api/keys` answers it with the key, this once. */
interface Created {
  name: string;
  key: string;
}

/**
 * The user's API keys (docs/api.md "API keys"): the list (name, prefix, workspace or "All my
 * workspaces", created, last used, revoked), a form to make one for all the user's workspaces
 * or one of them, the new key shown once in a read-only field with a Copy button, and Revoke
 * with a confirmation. Calls `/api/keys`; errors are shown inline with the server's message.
 */
export function ApiKeys({ keys, workspaces }: { keys: ApiKeyRow[]; workspaces: { id: string; name: string }[] }) {
  const router = useRouter();
  const [name, setName] = useState("");
  const [workspaceId, setWorkspaceId] = useState("");
  const [created, setCreated] = useState<Created | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const { call, busy, error, setError } = useApiCall();

  async function create(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setCreated(null);
    if (!name.trim()) {
      setError("name: give the key a name that says where it is used, e.g. CI or my laptop.");
      return;
    }
    setCreating(true);
    try {
      const res = await fetch("/api/keys", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name, ...(workspaceId ? { workspaceId } : {}) }),
      });
      const body = (await res.json().catch(() => null)) as { key?: string; name?: string; error?: { message?: string } } | null;
      if (!res.ok || !body?.key) {
        setError(body?.error?.message ?? `The server answered HTTP ${res.status}; reload the page and try again.`);
        return;
      }
      setCreated({ name: body.name ?? name.trim(), key: body.key });
      setName("");
      router.refresh();
    } catch {
      setError("Could not reach the server; check that it is running and try again.");
    } finally {
      setCreating(false);
    }
  }

  async function revoke(k: ApiKeyRow) {
    setConfirming(null);
    await call(`/api/keys/${encodeURIComponent(k.id)}`, "DELETE", undefined, `Key "${k.name}" revoked.`);
  }

  return (
    <section className="card stack" data-testid="api-keys">
      <RowTable
        columns={["Name", "Key", "Workspace", "Created", "Last used"]}
        rows={keys.length}
        empty={
          <>
            No API keys yet. Keys let your code use Phylactery's JSON API as you, with your roles: send one as <code>Authorization: Bearer &lt;key&gt;</code> (see docs/api.md).
          </>
        }
        emptyTestId="api-keys-empty"
      >
        {keys.map((k) => (
          <tr key={k.id} data-testid={`api-key-row-${k.name}`}>
            <td>{k.name}</td>
            <td>
              <code>{k.prefix}…</code>
            </td>
            <td>{k.workspaceName ?? "All my workspaces"}</td>
            <td className="small">
              <LocalTime at={k.createdAt} />
            </td>
            <td className="small" data-testid={`api-key-last-used-${k.name}`}>
              {k.lastUsedAt ? <LocalTime at={k.lastUsedAt} /> : "never"}
            </td>
            <td>
              {k.revokedAt ? (
                <span className="badge" data-testid={`api-key-revoked-${k.name}`}>
                  revoked
                </span>
              ) : (
                <ConfirmAction
                  confirming={confirming === k.id}
                  setConfirming={(on) => setConfirming(on ? k.id : null)}
                  onConfirm={() => revoke(k)}
                  busy={busy}
                  label="Revoke"
                  prompt={`Revoke "${k.name}"? Code using it stops working at once.`}
                  confirmLabel="Revoke"
                  row
                  testId={`api-key-revoke-${k.name}`}
                  confirmTestId={`api-key-revoke-confirm-${k.name}`}
                />
              )}
            </td>
          </tr>
        ))}
      </RowTable>
      {created ? (
        <div className="stack" data-testid="api-key-created">
          <label>
            Your new key "{created.name}"
            <input readOnly value={created.key} onFocus={(e) => e.currentTarget.select()} data-testid="api-key-value" />
          </label>
          <p className="small">
            <strong>Copy it now: it will not be shown again.</strong> Only a hash of it is kept; if you lose it, revoke it and make a new one.
          </p>
          <div className="row gap">
            <CopyButton text={created.key} copied="Key copied to the clipboard." failed="Could not copy: select the key in the field and copy it by hand." testId="api-key-copy" />
            <button type="button" className="secondary" onClick={() => setCreated(null)} data-testid="api-key-done">
              Done
            </button>
          </div>
        </div>
      ) : null}
      <form className="row gap" style={{ alignItems: "flex-end", flexWrap: "wrap" }} onSubmit={create} noValidate>
        <label>
          Name
          <input value={name} maxLength={80} onChange={(e) => setName(e.target.value)} placeholder="e.g. CI" data-testid="api-key-name" />
        </label>
        <label>
          Reaches
          <select value={workspaceId} onChange={(e) => setWorkspaceId(e.target.value)} data-testid="api-key-workspace">
            <option value="">All my workspaces</option>
            {workspaces.map((w) => (
              <option key={w.id} value={w.id}>
                Only {w.name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={creating || busy} data-testid="api-key-create">
          Create key
        </button>
      </form>
      <FormError error={error} testId="api-keys-error" />
    </section>
  );
}
