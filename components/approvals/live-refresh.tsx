"use client";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { useApprovalEvents } from "./approval-events";

/**
 * Keeps a server-rendered page live: when an approval appears or is decided
 * anywhere in the user's workspaces, and when a hidden tab is shown again (changes may
 * have been missed), refreshes the page's server components (a burst refreshes once).
 * Renders nothing but a hidden marker whose `data-connected` turns true once the stream
 * has answered (tests wait on it).
 * @param approvalId when set (detail page), only changes of that approval refresh.
 */
export function LiveRefresh({ approvalId }: { approvalId?: string }) {
  const router = useRouter();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const [connected, setConnected] = useState(false);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  useApprovalEvents((e) => {
    setConnected(true);
    const relevant = e.resync || (e.approvalId && (!approvalId || e.approvalId === approvalId));
    if (!relevant) return;
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => router.refresh(), 150);
  });
  return <span hidden data-testid="live-refresh" data-connected={connected} />;
}
