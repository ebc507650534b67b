"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { notify } from "@/components/ui/notify";
import { callApi } from "./api";
import { ConfirmDialog } from "./confirm-dialog";

/** The search param the dashboard reads to say which thread was just deleted. */
export const DELETED_PARAM = "deleted";

/**
 * "Delete thread" (right to erasure): asks first, listing everything that goes
 * (checkpoints, events, approvals, evicted outputs, workspace files, short-term memory)
 * and what stays (accepted facts, which keep naming the thread as deleted); then deletes
 * it and opens the dashboard with a notice. A thread whose run is streaming cannot be
 * deleted (the server answers 409, shown in the dialog). Users who may not delete see the
 * button disabled with the reason.
 */
export function DeleteThreadButton({ threadId, title, disabledReason }: { threadId: string; title: string /** Why this user may not delete it; absent when they may. */; disabledReason?: string }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function remove() {
    setBusy(true);
    setError(null);
    const res = await callApi<{ counts: Record<string, number> }>("DELETE", `/api/threads/${threadId}`);
    if (!res.ok) {
      setBusy(false);
      return setError(res.status === 409 ? `${res.message} Wait for the run to finish (or decide its approval), then delete it.` : res.message);
    }
    notify.success(`Thread “${title.length > 60 ? `${title.slice(0, 60)}…` : title}” deleted.`);
    router.push(`/flows?${DELETED_PARAM}=${encodeURIComponent(title.slice(0, 120))}`);
    router.refresh();
  }

  return (
    <>
      <button type="button" className="danger" onClick={() => setOpen(true)} disabled={Boolean(disabledReason)} title={disabledReason} data-testid="delete-thread">
        Delete thread
      </button>
      {disabledReason ? (
        <span className="small muted" data-testid="delete-thread-reason">
          {disabledReason}
        </span>
      ) : null}
      <ConfirmDialog
        open={open}
        title="Delete this thread?"
        confirmLabel="Delete thread"
        busy={busy}
        error={error}
        onConfirm={() => void remove()}
        onCancel={() => {
          setOpen(false);
          setError(null);
        }}
        testId="delete-thread-dialog"
      >
        <p>“{title}” and everything it holds are erased for good; this cannot be undone:</p>
        <ul>
          <li>its messages and run events (the timeline), and its runs;</li>
          <li>its checkpoints and their writes (time travel and forks from it);</li>
          <li>its approvals and their audit entries;</li>
          <li>tool outputs evicted to storage, and the files of its workspace;</li>
          <li>its short-term memory, and the facts proposed from it that nobody accepted.</li>
        </ul>
        <p>Accepted facts that came from it stay in the workspace's memory, marked “thread deleted”; forget them on the Memory page.</p>
      </ConfirmDialog>
    </>
  );
}
