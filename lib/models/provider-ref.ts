/**
 * `provider:model` references (docs/models.md "Addressing a model"), without any client: the
 * editor's validation runs this in the browser.
 */

/** A provider name: lower-case letters, digits, `-` and `_`, starting with a letter, up to 32 chars. */
export const PROVIDER_NAME = /^[a-z][a-z0-9_-]{0,31}$/;

/** Names that always mean the built-in kinds; an OpenAI-compatible entry cannot take them. */
export const RESERVED_PROVIDER_NAMES: readonly string[] = ["offline", "openai", "anthropic"];

/** The provider part of a `provider:model` reference, or null for a bare model id or "". */
export function providerOf(ref: string): string | null {
  const text = ref.trim();
  const at = text.indexOf(":");
  if (at <= 0) return null;
  const name = text.slice(0, at);
  return PROVIDER_NAME.test(name) ? name : null;
}

/** How people name a provider kind in messages ("Anthropic", "an OpenAI-compatible server"). */
export function providerLabel(name: string): string {
  if (name === "openai") return "OpenAI";
  if (name === "anthropic") return "Anthropic";
  if (name === "offline") return "offline";
  return `"${name}"`;
}

/**
 * The message when a flow names a provider that is not configured (the editor's problems
 * panel, publish and run refusal, and the engine use the same words).
 * @param who the node, e.g. `Agent 'Researcher'`.
 */
export function unknownProviderMessage(who: string, ref: string, provider: string): string {
  return `${who} uses ${ref.trim()}, but no ${providerLabel(provider)} provider is configured: add one in Settings.`;
}
