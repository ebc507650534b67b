import { redactCommandTokens, redactTokenShapes } from "../approvals/token-redaction";

/**
 * Secrets kept out of what leaves the run (docs/security.md "Secrets at rest"): the
 * redaction of stored run events and of what a viewer is sent, shared by the engine's safe
 * state (lib/engine/safe-state.ts) and the event path.
 */

/** What a redacted secret reads as. */
export const REDACTED = "[redacted]";

/** Keys whose string values are secrets wherever they appear (approval tokens first of all). */
const SECRET_KEY = /(^|_)(token|secret|password|api_?key)$/i;

/** True for `{}`-style objects (checkpoint values are plain JSON; class instances are left alone). */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * Maps a JSON-like value deeply: `fn` sees every property (key, value) of every plain object
 * and every string; what it returns replaces the value. Arrays and plain objects are copied,
 * anything else (class instances) is kept as it is.
 */
export function mapDeep(value: unknown, fn: { key?: (key: string, v: unknown) => unknown; text?: (s: string) => string }): unknown {
  if (typeof value === "string") return fn.text ? fn.text(value) : value;
  if (Array.isArray(value)) return value.map((v) => mapDeep(v, fn));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const kept = fn.key ? fn.key(k, v) : v;
    out[k] = kept === v ? mapDeep(v, fn) : kept;
  }
  return out;
}

/**
 * Removes secrets from checkpoint values, at any depth: every non-empty string under a key
 * named like a secret (`token`, `*_token`, `secret`, `password`, `api_key`) becomes
 * {@link REDACTED}; in every text, the token of every `APPROVE|APROBAR <id> <token>` is
 * replaced (the approval id stays), and so is every word shaped like an approval token
 * (43 base64url characters), in any form it was typed in: look-alike or fullwidth letters,
 * any case, token before id (lib/approvals/token-redaction.ts). This is the replay's
 * defence for text stored before typed tokens were redacted on the way in
 * (lib/runs/typed-tokens.ts). Numbers under such keys (token counts) are kept.
 * @returns a copy; the input is not changed.
 */
export function redactSecrets<T>(value: T): T {
  return mapDeep(value, {
    key: (k, v) => (typeof v === "string" && v !== "" && SECRET_KEY.test(k) ? REDACTED : v),
    text: (s) => redactTokenShapes(s, REDACTED),
  }) as T;
}

/**
 * A run event as it may be stored (docs/security.md "Secrets at rest"): live approval
 * tokens are never written to the database. An approval card's `token` is blanked (the run
 * view recomputes it from the challenge for those who may decide), and the token of an
 * `APPROVE <id> <token>` typed into the chat is redacted.
 * @returns a copy; the input is not changed.
 */
export function withoutLiveTokens<T>(data: T): T {
  return mapDeep(data, {
    key: (k, v) => (k === "token" && typeof v === "string" ? "" : v),
    text: (s) => redactCommandTokens(s, REDACTED),
  }) as T;
}
