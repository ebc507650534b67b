/**
 * Parses OPENAI_COMPATIBLE_PROVIDERS (docs/models.md "Local servers"): comma-separated
 * `name=baseUrl` entries, each an OpenAI-compatible server under its own provider name.
 * Names follow lib/models/registry.ts PROVIDER_NAME and may not be "offline", "openai" or
 * "anthropic"; URLs are http(s).
 * @returns the entries that parse, and the raw text of those that do not.
 */
export function parseNamedProviders(text: string): { entries: { name: string; baseUrl: string }[]; invalid: string[] } {
  const entries: { name: string; baseUrl: string }[] = [];
  const invalid: string[] = [];
  for (const raw of text.split(",")) {
    const item = raw.trim();
    if (!item) continue;
    const at = item.indexOf("=");
    const name = at > 0 ? item.slice(0, at).trim() : "";
    const url = at > 0 ? item.slice(at + 1).trim() : "";
    if (!/^[a-z][a-z0-9_-]{0,31}$/.test(name) || ["offline", "openai", "anthropic"].includes(name) || !isHttpUrl(url)) invalid.push(item);
    else entries.push({ name, baseUrl: url });
  }
  return { entries, invalid };
}

function isHttpUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}
