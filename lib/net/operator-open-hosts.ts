import { env } from "../env";
import { parseNamedProviders } from "../models/named-providers";
import { type OpenHost, openHostOfUrl, parseOpenHostList } from "./open-hosts";

/**
 * The hosts the operator opened to private addresses for the default guarded client
 * (docs/security.md "Operator settings"): OUTBOUND_ALLOW_PRIVATE, plus the host and port of
 * every URL the operator set in the environment itself (OPENAI_COMPATIBLE_BASE_URL,
 * OPENAI_COMPATIBLE_PROVIDERS, EMBEDDING_BASE_URL, OTEL_EXPORTER_OTLP_ENDPOINT).
 */

let fromEnv: readonly OpenHost[] | undefined;
let forTests: readonly OpenHost[] = [];
const listeners = new Set<() => void>();

/** Every host the operator opened (environment, read once, plus {@link openHostsForTests}). */
export function operatorOpenHosts(): readonly OpenHost[] {
  if (!fromEnv) {
    const e = env();
    const named = parseNamedProviders(e.OPENAI_COMPATIBLE_PROVIDERS ?? "").entries.map((p) => p.baseUrl);
    const urls = [e.OPENAI_COMPATIBLE_BASE_URL, e.EMBEDDING_BASE_URL, e.OTEL_EXPORTER_OTLP_ENDPOINT, ...named].map(openHostOfUrl);
    fromEnv = [...parseOpenHostList(e.OUTBOUND_ALLOW_PRIVATE).hosts, ...urls.filter((h): h is OpenHost => h !== null)];
  }
  return forTests.length === 0 ? fromEnv : [...fromEnv, ...forTests];
}

/**
 * Test hook: opens `entries` (OUTBOUND_ALLOW_PRIVATE syntax) as if the operator had listed
 * them, without restarting the process (lib/env.ts reads the environment once).
 * @returns a function that closes them again.
 * @throws Error when an entry does not parse.
 */
export function openHostsForTests(entries: readonly string[]): () => void {
  const { hosts, invalid } = parseOpenHostList(entries.join(","));
  if (invalid.length > 0) throw new Error(`not a host or host:port: ${invalid.join(", ")}`);
  forTests = [...forTests, ...hosts];
  for (const l of listeners) l();
  return () => {
    forTests = forTests.filter((h) => !hosts.includes(h));
    for (const l of listeners) l();
  };
}

/** Calls `listener` whenever the opened hosts change (the default client drops its pooled connections). */
export function onOpenHostsChange(listener: () => void): void {
  listeners.add(listener);
}
