"use client";
import { type FormEvent, useId, useState } from "react";
import { notify } from "@/components/ui/notify";
import type { StdioCommandChoice } from "@/lib/mcp/stdio-commands";
import { callMcpApi, parseSecretLines } from "./mcp-api";
import styles from "./mcp.module.css";

type Transport = "stdio" | "http";

/**
 * The form an owner adds an MCP server with: a name, the transport (a Streamable
 * HTTP URL, or one of the stdio commands the operator enabled, picked by name, with a value
 * chosen for each of its placeholders among the operator's) and write-only secrets. There
 * is no free-text command or argument (docs/security.md "Stdio MCP servers"). Field errors,
 * from this form or the server, show under their field; the server's message says what to do.
 * @param commands the operator's stdio commands (GET /api/mcp/commands); empty when stdio is off.
 * @param onAdded called after the server answered 201 (the list refreshes).
 */
export function AddServerForm({ workspaceId, commands, onAdded }: { workspaceId: string; commands: StdioCommandChoice[]; onAdded: () => void }) {
  const id = useId();
  const [transport, setTransport] = useState<Transport>("http");
  const [name, setName] = useState("");
  const [command, setCommand] = useState(commands[0]?.name ?? "");
  const [values, setValues] = useState<Record<string, string>>({});
  const [url, setUrl] = useState("");
  const [secrets, setSecrets] = useState("");
  const [busy, setBusy] = useState(false);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);

  const chosen = commands.find((c) => c.name === command);
  /** The value picked for each placeholder of `c`, the operator's first by default. */
  const valuesOf = (c: StdioCommandChoice | undefined): Record<string, string> =>
    Object.fromEntries(Object.entries(c?.values ?? {}).map(([key, list]) => [key, values[key] !== undefined && list.includes(values[key]) ? values[key] : (list[0] ?? "")]));

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const local: Record<string, string> = {};
    if (!name.trim()) local.name = "give the server a short name, e.g. notes";
    if (transport === "stdio" && !chosen) local.command = "choose one of the commands the operator enabled";
    if (transport === "http" && !url.trim()) local.url = "the server's Streamable HTTP URL, e.g. http://127.0.0.1:8931/mcp";
    const noSecrets = transport === "stdio" && (chosen?.env.length ?? 0) === 0;
    const parsed = parseSecretLines(noSecrets ? "" : secrets, transport === "stdio" ? "env" : "header");
    if (!parsed.ok) local.secrets = parsed.message;
    setFields(local);
    if (Object.keys(local).length > 0 || !parsed.ok) return;
    const body =
      transport === "stdio" ? { name: name.trim(), transport, command, values: valuesOf(chosen), secrets: parsed.secrets } : { name: name.trim(), transport, url: url.trim(), secrets: parsed.secrets };
    setBusy(true);
    const answer = await callMcpApi(`/api/workspaces/${encodeURIComponent(workspaceId)}/mcp`, "POST", body);
    setBusy(false);
    if (!answer.ok) {
      setFields(answer.fields);
      setError(answer.message);
      return;
    }
    setName("");
    setValues({});
    setUrl("");
    setSecrets("");
    notify.success(`MCP server ${body.name} added.`);
    onAdded();
  }

  const fieldError = (field: string) =>
    fields[field] ? (
      <span className={styles.fieldError} id={`${id}-${field}-error`} data-testid={`mcp-field-error-${field}`}>
        {fields[field]}
      </span>
    ) : null;
  const aria = (field: string) => ({ "aria-invalid": fields[field] ? true : undefined, "aria-describedby": fields[field] ? `${id}-${field}-error` : undefined });

  return (
    <form className={styles.form} onSubmit={submit} noValidate data-testid="mcp-add-form">
      <h3>Add an MCP server</h3>
      <label>
        Name
        <input value={name} onChange={(e) => setName(e.target.value)} placeholder="notes" {...aria("name")} data-testid="mcp-add-name" />
        <span className="muted small">Lower-case letters, digits and _; its tools are named mcp__name__tool.</span>
        {fieldError("name")}
      </label>
      <fieldset className={styles.transports}>
        <legend className="sr-only">Transport</legend>
        <label>
          <input type="radio" name={`${id}-transport`} checked={transport === "http"} onChange={() => setTransport("http")} data-testid="mcp-add-transport-http" />
          HTTP (Streamable HTTP URL)
        </label>
        <label>
          <input type="radio" name={`${id}-transport`} checked={transport === "stdio"} onChange={() => setTransport("stdio")} data-testid="mcp-add-transport-stdio" />
          stdio (a command the operator enabled)
        </label>
      </fieldset>
      {fieldError("transport")}
      {transport === "stdio" && commands.length === 0 ? (
        <p className={`${styles.warning} small`} data-testid="mcp-stdio-none">
          The operator has enabled no stdio commands on this instance, so stdio MCP servers are off. Operators enable named commands with the MCP_STDIO_COMMANDS setting; use an HTTP server meanwhile.
        </p>
      ) : transport === "stdio" ? (
        <>
          <p className={`${styles.warning} small`} data-testid="mcp-stdio-warning">
            A stdio server is a program the operator installed and listed for this instance. It runs on this server exactly as the operator wrote it, in its own temporary folder, with a minimal
            environment plus the secrets you set below, and it is stopped when it takes too long or writes too much.
          </p>
          <label>
            Command
            <select value={command} onChange={(e) => setCommand(e.target.value)} {...aria("command")} data-testid="mcp-add-command">
              {commands.map((c) => (
                <option key={c.name} value={c.name}>
                  {c.description ? `${c.name}: ${c.description}` : c.name}
                </option>
              ))}
            </select>
            {fieldError("command")}
          </label>
          {Object.entries(chosen?.values ?? {}).map(([key, list]) => (
            <label key={`${command}-${key}`}>
              {key}
              <select value={valuesOf(chosen)[key]} onChange={(e) => setValues({ ...values, [key]: e.target.value })} data-testid={`mcp-add-value-${key}`}>
                {list.map((v) => (
                  <option key={v} value={v}>
                    {v}
                  </option>
                ))}
              </select>
            </label>
          ))}
          {fieldError("values")}
        </>
      ) : (
        <label>
          URL
          <input type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://mcp.example.com/mcp" {...aria("url")} data-testid="mcp-add-url" />
          {fieldError("url")}
        </label>
      )}
      {transport === "stdio" && (chosen?.env.length ?? 0) === 0 ? null : (
        <label>
          {transport === "stdio" ? `Secret environment variables, one NAME=value per line (optional): ${chosen?.env.join(", ")}` : "Secret request headers, one Name: value per line (optional)"}
          <textarea
            value={secrets}
            onChange={(e) => setSecrets(e.target.value)}
            placeholder={transport === "stdio" ? `${chosen?.env[0] ?? "NAME"}=…` : "Authorization: Bearer …"}
            autoComplete="off"
            spellCheck={false}
            {...aria("secrets")}
            data-testid="mcp-add-secrets"
          />
          <span className="muted small">Encrypted at rest (AES-256-GCM) and never shown again; only their names are.</span>
          {fieldError("secrets")}
        </label>
      )}
      <div className="row gap">
        <button type="submit" disabled={busy || (transport === "stdio" && !chosen)} data-testid="mcp-add-submit">
          {busy ? "Connecting…" : "Add and list its tools"}
        </button>
      </div>
      {error ? (
        <p className="error" role="alert" data-testid="mcp-add-error">
          {error}
        </p>
      ) : null}
    </form>
  );
}
