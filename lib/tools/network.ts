import { isIP } from "node:net";
import { AppError } from "../errors";
import { canonicalHost, effectivePort } from "../net/open-hosts";
import type { NetworkAccess } from "./types";

/**
 * The network sandbox (network off by default, a host allowlist:
 * docs/architecture.md#tools-and-mcp). Every URL a tool fetches,
 * and every redirect hop, goes through {@link checkRequestUrl}. Matching is on the WHATWG
 * URL parser's canonical host, so `http://2130706433/`, `http://0x7f.1/` and `http://127.1/`
 * are all judged as `127.0.0.1`, and `http://allowed@evil/` as `evil`.
 *
 * The allowlist matches names, not addresses; what a name may resolve to is the guarded
 * client's job (lib/net/guarded-fetch.ts, docs/security.md "Outbound requests"): it refuses
 * private, local and metadata addresses unless the operator opened the host, and connects to
 * the address it checked (no DNS rebinding between check and use).
 */

/** One parsed allowlist entry: `example.com`, `*.example.com` or `host:port`. */
export interface HostRule {
  /** Lower-case host name or IPv4 address, without a trailing dot or the `*.` prefix. */
  host: string;
  /** True for `*.example.com`: subdomains of `host`, never `host` itself. */
  wildcard: boolean;
  /** The one port allowed; null means 80 and 443. */
  port: number | null;
}

/** Canonical host and effective port, shared with the guarded client (one parser for both). */
export { canonicalHost, effectivePort };

/** Ports a rule without an explicit port allows (docs/architecture.md#tools-and-mcp). */
export const DEFAULT_PORTS: readonly number[] = [80, 443];

/** What {@link checkRequestUrl} refuses after, in one message for people and models. */
const ADD_HOST_HINT = "add the host to the flow's network allowlist in Flow settings";

/**
 * Parses one allowlist entry (the shape `lib/flow/schema.ts` FlowNetwork validates).
 * @returns null when the entry is malformed (a malformed entry allows nothing).
 */
export function parseHostRule(entry: string): HostRule | null {
  const m = /^(\*\.)?([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*)\.?(?::(\d{1,5}))?$/.exec(entry.trim());
  if (!m?.[2]) return null;
  const port = m[3] === undefined ? null : Number(m[3]);
  if (port !== null && (port < 1 || port > 65_535)) return null;
  return { host: m[2].toLowerCase(), wildcard: Boolean(m[1]), port };
}

function hostMatches(rule: HostRule, host: string): boolean {
  if (!rule.wildcard) return host === rule.host;
  // A wildcard names DNS subdomains; it never matches an IP literal (`*.0.0.1` vs 127.0.0.1).
  if (isIP(host.replace(/^\[|\]$/g, "")) !== 0) return false;
  return host.endsWith(`.${rule.host}`);
}

/**
 * Which allowlist verdict `url` gets: "allowed", "host" (no entry names its host) or "port"
 * (an entry names the host, but not this port). Pure; no DNS.
 */
export function matchAllowlist(url: URL, allowHosts: readonly string[]): "allowed" | "host" | "port" {
  const host = canonicalHost(url);
  const port = effectivePort(url);
  let hostSeen = false;
  for (const entry of allowHosts) {
    const rule = parseHostRule(entry);
    if (!rule || !hostMatches(rule, host)) continue;
    hostSeen = true;
    if (rule.port === null ? DEFAULT_PORTS.includes(port) : rule.port === port) return "allowed";
  }
  return hostSeen ? "port" : "host";
}

/**
 * Throws unless the flow has network access at all (off by default).
 * @throws AppError forbidden / "network_off" when `network` is absent or its allowlist empty.
 */
export function requireNetwork(network: NetworkAccess | undefined): NetworkAccess {
  if (!network || network.allowHosts.length === 0) {
    throw new AppError("forbidden", "network_off", `Network is off for this flow; ${ADD_HOST_HINT}.`);
  }
  return network;
}

/**
 * Parses and checks one URL against the flow's allowlist (docs/architecture.md#tools-and-mcp): http or https only,
 * no user name or password, canonical host and port named by an allowHosts entry (a host
 * without a port allows 80 and 443 only; `*.example.com` allows subdomains only).
 * @returns the parsed URL (fragment dropped).
 * @throws AppError bad_request / "invalid_url", forbidden / "scheme_not_allowed",
 *   "userinfo_not_allowed", "host_not_allowed" or "port_not_allowed".
 */
export function checkRequestUrl(raw: string, network: NetworkAccess): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError("bad_request", "invalid_url", `${shown(raw)} is not an absolute URL; write it like https://api.example.com/path.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new AppError("forbidden", "scheme_not_allowed", `${shown(raw)} uses ${url.protocol.replace(/:$/, "")}:; only http and https URLs can be fetched.`);
  }
  if (url.username !== "" || url.password !== "") {
    throw new AppError("forbidden", "userinfo_not_allowed", `${shown(raw)} has a user name or password before the host; remove it (send credentials in a header instead).`);
  }
  const host = canonicalHost(url);
  const port = effectivePort(url);
  switch (matchAllowlist(url, network.allowHosts)) {
    case "host":
      throw new AppError("forbidden", "host_not_allowed", `Host ${host} is not in this flow's network allowlist; ${ADD_HOST_HINT}.`);
    case "port":
      throw new AppError(
        "forbidden",
        "port_not_allowed",
        `Port ${port} of ${host} is not allowed: an allowlist entry without a port allows 80 and 443 only; add "${host}:${port}" to the flow's network allowlist in Flow settings.`,
      );
  }
  url.hash = "";
  return url;
}

/**
 * Throws unless `method` is one of the flow's allowed methods (docs/architecture.md#tools-and-mcp).
 * @throws AppError forbidden / "method_not_allowed".
 */
export function checkMethod(method: string, network: NetworkAccess): void {
  if (!(network.methods as readonly string[]).includes(method)) {
    throw new AppError("forbidden", "method_not_allowed", `Method ${method} is not allowed for this flow (allowed: ${network.methods.join(", ")}); add it to the allowed methods in Flow settings.`);
  }
}

function shown(raw: string): string {
  return JSON.stringify(raw.length > 200 ? `${raw.slice(0, 200)}…` : raw);
}
