"use client";
import { type FormEvent, useState } from "react";
import { LocalTime } from "@/components/ui/local-time";
import { ConfirmAction } from "./confirm-action";
import { FormError } from "./form-error";
import { RowTable } from "./row-table";
import { SettingsCard } from "./settings-card";
import { SubmitButton } from "./submit-button";
import { useApiCall } from "./use-api-call";

/** A secret as `GET /api/workspaces/:id/secrets` answers it: never its value. */
export interface SecretRow {
  name: string;
  hosts: string[];
  createdBy: string | null;
  updatedAt: string;
  lastUsedAt: string | null;
}

/** Host entries as typed: one per line or comma-separated. */
function hostList(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((h) => h.trim())
    .filter(Boolean);
}

/**
 * One workspace's secrets (docs/secrets.md "Managing secrets"): every member sees the names,
 * hosts and dates; owners add one (name, value, hosts), replace a value or hosts, and delete
 * one. The value field is write-only: what is typed is sent once and never shown again.
 */
export function SecretsSection({ workspace, secrets, owner }: { workspace: { id: string; name: string }; secrets: SecretRow[]; owner: boolean }) {
  const base = `/api/workspaces/${encodeURIComponent(workspace.id)}/secrets`;
  const [name, setName] = useState("");
  const [value, setValue] = useState("");
  const [hosts, setHosts] = useState("");
  const [editing, setEditing] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const { call, busy, error, setError } = useApiCall();

  async function add(e: FormEvent) {
    e.preventDefault();
    if (!name.trim()) return setError("name: enter a name such as API_TOKEN.");
    if (!value) return setError("value: enter the value.");
    if (hostList(hosts).length === 0) return setError("hosts: name at least one host it may be sent to, e.g. api.example.com.");
    if (await call(base, "POST", { name: name.trim(), value, hosts: hostList(hosts) }, `Secret ${name.trim()} added.`)) {
      setName("");
      setValue("");
      setHosts("");
    }
  }

  return (
    <SettingsCard testId={`secrets-${workspace.id}`} title={`Secrets of ${workspace.name}`}>
      <p className="muted small">
        A tool refers to a secret as <code>{"{{secret:NAME}}"}</code> in an <code>http_request</code> header or an MCP server's headers and environment. The value is swapped in after the approval,
        only for the hosts listed; the model, runs, approvals and logs only see the reference. A value is never shown again.
      </p>
      <RowTable columns={["Name", "Hosts", "Changed", "Last used"]} actions={owner} rows={secrets.length} empty={`No secrets yet${owner ? ": add one below." : "."}`} emptyTestId="secrets-empty">
        {secrets.map((s) => (
          <SecretListRow
            key={s.name}
            secret={s}
            url={`${base}/${encodeURIComponent(s.name)}`}
            owner={owner}
            busy={busy}
            editing={editing === s.name}
            setEditing={(on) => setEditing(on ? s.name : null)}
            confirming={confirming === s.name}
            setConfirming={(on) => setConfirming(on ? s.name : null)}
            call={call}
          />
        ))}
      </RowTable>
      <FormError error={error} testId="secrets-error" />
      {owner ? (
        <form className="stack" onSubmit={add} noValidate autoComplete="off">
          <label>
            Name
            <input value={name} onChange={(e) => setName(e.target.value.toUpperCase())} placeholder="API_TOKEN" maxLength={64} data-testid="secret-add-name" />
          </label>
          <label>
            Value <span className="muted small">(never shown again)</span>
            <input type="password" value={value} onChange={(e) => setValue(e.target.value)} autoComplete="new-password" data-testid="secret-add-value" />
          </label>
          <label>
            Hosts it may be sent to <span className="muted small">(api.example.com, *.example.com, host:port; comma or space separated)</span>
            <input value={hosts} onChange={(e) => setHosts(e.target.value)} placeholder="api.example.com" data-testid="secret-add-hosts" />
          </label>
          <SubmitButton busy={busy} testId="secret-add-submit">
            Add secret
          </SubmitButton>
        </form>
      ) : (
        <p className="muted small">Only owners add, replace and delete secrets.</p>
      )}
    </SettingsCard>
  );
}

function SecretListRow(props: {
  secret: SecretRow;
  url: string;
  owner: boolean;
  busy: boolean;
  editing: boolean;
  setEditing: (on: boolean) => void;
  confirming: boolean;
  setConfirming: (on: boolean) => void;
  call: ReturnType<typeof useApiCall>["call"];
}) {
  const { secret: s, url, busy, call } = props;
  const [value, setValue] = useState("");
  const [hosts, setHosts] = useState(s.hosts.join(", "));

  async function replace(e: FormEvent) {
    e.preventDefault();
    const body = { ...(value ? { value } : {}), hosts: hostList(hosts) };
    if (await call(url, "PUT", body, `Secret ${s.name} replaced.`)) {
      setValue("");
      props.setEditing(false);
    }
  }

  return (
    <>
      <tr data-testid={`secret-row-${s.name}`}>
        <td>
          <code>{s.name}</code>
        </td>
        <td className="small">{s.hosts.join(", ")}</td>
        <td className="small">
          <LocalTime at={s.updatedAt} />
          {s.createdBy ? <span className="muted"> by {s.createdBy}</span> : null}
        </td>
        <td className="small">{s.lastUsedAt ? <LocalTime at={s.lastUsedAt} /> : <span className="muted">never</span>}</td>
        {props.owner ? (
          <td>
            <span className="row gap">
              <button type="button" className="secondary" disabled={busy} onClick={() => props.setEditing(!props.editing)} data-testid={`secret-replace-${s.name}`}>
                Replace
              </button>
              <ConfirmAction
                confirming={props.confirming}
                setConfirming={props.setConfirming}
                onConfirm={() => void call(url, "DELETE", undefined, `Secret ${s.name} deleted.`)}
                busy={busy}
                label="Delete"
                confirmLabel={`Delete ${s.name}`}
                cancelLabel="Keep"
                testId={`secret-delete-${s.name}`}
                confirmTestId={`secret-delete-confirm-${s.name}`}
              />
            </span>
          </td>
        ) : null}
      </tr>
      {props.editing ? (
        <tr>
          <td colSpan={5}>
            <form className="stack" onSubmit={replace} noValidate autoComplete="off">
              <label>
                New value <span className="muted small">(leave empty to keep the current one; never shown again)</span>
                <input type="password" value={value} onChange={(e) => setValue(e.target.value)} autoComplete="new-password" data-testid={`secret-replace-value-${s.name}`} />
              </label>
              <label>
                Hosts
                <input value={hosts} onChange={(e) => setHosts(e.target.value)} data-testid={`secret-replace-hosts-${s.name}`} />
              </label>
              <SubmitButton busy={busy} testId={`secret-replace-submit-${s.name}`}>
                Save
              </SubmitButton>
            </form>
          </td>
        </tr>
      ) : null}
    </>
  );
}
