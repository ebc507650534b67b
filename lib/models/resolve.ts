import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import { type Env, env } from "../env";
import { guardedFetch } from "../net/guarded-fetch";
import { createOfflineModel } from "./offline";

/** The model settings of the environment (see `lib/env.ts`). */
export type ModelEnv = Partial<
  Pick<
    Env,
    | "OPENAI_API_KEY"
    | "OPENAI_MODEL"
    | "ANTHROPIC_API_KEY"
    | "ANTHROPIC_MODEL"
    | "OPENAI_COMPATIBLE_BASE_URL"
    | "OPENAI_COMPATIBLE_MODEL"
    | "OPENAI_COMPATIBLE_API_KEY"
  >
>;

/** Which provider a resolved model talks to. */
export type ModelProvider = "offline" | "openai" | "anthropic" | "openai-compatible";

/** A model ready for `generateText` / `streamText`, with where it comes from. */
export interface ResolvedModel {
  model: LanguageModel;
  provider: ModelProvider;
  modelId: string;
  offline: boolean;
}

/** Same defaults as `lib/env.ts`, for env objects passed in by tests. */
const DEFAULT_OPENAI_MODEL = "gpt-4.1-mini";
const DEFAULT_ANTHROPIC_MODEL = "claude-sonnet-4-5";
const DEFAULT_COMPATIBLE_MODEL = "default";

/**
 * Picks the language model from the environment. Precedence: an OpenAI-compatible server
 * (`OPENAI_COMPATIBLE_BASE_URL`), then OpenAI (`OPENAI_API_KEY`), then Anthropic
 * (`ANTHROPIC_API_KEY`), else the deterministic offline model. Every provider speaks through
 * the guarded client (docs/security.md "Outbound requests"): a base URL a user saved reaches
 * public addresses only, unless the operator opened its host; the environment's own
 * OPENAI_COMPATIBLE_BASE_URL counts as opened by the operator.
 * @param modelId per-agent override of the provider's default model name; ignored when empty
 *   or when the offline model is used.
 * @param envOverride settings to use instead of `env()` (tests); not merged with it.
 * @throws ZodError from `env()` when the process environment is malformed.
 */
export function resolveModel(modelId?: string, envOverride?: ModelEnv): ResolvedModel {
  const e: ModelEnv = envOverride ?? env();
  const override = modelId?.trim() || undefined;

  if (e.OPENAI_COMPATIBLE_BASE_URL) {
    const id = override ?? e.OPENAI_COMPATIBLE_MODEL ?? DEFAULT_COMPATIBLE_MODEL;
    const provider = createOpenAICompatible({
      name: "openai-compatible",
      baseURL: e.OPENAI_COMPATIBLE_BASE_URL.replace(/\/+$/, ""),
      apiKey: e.OPENAI_COMPATIBLE_API_KEY,
      fetch: guardedFetch,
    });
    return { model: provider.chatModel(id), provider: "openai-compatible", modelId: id, offline: false };
  }
  if (e.OPENAI_API_KEY) {
    const id = override ?? e.OPENAI_MODEL ?? DEFAULT_OPENAI_MODEL;
    const provider = createOpenAI({ apiKey: e.OPENAI_API_KEY, fetch: guardedFetch });
    return { model: provider(id), provider: "openai", modelId: id, offline: false };
  }
  if (e.ANTHROPIC_API_KEY) {
    const id = override ?? e.ANTHROPIC_MODEL ?? DEFAULT_ANTHROPIC_MODEL;
    const provider = createAnthropic({ apiKey: e.ANTHROPIC_API_KEY, fetch: guardedFetch });
    return { model: provider(id), provider: "anthropic", modelId: id, offline: false };
  }
  const model = createOfflineModel();
  return { model, provider: "offline", modelId: model.modelId, offline: true };
}
