"use client";
import { useEffect, useId, useMemo } from "react";
import { useForm } from "react-hook-form";
import { argsFromValues, fieldKey, type FormValues, type SchemaField } from "@/lib/approvals/schema-fields";
import styles from "./approvals.module.css";

/** What the form holds now: the arguments it gives, or each field's problem (messages name the field). */
export type FormResult = { args: Record<string, unknown> } | { errors: Record<string, string> };

/** A select option's text: strings as they are, other values as JSON. */
const optionText = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

/**
 * The edit form of an approval: one field per argument of the tool's input schema (see
 * lib/approvals/schema-fields.ts: text, multi-line text, number, checkbox, select, JSON),
 * with the schema's description under each and the field's problem, if any, below it.
 * The form holds its values with react-hook-form; every change reports the arguments it
 * gives (or the problems) through `onChange`.
 * @param seed the arguments the form starts from (and whose present keys an empty optional
 *   text keeps).
 */
export function SchemaForm({
  fields,
  seed,
  initial,
  disabled,
  onChange,
}: {
  fields: SchemaField[];
  seed: Record<string, unknown>;
  initial: FormValues;
  disabled: boolean;
  onChange: (result: FormResult) => void;
}) {
  const id = useId();
  const { register, watch } = useForm<FormValues>({ defaultValues: initial });
  const values = watch();
  const snapshot = JSON.stringify(values);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `snapshot` stands for `values`, a new object every render
  const result = useMemo(() => argsFromValues(fields, values, seed), [fields, seed, snapshot]);
  useEffect(() => onChange(result), [result, onChange]);
  const errors = "errors" in result ? result.errors : {};
  return (
    <fieldset className={styles.form} data-testid="edit-form" disabled={disabled} aria-label="Arguments, one field each">
      {fields.map((f, i) => {
        const key = fieldKey(i);
        const inputId = `${id}-${key}`;
        const hintId = `${inputId}-hint`;
        const errorId = `${inputId}-error`;
        const error = errors[f.name];
        const described = [f.description || f.extra ? hintId : null, error ? errorId : null].filter(Boolean).join(" ") || undefined;
        const common = { id: inputId, "aria-invalid": error ? true : undefined, "aria-describedby": described, "data-testid": `edit-field-${f.name}`, "data-kind": f.kind } as const;
        const label = (
          <label htmlFor={inputId}>
            {f.name}
            <span className="muted small">{f.required ? " (required)" : " (optional)"}</span>
          </label>
        );
        const lines = String(values[key] ?? "").split("\n").length;
        return (
          <div key={key} className={styles.field}>
            {f.kind === "checkbox" ? (
              <span className={styles.check}>
                <input type="checkbox" {...common} {...register(key)} />
                {label}
              </span>
            ) : (
              label
            )}
            {f.kind === "text" ? <input type="text" spellCheck={false} {...common} {...register(key)} /> : null}
            {f.kind === "number" ? <input type="number" step={f.integer ? 1 : "any"} min={f.minimum} max={f.maximum} {...common} {...register(key)} /> : null}
            {f.kind === "textarea" || f.kind === "json" ? (
              <textarea rows={Math.min(18, Math.max(f.kind === "json" ? 3 : 5, lines + 1))} spellCheck={f.kind === "textarea"} {...common} {...register(key)} />
            ) : null}
            {f.kind === "select" ? (
              <select {...common} {...register(key)}>
                {f.required ? null : <option value="">(not set)</option>}
                {(f.options ?? []).map((o, j) => (
                  <option key={optionText(o)} value={String(j)}>
                    {optionText(o)}
                  </option>
                ))}
              </select>
            ) : null}
            {f.description || f.extra ? (
              <p id={hintId} className={`small muted ${styles.hint}`}>
                {f.extra ? "Not in the tool's input schema; kept as JSON. " : ""}
                {f.kind === "json" && !f.extra ? "JSON. " : ""}
                {f.description}
              </p>
            ) : null}
            {error ? (
              <p id={errorId} className={`error small ${styles.hint}`} data-testid={`edit-field-error-${f.name}`}>
                {error}
              </p>
            ) : null}
          </div>
        );
      })}
    </fieldset>
  );
}
