import ipaddr from "ipaddr.js";

/**
 * Which IP addresses a request made for a workspace may reach (docs/security.md "Outbound
 * requests"). The ranges come from ipaddr.js (IANA special-purpose registries); this file only
 * decides which of its range names pass. Only public unicast passes: IPv4 "unicast", IPv6
 * "unicast" inside 2000::/3 (the global unicast block). IPv6 forms that carry an IPv4 address
 * (IPv4-mapped, RFC 6145 translated, NAT64 64:ff9b::/96, 6to4 2002::/16) are judged by the
 * IPv4 address inside; IPv4-compatible (::a.b.c.d), local-use NAT64 (64:ff9b:1::/48) and
 * Teredo are refused outright.
 */

/** The verdict on one address: "public" passes; "private" only for a host the operator opened; "metadata" never. */
export type AddressVerdict = "public" | "private" | "metadata";

/** A judged address: the verdict and the ipaddr.js range name (e.g. "loopback", "private", "teredo"). */
export interface AddressClass {
  verdict: AddressVerdict;
  range: string;
}

/**
 * Cloud instance-metadata endpoints (AWS, GCP, Azure, OpenStack: 169.254.169.254; AWS ECS
 * task metadata 169.254.170.2; AWS IPv6 fd00:ec2::254; Alibaba 100.100.100.200; Oracle
 * 192.0.0.192). They hand out the server's cloud credentials, so no setting opens them.
 */
const METADATA_ADDRESSES: readonly string[] = ["169.254.169.254", "169.254.170.2", "fd00:ec2::254", "100.100.100.200", "192.0.0.192"].map((a) => ipaddr.parse(a).toNormalizedString());

/** Host names of metadata services (a resolver may answer them with anything). */
export const METADATA_HOSTNAMES: ReadonlySet<string> = new Set([
  "metadata.google.internal",
  "metadata.goog",
  "metadata",
  "instance-data",
  "instance-data.ec2.internal",
  "metadata.azure.internal",
  "metadata.tencentyun.com",
]);

const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR("2000::/3");
/** IPv6 ranges whose last 32 bits are an IPv4 address that decides (the NAT64 well-known prefix only). */
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR("64:ff9b::/96");

function judgeV4(addr: ipaddr.IPv4): AddressClass {
  if (METADATA_ADDRESSES.includes(addr.toNormalizedString())) return { verdict: "metadata", range: "metadata" };
  const range = addr.range();
  return { verdict: range === "unicast" ? "public" : "private", range };
}

function embeddedV4(parts: readonly number[], at: number): ipaddr.IPv4 {
  const hi = parts[at] ?? 0;
  const lo = parts[at + 1] ?? 0;
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
}

function judgeV6(addr: ipaddr.IPv6): AddressClass {
  if (METADATA_ADDRESSES.includes(addr.toNormalizedString())) return { verdict: "metadata", range: "metadata" };
  const range = addr.range();
  const inner = (v4: ipaddr.IPv4): AddressClass => {
    const judged = judgeV4(v4);
    return judged.verdict === "public" ? judged : { verdict: judged.verdict, range: `${range}(${judged.range})` };
  };
  if (range === "ipv4Mapped" || range === "rfc6145") return inner(embeddedV4(addr.parts, 6));
  if (range === "rfc6052") return addr.match(NAT64_WELL_KNOWN) ? inner(embeddedV4(addr.parts, 6)) : { verdict: "private", range };
  if (range === "6to4") return inner(embeddedV4(addr.parts, 1));
  if (range === "unicast" && addr.match(GLOBAL_UNICAST_V6)) return { verdict: "public", range };
  return { verdict: "private", range: range === "unicast" ? "unallocated" : range };
}

/**
 * Judges one IP address in any textual form ipaddr.js parses (dotted IPv4, IPv6 with or without
 * brackets or a zone id). Anything that does not parse as an address is refused as "invalid".
 * @returns the verdict and the range name, e.g. `{ verdict: "private", range: "loopback" }`.
 */
export function classifyAddress(address: string): AddressClass {
  const bare = address.replace(/^\[(.*)\]$/, "$1");
  if (!ipaddr.isValid(bare)) return { verdict: "private", range: "invalid" };
  const parsed = ipaddr.parse(bare);
  return parsed.kind() === "ipv4" ? judgeV4(parsed as ipaddr.IPv4) : judgeV6(parsed as ipaddr.IPv6);
}

/** True when `host` (a URL host without brackets) is an IP literal ipaddr.js understands. */
export function isIpLiteral(host: string): boolean {
  return ipaddr.isValid(host.replace(/^\[(.*)\]$/, "$1"));
}
