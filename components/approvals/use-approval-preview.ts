"use client";
import { useEffect, useState } from "react";
import type { ApprovalPreview } from "@/lib/approvals/preview-item";

/** What {@link useApprovalPreview} knows: the preview once loaded, or why it could not be. */
export interface PreviewState {
  preview: ApprovalPreview | null;
  /** The server's message when the request failed. */
  error: string | null;
  loading: boolean;
}

/**
 * Loads `GET /api/approvals/:approvalId/preview` (the tool's input schema and, for a file
 * write, the file as it is now) while `enabled`, again when `path` changes.
 * @param path another workspace path to compare with (an edited path); absent for the
 *   proposed one.
 * @param delayMs wait before asking, ms, so typing a path asks once (0 for at once).
 */
export function useApprovalPreview(approvalId: string, enabled: boolean, path?: string, delayMs = 0): PreviewState {
  const [state, setState] = useState<PreviewState>({ preview: null, error: null, loading: enabled });
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    const url = `/api/approvals/${encodeURIComponent(approvalId)}/preview${path === undefined ? "" : `?path=${encodeURIComponent(path)}`}`;
    const timer = setTimeout(async () => {
      try {
        const res = await fetch(url, { cache: "no-store" });
        const body = (await res.json().catch(() => null)) as (ApprovalPreview & { error?: { message?: string } }) | null;
        if (!live) return;
        if (!res.ok || !body) setState({ preview: null, error: body?.error?.message ?? `The preview could not be loaded (HTTP ${res.status}).`, loading: false });
        else setState({ preview: body, error: null, loading: false });
      } catch (err) {
        if (live) setState({ preview: null, error: `The server could not be reached: ${err instanceof Error ? err.message : String(err)}`, loading: false });
      }
    }, delayMs);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [approvalId, enabled, path, delayMs]);
  return state;
}
