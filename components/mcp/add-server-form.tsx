"use client";
import { type FormEvent, useId, useState } from "react";
import { callMcpApi, parseSecretLines } from "./mcp-api";
import styles from "./mcp.module.css";

type Transport = "stdio" | "http";

/**
 * The form an owner adds an MCP server with (issue 6): a name, the transport (a command run
 * on this server, or a Streamable HTTP URL) and write-only secrets. Field errors, from this
 * form or the server, show under their field; the server's message says what to do.
 * @param onAdded called after the server answered 201 (the list refreshes).
 */
export function AddServerForm({ workspaceId, onAdded }: { workspaceId: string; onAdded: () => void }) {
  const id = useId();
  const [transport, setTransport] = useState<Transport>("http");
  const [name, setName] = useState("");
  const [command, setCommand] = useState("");
  const [args, setArgs] = useState("");
  const [url, setUrl] = useState("");
  const [secrets, setSecrets] = useState("");
  const [busy, setBusy] = useState(false);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const local: Record<string, string> = {};
    if (!name.trim()) local.name = "give the server a short name, e.g. notes";
    if (transport === "stdio" && !command.trim()) local.command = "name the program to run, e.g. npx";
    if (transport === "http" && !url.trim()) local.url = "the server's Streamable HTTP URL, e.g. http://127.0.0.1:8931/mcp";
    const parsed = parseSecretLines(secrets, transport === "stdio" ? "env" : "header");
    if (!parsed.ok) local.secrets = parsed.message;
    setFields(local);
    if (Object.keys(local).length > 0 || !parsed.ok) return;
    const body =
      transport === "stdio"
        ? { name: name.trim(), transport, command: command.trim(), args: args.split("\n").map((a) => a.trim()).filter(Boolean), secrets: parsed.secrets }
        : { name: name.trim(), transport, url: url.trim(), secrets: parsed.secrets };
    setBusy(true);
    const answer = await callMcpApi(`/api/workspaces/${encodeURIComponent(workspaceId)}/mcp`, "POST", body);
    setBusy(false);
    if (!answer.ok) {
      setFields(answer.fields);
      setError(answer.message);
      return;
    }
    setName("");
    setCommand("");
    setArgs("");
    setUrl("");
    setSecrets("");
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
          stdio (a command run on this server)
        </label>
      </fieldset>
      {fieldError("transport")}
      {transport === "stdio" ? (
        <>
          <p className={`${styles.warning} small`} data-testid="mcp-stdio-warning">
            A stdio server is a program this Phylactery server starts and runs as its own user, with only a minimal environment (PATH, HOME
            and a few more) plus the variables you set below. Add only programs you trust.
          </p>
          <label>
            Command
            <input value={command} onChange={(e) => setCommand(e.target.value)} placeholder="npx" {...aria("command")} data-testid="mcp-add-command" />
            {fieldError("command")}
          </label>
          <label>
            Arguments, one per line
            <textarea value={args} onChange={(e) => setArgs(e.target.value)} placeholder={"-y\n@modelcontextprotocol/server-everything"} {...aria("args")} data-testid="mcp-add-args" />
            {fieldError("args")}
          </label>
        </>
      ) : (
        <label>
          URL
          <input type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="http://127.0.0.1:8931/mcp" {...aria("url")} data-testid="mcp-add-url" />
          {fieldError("url")}
        </label>
      )}
      <label>
        {transport === "stdio" ? "Secret environment variables, one NAME=value per line (optional)" : "Secret request headers, one Name: value per line (optional)"}
        <textarea
          value={secrets}
          onChange={(e) => setSecrets(e.target.value)}
          placeholder={transport === "stdio" ? "API_TOKEN=…" : "Authorization: Bearer …"}
          autoComplete="off"
          spellCheck={false}
          {...aria("secrets")}
          data-testid="mcp-add-secrets"
        />
        <span className="muted small">Encrypted at rest (AES-256-GCM) and never shown again; only their names are.</span>
        {fieldError("secrets")}
      </label>
      <div className="row gap">
        <button type="submit" disabled={busy} data-testid="mcp-add-submit">
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
