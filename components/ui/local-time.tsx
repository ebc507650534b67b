"use client";
import { useHydrated } from "./use-now";

/** How much of the moment to show. */
export type LocalTimeStyle = "datetime" | "seconds" | "time" | "date";

const OPTIONS: Record<LocalTimeStyle, Intl.DateTimeFormatOptions> = {
  datetime: { dateStyle: "medium", timeStyle: "short" },
  seconds: { dateStyle: "medium", timeStyle: "medium" },
  time: { timeStyle: "medium" },
  date: { dateStyle: "medium" },
};

/** The moment in UTC, the same text on any machine: "2026-05-01 14:03 UTC", "2026-05-01 14:03:07 UTC", "14:03:07 UTC" or "2026-05-01". */
export function utcText(date: Date, style: LocalTimeStyle): string {
  const iso = date.toISOString();
  if (style === "time") return `${iso.slice(11, 19)} UTC`;
  if (style === "date") return iso.slice(0, 10);
  if (style === "seconds") return `${iso.slice(0, 19).replace("T", " ")} UTC`;
  return `${iso.slice(0, 16).replace("T", " ")} UTC`;
}

/**
 * A moment in the viewer's own locale and time zone ("1 May 2026, 16:03"), rendered in the
 * browser only: the server, which knows neither, renders it in UTC, and the browser keeps
 * that text while hydrating, then shows its own, so the two never mismatch. The UTC text
 * stays in the title.
 * @param at the moment, as a Date or ISO-8601 text; text that is not a date shows as given.
 */
export function LocalTime({ at, style = "datetime", className, testId }: { at: Date | string; style?: LocalTimeStyle; className?: string; testId?: string }) {
  const hydrated = useHydrated();
  const date = typeof at === "string" ? new Date(at) : at;
  if (Number.isNaN(date.getTime())) return <span className={className}>{String(at)}</span>;
  const utc = utcText(date, style);
  return (
    <time className={className} dateTime={date.toISOString()} title={hydrated ? utc : undefined} data-testid={testId}>
      {hydrated ? date.toLocaleString(undefined, OPTIONS[style]) : utc}
    </time>
  );
}
