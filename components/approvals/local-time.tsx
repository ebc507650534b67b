"use client";
import { useNow } from "./use-now";

/**
 * A moment in the reader's own time zone and locale, rendered on the client only: the
 * server (whose zone may differ) and the hydrating client render the same UTC text, so the
 * markup always matches (no hydration error #418).
 * @param iso an ISO 8601 instant.
 * @param show "datetime" (date and time, the default) or "time".
 */
export function LocalTime({ iso, show = "datetime" }: { iso: string; show?: "datetime" | "time" }) {
  const now = useNow(false);
  const date = new Date(iso);
  const utc = show === "time" ? `${iso.slice(11, 19)} UTC` : `${iso.slice(0, 16).replace("T", " ")} UTC`;
  const local = show === "time" ? date.toLocaleTimeString("en") : date.toLocaleString("en");
  return (
    <time dateTime={iso} title={iso}>
      {now === null || Number.isNaN(date.getTime()) ? utc : local}
    </time>
  );
}
