"use client";
import { relativeText } from "@/lib/relative-time";
import { useNow } from "./use-now";

/**
 * Time-relative text ("5 min ago") that never causes a hydration mismatch: it is rendered
 * from `serverNow` on the server and while hydrating (the same text both times), or not at
 * all when no `serverNow` is given, and from the browser's clock afterwards, kept fresh
 * every 30 s. The title shows the moment in the viewer's own locale and time zone.
 * @param at the moment, as a Date or ISO-8601 text.
 * @param serverNow the time the server rendered the page (ms since the epoch), if any.
 */
export function RelativeTime({ at, serverNow, className, testId }: { at: Date | string; serverNow?: number; className?: string; testId?: string }) {
  const clock = useNow();
  const date = typeof at === "string" ? new Date(at) : at;
  if (Number.isNaN(date.getTime())) return null;
  const now = clock ?? serverNow;
  if (now === undefined) return null;
  return (
    <time className={className} dateTime={date.toISOString()} title={clock === null ? undefined : date.toLocaleString()} data-testid={testId}>
      {relativeText(date, now)}
    </time>
  );
}
