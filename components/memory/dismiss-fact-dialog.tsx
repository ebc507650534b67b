"use client";
import type { FactView } from "@/lib/memory/types";
import { ConfirmDialog } from "./confirm-dialog";

/**
 * Asks before dismissing a proposed fact (`fact`; closed when null): dismissing forgets it and
 * every other fact from the same step of the thread (docs/architecture.md#memory), while the
 * thread keeps its history. `error` is why the last try failed.
 */
export function DismissFactDialog({
  fact,
  busy,
  error,
  onConfirm,
  onCancel,
}: {
  fact: FactView | null;
  busy: boolean;
  error: string | null;
  onConfirm: (fact: FactView) => void;
  onCancel: () => void;
}) {
  return (
    <ConfirmDialog
      open={fact !== null}
      title="Dismiss this proposed fact?"
      confirmLabel="Dismiss"
      busy={busy}
      error={fact ? error : null}
      onConfirm={() => {
        if (fact) onConfirm(fact);
      }}
      onCancel={onCancel}
      testId="dismiss-dialog"
    >
      <p>
        The proposal is forgotten, and so is every other fact from the same step of this thread{fact?.source.stepId ? ` (${fact.source.stepId})` : ""}, accepted or proposed. The thread itself keeps
        its history.
      </p>
    </ConfirmDialog>
  );
}
