"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { type ReactNode, useEffect, useId, useRef } from "react";
import { type FieldError, useForm } from "react-hook-form";
import { z } from "zod";
import { fieldMessage } from "@/lib/flow/field-message";
import { DEFAULT_MODEL_CALL_TIMEOUT_MS } from "@/lib/models/call-timeout";
import { type FlowDocument, FlowLibrary, FlowMemory, FlowNetwork, FlowSettings, HttpMethod } from "@/lib/flow/schema";
import editorStyles from "./flow-editor.module.css";
import styles from "./flow-settings-dialog.module.css";

type Settings = FlowDocument["settings"];

/** The allowlist textarea's entries: one host per line (commas and spaces separate too), blanks and duplicates dropped. */
export function hostLines(text: unknown): unknown {
  if (typeof text !== "string") return text;
  return [...new Set(text.split(/[\s,]+/).filter((s) => s !== ""))];
}

/**
 * The dialog's schema: the flow's own FlowSettings fields, FlowNetwork and FlowMemory
 * (lib/flow/schema.ts), with the allowlist typed as text, one host per line.
 */
export const FlowSettingsForm = z.object({
  name: FlowSettings.shape.name,
  description: FlowSettings.shape.description,
  limits: FlowSettings.shape.limits.unwrap(),
  network: FlowNetwork.extend({ allowHosts: z.preprocess(hostLines, FlowNetwork.shape.allowHosts) }),
  memory: FlowMemory,
  library: FlowLibrary,
});

type FormValues = z.input<typeof FlowSettingsForm>;
const resolver = zodResolver(FlowSettingsForm, { error: fieldMessage });

function toForm(s: Settings): FormValues {
  return {
    name: s.name,
    description: s.description,
    limits: { ...s.limits, modelCallTimeoutMs: s.limits.modelCallTimeoutMs ?? DEFAULT_MODEL_CALL_TIMEOUT_MS },
    network: { ...s.network, allowHosts: s.network.allowHosts.join("\n"), methods: [...s.network.methods] },
    memory: { ...s.memory },
    library: { ...s.library },
  };
}

export interface FlowSettingsDialogProps {
  open: boolean;
  settings: Settings;
  onClose: () => void;
  /** Called with the new settings when Apply passes the schema and something changed. */
  onApply: (next: Settings) => void;
  /** Why this user cannot change the settings (their role), or null: the fields are then shown disabled, without Apply. */
  readOnlyReason?: string | null;
}

/** The first error of the allowlist: the list itself, or the first bad entry, quoted. */
function hostsError(err: unknown, text: unknown): string | undefined {
  if (!err || typeof err !== "object") return undefined;
  const own = (err as Partial<FieldError>).message;
  if (typeof own === "string" && own) return own;
  const entries = hostLines(text);
  for (const [i, item] of Object.entries(err as Record<string, unknown>)) {
    const message = item && typeof item === "object" ? (item as Partial<FieldError>).message : undefined;
    if (!/^\d+$/.test(i) || !message) continue;
    const host = Array.isArray(entries) ? entries[Number(i)] : undefined;
    return `"${String(host ?? "")}" is not a valid entry: ${message}`;
  }
  return undefined;
}

function Field({ label, htmlFor, error, testId, hint, children }: { label: string; htmlFor: string; error?: string; testId: string; hint?: string; children: ReactNode }) {
  return (
    <div className={styles.field}>
      <label htmlFor={htmlFor}>{label}</label>
      {children}
      {hint && !error && <p className={styles.hint}>{hint}</p>}
      {error && (
        <p className={styles.error} role="alert" data-testid={`settings-error-${testId}`}>
          {label}: {error}
        </p>
      )}
    </div>
  );
}

/**
 * Flow settings (docs/architecture.md#flows-and-compilation; memory and network are the tools' sandbox): name, description,
 * run limits, the network allowlist (hosts, methods, response size, timeout) and memory
 * (on/off, auto-promote, short-term TTL). A modal `<dialog>` with a react-hook-form form
 * validated by the flow's own zod schemas; errors show under their field. Apply hands the
 * new settings to the editor (one undoable change); Cancel or Escape discards the edits.
 */
export function FlowSettingsDialog({ open, settings, onClose, onApply, readOnlyReason = null }: FlowSettingsDialogProps) {
  const readOnly = readOnlyReason !== null;
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const form = useForm<FormValues, unknown, z.output<typeof FlowSettingsForm>>({ resolver, defaultValues: toForm(settings) });
  const { register, handleSubmit, reset, formState, watch } = form;
  const errors = formState.errors;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      reset(toForm(settings));
      dialog.showModal();
    }
    if (!open && dialog.open) dialog.close();
  }, [open, settings, reset]);

  const submit = handleSubmit((out) => {
    if (readOnly) return onClose();
    // The default model call limit stays implicit (absent) unless the flow already set one.
    const limits =
      out.limits.modelCallTimeoutMs === DEFAULT_MODEL_CALL_TIMEOUT_MS && settings.limits.modelCallTimeoutMs === undefined
        ? { maxIterations: out.limits.maxIterations, timeoutMs: out.limits.timeoutMs }
        : out.limits;
    const next: Settings = { ...settings, name: out.name, description: out.description, limits, network: out.network, memory: out.memory, library: out.library };
    if (JSON.stringify(next) !== JSON.stringify(settings)) onApply(next);
    onClose();
  });

  const f = (name: string) => `${id}-${name}`;
  return (
    <dialog ref={ref} className={`${editorStyles.dialog} ${styles.dialog}`} onClose={onClose} aria-labelledby={f("title")} data-testid="flow-settings-dialog">
      <div className={editorStyles.dialogHead}>
        <h2 id={f("title")}>Flow settings</h2>
        <button type="button" onClick={onClose} data-testid="settings-cancel">
          {readOnly ? "Close" : "Cancel"}
        </button>
      </div>
      {readOnly && (
        <p className={styles.hint} data-testid="settings-read-only">
          Read-only: {readOnlyReason}
        </p>
      )}
      <form
        className={styles.form}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit(e);
        }}
      >
        <fieldset className={styles.readOnly} disabled={readOnly}>
          <fieldset className={styles.group}>
            <legend>Flow</legend>
            <Field label="Name" htmlFor={f("name")} error={errors.name?.message} testId="name">
              <input id={f("name")} aria-invalid={Boolean(errors.name)} data-testid="settings-name" {...register("name")} />
            </Field>
            <Field label="Description" htmlFor={f("description")} error={errors.description?.message} testId="description">
              <textarea id={f("description")} rows={2} data-testid="settings-description" {...register("description")} />
            </Field>
            <div className={styles.row}>
              <Field label="Max iterations" htmlFor={f("iterations")} error={errors.limits?.maxIterations?.message} testId="maxIterations" hint="Graph steps per run; default 50.">
                <input id={f("iterations")} type="number" min={1} max={1000} data-testid="settings-max-iterations" {...register("limits.maxIterations", { valueAsNumber: true })} />
              </Field>
              <Field label="Run time limit (ms)" htmlFor={f("run-timeout")} error={errors.limits?.timeoutMs?.message} testId="runTimeoutMs" hint="300000 ms = 5 minutes.">
                <input id={f("run-timeout")} type="number" min={1000} step={1000} data-testid="settings-run-timeout" {...register("limits.timeoutMs", { valueAsNumber: true })} />
              </Field>
              <Field
                label="Model call time limit (ms)"
                htmlFor={f("model-timeout")}
                error={errors.limits?.modelCallTimeoutMs?.message}
                testId="modelCallTimeoutMs"
                hint="A model call that produces nothing for this long is stopped; 120000 ms = 2 minutes."
              >
                <input
                  id={f("model-timeout")}
                  type="number"
                  min={1000}
                  max={600_000}
                  step={1000}
                  data-testid="settings-model-timeout"
                  {...register("limits.modelCallTimeoutMs", { valueAsNumber: true })}
                />
              </Field>
            </div>
          </fieldset>

          <fieldset className={styles.group}>
            <legend>Network</legend>
            <Field
              label="Allowed hosts"
              htmlFor={f("hosts")}
              error={hostsError(errors.network?.allowHosts, watch("network.allowHosts"))}
              testId="allowHosts"
              hint="One per line: api.example.com, *.example.com (subdomains only) or host:port. No hosts: the network is off. A host without a port allows ports 80 and 443."
            >
              <textarea
                id={f("hosts")}
                rows={4}
                aria-invalid={Boolean(errors.network?.allowHosts)}
                spellCheck={false}
                placeholder="api.example.com"
                data-testid="settings-allow-hosts"
                {...register("network.allowHosts")}
              />
            </Field>
            <fieldset className={styles.methods}>
              <legend>Allowed methods</legend>
              {HttpMethod.options.map((m) => (
                <label key={m} className={styles.check}>
                  <input type="checkbox" value={m} data-testid={`settings-method-${m}`} {...register("network.methods")} /> {m}
                </label>
              ))}
              {errors.network?.methods && (
                <p className={styles.error} role="alert" data-testid="settings-error-methods">
                  Allowed methods: pick at least one method.
                </p>
              )}
            </fieldset>
            <div className={styles.row}>
              <Field label="Max response size (bytes)" htmlFor={f("bytes")} error={errors.network?.maxResponseBytes?.message} testId="maxResponseBytes" hint="1048576 bytes = 1 MB; at most 10 MB.">
                <input id={f("bytes")} type="number" min={1} data-testid="settings-max-response-bytes" {...register("network.maxResponseBytes", { valueAsNumber: true })} />
              </Field>
              <Field label="Request timeout (ms)" htmlFor={f("net-timeout")} error={errors.network?.timeoutMs?.message} testId="networkTimeoutMs" hint="100 to 120000 ms.">
                <input id={f("net-timeout")} type="number" min={100} data-testid="settings-network-timeout" {...register("network.timeoutMs", { valueAsNumber: true })} />
              </Field>
            </div>
          </fieldset>

          <fieldset className={styles.group}>
            <legend>Memory</legend>
            <label className={styles.check}>
              <input type="checkbox" data-testid="settings-memory-enabled" {...register("memory.enabled")} /> Memory on: agents see recent steps and the top facts
            </label>
            <label className={styles.check}>
              <input type="checkbox" data-testid="settings-auto-promote" {...register("memory.autoPromote")} /> Accept promoted facts without review
            </label>
            <Field label="Short-term memory lifetime (hours)" htmlFor={f("ttl")} error={errors.memory?.shortTermTtlHours?.message} testId="shortTermTtlHours" hint="Default 24 hours; at most 720.">
              <input id={f("ttl")} type="number" min={1} max={720} data-testid="settings-ttl-hours" {...register("memory.shortTermTtlHours", { valueAsNumber: true })} />
            </Field>
          </fieldset>

          <fieldset className={styles.group}>
            <legend>Library</legend>
            <label className={styles.check}>
              <input type="checkbox" data-testid="settings-library-mount" {...register("library.mount")} /> Mount the workspace library (read-only): every thread sees its files
            </label>
          </fieldset>
        </fieldset>
        <div className={editorStyles.dialogActions}>
          <button type="button" onClick={onClose}>
            {readOnly ? "Close" : "Cancel"}
          </button>
          {readOnly ? null : (
            <button type="submit" className={editorStyles.primary} data-testid="settings-apply">
              Apply
            </button>
          )}
        </div>
      </form>
    </dialog>
  );
}
