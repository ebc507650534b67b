"use client";

import { useEffect, useId, useRef, useState } from "react";
import styles from "./flow-editor.module.css";
import { SHORTCUTS } from "./use-shortcuts";

export interface ShortcutsDialogProps {
  open: boolean;
  onClose: () => void;
}

/** `Mod` is ⌘ on Apple platforms and Ctrl elsewhere. */
function useModLabel(): string {
  const [mod, setMod] = useState("Ctrl");
  useEffect(() => {
    if (/Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent)) setMod("⌘");
  }, []);
  return mod;
}

/**
 * The keyboard shortcuts help ("keyboard shortcuts listed in a help dialog"): a
 * modal `<dialog>`, opened with `?` or the toolbar's button; Escape or Close shuts it.
 */
export function ShortcutsDialog({ open, onClose }: ShortcutsDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const mod = useModLabel();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className={styles.dialog} onClose={onClose} aria-labelledby={`${id}-title`} data-testid="shortcuts-dialog">
      <div className={styles.dialogHead}>
        <h2 id={`${id}-title`}>Keyboard shortcuts</h2>
        <button type="button" onClick={onClose} data-testid="shortcuts-close">
          Close
        </button>
      </div>
      <p className={styles.hint}>Shortcuts do nothing while you type in a field, so fields keep their own undo, copy and paste.</p>
      <table className={styles.shortcuts}>
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.action}>
              <td>
                {s.keys.map((k, i) => (
                  <span key={k}>
                    {i > 0 && <span className={styles.muted}> or </span>}
                    <kbd>{k.replace("Mod", mod)}</kbd>
                  </span>
                ))}
              </td>
              <td>{s.action}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </dialog>
  );
}
