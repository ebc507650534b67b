import { classifyAddress, isIpLiteral, METADATA_HOSTNAMES } from "./address-policy";
import { canonicalHost, effectivePort, isOpened, type OpenHost } from "./open-hosts";
import { operatorOpenHosts } from "./operator-open-hosts";
import { addressRefusal } from "./refusal";

/**
 * The save-time check of a base URL a user types (provider and embedding servers; docs/security.md
 * "Outbound requests"): it must parse, use http or https, carry no user name or password, and
 * its host must not be a metadata name or a non-public IP literal the operator did not open.
 * Names are not resolved here: the guarded client judges what they resolve to on every request.
 */

/**
 * What is wrong with `raw` as a base URL, in words for the form, or null when it may be saved.
 * Never throws, whatever `raw` holds.
 * @param opened hosts opened to private addresses (default: the operator's).
 */
export function baseUrlProblem(raw: string, opened: readonly OpenHost[] = operatorOpenHosts()): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "not an absolute URL; write it like https://api.example.com/v1";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "must be an http(s) URL, e.g. https://api.example.com/v1";
  if (url.username !== "" || url.password !== "") return "must not carry a user name or password; put the key in the API key field";
  const host = canonicalHost(url);
  const port = effectivePort(url);
  if (METADATA_HOSTNAMES.has(host)) return addressRefusal(host, port, "metadata").message;
  if (!isIpLiteral(host)) return null;
  const c = classifyAddress(host);
  if (c.verdict === "metadata") return addressRefusal(host, port, "metadata").message;
  if (c.verdict === "private" && !isOpened(url, opened)) return addressRefusal(host, port, "literal", c.range).message;
  return null;
}
