"use client";
import { useEffect, useRef, useState } from "react";
import type { RunUIMessage } from "@/lib/events/ui-parts";
import { useThreadRuns } from "./use-thread-runs";

/**
 * Follows the runs this view did not start (decided in the inbox, sent from another tab or
 * device, on any server instance), as the thread's events announce them (use-thread-runs.ts):
 * each is resumed (`resumeStream({ body: { runId } })`) once the chat is idle, unless the
 * view already shows it in full. One follow at a time, in the order announced: the chat stays
 * "ready" while a follow's request is on its way, and a second follow started then would
 * abort the first. Returns the ref the caller sets to the last run the view shows, which the
 * events stream names when it reopens after the tab was hidden.
 */
export function useFollowRuns(threadId: string, chat: { busy: boolean; messages: RunUIMessage[]; resumeStream: (options: { body: { runId: string } }) => Promise<void> }): { current: string | null } {
  const [announced, setAnnounced] = useState<string[]>([]);
  const [following, setFollowing] = useState(false);
  const lastRunId = useRef<string | null>(null);
  useThreadRuns(
    threadId,
    (runId) => setAnnounced((queued) => (queued.includes(runId) ? queued : [...queued, runId])),
    () => lastRunId.current,
  );
  const { busy, messages, resumeStream } = chat;
  useEffect(() => {
    const [runId, ...rest] = announced;
    if (runId === undefined || following || busy) return;
    setAnnounced(rest);
    const shown = messages.some((m) => m.id === `run-${runId}` && m.parts.some((p) => p.type === "data-run" && p.data.runId === runId && p.data.status !== "running"));
    if (shown) return;
    setFollowing(true);
    void resumeStream({ body: { runId } }).finally(() => setFollowing(false));
  }, [announced, following, busy, messages, resumeStream]);
  return lastRunId;
}
