import { z } from "zod";

/**
 * The `CHECKPOINT_RETENTION_HOURS` setting (docs/storage.md "Retention"): how long after a
 * thread's last run ended its checkpoints are pruned, in hours (decimals allowed; 0 = at the
 * sweeper's next pass), or `off` to never prune. Parses to hours, or null for off.
 */
export const RetentionHours = z
  .string()
  .default("24")
  .transform((v, ctx) => {
    const text = v.trim().toLowerCase();
    if (text === "off") return null;
    const hours = text === "" ? Number.NaN : Number(text);
    if (!Number.isFinite(hours) || hours < 0) {
      ctx.addIssue({ code: "custom", message: `CHECKPOINT_RETENTION_HOURS: ${JSON.stringify(v)} is not a number of hours >= 0 (0 prunes at the next sweep) or "off"` });
      return z.NEVER;
    }
    return hours;
  });

/** Milliseconds of a parsed retention (null stays null: pruning is off). */
export function retentionMs(hours: number | null): number | null {
  return hours === null ? null : Math.round(hours * 3_600_000);
}
