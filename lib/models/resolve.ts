import type { LanguageModel } from "ai";
import { type Env, env } from "../env";
import { parseNamedProviders } from "./named-providers";
import { createModelRegistry, type ProviderEntry } from "./registry";

/** The model settings of the environment (see `lib/env.ts`). */
export type ModelEnv = Partial<
  Pick<
    Env,
    "OPENAI_API_KEY" | "OPENAI_MODEL" | "ANTHROPIC_API_KEY" | "ANTHROPIC_MODEL" | "OPENAI_COMPATIBLE_BASE_URL" | "OPENAI_COMPATIBLE_MODEL" | "OPENAI_COMPATIBLE_API_KEY" | "OPENAI_COMPATIBLE_PROVIDERS"
  >
>;

/** Which kind of provider a resolved model talks to. */
export type ModelProvider = "offline" | "openai" | "anthropic" | "openai-compatible";

/** A model ready for `generateText` / `streamText`, with where it comes from. */
export interface ResolvedModel {
  model: LanguageModel;
  /** The provider's kind (prices and the UI follow it). */
  provider: ModelProvider;
  modelId: string;
  offline: boolean;
  /** The provider's name in `name:model` references (docs/models.md); equals `provider` unless an OpenAI-compatible entry is named. */
  name?: string;
}

/** Same defaults as `lib/env.ts`, for env objects passed in by tests. */
const DEFAULT_OPENAI_MODEL = "gpt-4.1-mini";
const DEFAULT_ANTHROPIC_MODEL = "claude-sonnet-4-5";
const DEFAULT_COMPATIBLE_MODEL = "default";

/**
 * The providers the environment configures, in order of precedence for the default: an
 * OpenAI-compatible server (`OPENAI_COMPATIBLE_BASE_URL`, named "openai-compatible"), OpenAI
 * (`OPENAI_API_KEY`), Anthropic (`ANTHROPIC_API_KEY`), then the named servers of
 * `OPENAI_COMPATIBLE_PROVIDERS` (docs/models.md "Providers").
 */
export function providersFromEnv(e: ModelEnv): ProviderEntry[] {
  const out: ProviderEntry[] = [];
  if (e.OPENAI_COMPATIBLE_BASE_URL) {
    out.push({
      name: "openai-compatible",
      kind: "openai-compatible",
      baseUrl: e.OPENAI_COMPATIBLE_BASE_URL,
      apiKey: e.OPENAI_COMPATIBLE_API_KEY,
      model: e.OPENAI_COMPATIBLE_MODEL || DEFAULT_COMPATIBLE_MODEL,
    });
  }
  if (e.OPENAI_API_KEY) out.push({ name: "openai", kind: "openai", apiKey: e.OPENAI_API_KEY, model: e.OPENAI_MODEL || DEFAULT_OPENAI_MODEL });
  if (e.ANTHROPIC_API_KEY) out.push({ name: "anthropic", kind: "anthropic", apiKey: e.ANTHROPIC_API_KEY, model: e.ANTHROPIC_MODEL || DEFAULT_ANTHROPIC_MODEL });
  for (const p of parseNamedProviders(e.OPENAI_COMPATIBLE_PROVIDERS ?? "").entries) {
    out.push({ name: p.name, kind: "openai-compatible", baseUrl: p.baseUrl, model: DEFAULT_COMPATIBLE_MODEL });
  }
  return out;
}

/**
 * Picks a language model from the environment's providers (see {@link providersFromEnv}; the
 * first is the default, else the deterministic offline model). Every provider speaks through
 * the guarded client (docs/security.md "Outbound requests"): a base URL a user saved reaches
 * public addresses only, unless the operator opened its host; the environment's own
 * OPENAI_COMPATIBLE_BASE_URL counts as opened by the operator.
 * @param modelId a `provider:model` reference (docs/models.md), or a bare model name for the
 *   default provider; empty: the default provider's model. A bare name is ignored when the
 *   offline model is the default.
 * @param envOverride settings to use instead of `env()` (tests); not merged with it.
 * @throws ZodError from `env()` when the process environment is malformed; AppError
 *   unprocessable "model_provider_unknown" when the reference names an unconfigured provider.
 */
export function resolveModel(modelId?: string, envOverride?: ModelEnv): ResolvedModel {
  const e: ModelEnv = envOverride ?? env();
  return createModelRegistry(providersFromEnv(e)).resolve(modelId ?? "");
}
