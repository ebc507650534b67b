"use client";
import { ConfirmDialog } from "./confirm-dialog";

/**
 * Asks before clearing the thread's short-term memory (its `entries` entries): the next run
 * starts without them; messages, checkpoints, timeline and long-term facts stay
 * (docs/architecture.md#memory). `error` is why the last try failed.
 */
export function ClearMemoryDialog({
  open,
  entries,
  busy,
  error,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  /** How many short-term entries the thread has. */
  entries: number;
  busy: boolean;
  error: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <ConfirmDialog open={open} title="Clear this thread's short-term memory?" confirmLabel="Clear" busy={busy} error={error} onConfirm={onConfirm} onCancel={onCancel} testId="clear-memory-dialog">
      <p>The {entries} short-term entries of this thread are erased, so its next run starts without them. The thread's messages, checkpoints and timeline stay, and so do facts in long-term memory.</p>
    </ConfirmDialog>
  );
}
