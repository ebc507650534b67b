import { isIP } from "node:net";
import { canonicalHost, effectivePort, parseOpenHost } from "../net/open-hosts";

/**
 * Secret references and where their values may go (docs/secrets.md): the pure rules, no
 * database and no values at rest. A tool argument names a workspace secret as
 * `{{secret:NAME}}`; the tool gateway swaps the value in just before the call, checks that the
 * call's host is one the secret names, and swaps the value back to the reference in whatever
 * the tool answers.
 */

/** A secret's name: an upper-case letter, then upper-case letters, digits and _ (64 chars at most). */
export const SECRET_NAME = /^[A-Z][A-Z0-9_]{0,63}$/;

/**
 * A reference as written in a tool argument. The name part is loose on purpose (any word
 * characters), so that `{{secret:api_token}}` is reported as an unknown name instead of being
 * sent as literal text.
 */
const REFERENCE = /\{\{\s*secret:([A-Za-z0-9_.-]{1,100})\s*\}\}/g;

/** The reference text for `name`, as users write it: `{{secret:NAME}}`. */
export function secretReference(name: string): string {
  return `{{secret:${name}}}`;
}

/** The names `text` refers to, in order of first appearance, without repeats. */
export function referencedNames(text: string): string[] {
  return [...new Set([...text.matchAll(REFERENCE)].map((m) => m[1] ?? ""))];
}

/** True when `text` holds at least one reference. */
export function hasReference(text: string): boolean {
  REFERENCE.lastIndex = 0;
  return REFERENCE.test(text);
}

/**
 * `text` with every reference replaced by its value.
 * @throws Error when a reference names a secret missing from `values` (callers resolve the names first).
 */
export function substitute(text: string, values: ReadonlyMap<string, string>): string {
  return text.replace(REFERENCE, (_all, name: string) => {
    const value = values.get(name);
    if (value === undefined) throw new Error(`unresolved secret reference ${name}`);
    return value;
  });
}

/** One parsed host entry of a secret: `api.example.com`, `*.example.com`, `host:port`. */
export interface SecretHostRule {
  /** Canonical host (lower case, IDN as punycode, IPv6 in brackets), without `*.`. */
  host: string;
  /** True for `*.example.com`: subdomains of `host`, never `host` itself. */
  wildcard: boolean;
  /** The one port allowed; null means any port (the flow's allowlist still limits ports). */
  port: number | null;
}

/**
 * Parses one host entry: a host name (Unicode names are read as punycode, case folded), an IP
 * address, `*.` before a name for its subdomains, and `:port` to allow that port only.
 * @returns null when the entry is not one of those (a wildcard on an IP address, a path, a
 *   scheme, a bare `*`).
 */
export function parseSecretHost(entry: string): SecretHostRule | null {
  const text = entry.trim();
  const wildcard = text.startsWith("*.");
  const parsed = parseOpenHost(wildcard ? text.slice(2) : text);
  if (!parsed || parsed.host.includes("*")) return null;
  if (wildcard && (isIP(parsed.host.replace(/^\[|\]$/g, "")) !== 0 || !parsed.host.includes("."))) return null;
  return { host: parsed.host, wildcard, port: parsed.port };
}

/** The canonical form of a host entry (as stored and shown), or null when it does not parse. */
export function canonicalSecretHost(entry: string): string | null {
  const rule = parseSecretHost(entry);
  if (!rule) return null;
  return `${rule.wildcard ? "*." : ""}${rule.host}${rule.port === null ? "" : `:${rule.port}`}`;
}

/**
 * True when a request to `url` may carry a secret whose host entries are `hosts`: an entry
 * names the URL's canonical host (a wildcard: a subdomain of it, never an IP address) and,
 * when it has a port, the URL's effective port.
 */
export function hostAllowed(hosts: readonly string[], url: URL): boolean {
  const host = canonicalHost(url);
  const port = effectivePort(url);
  const literal = isIP(host.replace(/^\[|\]$/g, "")) !== 0;
  return hosts.some((entry) => {
    const rule = parseSecretHost(entry);
    if (!rule) return false;
    if (rule.port !== null && rule.port !== port) return false;
    return rule.wildcard ? !literal && host.endsWith(`.${rule.host}`) : host === rule.host;
  });
}

/** A secret value that a call used, and the reference it came from. */
export interface UsedSecret {
  name: string;
  value: string;
}

/**
 * `text` with every occurrence of each used value put back as its reference, including the
 * value as it appears escaped inside a JSON string (a tool output is JSON text). Longer values
 * go first, so a value that contains another is replaced whole.
 */
export function redactValues(text: string, used: readonly UsedSecret[]): string {
  let out = text;
  for (const { name, value } of [...used].sort((a, b) => b.value.length - a.value.length)) {
    if (value === "") continue;
    const reference = secretReference(name);
    out = out.replaceAll(value, reference);
    const escaped = JSON.stringify(value).slice(1, -1);
    if (escaped !== value) out = out.replaceAll(escaped, reference);
  }
  return out;
}
