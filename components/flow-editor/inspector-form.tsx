"use client";

import { type ReactNode, useEffect, useEffectEvent, useRef, useState } from "react";
import type { FieldValues, UseFormReturn } from "react-hook-form";
import type { z } from "zod";
import { fieldMessage } from "@/lib/flow/field-message";
import { sameData } from "@/lib/flow/node-data";
import type { EditorNode, NodeData, NodeKind } from "@/lib/flow/react-flow";
import styles from "./inspector.module.css";

/**
 * What the inspector's per-kind forms share: keeping a react-hook-form form and its node in
 * step, and the labelled field with its inline error.
 */

/** Parse options of every inspector form: short field messages (lib/flow/field-message.ts). */
export const FIELD_MESSAGES = { error: fieldMessage };

/** One field of a form that fails its schema, e.g. `{ path: "rules.0.tool", message: "Required" }`. */
export interface PendingIssue {
  path: string;
  message: string;
}

/**
 * An edit the inspector holds back: the form's values fail the kind's schema, so the node
 * on the canvas still has its last valid data. `data` is the form's raw values (for the
 * node's `data`), `issues` what is wrong with them.
 */
export interface PendingEdit {
  nodeId: string;
  data: unknown;
  issues: PendingIssue[];
}

/** Replaces the data of node `nodeId` on the canvas (the Inspector finds the node now). */
export type ApplyData = (nodeId: string, data: EditorNode["data"]) => void;
/** Tells the Inspector about the edit a form holds back (null: none). */
export type ReportPending = (nodeId: string, pending: Omit<PendingEdit, "nodeId"> | null) => void;

/** The props every per-kind form gets from the Inspector. */
export interface NodeFormProps<K extends NodeKind> {
  nodeId: string;
  data: NodeData<K>;
  onApply: ApplyData;
  onPending: ReportPending;
}

/**
 * Keeps a node form and its node in step, both ways:
 * - every change of the form's values that passes `schema` and differs from the node's
 *   data is applied at once (`onApply`), so the canvas, validation and save stay live;
 *   values that fail stay in the form with their errors and are reported as pending,
 *   not applied until fixed;
 * - when the node's `data` changes from outside (undo/redo, paste, import), the form is
 *   reset to it; the form's own applied changes coming back are recognised and ignored.
 * Data that fails the schema from the start (an imported document) shows its errors at once.
 * @returns true while the form holds values that are not applied (they fail the schema).
 */
export function useNodeFormSync<TValues extends FieldValues, TData extends TValues>(
  form: UseFormReturn<TValues, unknown, TData>,
  schema: z.ZodType<TData>,
  { nodeId, data, onApply, onPending }: { nodeId: string; data: TData; onApply: (data: TData) => void; onPending: ReportPending },
): boolean {
  // The node data this form last saw or applied: what the canvas has, as far as it knows.
  const applied = useRef(data);
  const [unapplied, setUnapplied] = useState(false);

  const report = useEffectEvent((pending: Omit<PendingEdit, "nodeId"> | null) => {
    setUnapplied(pending !== null);
    onPending(nodeId, pending);
  });

  const onValues = useEffectEvent((values: TValues) => {
    const parsed = schema.safeParse(values, FIELD_MESSAGES);
    if (!parsed.success) {
      // Invalid data that came from outside unchanged is the node's own problem, not a held-back edit.
      const held = !sameData(values, applied.current);
      report(held ? { data: structuredClone(values), issues: parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })) } : null);
      return;
    }
    report(null);
    if (sameData(parsed.data, applied.current)) return;
    applied.current = parsed.data;
    onApply(parsed.data);
  });

  useEffect(() => form.subscribe({ formState: { values: true }, callback: ({ values }) => onValues(values) }), [form]);

  const resetTo = useEffectEvent((next: TData) => {
    const ours = sameData(next, applied.current);
    applied.current = next;
    if (ours) return;
    form.reset(next);
    report(null);
    if (!schema.safeParse(next).success) void form.trigger();
  });
  useEffect(() => {
    if (data !== applied.current) resetTo(data);
  }, [data]);

  const mounted = useEffectEvent(() => {
    if (!schema.safeParse(applied.current).success) void form.trigger();
  });
  useEffect(() => {
    mounted();
    // The form goes away with the selection; what it held back goes with it.
    return () => report(null);
  }, []);

  return unapplied;
}

/** The heading of a node form, the note about held-back values, and the `<form>` itself. */
export function NodeFormFrame({ title, nodeId, unapplied, children }: { title: ReactNode; nodeId: string; unapplied: boolean; children: ReactNode }) {
  return (
    <form className={styles.fields} noValidate onSubmit={(e) => e.preventDefault()} aria-label={`Edit ${nodeId}`}>
      <h2 className={styles.inspectorTitle}>
        {title} <small className={styles.muted}>{nodeId}</small>
      </h2>
      {unapplied && (
        <p className={styles.pending} data-testid="inspector-pending" aria-live="polite">
          Invalid values are not applied to the canvas until fixed.
        </p>
      )}
      {children}
    </form>
  );
}

/**
 * The accessibility props of a control with an inline error: its id, `aria-invalid`, and
 * `aria-describedby` naming the error (and a hint, when there is one).
 */
export function fieldAria(id: string, error: string | undefined, hint = false) {
  const describedBy = [error ? `${id}-error` : "", hint ? `${id}-hint` : ""].filter(Boolean).join(" ");
  return { id, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy || undefined };
}

/**
 * A labelled field: the label, the control (`children`, which should spread
 * `fieldAria(id, error, !!hint)`), an optional hint and the inline error under it
 * (`inspector-error-{path}`).
 */
export function Field({ id, label, path, error, hint, children }: { id: string; label: ReactNode; path: string; error: string | undefined; hint?: ReactNode; children: ReactNode }) {
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && (
        <span id={`${id}-hint`} className={styles.fieldHint}>
          {hint}
        </span>
      )}
      <FieldError id={`${id}-error`} path={path} text={error} />
    </div>
  );
}

/** An inline error under a field (`inspector-error-{path}`); nothing when there is none. */
export function FieldError({ id, path, text, className }: { id?: string; path: string; text: string | undefined; className?: string }) {
  return text ? (
    <span id={id} className={className ? `${styles.fieldError} ${className}` : styles.fieldError} role="alert" data-testid={`inspector-error-${path}`}>
      {text}
    </span>
  ) : null;
}

/**
 * The first error message at `path` of a react-hook-form error tree, or below it
 * (`rules.0.match.1.hosts` also reports `rules.0.match.1.hosts.2`), depth first.
 */
export function firstErrorAt(errors: unknown, path: string): string | undefined {
  return firstMessage(errorNode(errors, path));
}

/**
 * The error of the list or object at `path` itself, not of its items: its own message, or
 * the `root` message react-hook-form gives a field array (`rules.0.match`: "At most 20 entries").
 */
export function ownErrorAt(errors: unknown, path: string): string | undefined {
  const node = errorNode(errors, path);
  if (typeof node !== "object" || node === null) return undefined;
  const { message, root } = node as { message?: unknown; root?: { message?: unknown } };
  if (typeof message === "string" && message) return message;
  return typeof root?.message === "string" && root.message ? root.message : undefined;
}

/** The entry at a dotted path of an error tree (undefined when there is none). */
function errorNode(errors: unknown, path: string): unknown {
  let node: unknown = errors;
  for (const key of path.split(".")) {
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function firstMessage(node: unknown): string | undefined {
  if (typeof node !== "object" || node === null) return undefined;
  const record = node as Record<string, unknown>;
  if (typeof record.message === "string" && record.message) return record.message;
  for (const [key, value] of Object.entries(record)) {
    // `ref` is the DOM element of the field, `types` the criteriaMode "all" copies.
    if (key === "ref" || key === "types") continue;
    const found = firstMessage(value);
    if (found) return found;
  }
  return undefined;
}
