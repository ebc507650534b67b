/**
 * When a failed webhook delivery is tried again (docs/webhooks.md "Retries"): at most
 * {@link MAX_ATTEMPTS} attempts, the first at once, then after 1, 6, 24, 120 and 720 times
 * the base delay (5 s, 30 s, 2 min, 10 min, 1 h with the default base of 5 s), each with
 * ±20 % jitter so that many deliveries failing together do not all come back together.
 */

/** Attempts of one delivery before it is marked failed. */
export const MAX_ATTEMPTS = 6;

/** Multiples of the base delay before attempt 2, 3, 4, 5 and 6. */
const STEPS = [1, 6, 24, 120, 720] as const;

/**
 * The delay before the next attempt, ms, or null when none is left.
 * @param attempts attempts made so far (>= 1).
 * @param baseMs the base delay, ms (WEBHOOK_RETRY_BASE_MS, default 5000).
 * @param random a number in [0, 1) for the jitter (default Math.random).
 */
export function retryDelayMs(attempts: number, baseMs: number, random: () => number = Math.random): number | null {
  if (attempts >= MAX_ATTEMPTS) return null;
  const step: number = STEPS[Math.max(0, attempts - 1)] ?? 720;
  return Math.round(baseMs * step * (0.8 + 0.4 * random()));
}
