"use client";
import { useRouter } from "next/navigation";
import { type ChangeEvent, useRef, useState } from "react";
import { notify } from "@/components/ui/notify";
import { formatBytes } from "@/lib/format-size";
import { useApiCall } from "./use-api-call";

/** A library file as `GET /api/workspaces/:id/library` answers it. */
export interface LibraryRow {
  name: string;
  sizeBytes: number;
  kind: "text" | "pdf" | "docx";
  updatedAt: string;
}

/**
 * One workspace's library (docs/library.md): the files a flow can mount read-only into every
 * thread. Every member sees the list; owners upload (file picker, several at once) and
 * delete (with a confirmation).
 */
export function LibrarySection({ workspace, files, canManage }: { workspace: { id: string; name: string }; files: LibraryRow[]; canManage: boolean }) {
  const router = useRouter();
  const base = `/api/workspaces/${encodeURIComponent(workspace.id)}/library`;
  const picker = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const { call, busy, error } = useApiCall();

  async function upload(e: ChangeEvent<HTMLInputElement>) {
    const chosen = [...(e.target.files ?? [])];
    e.target.value = "";
    if (chosen.length === 0) return;
    setUploadError(null);
    setUploading(true);
    try {
      const form = new FormData();
      for (const f of chosen) form.append("file", f, f.name);
      const res = await fetch(base, { method: "POST", body: form });
      if (!res.ok) {
        const err = await res.json().catch(() => null);
        return setUploadError(err?.error?.message ?? `The server answered HTTP ${res.status}; reload the page and try again.`);
      }
      notify.success(chosen.length === 1 ? `${chosen[0]?.name} added to the library.` : `${chosen.length} files added to the library.`);
      router.refresh();
    } catch {
      setUploadError("Could not reach the server; check that it is running and try again.");
    } finally {
      setUploading(false);
    }
  }

  return (
    <section className="card stack" data-testid={`library-${workspace.id}`}>
      <h3>Library of {workspace.name}</h3>
      {files.length === 0 ? (
        <p className="muted" data-testid="library-empty">
          The library is empty.{" "}
          {canManage
            ? "Bring documents in with Upload files below (text, Markdown, PDF or DOCX, up to 10 MB each): every thread of a flow that mounts the library (on by default, Flow settings > Library) can read and search them."
            : "An owner of this workspace can upload documents here; every thread of a flow that mounts the library can then read and search them."}
        </p>
      ) : (
        <ul className="stack" data-testid="library-files">
          {files.map((f) => (
            <li key={f.name} data-testid={`library-file-${f.name}`}>
              <strong>{f.name}</strong> <span className="muted small">{`${f.kind.toUpperCase()}, ${formatBytes(f.sizeBytes)}`}</span>{" "}
              {canManage ? (
                confirming === f.name ? (
                  <>
                    <span>Delete {f.name} from the library?</span>{" "}
                    <button
                      type="button"
                      disabled={busy}
                      data-testid={`library-confirm-delete-${f.name}`}
                      onClick={async () => {
                        if (await call(`${base}/${encodeURIComponent(f.name)}`, "DELETE", undefined, `${f.name} deleted from the library.`)) setConfirming(null);
                      }}
                    >
                      Delete
                    </button>{" "}
                    <button type="button" onClick={() => setConfirming(null)}>
                      Cancel
                    </button>
                  </>
                ) : (
                  <button type="button" data-testid={`library-delete-${f.name}`} onClick={() => setConfirming(f.name)}>
                    Delete
                  </button>
                )
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {canManage ? (
        <p>
          <input ref={picker} type="file" multiple hidden onChange={upload} data-testid="library-picker" accept=".txt,.md,.csv,.json,.pdf,.docx,text/*,application/pdf" />
          <button type="button" disabled={uploading} onClick={() => picker.current?.click()} data-testid="library-upload">
            {uploading ? "Uploading…" : "Upload files"}
          </button>
        </p>
      ) : null}
      {uploadError || error ? (
        <p className="error" role="alert" data-testid="library-error">
          {uploadError ?? error}
        </p>
      ) : null}
    </section>
  );
}
