import { NODE_KIND_LABEL } from "@/lib/flow/node-defaults";
/** Formatting shared by the history and compare pages (plain functions, server or client). */

const UTC = new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", hour12: false });

/** A time for people, in UTC: `22 Nov 2026, 15:48 UTC`. */
export function formatUtc(date: Date): string {
  return `${UTC.format(date)} UTC`;
}

/** A field value as JSON (strings quoted), cut to `max` characters with "…". */
export function formatValue(value: unknown, max = 300): string {
  const text = value === undefined ? "(none)" : (JSON.stringify(value) ?? String(value));
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Node kinds for people (one list: lib/flow/node-defaults.ts). */
export const KIND_LABEL: Record<string, string> = NODE_KIND_LABEL;
