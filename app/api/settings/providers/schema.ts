import { z } from "zod";
import { ProviderInput } from "@/lib/models/provider-settings";

/** PUT body: one provider's settings (the API key is write-only). */
export const Body = ProviderInput;

/** DELETE query: which provider to remove. */
export const DeleteQuery = z.object({ provider: z.enum(["openai", "anthropic", "openai-compatible"]) });
