"use client";
import { Download, File as FileIcon, Folder, Upload } from "lucide-react";
import { type DragEvent, useCallback, useEffect, useRef, useState } from "react";
import { formatBytes } from "@/lib/format-size";

interface Entry {
  name: string;
  type: "file" | "dir";
  sizeBytes: number;
  /** A file of the mounted workspace library the thread has no copy of (docs/library.md): read-only. */
  readOnly?: true;
}

/** The download link of a workspace file (docs/documents.md "Download"). */
function fileUrl(threadId: string, name: string): string {
  return `/api/threads/${threadId}/files/${name.split("/").map(encodeURIComponent).join("/")}`;
}

/**
 * The thread's workspace: its files and the mounted library's (marked "library", read-only,
 * docs/library.md "Mounting"), and the content of the one selected. Reloads when
 * `version` changes. Files are added with the picker or by dropping them on the panel
 * (docs/documents.md "Upload"); each file and the whole workspace (zip) can be downloaded.
 */
export function WorkspacePanel({ threadId, version }: { threadId: string; version: string }) {
  const [entries, setEntries] = useState<Entry[] | null>(null);
  const [open, setOpen] = useState<{ path: string; content: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [uploading, setUploading] = useState<string | null>(null);
  const [uploaded, setUploaded] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const picker = useRef<HTMLInputElement>(null);

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

  async function upload(files: File[]) {
    if (files.length === 0 || uploading) return;
    setError(null);
    setUploaded(null);
    setUploading(files.length === 1 ? `Uploading ${files[0]?.name}…` : `Uploading ${files.length} files…`);
    try {
      const form = new FormData();
      for (const f of files) form.append("file", f, f.name);
      const res = await fetch(`/api/threads/${threadId}/files`, { method: "POST", body: form });
      const body = await res.json().catch(() => null);
      if (!res.ok) setError(body?.error?.message ?? `Upload failed (HTTP ${res.status}).`);
      else {
        const sent: { path: string; note?: string }[] = body?.files ?? [];
        // A scanned PDF arrives but has no text: say so (docs/documents.md "Scanned PDFs").
        const notes = sent.flatMap((f) => (f.note ? [f.note] : []));
        setUploaded([`Uploaded ${sent.map((f) => f.path).join(", ")}.`, ...notes].join(" "));
      }
    } catch {
      setError("Upload failed: the server could not be reached.");
    } finally {
      setUploading(null);
      if (picker.current) picker.current.value = "";
      await load();
    }
  }

  function onDrop(e: DragEvent) {
    e.preventDefault();
    setDragging(false);
    void upload([...e.dataTransfer.files]);
  }

  async function show(path: string) {
    const res = await fetch(`/api/threads/${threadId}/workspace?path=${encodeURIComponent(path)}`);
    const body = await res.json();
    if (!res.ok) setError(body?.error?.message ?? `HTTP ${res.status}`);
    else setOpen({ path, content: String(body.content ?? "") });
  }

  return (
    <aside
      className={`card workspace${dragging ? " dropping" : ""}`}
      data-testid="workspace"
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <h2>Workspace</h2>
      <div className="row small">
        <input ref={picker} type="file" multiple hidden data-testid="ws-upload-input" onChange={(e) => void upload([...(e.target.files ?? [])])} />
        <button type="button" onClick={() => picker.current?.click()} disabled={uploading !== null} data-testid="ws-upload">
          <Upload className="icon" size="1em" />
          {uploading ? "Uploading…" : "Upload files"}
        </button>{" "}
        <a href={`/api/threads/${threadId}/files?format=zip`} download data-testid="ws-download-zip">
          <Download className="icon" size="1em" />
          Download all (.zip)
        </a>
      </div>
      <p className="muted small">Drop files here, or use Upload files: PDF, DOCX, text and images (docs/documents.md).</p>
      {uploading ? (
        <output className="muted small" data-testid="ws-upload-status">
          {uploading}
        </output>
      ) : null}
      {uploaded ? (
        <output className="muted small" data-testid="ws-upload-done">
          {uploaded}
        </output>
      ) : null}
      {error ? (
        <p className="error" role="alert" data-testid="ws-error">
          {error}
        </p>
      ) : null}
      {entries === null ? (
        <p className="muted small">Loading…</p>
      ) : entries.length === 0 ? (
        <p className="muted small" data-testid="ws-empty">
          No files yet. Upload files here (or drop them on this panel), or ask a workspace owner to add documents to the workspace library in Settings &gt; Library: flows that mount it show its files
          in every thread.
        </p>
      ) : (
        <ul className="files">
          {entries.map((e) => (
            <li key={e.name}>
              {e.type === "file" ? (
                <button type="button" className="link" onClick={() => show(e.name)} data-testid={`ws-file-${e.name}`}>
                  <FileIcon className="icon" size="1em" />
                  {e.name}
                </button>
              ) : (
                <span>
                  <Folder className="icon" size="1em" />
                  {e.name}/
                </span>
              )}{" "}
              {e.readOnly ? (
                <>
                  <span className="badge small" title="A read-only file of the workspace library (Settings > Library)" data-testid={`ws-library-${e.name}`}>
                    library
                  </span>{" "}
                </>
              ) : null}
              {e.type === "file" ? (
                <>
                  <span className="muted small" title={`${e.sizeBytes} bytes`} data-testid={`ws-file-size-${e.name}`}>
                    {formatBytes(e.sizeBytes)}
                  </span>{" "}
                  <a href={fileUrl(threadId, e.name)} download className="small" aria-label={`Download ${e.name}`} data-testid={`ws-download-${e.name}`}>
                    <Download className="icon" size="1em" />
                  </a>
                </>
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
