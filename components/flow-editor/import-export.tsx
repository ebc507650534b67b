"use client";

import { useEffect, useId, useRef, useState } from "react";
import { type LocatedIssue, parseFlowImport } from "@/lib/flow/describe-issue";
import type { FlowDocument } from "@/lib/flow/schema";
import styles from "./flow-editor.module.css";

/** A file name for a flow: its name without characters file systems refuse, `.json`. */
export function exportFileName(name: string): string {
  const printable = Array.from(name, (c) => (c < " " ? "-" : c)).join("");
  const safe = printable
    .replace(/[\\/:*?"<>|]+/g, "-")
    .trim()
    .replace(/^\.+/, "");
  return `${safe || "flow"}.json`;
}

/**
 * Downloads `doc` as `{flow name}.json` (export a flow as JSON), pretty-printed;
 * the file imports back unchanged.
 */
export function downloadFlow(doc: FlowDocument): void {
  const blob = new Blob([`${JSON.stringify(doc, null, 2)}\n`], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = exportFileName(doc.settings.name);
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export interface ImportDialogProps {
  open: boolean;
  onClose: () => void;
  /** A document that passed the schema; the editor puts it on the canvas. */
  onImport: (document: FlowDocument) => void;
}

/**
 * Import a flow from JSON: pick a file or paste the text. The text is validated
 * with the flow schema (`parseFlowImport`); a valid document replaces the canvas, an invalid
 * one lists every issue naming the node and the field, and nothing changes.
 */
export function ImportDialog({ open, onClose, onImport }: ImportDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [text, setText] = useState("");
  const [issues, setIssues] = useState<LocatedIssue[]>([]);
  const [source, setSource] = useState<string | null>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      setIssues([]);
      dialog.showModal();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  const submit = (value: string) => {
    const result = parseFlowImport(value);
    if (!result.ok) {
      setIssues(result.issues);
      return;
    }
    setIssues([]);
    setText("");
    setSource(null);
    onImport(result.document);
    onClose();
  };

  const readFile = async (file: File) => {
    const value = await file.text();
    setText(value);
    setSource(file.name);
    submit(value);
  };

  return (
    <dialog ref={ref} className={styles.dialog} onClose={onClose} aria-labelledby={`${id}-title`} data-testid="import-dialog">
      <div className={styles.dialogHead}>
        <h2 id={`${id}-title`}>Import a flow</h2>
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </div>
      <p className={styles.hint}>The imported flow replaces what is on the canvas, as an unsaved change you can undo. The flow keeps its name here.</p>
      <form
        className={styles.importForm}
        onSubmit={(e) => {
          e.preventDefault();
          submit(text);
        }}
      >
        <label htmlFor={`${id}-file`}>A JSON file exported from Phylactery</label>
        <input
          id={`${id}-file`}
          type="file"
          accept="application/json,.json"
          data-testid="import-file"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = "";
            if (file) void readFile(file);
          }}
        />
        <label htmlFor={`${id}-text`}>or paste its JSON</label>
        <textarea
          id={`${id}-text`}
          rows={10}
          spellCheck={false}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setSource(null);
          }}
          placeholder='{ "version": 1, "settings": { … }, "nodes": [ … ], "edges": [ … ] }'
          data-testid="import-text"
        />
        {issues.length > 0 && (
          <div className={styles.importErrors} role="alert" data-testid="import-errors">
            <strong>
              {source ? `${source} ` : "This JSON "}cannot be imported ({issues.length} {issues.length === 1 ? "problem" : "problems"}); nothing was changed:
            </strong>
            <ul>
              {issues.slice(0, 50).map((issue, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a static list per attempt
                <li key={i}>{issue.message}</li>
              ))}
              {issues.length > 50 && <li>…and {issues.length - 50} more.</li>}
            </ul>
          </div>
        )}
        <div className={styles.dialogActions}>
          <button type="submit" className={styles.primary} disabled={!text.trim()} data-testid="import-submit">
            Import
          </button>
        </div>
      </form>
    </dialog>
  );
}
