"use client";
import { useEffect, useRef } from "react";

/**
 * Calls `onRun(runId)` whenever a run this tab did not know of starts on the thread,
 * wherever it was started (the inbox, another tab or device) and whichever server instance
 * runs it: one `EventSource` on `GET /api/threads/:id/events` while the tab is visible.
 * A hidden tab lets it go (browsers allow about six connections per host over HTTP/1.1) and
 * opens it again when shown, naming the last run the view shows (`lastRunId`, or none), so
 * that the server announces at once the thread's latest run if it is another one: a run that
 * started, or started and ended, while the tab was hidden is announced like any other.
 * Browsers also fire `visibilitychange` when another window takes or gives focus; such an
 * event while the stream is open changes nothing. The browser reconnects by itself after a
 * network error.
 */
export function useThreadRuns(threadId: string, onRun: (runId: string) => void, lastRunId: () => string | null = () => null): void {
  const latest = useRef({ onRun, lastRunId });
  latest.current = { onRun, lastRunId };
  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    let source: EventSource | null = null;
    let hiddenSpell = false;
    const open = () => {
      if (source || document.visibilityState === "hidden") return;
      const after = hiddenSpell ? `?after=${encodeURIComponent(latest.current.lastRunId() ?? "")}` : "";
      hiddenSpell = false;
      source = new EventSource(`/api/threads/${encodeURIComponent(threadId)}/events${after}`);
      source.addEventListener("run", (e) => {
        try {
          const { runId } = JSON.parse((e as MessageEvent<string>).data) as { runId?: unknown };
          if (typeof runId === "string") latest.current.onRun(runId);
        } catch {
          // not ours
        }
      });
    };
    const close = () => {
      source?.close();
      source = null;
    };
    const onVisibility = () => {
      if (document.visibilityState !== "hidden") return open();
      if (source) hiddenSpell = true;
      close();
    };
    document.addEventListener("visibilitychange", onVisibility);
    open();
    return () => {
      document.removeEventListener("visibilitychange", onVisibility);
      close();
    };
  }, [threadId]);
}
