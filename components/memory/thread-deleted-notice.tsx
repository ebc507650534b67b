"use client";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { DELETED_PARAM } from "./delete-thread-button";

/**
 * The notice a page shows after "Delete thread" sent the user there: which
 * thread was deleted and what went with it, with a button that dismisses it (and drops the
 * param from the URL). Renders nothing without the `deleted` search param.
 */
export function ThreadDeletedNotice() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const title = params.get(DELETED_PARAM);
  if (!title) return null;
  const dismiss = () => {
    const next = new URLSearchParams(params.toString());
    next.delete(DELETED_PARAM);
    const qs = next.toString();
    router.replace(qs ? `${pathname}?${qs}` : pathname);
  };
  return (
    <div className="card row" aria-live="polite" data-testid="thread-deleted-notice">
      <span>
        Thread “{title}” was deleted with its checkpoints, events, approvals, evicted outputs, files and short-term memory. Accepted facts from it stay on the <Link href="/memory">Memory</Link> page,
        marked “thread deleted”.
      </span>
      <button type="button" className="secondary" onClick={dismiss} data-testid="thread-deleted-dismiss">
        Dismiss
      </button>
    </div>
  );
}
