import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { ProviderV4 } from "@ai-sdk/provider";
import { createProviderRegistry } from "ai";
import { AppError } from "../errors";
import { guardedFetch } from "../net/guarded-fetch";
import { createOfflineModel } from "./offline";
import { PROVIDER_NAME, providerOf, RESERVED_PROVIDER_NAMES, unknownProviderMessage } from "./provider-ref";
import type { ModelProvider, ResolvedModel } from "./resolve";

export { PROVIDER_NAME, providerOf, RESERVED_PROVIDER_NAMES, unknownProviderMessage };

/**
 * Models addressed as `provider:model` (docs/models.md "Addressing a model") through the AI
 * SDK's provider registry. A registry holds the providers configured in Settings or the
 * environment, plus `offline` (the deterministic built-in model), and one default provider
 * that serves every node naming no model, as one provider served the whole deployment before.
 */

/**
 * One configured provider. `kind` says which client speaks to it; `name` is how a flow
 * addresses it (`name:model`): "openai", "anthropic", "offline", or an OpenAI-compatible
 * entry's own name ("openai-compatible" by default, or e.g. "ollama", "vllm").
 */
export interface ProviderEntry {
  name: string;
  kind: ModelProvider;
  apiKey?: string;
  /** OpenAI-compatible only: the server's base URL (…/v1). */
  baseUrl?: string;
  /** The model a bare `name:` or an unnamed node uses on this provider. */
  model: string;
}

/** Per-call settings a node may pick (docs/models.md "Per-node settings"). */
export interface CallSettings {
  /** 0 to 2; absent: the provider's default. */
  temperature?: number;
  /** 1 to 64,000 tokens; absent: the provider's default. */
  maxOutputTokens?: number;
}

/** Providers a flow can address, and how a reference resolves to a model. */
export interface ModelRegistry {
  /** Names of the configured providers, `offline` included. */
  readonly providers: readonly string[];
  /** The provider of a node that names no model. */
  readonly defaultProvider: string;
  /**
   * The model a node's reference names:
   * - "" (or blanks): the default provider's model;
   * - `provider:model`: that provider's model (`provider:` alone: its default model);
   * - a bare model id (no `provider:` prefix, as flows saved before providers were named):
   *   that id on the default provider (ignored when the default is offline).
   * @throws AppError unprocessable "model_provider_unknown" when `provider` is not configured.
   */
  resolve(ref: string): ResolvedModel;
}

const offlineProvider: ProviderV4 = {
  specificationVersion: "v4",
  languageModel: () => createOfflineModel(),
  embeddingModel: (id) => {
    throw new AppError("unprocessable", "model_provider_unknown", `offline:${id}: the offline provider has no embedding models.`);
  },
  imageModel: (id) => {
    throw new AppError("unprocessable", "model_provider_unknown", `offline:${id}: the offline provider has no image models.`);
  },
};

/** The AI SDK provider of one entry; every request goes through the guarded client (docs/security.md "Outbound requests"). */
function clientOf(entry: ProviderEntry): ProviderV4 {
  if (entry.kind === "offline") return offlineProvider;
  if (entry.kind === "openai") return createOpenAI({ apiKey: entry.apiKey, fetch: guardedFetch });
  if (entry.kind === "anthropic") return createAnthropic({ apiKey: entry.apiKey, fetch: guardedFetch });
  const compatible = createOpenAICompatible({ name: entry.name, baseURL: (entry.baseUrl ?? "").replace(/\/+$/, ""), apiKey: entry.apiKey, fetch: guardedFetch });
  // Chat completions, as a single OpenAI-compatible server was always called.
  return { ...(compatible as unknown as ProviderV4), specificationVersion: "v4", languageModel: (id: string) => compatible.chatModel(id) } as ProviderV4;
}

/**
 * Builds the registry of `entries` (later entries of the same name replace earlier ones)
 * plus `offline`.
 * @param defaultProvider the name serving nodes that name no model; absent or unknown: the
 *   first entry, else offline.
 */
export function createModelRegistry(entries: readonly ProviderEntry[], defaultProvider?: string): ModelRegistry {
  const byName = new Map<string, ProviderEntry>();
  for (const e of entries) byName.set(e.name, e);
  if (!byName.has("offline")) byName.set("offline", { name: "offline", kind: "offline", model: "offline" });
  const clients: Record<string, ProviderV4> = {};
  for (const [name, e] of byName) clients[name] = clientOf(e);
  const registry = createProviderRegistry(clients);
  const fallback = entries.find((e) => e.kind !== "offline")?.name ?? "offline";
  const def = defaultProvider && byName.has(defaultProvider) ? defaultProvider : fallback;
  const at = (name: string, modelId: string): ResolvedModel => {
    const entry = byName.get(name) as ProviderEntry;
    if (entry.kind === "offline") {
      const model = createOfflineModel();
      return { model, provider: "offline", modelId: model.modelId, offline: true, name: "offline" };
    }
    const id = modelId || entry.model;
    return { model: registry.languageModel(`${name}:${id}`), provider: entry.kind, modelId: id, offline: false, name };
  };
  return {
    providers: [...byName.keys()],
    defaultProvider: def,
    resolve(ref) {
      const text = ref.trim();
      const name = providerOf(text);
      if (name === null) return at(def, text);
      if (!byName.has(name)) throw new AppError("unprocessable", "model_provider_unknown", unknownProviderMessage("This flow", text, name));
      return at(name, text.slice(name.length + 1).trim());
    },
  };
}
