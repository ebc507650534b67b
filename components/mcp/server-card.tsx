"use client";
import { X } from "lucide-react";
import { type FormEvent, useState } from "react";
import { LocalTime } from "@/components/ui/local-time";
import { notify } from "@/components/ui/notify";
import type { McpServerView } from "@/lib/mcp/servers";
import { callMcpApi } from "./mcp-api";
import styles from "./mcp.module.css";

/**
 * One MCP server: how it is reached, its status (tools listed, or the last error
 * and what to do), the names of its secrets, and its tools with their input schemas.
 * Owners also get Refresh, a secret form (set or remove one) and Remove, which asks first.
 * @param onChanged called after a change the server accepted (the list refreshes).
 */
export function ServerCard({ workspaceId, server, isOwner, onChanged }: { workspaceId: string; server: McpServerView; isOwner: boolean; onChanged: () => void }) {
  const [busy, setBusy] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [secretName, setSecretName] = useState("");
  const [secretValue, setSecretValue] = useState("");
  const base = `/api/workspaces/${encodeURIComponent(workspaceId)}/mcp/${encodeURIComponent(server.id)}`;
  const named = server.tools.filter((t) => t.toolName);

  /** Runs one action; on success says so in a toast (`done`), on failure inline. */
  async function act(what: string, url: string, method: "POST" | "PATCH" | "DELETE", body: unknown, done: string): Promise<boolean> {
    setError(null);
    setBusy(what);
    const answer = await callMcpApi(url, method, body);
    setBusy(null);
    if (!answer.ok) {
      setError(answer.message);
      return false;
    }
    notify.success(done);
    onChanged();
    return true;
  }

  async function setSecret(e: FormEvent) {
    e.preventDefault();
    if (!secretName.trim()) {
      setError(`secrets: name the ${server.transport === "stdio" ? "environment variable" : "header"} to set.`);
      return;
    }
    const key = secretName.trim();
    if (await act("secret", base, "PATCH", { secrets: { [key]: secretValue } }, `Secret ${key} of ${server.name} set.`)) {
      setSecretName("");
      setSecretValue("");
    }
  }

  return (
    <article className="card stack" data-testid={`mcp-server-${server.name}`}>
      <div className="row">
        <h3 style={{ margin: 0 }}>
          {server.name} <span className="badge">{server.transport}</span>
        </h3>
        {isOwner ? (
          <span className="row gap">
            <button
              type="button"
              className="secondary"
              disabled={busy !== null}
              onClick={() => act("refresh", `${base}/refresh`, "POST", undefined, `${server.name}: tools listed again.`)}
              data-testid={`mcp-refresh-${server.name}`}
            >
              {busy === "refresh" ? "Refreshing…" : "Refresh"}
            </button>
            {confirming ? (
              <>
                <span className="small">Remove {server.name}? Flows using its tools stop validating.</span>
                <button
                  type="button"
                  className="danger"
                  disabled={busy !== null}
                  onClick={() => act("remove", base, "DELETE", undefined, `MCP server ${server.name} removed.`)}
                  data-testid={`mcp-remove-confirm-${server.name}`}
                >
                  Remove
                </button>
                <button type="button" className="secondary" onClick={() => setConfirming(false)}>
                  Cancel
                </button>
              </>
            ) : (
              <button type="button" className="secondary" disabled={busy !== null} onClick={() => setConfirming(true)} data-testid={`mcp-remove-${server.name}`}>
                Remove
              </button>
            )}
          </span>
        ) : null}
      </div>
      <p className={styles.config} data-testid={`mcp-server-config-${server.name}`}>
        {server.transport === "stdio" ? [`command ${server.command ?? ""}`, ...Object.entries(server.values).map(([k, v]) => `${k}=${v}`)].join(" · ") : server.url}
      </p>
      <p className="small" data-testid={`mcp-server-status-${server.name}`}>
        {server.lastError ? (
          <span className="badge status-error">error</span>
        ) : server.refreshedAt ? (
          <span className="badge status-done">connected</span>
        ) : (
          <span className="badge">not listed yet</span>
        )}{" "}
        {named.length} tool{named.length === 1 ? "" : "s"}
        {server.refreshedAt ? (
          <>
            , listed <LocalTime at={server.refreshedAt} />
          </>
        ) : null}
      </p>
      {server.lastError ? (
        <p className="error small" role="alert" data-testid={`mcp-server-error-${server.name}`}>
          {server.lastError}
          {server.tools.length > 0 ? " The tools below are from the last successful listing." : ""}
        </p>
      ) : null}
      <div className={styles.secrets}>
        <span className="muted small">{server.transport === "stdio" ? "Secret env vars:" : "Secret headers:"}</span>
        {server.secretKeys.length === 0 ? <span className="muted small">none</span> : null}
        {server.secretKeys.map((k) => (
          <span key={k} className="badge" data-testid={`mcp-secret-${server.name}-${k}`}>
            {k} (set)
            {isOwner ? (
              <button
                type="button"
                className="link"
                aria-label={`Remove secret ${k}`}
                disabled={busy !== null}
                onClick={() => act("secret", base, "PATCH", { secrets: { [k]: null } }, `Secret ${k} of ${server.name} removed.`)}
              >
                <X className="icon" size="1em" />
              </button>
            ) : null}
          </span>
        ))}
        {server.secretsUnreadable ? <span className="error small">The stored secrets cannot be decrypted (the server key changed): set them again.</span> : null}
      </div>
      {isOwner ? (
        <form className="row gap small" onSubmit={setSecret} noValidate>
          <input
            aria-label="Secret name"
            placeholder={server.transport === "stdio" ? "NAME" : "Header-Name"}
            value={secretName}
            onChange={(e) => setSecretName(e.target.value)}
            data-testid={`mcp-secret-name-${server.name}`}
          />
          <input
            aria-label="Secret value"
            type="password"
            autoComplete="off"
            placeholder="value"
            value={secretValue}
            onChange={(e) => setSecretValue(e.target.value)}
            data-testid={`mcp-secret-value-${server.name}`}
          />
          <button type="submit" className="secondary" disabled={busy !== null} data-testid={`mcp-secret-submit-${server.name}`}>
            Set secret
          </button>
        </form>
      ) : null}
      {server.tools.length > 0 ? (
        <ul className={styles.tools} data-testid={`mcp-tools-${server.name}`}>
          {server.tools.map((t) => (
            <li key={t.name} className={styles.tool} data-testid={t.toolName ? `mcp-tool-${t.toolName}` : undefined}>
              <details>
                <summary>
                  <code>{t.toolName ?? t.name}</code>
                  {t.toolName === null ? (
                    <span className={`badge ${styles.skipped}`}>left out</span>
                  ) : t.sideEffect ? (
                    <span className={`badge ${styles.sideEffect}`}>side effect</span>
                  ) : (
                    <span className={`badge ${styles.readOnly}`}>read-only</span>
                  )}
                  <span className="muted small">{t.description}</span>
                </summary>
                {t.problem ? <p className="error small">{t.problem}</p> : null}
                <p className="muted small">Input schema (JSON Schema, as the server declares it):</p>
                <pre>{JSON.stringify(t.inputSchema, null, 2)}</pre>
              </details>
            </li>
          ))}
        </ul>
      ) : null}
      {error ? (
        <p className="error" role="alert" data-testid={`mcp-server-action-error-${server.name}`}>
          {error}
        </p>
      ) : null}
    </article>
  );
}
