/**
 * Hosts the operator opened to private addresses (docs/security.md "Operator settings",
 * "Outbound requests"): entries `host` or `host:port` (IPv6 as `[::1]:8080`), judged on the
 * WHATWG URL parser's canonical host, so `0x7f.1`, `2130706433` and `127.0.0.1` are one entry.
 * No environment access here: lib/env.ts validates OUTBOUND_ALLOW_PRIVATE with this parser.
 */

/** One opened host: canonical host as `URL.hostname` writes it (IPv6 in brackets), and its port or null for any port. */
export interface OpenHost {
  host: string;
  port: number | null;
}

/** `url`'s canonical host: lower case, one trailing dot dropped, IPv6 kept in brackets. */
export function canonicalHost(url: URL): string {
  const host = url.hostname.toLowerCase();
  return host.endsWith(".") ? host.slice(0, -1) : host;
}

/** The port a request to `url` really uses: the explicit one, else the scheme's default. */
export function effectivePort(url: URL): number {
  if (url.port !== "") return Number(url.port);
  return url.protocol === "https:" ? 443 : 80;
}

/**
 * Parses one entry. A bare IPv6 address (`::1`) is read as a host without a port.
 * @returns null when the entry is not a host, `host:port` with a port in 1..65535, or has a path.
 */
export function parseOpenHost(entry: string): OpenHost | null {
  const text = entry.trim();
  if (text === "" || /[/?#@\\\s]/.test(text)) return null;
  const withPort = /^(\[[^\]]+\]|[^:[\]]+):(\d{1,5})$/.exec(text);
  const hostPart = withPort?.[1] ?? (text.includes(":") && !text.startsWith("[") ? `[${text}]` : text);
  const port = withPort?.[2] === undefined ? null : Number(withPort[2]);
  if (port !== null && (port < 1 || port > 65_535)) return null;
  try {
    const url = new URL(`http://${hostPart}/`);
    return url.hostname === "" ? null : { host: canonicalHost(url), port };
  } catch {
    return null;
  }
}

/**
 * Splits a comma-separated OUTBOUND_ALLOW_PRIVATE value.
 * @returns the parsed entries and the raw entries that did not parse.
 */
export function parseOpenHostList(value: string): { hosts: OpenHost[]; invalid: string[] } {
  const hosts: OpenHost[] = [];
  const invalid: string[] = [];
  for (const raw of value.split(",")) {
    if (raw.trim() === "") continue;
    const parsed = parseOpenHost(raw);
    if (parsed) hosts.push(parsed);
    else invalid.push(raw.trim());
  }
  return { hosts, invalid };
}

/** The entry that opens the host and port of an operator-configured URL, or null when it does not parse. */
export function openHostOfUrl(raw: string | undefined): OpenHost | null {
  if (!raw) return null;
  try {
    const url = new URL(raw);
    return { host: canonicalHost(url), port: effectivePort(url) };
  } catch {
    return null;
  }
}

/** True when an entry of `opened` names `url`'s canonical host (and its port, when the entry has one). */
export function isOpened(url: URL, opened: readonly OpenHost[]): boolean {
  const host = canonicalHost(url);
  const port = effectivePort(url);
  return opened.some((o) => o.host === host && (o.port === null || o.port === port));
}
