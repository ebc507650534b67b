import "server-only";
import { z } from "zod";
import { decryptSecret, encryptSecret, keyFromSecret } from "../crypto/aes-gcm";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { baseUrlProblem } from "../net/base-url-check";
import { serverSecret } from "../secrets";
import type { ProviderView } from "./provider-view";
import { env } from "../env";
import { PROVIDER_NAME, RESERVED_PROVIDER_NAMES } from "./provider-ref";
import { createModelRegistry, type ModelRegistry, type ProviderEntry } from "./registry";
import { type ModelEnv, providersFromEnv, type ResolvedModel } from "./resolve";

export type { ProviderView };

/**
 * Model providers a user configures in Settings (docs/architecture.md#models). API keys are sealed
 * with AES-256-GCM under a server key (PROVIDER_KEYS_SECRET, else a persisted generated
 * key) and never leave the server: the public view says only whether a key is stored and
 * its last four characters.
 */

const apiKey = z.string().trim().max(500);
const model = z.string().trim().max(200).optional();

/** What the settings form sends: a provider, its fields, and whether it is the default. */
export const ProviderInput = z.discriminatedUnion("provider", [
  z.object({ provider: z.literal("openai"), apiKey: apiKey.optional(), model, isDefault: z.boolean().optional() }),
  z.object({ provider: z.literal("anthropic"), apiKey: apiKey.optional(), model, isDefault: z.boolean().optional() }),
  z.object({
    provider: z.literal("openai-compatible"),
    /**
     * The provider's name in `name:model` references (docs/models.md "Local servers"), e.g.
     * "ollama"; absent: "openai-compatible". Each name is its own entry.
     */
    name: z
      .string()
      .trim()
      .regex(PROVIDER_NAME, "name: lower-case letters, digits, - and _, starting with a letter (e.g. ollama)")
      .refine((n) => !RESERVED_PROVIDER_NAMES.includes(n), "name: offline, openai and anthropic are taken; pick another (e.g. ollama)")
      .optional(),
    baseUrl: z
      .string()
      .trim()
      .max(2048)
      .superRefine((u, ctx) => {
        const problem = baseUrlProblem(u);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      }),
    model: z.string().trim().min(1, "model: name the model the server serves").max(200),
    apiKey: apiKey.optional(),
    isDefault: z.boolean().optional(),
  }),
]);
export type ProviderInput = z.infer<typeof ProviderInput>;

/** The AES-256 key for provider API keys. */
export function providerKey(): Buffer {
  return keyFromSecret(serverSecret("provider-keys", process.env.PROVIDER_KEYS_SECRET || undefined));
}

/**
 * Saves a provider for the user. `apiKey` omitted keeps the stored key, "" removes it;
 * `isDefault` true makes it the one runs use (the others stop being default).
 * @throws AppError unprocessable / "api_key_required" when OpenAI or Anthropic would be left
 *   without a key; "invalid_base_url" (issue on `baseUrl`) when the base URL does not parse or
 *   names a private, local or metadata address the operator did not open (docs/security.md
 *   "Outbound requests"; lib/net/base-url-check.ts).
 */
export async function saveProvider(db: Db, userId: string, input: ProviderInput, key: Buffer = providerKey()): Promise<ProviderView> {
  const provider = input.provider === "openai-compatible" ? (input.name ?? "openai-compatible") : input.provider;
  const existing = await db.providerCredential.findUnique({ where: { userId_provider: { userId, provider } } });
  let cipher = existing?.apiKeyCiphertext ?? null;
  let hint = existing?.apiKeyHint ?? null;
  if (input.apiKey !== undefined) {
    cipher = input.apiKey ? encryptSecret(input.apiKey, key) : null;
    hint = input.apiKey ? input.apiKey.slice(-4) : null;
  }
  const problem = input.provider === "openai-compatible" ? baseUrlProblem(input.baseUrl) : null;
  if (problem) throw new AppError("unprocessable", "invalid_base_url", `baseUrl: ${problem}`, { issues: [{ path: "baseUrl", message: problem }] });
  if (input.provider !== "openai-compatible" && !cipher) {
    throw new AppError("unprocessable", "api_key_required", `apiKey: ${input.provider} needs an API key.`);
  }
  const data = {
    baseUrl: input.provider === "openai-compatible" ? input.baseUrl : null,
    model: input.model || null,
    apiKeyCiphertext: cipher,
    apiKeyHint: hint,
    isDefault: input.isDefault ?? existing?.isDefault ?? false,
  };
  const row = await db.$transaction(async (tx) => {
    if (data.isDefault) await tx.providerCredential.updateMany({ where: { userId, provider: { not: provider } }, data: { isDefault: false } });
    return tx.providerCredential.upsert({ where: { userId_provider: { userId, provider } }, update: data, create: { userId, provider, ...data } });
  });
  return view(row);
}

/** The user's providers, without keys or ciphertexts. */
export async function listProviders(db: Db, userId: string): Promise<ProviderView[]> {
  const rows = await db.providerCredential.findMany({ where: { userId }, orderBy: { provider: "asc" } });
  return rows.map(view);
}

/** Removes a provider of the user (no-op when absent). */
export async function deleteProvider(db: Db, userId: string, provider: string): Promise<void> {
  await db.providerCredential.deleteMany({ where: { userId, provider } });
}

/**
 * The providers the user's runs may address (docs/models.md "Providers"): the environment's,
 * then the user's own from Settings (a saved entry replaces the environment's of the same
 * name), and `offline`. The default (a node naming no model) is the provider the user marked
 * "use for my runs", else the environment's first, else offline: as when one provider served
 * every run.
 * @param envOverride replaces the server environment (tests).
 */
export async function userModelRegistry(db: Db, userId: string, envOverride?: ModelEnv, key: Buffer = providerKey()): Promise<ModelRegistry> {
  const rows = await db.providerCredential.findMany({ where: { userId }, orderBy: { provider: "asc" } });
  const saved: ProviderEntry[] = rows.map((r) => {
    const apiKey = r.apiKeyCiphertext ? decryptSecret(r.apiKeyCiphertext, key) : undefined;
    const kind = kindOf(r.provider);
    const model = r.model || (kind === "openai" ? "gpt-4.1-mini" : kind === "anthropic" ? "claude-sonnet-4-5" : "default");
    return { name: r.provider, kind, model, ...(apiKey ? { apiKey } : {}), ...(r.baseUrl ? { baseUrl: r.baseUrl } : {}) };
  });
  const fromEnv = providersFromEnv(envOverride ?? env());
  const chosen = rows.find((r) => r.isDefault)?.provider;
  return createModelRegistry([...fromEnv, ...saved], chosen ?? fromEnv[0]?.name ?? "offline");
}

/**
 * A model resolver for the user's runs over {@link userModelRegistry}: a node's
 * `provider:model` reference, a bare model id on the default provider, or "" for the default.
 */
export async function userModelResolver(db: Db, userId: string, envOverride?: ModelEnv, key: Buffer = providerKey()): Promise<(modelId: string) => ResolvedModel> {
  const registry = await userModelRegistry(db, userId, envOverride, key);
  return (modelId) => registry.resolve(modelId);
}

/**
 * Names of the providers the user's flows may address (validation: the problems panel, publish
 * and run refusal), without decrypting any key: the environment's, the user's, and `offline`.
 */
export async function userProviderNames(db: Db, userId: string, envOverride?: ModelEnv): Promise<string[]> {
  const rows = await db.providerCredential.findMany({ where: { userId }, select: { provider: true } });
  const names = [...providersFromEnv(envOverride ?? env()).map((p) => p.name), ...rows.map((r) => r.provider), "offline"];
  return [...new Set(names)];
}

/** The kind of a saved entry: its provider column names OpenAI, Anthropic, or an OpenAI-compatible entry's name. */
function kindOf(provider: string): ProviderEntry["kind"] {
  return provider === "openai" || provider === "anthropic" ? provider : "openai-compatible";
}

function view(r: { provider: string; baseUrl: string | null; model: string | null; apiKeyCiphertext: string | null; apiKeyHint: string | null; isDefault: boolean; updatedAt: Date }): ProviderView {
  return {
    provider: r.provider,
    baseUrl: r.baseUrl,
    model: r.model,
    hasKey: Boolean(r.apiKeyCiphertext),
    keyHint: r.apiKeyHint ? `…${r.apiKeyHint}` : null,
    isDefault: r.isDefault,
    updatedAt: r.updatedAt.toISOString(),
  };
}
