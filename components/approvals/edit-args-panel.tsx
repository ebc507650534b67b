"use client";
import { useEffect, useMemo, useState } from "react";
import { fileWriteOf } from "@/lib/approvals/file-write";
import type { ApprovalPreview } from "@/lib/approvals/preview-item";
import { initialValues, schemaFields } from "@/lib/approvals/schema-fields";
import styles from "./approvals.module.css";
import { ArgsDiff, argsValue } from "./args-diff";
import { canonicalHash } from "./canonical-hash";
import { type FileNow, FileWriteView } from "./file-write-view";
import { type FormResult, SchemaForm } from "./schema-form";
import { useApprovalPreview } from "./use-approval-preview";

/** The edit textarea's text as an arguments object, or why it is not one. */
function parseArgs(text: string): { args: Record<string, unknown> } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { error: `Not valid JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { error: 'The arguments must be a JSON object, e.g. {"path": "notes.md"}.' };
  }
  return { args: value as Record<string, unknown> };
}

const asObject = (v: unknown): Record<string, unknown> => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** The raw JSON editor: a textarea checked as you type. */
function JsonEditor({ seed, disabled, onChange }: { seed: Record<string, unknown>; disabled: boolean; onChange: (r: { args: Record<string, unknown> } | { error: string }) => void }) {
  const [text, setText] = useState(() => JSON.stringify(seed, null, 2));
  const parsed = useMemo(() => parseArgs(text), [text]);
  useEffect(() => onChange(parsed), [parsed, onChange]);
  return (
    <label>
      <span className="small">Arguments to run instead (JSON object)</span>
      <textarea
        className="args-editor"
        rows={Math.min(16, Math.max(4, text.split("\n").length + 1))}
        spellCheck={false}
        value={text}
        disabled={disabled}
        onChange={(e) => setText(e.target.value)}
        aria-invalid={"error" in parsed}
        data-testid="edit-args"
      />
    </label>
  );
}

/**
 * The file an edited write would replace: the card's preview for the proposed path, or the
 * server's answer for an edited one (asked once typing pauses).
 */
function useFileNow(approvalId: string, proposed: ApprovalPreview["file"] | undefined, path: string | null, loading: boolean): FileNow {
  const other = path !== null && proposed !== undefined && proposed !== null && path !== proposed.path && path.length <= 1024;
  const fetched = useApprovalPreview(approvalId, other, other ? path : undefined, 400);
  if (path === null) return { state: "off" };
  if (!other) return proposed ? proposed.current : loading ? { state: "loading" } : { state: "unknown", message: "the preview is not available." };
  if (fetched.error) return { state: "unknown", message: fetched.error };
  if (fetched.loading || fetched.preview?.file?.path !== path) return { state: "loading" };
  return fetched.preview.file.current;
}

/**
 * Edit decision (LangGraph HumanResponse `edit`): a form with one field per argument,
 * generated from the tool's input schema (see SchemaForm), or the raw JSON of the arguments
 * (a toggle; the only editor when the tool declares no usable schema). Below it: the
 * field-level diff old vs new, for a file write the edited content and its line diff
 * against the file as it is now, and the RFC 8785 SHA-256 of the edit as the browser
 * computes it (the server recomputes it and evaluates the policy again). Submitting calls
 * `onSubmit` with the new arguments object, exactly as the JSON editor always did.
 */
export function EditArgsPanel({
  approvalId,
  toolName,
  canonicalArgs,
  argsHash,
  preview,
  previewLoading = false,
  busy,
  onSubmit,
  onCancel,
}: {
  approvalId: string;
  toolName: string;
  /** The proposed arguments, RFC 8785 canonical text. */
  canonicalArgs: string;
  /** Their SHA-256 (hex). */
  argsHash: string;
  /** The card's preview (input schema, file now); null when it could not be loaded. */
  preview: ApprovalPreview | null;
  /** The preview is still loading: the form waits for the schema. */
  previewLoading?: boolean;
  busy: boolean;
  onSubmit: (args: Record<string, unknown>, hash: string | null) => void;
  onCancel: () => void;
}) {
  const original = useMemo(() => asObject(argsValue(canonicalArgs)), [canonicalArgs]);
  // The arguments the open editor started from: the proposal, then whatever a mode switch carried over.
  const [seed, setSeed] = useState(original);
  const [mode, setMode] = useState<"form" | "json" | null>(null);
  const [generation, setGeneration] = useState(0);
  const [result, setResult] = useState<FormResult | { error: string }>({ args: original });
  const fields = useMemo(() => (preview?.inputSchema ? schemaFields(preview.inputSchema, seed) : null), [preview, seed]);
  const shown = mode ?? (fields ? "form" : previewLoading ? "loading" : "json");
  const args = "args" in result ? result.args : null;
  const [hash, setHash] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    setHash(null);
    if (args) void canonicalHash(args).then((h) => live && setHash(h?.hash ?? null));
    return () => {
      live = false;
    };
  }, [args]);

  const switchTo = (next: "form" | "json") => {
    if (next === shown || !args) return;
    setSeed(args);
    setMode(next);
    setGeneration((g) => g + 1);
  };

  const write = args ? fileWriteOf(toolName, args) : null;
  const fileNow = useFileNow(approvalId, preview?.file, write?.path ?? null, previewLoading);
  const problems = "errors" in result ? Object.values(result.errors) : "error" in result ? [result.error] : [];
  const unchanged = hash !== null && hash === argsHash;
  return (
    <div className="decision-panel stack" data-testid="edit-panel" data-mode={shown}>
      <div className="row gap wrap">
        <span className="small">Edit the arguments as</span>
        <span className={styles.modes}>
          <button
            type="button"
            className={shown === "form" ? undefined : "secondary"}
            aria-pressed={shown === "form"}
            disabled={!fields || (shown !== "form" && !args)}
            title={!fields ? "This tool declares no input schema the form can show." : shown !== "form" && !args ? "Fix the JSON first." : undefined}
            onClick={() => switchTo("form")}
            data-testid="edit-mode-form"
          >
            Form
          </button>
          <button
            type="button"
            className={shown === "json" ? undefined : "secondary"}
            aria-pressed={shown === "json"}
            disabled={shown !== "json" && !args}
            title={shown !== "json" && !args ? "Fix the fields first: the JSON starts from valid arguments." : undefined}
            onClick={() => switchTo("json")}
            data-testid="edit-mode-json"
          >
            Raw JSON
          </button>
        </span>
      </div>
      {shown === "loading" ? (
        <p className="small muted" data-testid="edit-loading">
          Loading the tool's input schema…
        </p>
      ) : shown === "form" && fields ? (
        <SchemaForm key={generation} fields={fields} seed={seed} initial={initialValues(fields, seed)} disabled={busy} onChange={setResult} />
      ) : (
        <>
          {!fields && !previewLoading ? <p className="small muted">This tool declares no input schema a form can show: edit its arguments as JSON.</p> : null}
          <JsonEditor key={generation} seed={seed} disabled={busy} onChange={setResult} />
        </>
      )}
      {problems.length > 0 ? (
        <div className="error small" role="alert" data-testid="edit-error">
          {problems.length === 1 ? (
            problems[0]
          ) : (
            <ul>
              {problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          )}
        </div>
      ) : (
        <ArgsDiff before={original} after={args} />
      )}
      {write ? <FileWriteView write={write} now={fileNow} testId="edit-file-write" /> : null}
      <p className="small muted">
        {hash ? (
          <>
            canonical sha256 of your edit <code data-testid="edit-hash">{hash.slice(0, 16)}…</code> (was <code>{argsHash.slice(0, 16)}…</code>).{" "}
          </>
        ) : null}
        The server canonicalises your edit again (RFC 8785) and checks it against the flow's policy; a blocked edit is refused.
      </p>
      <div className="row gap">
        <button type="button" disabled={busy || !args || unchanged} onClick={() => args && onSubmit(args, hash)} data-testid="edit-submit">
          Run with these arguments
        </button>
        <button type="button" className="secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        {unchanged ? <span className="small muted">Nothing changed: use Approve to run the proposal as is.</span> : null}
      </div>
    </div>
  );
}
