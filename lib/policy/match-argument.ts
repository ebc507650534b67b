import { posix } from "node:path";
import picomatch from "picomatch/posix";
import type { ArgMatcher } from "../flow/schema";
import { testLinear } from "./linear-regex";

/** Longest string a regex matcher considers; a longer value never matches. */
export const REGEX_MAX_INPUT = 10_000;

/**
 * Whether one argument matcher of a policy rule holds on the tool arguments (docs/architecture.md#policies).
 * `args` must be the parsed RFC 8785 canonical text (see `evaluatePolicy`), never the raw
 * arguments of the model. A missing field or a value of the wrong type never matches.
 *
 * - `path_glob`: the string is normalised with `path.posix.normalize` (so `docs/../x.txt`
 *   is judged as `x.txt`) and matched by picomatch (dotfiles included). A value that holds
 *   a NUL, is absolute, or still climbs out (`..` or `../…`) after normalising never
 *   matches, whatever the glob: such a rule simply does not apply to it.
 * - `url_host`: the string is parsed with WHATWG `URL`; its hostname (lower case, no port,
 *   userinfo ignored, one trailing dot dropped) must equal an entry, or for an entry
 *   `*.example.com` be a subdomain of example.com (not example.com itself). A string that
 *   does not parse as a URL never matches.
 * - `number`: a finite JSON number (a numeric string like "1000" does not count).
 * - `regex`: a string of at most {@link REGEX_MAX_INPUT} chars, searched with RE2's
 *   linear-time engine (docs/security.md "Regular expressions"), never `RegExp`.
 * @throws SyntaxError only when a regex pattern does not compile, which the schema refuses.
 */
export function matchArgument(m: ArgMatcher, args: unknown): boolean {
  const value = fieldValue(args, m.field);
  switch (m.kind) {
    case "path_glob":
      return typeof value === "string" && matchPath(m.pattern, value);
    case "url_host":
      return typeof value === "string" && matchHost(m.hosts, value);
    case "number":
      return typeof value === "number" && Number.isFinite(value) && compare(value, m.op, m.value);
    case "regex":
      return typeof value === "string" && value.length <= REGEX_MAX_INPUT && testLinear(m.pattern, m.flags ?? "", value);
  }
}

/**
 * The value at a dotted path (`request.url`, `items.0.amount`): own keys of objects, and
 * canonical indexes (`0`, `12`) of arrays. Undefined when any step is missing.
 */
function fieldValue(root: unknown, path: string): unknown {
  let current: unknown = root;
  for (const key of path.split(".")) {
    if (Array.isArray(current)) {
      if (!/^(?:0|[1-9][0-9]*)$/.test(key)) return undefined;
      current = current[Number(key)];
    } else if (typeof current === "object" && current !== null && Object.hasOwn(current, key)) {
      current = (current as Record<string, unknown>)[key];
    } else {
      return undefined;
    }
  }
  return current;
}

function matchPath(pattern: string, raw: string): boolean {
  if (raw.includes("\0")) return false;
  const path = posix.normalize(raw);
  if (posix.isAbsolute(path) || path === ".." || path.startsWith("../")) return false;
  return picomatch(pattern, { dot: true })(path);
}

function matchHost(hosts: readonly string[], raw: string): boolean {
  let hostname: string;
  try {
    hostname = new URL(raw).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (hostname.endsWith(".")) hostname = hostname.slice(0, -1);
  if (hostname === "") return false;
  return hosts.some((entry) => {
    const host = entry.toLowerCase();
    return host.startsWith("*.") ? hostname.endsWith(host.slice(1)) : hostname === host;
  });
}

function compare(value: number, op: Extract<ArgMatcher, { kind: "number" }>["op"], target: number): boolean {
  switch (op) {
    case "gt":
      return value > target;
    case "gte":
      return value >= target;
    case "lt":
      return value < target;
    case "lte":
      return value <= target;
    case "eq":
      return value === target;
    case "neq":
      return value !== target;
  }
}
