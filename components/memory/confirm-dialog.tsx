"use client";
import { type ReactNode, useEffect, useId, useRef } from "react";
import styles from "./memory.module.css";

/**
 * A modal confirmation (a native `<dialog>`, so focus stays inside it and Escape cancels):
 * a title, what will happen, and two buttons; the safe one (Cancel) takes the focus first.
 * `busy` disables both while the action runs; `error` shows why it failed, in the dialog.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  busy = false,
  error = null,
  onConfirm,
  onCancel,
  testId,
}: {
  open: boolean;
  title: string;
  /** What the action does and what it leaves alone. */
  children: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  error?: string | null;
  onConfirm: () => void;
  onCancel: () => void;
  /** data-testid of the dialog; its buttons are `<testId>-confirm` and `<testId>-cancel`. */
  testId: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const id = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      cancelRef.current?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className={styles.dialog}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      data-testid={testId}
      onCancel={(e) => {
        e.preventDefault();
        if (!busy) onCancel();
      }}
    >
      <h2 id={`${id}-title`}>{title}</h2>
      <div id={`${id}-body`} className="small">
        {children}
      </div>
      {error ? (
        <p className="error small" role="alert" data-testid={`${testId}-error`}>
          {error}
        </p>
      ) : null}
      <div className="row gap">
        <button type="button" className="danger" onClick={onConfirm} disabled={busy} data-testid={`${testId}-confirm`}>
          {busy ? "Working…" : confirmLabel}
        </button>
        <button ref={cancelRef} type="button" className="secondary" onClick={onCancel} disabled={busy} data-testid={`${testId}-cancel`}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
