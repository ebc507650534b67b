/**
 * Model prices for the dashboard's cost estimates ("costs").
 *
 * USD per 1,000,000 tokens, standard (non-batch, uncached, short-context) rates, copied by
 * hand from the providers' public price lists as of 2025-11-15:
 * - OpenAI: https://platform.openai.com/docs/pricing (text tokens, "Standard" tier)
 * - Anthropic: https://docs.claude.com/en/docs/about-claude/pricing ("Base Input Tokens",
 *   "Output Tokens"; Sonnet 4 / 4.5 prompts over 200K input tokens cost more and are not
 *   modelled)
 *
 * The runs record one input and one output total per run (no cache hits, no reasoning
 * split), so an estimate is the list price of those totals: prompt caching or the Batch API
 * would make the real bill lower. Ids are matched exactly (aliases and the dated snapshots
 * listed here); anything else has no price, and the UI says "unknown price" instead of
 * guessing. Update this table, and the date above, when a provider changes its prices.
 */

/** One model's price, USD per 1M tokens. */
export interface ModelPrice {
  inputPerMTok: number;
  outputPerMTok: number;
}

/** The day the prices below were copied from the providers' pages (ISO 8601). */
export const PRICES_AS_OF = "2025-11-15";

const p = (inputPerMTok: number, outputPerMTok: number): ModelPrice => ({ inputPerMTok, outputPerMTok });

/** OpenAI models: alias and dated snapshots that share the alias's price. */
const OPENAI: Record<string, ModelPrice> = {
  "gpt-5": p(1.25, 10),
  "gpt-5-2025-08-07": p(1.25, 10),
  "gpt-5-mini": p(0.25, 2),
  "gpt-5-mini-2025-08-07": p(0.25, 2),
  "gpt-5-nano": p(0.05, 0.4),
  "gpt-5-nano-2025-08-07": p(0.05, 0.4),
  "gpt-4.1": p(2, 8),
  "gpt-4.1-2025-04-14": p(2, 8),
  "gpt-4.1-mini": p(0.4, 1.6),
  "gpt-4.1-mini-2025-04-14": p(0.4, 1.6),
  "gpt-4.1-nano": p(0.1, 0.4),
  "gpt-4.1-nano-2025-04-14": p(0.1, 0.4),
  "gpt-4o": p(2.5, 10),
  "gpt-4o-2024-08-06": p(2.5, 10),
  "gpt-4o-2024-11-20": p(2.5, 10),
  // The first gpt-4o snapshot kept its launch price.
  "gpt-4o-2024-05-13": p(5, 15),
  "gpt-4o-mini": p(0.15, 0.6),
  "gpt-4o-mini-2024-07-18": p(0.15, 0.6),
  o3: p(2, 8),
  "o3-2025-04-16": p(2, 8),
  "o4-mini": p(1.1, 4.4),
  "o4-mini-2025-04-16": p(1.1, 4.4),
  "o3-mini": p(1.1, 4.4),
  "o3-mini-2025-01-31": p(1.1, 4.4),
  o1: p(15, 60),
  "o1-2024-12-17": p(15, 60),
  "gpt-4-turbo": p(10, 30),
  "gpt-4-turbo-2024-04-09": p(10, 30),
  "gpt-3.5-turbo": p(0.5, 1.5),
  "gpt-3.5-turbo-0125": p(0.5, 1.5),
};

/** Anthropic models: alias and dated snapshot ids. */
const ANTHROPIC: Record<string, ModelPrice> = {
  "claude-opus-4-5": p(5, 25),
  "claude-opus-4-5-20251101": p(5, 25),
  "claude-opus-4-1": p(15, 75),
  "claude-opus-4-1-20250805": p(15, 75),
  "claude-opus-4-0": p(15, 75),
  "claude-opus-4-20250514": p(15, 75),
  "claude-sonnet-4-5": p(3, 15),
  "claude-sonnet-4-5-20250929": p(3, 15),
  "claude-sonnet-4-0": p(3, 15),
  "claude-sonnet-4-20250514": p(3, 15),
  "claude-3-7-sonnet-latest": p(3, 15),
  "claude-3-7-sonnet-20250219": p(3, 15),
  "claude-3-5-sonnet-latest": p(3, 15),
  "claude-3-5-sonnet-20241022": p(3, 15),
  "claude-3-5-sonnet-20240620": p(3, 15),
  "claude-haiku-4-5": p(1, 5),
  "claude-haiku-4-5-20251001": p(1, 5),
  "claude-3-5-haiku-latest": p(0.8, 4),
  "claude-3-5-haiku-20241022": p(0.8, 4),
  "claude-3-opus-latest": p(15, 75),
  "claude-3-opus-20240229": p(15, 75),
  "claude-3-haiku-20240307": p(0.25, 1.25),
};

/** The built-in offline model (lib/models/offline.ts) runs in-process: free. */
const OFFLINE_MODEL_ID = "offline";
const FREE = p(0, 0);

/** Where a run's model came from (lib/models/resolve.ts `ModelProvider`). */
export type PricedProvider = "offline" | "openai" | "anthropic" | "openai-compatible";

/**
 * The price of a model, or null when it has none on file.
 * @param modelId the id the run recorded (e.g. "gpt-4.1-mini", "claude-sonnet-4-5-20250929").
 * @param provider when known: "offline" is free whatever the id; "openai-compatible" has no
 *   price (a self-hosted or third-party server's rate cannot be known here, even for an id
 *   that looks like OpenAI's); "openai" / "anthropic" look only in that provider's table;
 *   without it, both tables are searched.
 */
export function priceOf(modelId: string, provider?: string): ModelPrice | null {
  const id = modelId.trim().toLowerCase();
  if (provider === "offline" || (!provider && id === OFFLINE_MODEL_ID)) return FREE;
  if (provider === "openai") return OPENAI[id] ?? null;
  if (provider === "anthropic") return ANTHROPIC[id] ?? null;
  if (provider) return null;
  return OPENAI[id] ?? ANTHROPIC[id] ?? null;
}

/**
 * Estimated cost of a number of tokens on a model, at list price (see the header for the
 * sources and what is not modelled).
 * @param input.modelId the model's id as recorded by the run.
 * @param input.provider optional provider (see {@link priceOf}).
 * @param input.inputTokens / input.outputTokens token counts (non-negative integers).
 * @returns USD (unrounded), 0 for no tokens, or null when the model has no known price and
 *   tokens were used.
 * @throws RangeError when a token count is negative or not an integer.
 */
export function estimateCost(input: { modelId: string; provider?: string; inputTokens: number; outputTokens: number }): number | null {
  const { inputTokens, outputTokens } = input;
  for (const [name, n] of [
    ["inputTokens", inputTokens],
    ["outputTokens", outputTokens],
  ] as const) {
    if (!Number.isInteger(n) || n < 0) throw new RangeError(`${name} must be a non-negative integer, got ${n}`);
  }
  if (inputTokens === 0 && outputTokens === 0) return 0;
  const price = priceOf(input.modelId, input.provider);
  if (!price) return null;
  return (inputTokens * price.inputPerMTok + outputTokens * price.outputPerMTok) / 1_000_000;
}

/**
 * A cost for people: "$0.00" for nothing, four decimals under a dollar ("$0.0123"),
 * "< $0.0001" for less than that, else cents with thousands separators ("$1,234.50").
 * @param usd a cost in USD (non-negative).
 */
export function formatUsd(usd: number): string {
  if (usd === 0) return "$0.00";
  if (usd < 0.0001) return "< $0.0001";
  if (usd < 1) return `$${usd.toFixed(4)}`;
  return `$${usd.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}
