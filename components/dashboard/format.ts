/**
 * Formatting of the dashboard's cells. Pure functions, en-US, times in UTC so
 * that server and browser render the same text; "5 min ago" is client-side
 * (components/ui/relative-time.tsx).
 */

const INTEGER = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/** A count with thousands separators: 1234 -> "1,234". */
export function formatCount(n: number): string {
  return INTEGER.format(n);
}

/**
 * A duration in ms, to the second, with its two largest units: "0 s", "45 s", "1 m 12 s",
 * "2 h 5 m", "3 d 4 h".
 */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (d) return `${d} d ${h} h`;
  if (h) return `${h} h ${m} m`;
  if (m) return `${m} m ${sec} s`;
  return `${sec} s`;
}

/** A moment as "2025-06-01 10:00 UTC". */
export function formatUtc(d: Date): string {
  return `${d.toISOString().replace("T", " ").slice(0, 16)} UTC`;
}
