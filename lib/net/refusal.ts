import { AppError } from "../errors";

/**
 * The one refusal of the guarded client (docs/security.md "Outbound requests"), in the
 * product's words: which host, what kind of destination, and what to do. It names the host
 * the tenant wrote, never the private address a name resolved to, and never a remote body.
 */

/** Words for ipaddr.js range names (see lib/net/address-policy.ts). */
const RANGE_WORDS: Record<string, string> = {
  loopback: "loopback (this server)",
  private: "private-network",
  uniqueLocal: "private-network (IPv6 unique local)",
  linkLocal: "link-local",
  carrierGradeNat: "shared carrier-grade NAT",
  multicast: "multicast",
  unspecified: "unspecified (0.0.0.0 or ::)",
  broadcast: "broadcast",
  teredo: "Teredo tunnel",
};

const ASK_OPERATOR = "If this server is yours and trusted, ask the operator of this Phylactery to open it with OUTBOUND_ALLOW_PRIVATE";

/**
 * A refusal for `host` (as written in the URL, canonical) on `port`.
 * @param kind "literal": the host is an IP address in range `range`; "resolved": the name
 *   resolves to a non-public address; "metadata": a cloud metadata endpoint (never opened).
 * @returns AppError forbidden / "address_not_allowed", details `{ host, port }`.
 */
export function addressRefusal(host: string, port: number, kind: "literal" | "resolved" | "metadata", range = ""): AppError {
  const entry = `${host}:${port}`;
  const words = RANGE_WORDS[range.replace(/^.*\((.*)\)$/, "$1")] ?? "non-public (reserved)";
  const message =
    kind === "metadata"
      ? `${host} is a cloud metadata endpoint; requests made for a workspace never reach it.`
      : kind === "literal"
        ? `${host} is ${/^[aeiou]/.test(words) ? "an" : "a"} ${words} address; requests made for a workspace reach public addresses only. ${ASK_OPERATOR}=${entry}.`
        : `${host} resolves to a private, local or reserved address; requests made for a workspace reach public addresses only. ${ASK_OPERATOR}=${entry}.`;
  return new AppError("forbidden", "address_not_allowed", message, { host, port });
}

/**
 * A refusal for a URL the guarded client cannot send at all.
 * @returns AppError bad_request / "invalid_url" or forbidden / "scheme_not_allowed".
 */
export function urlRefusal(raw: string, why: "invalid" | "scheme"): AppError {
  const shown = JSON.stringify(raw.length > 200 ? `${raw.slice(0, 200)}…` : raw);
  return why === "invalid"
    ? new AppError("bad_request", "invalid_url", `${shown} is not an absolute URL; write it like https://api.example.com/path.`)
    : new AppError("forbidden", "scheme_not_allowed", `${shown} is not an http or https URL; only those can be fetched.`);
}
