import "server-only";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { embedMany } from "ai";
import { env } from "../env";
import { guardedFetch } from "../net/guarded-fetch";

/**
 * Embeddings for semantic memory search (docs/architecture.md#memory): any server that
 * speaks the OpenAI `/embeddings` protocol (OpenAI, Ollama, vLLM, llama.cpp, ...), through
 * the AI SDK.
 */

/** Turns texts into vectors; `modelId` names the vector space (vectors of two models never mix). */
export interface Embedder {
  modelId: string;
  /** One vector per text, in order. Rejects when the server fails. */
  embed(texts: string[]): Promise<number[][]>;
}

/** Where an OpenAI-compatible embedding model is served. */
export interface EmbedderConfig {
  /** Base URL of the API, e.g. "http://127.0.0.1:11434/v1" (requests go to `<baseURL>/embeddings`). */
  baseURL: string;
  model: string;
  apiKey?: string;
}

/**
 * An {@link Embedder} on an OpenAI-compatible server: `embedMany` from the AI SDK with the
 * provider's `embeddingModel`. No retries: a search falls back to lexical instead of waiting.
 * Requests go through the guarded client (docs/security.md "Outbound requests"); the
 * environment's EMBEDDING_BASE_URL counts as opened by the operator.
 */
export function createEmbedder(config: EmbedderConfig): Embedder {
  const provider = createOpenAICompatible({ name: "embeddings", baseURL: config.baseURL, fetch: guardedFetch, ...(config.apiKey ? { apiKey: config.apiKey } : {}) });
  const model = provider.embeddingModel(config.model);
  return {
    modelId: config.model,
    async embed(texts) {
      if (texts.length === 0) return [];
      const { embeddings } = await embedMany({ model, values: texts, maxRetries: 0 });
      return embeddings;
    },
  };
}

/**
 * The embedder configured by EMBEDDING_BASE_URL, EMBEDDING_MODEL and EMBEDDING_API_KEY
 * (lib/env.ts), or null unless both the URL and the model are set (search is then lexical).
 */
export function embedderFromEnv(): Embedder | null {
  const e = env();
  if (!e.EMBEDDING_BASE_URL || !e.EMBEDDING_MODEL) return null;
  return createEmbedder({ baseURL: e.EMBEDDING_BASE_URL, model: e.EMBEDDING_MODEL, ...(e.EMBEDDING_API_KEY ? { apiKey: e.EMBEDDING_API_KEY } : {}) });
}
