import { promises as dns } from "node:dns";
import type { LookupFunction } from "node:net";
import { Agent, buildConnector } from "undici";
import { classifyAddress, isIpLiteral, METADATA_HOSTNAMES } from "./address-policy";
import type { OpenHost } from "./open-hosts";
import { addressRefusal } from "./refusal";

/**
 * The connection layer of the guarded client (docs/security.md "Outbound requests"). Every
 * socket undici opens goes through {@link createGuardedAgent}'s connector: an IP-literal host
 * is judged before connecting (net.connect skips DNS for literals); a name is resolved once
 * by our lookup, every answer is judged, and only judged addresses reach the socket. The
 * address checked is the address connected to, so DNS rebinding cannot switch it between
 * check and use. TLS keeps the original host name as servername.
 */

/** One resolver answer (the shape of `dns.lookup` with `all: true`). */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address; tests inject one to play a rebinding resolver. */
export type Resolve = (hostname: string) => Promise<ResolvedAddress[]>;

/** What the agent needs: the opened hosts (read per connection) and the resolver. */
export interface GuardedAgentOptions {
  openHosts: () => readonly OpenHost[];
  resolve?: Resolve;
}

const systemResolve: Resolve = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

function lookupThrough(resolve: Resolve, judge: (address: string) => Error | null): LookupFunction {
  return (hostname, options, callback) => {
    // One trailing dot is dropped, as the URL's canonical host does (`localhost.` is `localhost`).
    resolve(hostname.replace(/\.$/, ""))
      .then((answers) => {
        if (answers.length === 0) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
        // Every answer is judged: one non-public answer refuses the name, whatever its order.
        for (const a of answers) {
          const refused = judge(a.address);
          if (refused) throw refused;
        }
        const wanted = options.family === 4 || options.family === 6 ? answers.filter((a) => a.family === options.family) : answers;
        const first = wanted[0];
        if (!first) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
        if (options.all) callback(null, wanted);
        else callback(null, first.address, first.family);
      })
      .catch((err: NodeJS.ErrnoException) => callback(err, "", 0));
  };
}

/**
 * An undici Agent whose every connection is guarded (see the module header).
 * @returns an Agent; a refused connection fails with AppError forbidden / "address_not_allowed"
 *   (undici's fetch wraps it as the `cause` of its TypeError).
 */
export function createGuardedAgent(options: GuardedAgentOptions): Agent {
  const resolve = options.resolve ?? systemResolve;
  const connectors = new Map<string, buildConnector.connector>();
  const connect: buildConnector.connector = (o, callback) => {
    const host = o.hostname
      .replace(/^\[(.*)\]$/, "$1")
      .toLowerCase()
      .replace(/\.$/, "");
    const urlHost = host.includes(":") ? `[${host}]` : host;
    const port = o.port ? Number(o.port) : o.protocol === "https:" ? 443 : 80;
    const opened = options.openHosts().some((h) => h.host === urlHost && (h.port === null || h.port === port));
    const judge = (address: string, kind: "literal" | "resolved"): Error | null => {
      const c = classifyAddress(address);
      if (c.verdict === "metadata") return addressRefusal(urlHost, port, "metadata");
      if (c.verdict === "private" && !opened) return addressRefusal(urlHost, port, kind, c.range);
      return null;
    };
    if (METADATA_HOSTNAMES.has(host)) return callback(addressRefusal(urlHost, port, "metadata"), null);
    if (isIpLiteral(host)) {
      const refused = judge(host, "literal");
      if (refused) return callback(refused, null);
    }
    // One connector per (host, port) verdict pair keeps undici's TLS session cache useful.
    const key = `${opened ? "open" : "strict"} ${urlHost}:${port}`;
    let base = connectors.get(key);
    if (!base) {
      base = buildConnector({ lookup: lookupThrough(resolve, (a) => judge(a, "resolved")) });
      if (connectors.size > 1_000) connectors.clear();
      connectors.set(key, base);
    }
    base(o, callback);
  };
  return new Agent({ connect });
}
