/**
 * How long ago `at` was, at `now`, to the minute: "just now" (under 45 s either way),
 * "5 min ago", "3 h ago" (under 48 h), "2 d ago"; a moment in the future reads "in 5 min",
 * "in 3 h", "in 2 d". Plain English, no locale: the browser renders it (a server rendering
 * it would be stale, and would mismatch the hydrating browser; components/ui/relative-time.tsx).
 * @param at the moment.
 * @param now the current time, ms since the epoch.
 */
export function relativeText(at: Date, now: number): string {
  const s = Math.round((now - at.getTime()) / 1000);
  if (Math.abs(s) < 45) return "just now";
  const min = Math.max(1, Math.round(Math.abs(s) / 60));
  const h = Math.round(min / 60);
  const amount = min < 60 ? `${min} min` : h < 48 ? `${h} h` : `${Math.round(h / 24)} d`;
  return s >= 0 ? `${amount} ago` : `in ${amount}`;
}
