"use client";
import { useRouter } from "next/navigation";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import styles from "./new-flow-dialog.module.css";

/** A workspace a new flow may go to. */
export interface FlowTarget {
  id: string;
  name: string;
}

/** What a new flow may start from: the Blank flow or a template. */
export interface FlowStarter {
  key: string;
  label: string;
  /** The template's own description, offered as the new flow's until the user changes it ("" for the Blank flow). */
  description: string;
  /** What it starts with, shown under the "Start from" menu. */
  about: string;
}

/** Longest name and description the flow settings accept (lib/flow/schema.ts FlowSettings). */
const NAME_MAX = 120;
const DESCRIPTION_MAX = 2000;

/**
 * The "New flow" dialog: the flow's name (required) and description, and what it starts
 * from. Create POSTs /api/flows with them and opens the new flow in the editor; the copy
 * never keeps the template's name, and keeps its description only when the user leaves it.
 * @param workspaceId where the flow goes; omitted: the user's own workspace (created if needed).
 */
function NewFlowDialog({ starters, starter, workspaceId, onClose }: { starters: FlowStarter[]; starter: string; workspaceId?: string; onClose: () => void }) {
  const id = useId();
  const router = useRouter();
  const ref = useRef<HTMLDialogElement>(null);
  const [template, setTemplate] = useState(starter);
  const initial = starters.find((s) => s.key === starter);
  const [name, setName] = useState("");
  const [description, setDescription] = useState(initial?.description ?? "");
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  const nameError = !name.trim() ? "Give the flow a name, e.g. “Weekly notes summary”." : name.trim().length > NAME_MAX ? `At most ${NAME_MAX} characters.` : null;
  const descriptionError = description.trim().length > DESCRIPTION_MAX ? `At most ${DESCRIPTION_MAX.toLocaleString("en")} characters.` : null;

  /** Another starting point: its description replaces the previous one's unless the user wrote their own. */
  const pick = (key: string) => {
    const before = starters.find((s) => s.key === template);
    const next = starters.find((s) => s.key === key);
    if (description.trim() === "" || description === before?.description) setDescription(next?.description ?? "");
    setTemplate(key);
  };

  async function create(e: FormEvent) {
    e.preventDefault();
    setTouched(true);
    if (nameError || descriptionError) return;
    setPending(true);
    setError(null);
    try {
      const res = await fetch("/api/flows", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ template, name: name.trim(), description: description.trim(), ...(workspaceId ? { workspaceId } : {}) }),
      });
      const body = await res.json().catch(() => null);
      if (!res.ok) {
        setError(body?.error?.message ?? `Creating the flow failed (HTTP ${res.status}); try again.`);
        setPending(false);
        return;
      }
      router.push(`/flows/${body.flowId}`);
    } catch {
      setError("Could not reach the server; try again.");
      setPending(false);
    }
  }

  return (
    <dialog ref={ref} className={styles.dialog} aria-labelledby={`${id}-title`} onClose={onClose} data-testid="new-flow-dialog">
      <h2 id={`${id}-title`}>New flow</h2>
      <form className={styles.form} onSubmit={create} noValidate>
        <label>
          Start from
          <select value={template} onChange={(e) => pick(e.target.value)} aria-describedby={`${id}-about`} data-testid="new-flow-template">
            {starters.map((s) => (
              <option key={s.key} value={s.key}>
                {s.label}
              </option>
            ))}
          </select>
          <span id={`${id}-about`} className={styles.hint} data-testid="new-flow-about">
            {starters.find((s) => s.key === template)?.about}
          </span>
        </label>
        <label>
          Name
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            onBlur={() => setTouched(true)}
            maxLength={NAME_MAX + 20}
            required
            autoComplete="off"
            placeholder="e.g. Weekly notes summary"
            aria-invalid={touched && nameError ? true : undefined}
            aria-describedby={touched && nameError ? `${id}-name-error` : undefined}
            data-testid="new-flow-name"
          />
          {touched && nameError ? (
            <span id={`${id}-name-error`} className={styles.error} role="alert" data-testid="new-flow-name-error">
              {nameError}
            </span>
          ) : null}
        </label>
        <label>
          Description
          <textarea
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            rows={3}
            aria-invalid={descriptionError ? true : undefined}
            aria-describedby={`${id}-description-hint`}
            data-testid="new-flow-description"
          />
          <span id={`${id}-description-hint`} className={descriptionError ? styles.error : styles.hint}>
            {descriptionError ?? "What the flow is for; shown under its name on this page."}
          </span>
        </label>
        {error ? (
          <p className={styles.error} role="alert" data-testid="new-flow-error">
            {error}
          </p>
        ) : null}
        <div className={styles.actions}>
          <button type="button" className="secondary" onClick={onClose} disabled={pending}>
            Cancel
          </button>
          <button type="submit" disabled={pending} data-testid="new-flow-create">
            {pending ? "Creating…" : "Create flow"}
          </button>
        </div>
      </form>
    </dialog>
  );
}

/**
 * The "New flow" buttons, one per starting point (the Blank flow, then each template,
 * docs/security.md "Membership"); each opens the dialog that asks for the flow's name and
 * description. When the user may create flows in more than one workspace, a menu names the
 * workspace the flow goes to, defaulting to their own; a new flow never lands elsewhere
 * without the user picking it.
 * @param own the user's own workspace, or null when it does not exist yet (the first flow creates it).
 * @param others other workspaces where the user may edit flows.
 */
export function NewFlowButtons({ templates, own, others }: { templates: FlowStarter[]; own: FlowTarget | null; others: FlowTarget[] }) {
  const choices = [{ id: own?.id ?? "", name: own?.name ?? "A new workspace of your own" }, ...others];
  const [workspaceId, setWorkspaceId] = useState(choices[0]?.id ?? "");
  const [open, setOpen] = useState<string | null>(null);
  return (
    <>
      {choices.length > 1 ? (
        <label className="small">
          Create in{" "}
          <select value={workspaceId} onChange={(e) => setWorkspaceId(e.target.value)} data-testid="new-flow-workspace">
            {choices.map((c) => (
              <option key={c.id || "own"} value={c.id}>
                {c.name}
                {c.id === (own?.id ?? "") ? " (yours)" : ""}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {templates.map((t) => (
        <button
          key={t.key}
          type="button"
          className={t.key === "blank" ? undefined : "secondary"}
          onClick={() => setOpen(t.key)}
          aria-haspopup="dialog"
          data-testid={`new-flow-${t.key}`}
        >
          {t.key === "blank" ? "New blank flow" : `New flow: ${t.label}`}
        </button>
      ))}
      {open ? <NewFlowDialog key={open} starters={templates} starter={open} onClose={() => setOpen(null)} {...(workspaceId ? { workspaceId } : {})} /> : null}
    </>
  );
}
