import { z } from "zod";
import { ProviderInput } from "@/lib/models/provider-settings";
import { PROVIDER_NAME } from "@/lib/models/provider-ref";

/** PUT body: one provider's settings (the API key is write-only). */
export const Body = ProviderInput;

/** DELETE query: which provider to remove: openai, anthropic, openai-compatible, or a named OpenAI-compatible entry (docs/models.md). */
export const DeleteQuery = z.object({ provider: z.string().regex(PROVIDER_NAME, "provider: a provider name such as openai or ollama") });
