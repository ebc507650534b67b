"use client";
import { useRouter } from "next/navigation";
import { useEffect } from "react";

/**
 * Re-renders the dashboard every few seconds while one of its runs is still running, so
 * that statuses, durations and tokens move without a reload; idle when nothing runs.
 * @param active whether a listed run is running.
 * @param everyMs refresh period in ms.
 */
export function RefreshWhileRunning({ active, everyMs = 5000 }: { active: boolean; everyMs?: number }) {
  const router = useRouter();
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => router.refresh(), everyMs);
    return () => clearInterval(timer);
  }, [active, everyMs, router]);
  return null;
}
