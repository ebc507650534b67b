"use client";
import { useRouter } from "next/navigation";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import styles from "./new-flow-dialog.module.css";

/** A workspace a new flow may go to. */
export interface FlowTarget {
  id: string;
  name: string;
}

/** Where the dialog may put a new flow (lib/db/new-flow-workspace.ts NewFlowTargets). */
export interface FlowTargets {
  /** The user's own workspace, or null when it does not exist yet (the first flow creates it). */
  own: FlowTarget | null;
  /** Other workspaces where the user may edit flows. */
  others: FlowTarget[];
  /** The name the user's own workspace gets when this flow creates it. */
  newOwnName: string;
  /** Workspaces where the user's role may not create flows. */
  elsewhere: { name: string; role: string }[];
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
 * The "New flow" dialog: what the flow starts from (the Blank flow or a template), the
 * workspace it goes to, its name (required) and description. The workspace is always named:
 * a menu when the user may create flows in more than one, else a line saying where it goes,
 * including the new workspace of their own that this flow creates when they have none, and
 * why the workspaces where their role cannot create flows are not offered
 * (docs/security.md "Membership"). Create POSTs /api/flows and opens the new flow in the
 * editor; the copy never keeps the template's name, and keeps its description only when the
 * user leaves it.
 */
function NewFlowDialog({ starters, targets, onClose }: { starters: FlowStarter[]; targets: FlowTargets; onClose: () => void }) {
  const id = useId();
  const router = useRouter();
  const ref = useRef<HTMLDialogElement>(null);
  const [template, setTemplate] = useState(starters[0]?.key ?? "blank");
  const [name, setName] = useState("");
  const [description, setDescription] = useState(starters[0]?.description ?? "");
  const { own, others, newOwnName, elsewhere } = targets;
  // "" stands for the user's own workspace, made by this flow when it does not exist yet.
  const choices = [{ id: own?.id ?? "", name: own?.name ?? newOwnName }, ...others];
  const [workspaceId, setWorkspaceId] = useState(choices[0]?.id ?? "");
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  const nameError = !name.trim() ? "Give the flow a name, e.g. “Weekly notes summary”." : name.trim().length > NAME_MAX ? `At most ${NAME_MAX} characters.` : null;
  const descriptionError = description.trim().length > DESCRIPTION_MAX ? `At most ${DESCRIPTION_MAX.toLocaleString("en")} characters.` : null;
  const picked = choices.find((c) => c.id === workspaceId) ?? choices[0];
  const where =
    workspaceId === "" && !own
      ? `It goes into a new workspace of your own, “${newOwnName}”, which this flow creates; you are its owner.`
      : `It goes into “${picked?.name ?? newOwnName}”${workspaceId === (own?.id ?? "") ? ", your own workspace" : ""}.`;
  const notOffered = elsewhere.length
    ? ` Not offered: ${elsewhere.map((w) => `“${w.name}” (you are ${w.role === "approver" ? "an approver" : `a ${w.role}`})`).join(", ")}; only owners create flows there.`
    : "";

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
        {choices.length > 1 ? (
          <label>
            Workspace
            <select value={workspaceId} onChange={(e) => setWorkspaceId(e.target.value)} aria-describedby={`${id}-where`} data-testid="new-flow-workspace">
              {choices.map((c) => (
                <option key={c.id || "own"} value={c.id}>
                  {c.name}
                  {c.id === (own?.id ?? "") ? (own ? " (yours)" : " (new, yours)") : ""}
                </option>
              ))}
            </select>
            <span id={`${id}-where`} className={styles.hint} data-testid="new-flow-where">
              {where}
              {notOffered}
            </span>
          </label>
        ) : (
          <p className={styles.where} data-testid="new-flow-where">
            <strong>Workspace.</strong> {where}
            {notOffered}
          </p>
        )}
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
 * The one "New flow" button of the flows page: it opens the dialog, which offers every
 * starting point (the Blank flow first, then each template) and names the workspace the flow
 * goes to (docs/security.md "Membership").
 * @param templates the starting points, in the order the dialog's menu lists them.
 * @param targets where the user may create flows (lib/db/new-flow-workspace.ts newFlowTargets).
 */
export function NewFlowButton({ templates, targets }: { templates: FlowStarter[]; targets: FlowTargets }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)} aria-haspopup="dialog" data-testid="new-flow">
        New flow
      </button>
      {open ? <NewFlowDialog starters={templates} targets={targets} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
