"use client";
import { File, Folder } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { formatBytes } from "@/lib/format-size";

interface Entry {
  name: string;
  type: "file" | "dir";
  sizeBytes: number;
}

/** The thread's workspace: its files, and the content of the one selected. Reloads when `version` changes. */
export function WorkspacePanel({ threadId, version }: { threadId: string; version: string }) {
  const [entries, setEntries] = useState<Entry[] | null>(null);
  const [open, setOpen] = useState<{ path: string; content: string } | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    const res = await fetch(`/api/threads/${threadId}/workspace`);
    const body = await res.json();
    if (!res.ok) setError(body?.error?.message ?? `HTTP ${res.status}`);
    else setEntries(body as Entry[]);
  }, [threadId]);

  useEffect(() => {
    void version;
    load();
  }, [load, version]);

  async function show(path: string) {
    const res = await fetch(`/api/threads/${threadId}/workspace?path=${encodeURIComponent(path)}`);
    const body = await res.json();
    if (!res.ok) setError(body?.error?.message ?? `HTTP ${res.status}`);
    else setOpen({ path, content: String(body.content ?? "") });
  }

  return (
    <aside className="card workspace" data-testid="workspace">
      <h2>Workspace</h2>
      {error ? <p className="error">{error}</p> : null}
      {entries === null ? (
        <p className="muted small">Loading…</p>
      ) : entries.length === 0 ? (
        <p className="muted small">The workspace is empty.</p>
      ) : (
        <ul className="files">
          {entries.map((e) => (
            <li key={e.name}>
              {e.type === "file" ? (
                <button type="button" className="link" onClick={() => show(e.name)} data-testid={`ws-file-${e.name}`}>
                  <File className="icon" size="1em" />
                  {e.name}
                </button>
              ) : (
                <span>
                  <Folder className="icon" size="1em" />
                  {e.name}/
                </span>
              )}{" "}
              {e.type === "file" ? (
                <span className="muted small" title={`${e.sizeBytes} bytes`} data-testid={`ws-file-size-${e.name}`}>
                  {formatBytes(e.sizeBytes)}
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {open ? (
        <div>
          <h3>{open.path}</h3>
          <pre className="file-content" data-testid="ws-file-content">
            {open.content}
          </pre>
        </div>
      ) : null}
    </aside>
  );
}
