"use client";
import { useEffect, useMemo, useState } from "react";
import { ArgsDiff, argsValue } from "./args-diff";
import { canonicalHash } from "./canonical-hash";

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

/**
 * Edit decision (LangGraph HumanResponse `edit`, issue 4): a JSON textarea prefilled with
 * the proposed arguments, validated as you type, the field-level diff old vs new, and the
 * RFC 8785 SHA-256 of the edit as the browser computes it (the server recomputes it and
 * evaluates the policy again). Submitting calls `onSubmit` with the new arguments object.
 */
export function EditArgsPanel({
  canonicalArgs,
  argsHash,
  busy,
  onSubmit,
  onCancel,
}: {
  /** The proposed arguments, RFC 8785 canonical text. */
  canonicalArgs: string;
  /** Their SHA-256 (hex). */
  argsHash: string;
  busy: boolean;
  onSubmit: (args: Record<string, unknown>, hash: string | null) => void;
  onCancel: () => void;
}) {
  const original = useMemo(() => argsValue(canonicalArgs), [canonicalArgs]);
  const [text, setText] = useState(() => JSON.stringify(original, null, 2));
  const parsed = useMemo(() => parseArgs(text), [text]);
  const [hash, setHash] = useState<string | null>(null);
  const args = "args" in parsed ? parsed.args : null;

  useEffect(() => {
    let live = true;
    setHash(null);
    if (args) void canonicalHash(args).then((h) => live && setHash(h?.hash ?? null));
    return () => {
      live = false;
    };
  }, [args]);

  const unchanged = hash !== null && hash === argsHash;
  return (
    <div className="decision-panel stack" data-testid="edit-panel">
      <label>
        <span className="small">Arguments to run instead (JSON object)</span>
        <textarea
          className="args-editor"
          rows={Math.min(16, Math.max(4, text.split("\n").length + 1))}
          spellCheck={false}
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-invalid={"error" in parsed}
          data-testid="edit-args"
        />
      </label>
      {"error" in parsed ? (
        <p className="error small" role="alert" data-testid="edit-error">
          {parsed.error}
        </p>
      ) : (
        <ArgsDiff before={original} after={args} />
      )}
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
