import { describe, expect, it } from "vitest";
import { createOfflineModel } from "./offline";
import { estimateCost, formatUsd, priceOf } from "./pricing";

describe("model prices (the dashboard's cost estimates)", () => {
  it("prices OpenAI and Anthropic models per 1M input / output tokens", () => {
    // gpt-4.1-mini: $0.40 in, $1.60 out per 1M.
    expect(estimateCost({ modelId: "gpt-4.1-mini", inputTokens: 1_000_000, outputTokens: 0 })).toBeCloseTo(0.4, 10);
    expect(estimateCost({ modelId: "gpt-4.1-mini", inputTokens: 0, outputTokens: 1_000_000 })).toBeCloseTo(1.6, 10);
    // claude-sonnet-4-5: $3 in, $15 out per 1M -> 1,234 in + 567 out = 0.003702 + 0.008505.
    expect(estimateCost({ modelId: "claude-sonnet-4-5", provider: "anthropic", inputTokens: 1234, outputTokens: 567 })).toBeCloseTo(0.012207, 10);
    expect(estimateCost({ modelId: "gpt-4o", provider: "openai", inputTokens: 2000, outputTokens: 1000 })).toBeCloseTo(0.015, 10);
  });

  it("knows dated snapshots, including one priced differently from its alias", () => {
    expect(priceOf("claude-sonnet-4-5-20250929")).toEqual(priceOf("claude-sonnet-4-5"));
    expect(priceOf("gpt-4o-2024-08-06")).toEqual(priceOf("gpt-4o"));
    expect(priceOf("gpt-4o-2024-05-13")).toEqual({ inputPerMTok: 5, outputPerMTok: 15 });
    expect(priceOf("  GPT-4o-Mini ")).toEqual({ inputPerMTok: 0.15, outputPerMTok: 0.6 });
  });

  it("the offline model is free whatever the token count", () => {
    const offline = createOfflineModel();
    expect(estimateCost({ modelId: offline.modelId, inputTokens: 12_345, outputTokens: 678 })).toBe(0);
    expect(estimateCost({ modelId: "anything", provider: "offline", inputTokens: 5, outputTokens: 5 })).toBe(0);
  });

  it("never invents a price: unknown ids, self-hosted servers and provider mismatches are null", () => {
    expect(estimateCost({ modelId: "llama3.1:8b", inputTokens: 10, outputTokens: 10 })).toBeNull();
    expect(estimateCost({ modelId: "gpt-4.1-mini-2099-01-01", inputTokens: 10, outputTokens: 10 })).toBeNull();
    // An OpenAI-compatible server may serve an id that looks like OpenAI's at any rate.
    expect(estimateCost({ modelId: "gpt-4o", provider: "openai-compatible", inputTokens: 10, outputTokens: 10 })).toBeNull();
    // Each provider looks only in its own table.
    expect(priceOf("claude-haiku-4-5", "openai")).toBeNull();
    expect(priceOf("gpt-5", "anthropic")).toBeNull();
    expect(priceOf("gpt-5", "mistral")).toBeNull();
    // No tokens cost nothing, even at an unknown price.
    expect(estimateCost({ modelId: "llama3.1:8b", inputTokens: 0, outputTokens: 0 })).toBe(0);
  });

  it("rejects negative or fractional token counts", () => {
    expect(() => estimateCost({ modelId: "gpt-5", inputTokens: -1, outputTokens: 0 })).toThrow(RangeError);
    expect(() => estimateCost({ modelId: "gpt-5", inputTokens: 0, outputTokens: 1.5 })).toThrow(/outputTokens/);
  });

  it("formats costs for people", () => {
    expect(formatUsd(0)).toBe("$0.00");
    expect(formatUsd(0.012207)).toBe("$0.0122");
    expect(formatUsd(0.00004)).toBe("< $0.0001");
    expect(formatUsd(1234.5)).toBe("$1,234.50");
  });
});
