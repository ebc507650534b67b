"use client";
import { useEffect, useRef } from "react";

/**
 * Calls `onRun(runId)` whenever a run this tab did not know of starts on the thread,
 * wherever it was started (the inbox, another tab or device) and whichever server instance
 * runs it: one `EventSource` on `GET /api/threads/:id/events` while the tab is visible
 * (a hidden tab lets it go, since browsers allow about six connections per host over
 * HTTP/1.1, and opens it again when shown, calling `onShown` since runs may have started
 * meanwhile, and naming the last run the view shows (`lastRunId`) so that a run that started
 * and ended while hidden is announced too). The browser reconnects by itself after a network error.
 */
export function useThreadRuns(threadId: string, onRun: (runId: string) => void, onShown: () => void, lastRunId: () => string | null = () => null): void {
  const latest = useRef({ onRun, onShown, lastRunId });
  latest.current = { onRun, onShown, lastRunId };
  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    let source: EventSource | null = null;
    let hiddenSpell = false;
    const open = () => {
      if (source || document.visibilityState === "hidden") return;
      const known = hiddenSpell ? latest.current.lastRunId() : null;
      hiddenSpell = false;
      source = new EventSource(`/api/threads/${encodeURIComponent(threadId)}/events${known ? `?after=${encodeURIComponent(known)}` : ""}`);
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
      if (document.visibilityState === "hidden") {
        if (source) hiddenSpell = true;
        return close();
      }
      open();
      latest.current.onShown();
    };
    document.addEventListener("visibilitychange", onVisibility);
    open();
    return () => {
      document.removeEventListener("visibilitychange", onVisibility);
      close();
    };
  }, [threadId]);
}
