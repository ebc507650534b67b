import { AppError } from "../errors";

/**
 * The API key a request presents (docs/api.md "API keys"), or null when it presents none:
 * `Authorization: Bearer <key>` (the scheme in any case) or `x-api-key: <key>`, the header
 * the LangGraph SDK sends. An `Authorization` header of another scheme is not a key. The text
 * is returned as sent (trimmed), valid or not: whoever presents something gets a verdict on it,
 * never a silent fallback to the session cookie.
 * @throws AppError unauthorized ("invalid_api_key") when both headers carry different keys.
 */
export function presentedApiKey(headers: Headers): string | null {
  const authorization = headers.get("authorization");
  const bearer = authorization && /^bearer(\s|$)/i.test(authorization.trim()) ? authorization.trim().slice(6).trim() : null;
  const header = headers.get("x-api-key");
  const xKey = header === null ? null : header.trim();
  if (bearer !== null && xKey !== null && bearer !== xKey) {
    throw new AppError("unauthorized", "invalid_api_key", "The Authorization and x-api-key headers carry different keys; send one key, in one of them.");
  }
  return bearer ?? xKey;
}
