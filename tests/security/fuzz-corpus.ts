/**
 * The hostile corpus of the route fuzzer (docs/security.md "Input limits"): values for route
 * segments and query strings, and bodies built from a route's valid-looking base body by a
 * seeded PRNG, so every run sends the same requests.
 */

/** What one fuzz request belongs to, for the per-class counts. */
export type FuzzClass =
  | "valid_base"
  | "hostile_segment"
  | "cross_tenant"
  | "query"
  | "lone_surrogate"
  | "nul"
  | "huge_string"
  | "deep_nesting"
  | "wrong_type"
  | "array_for_object"
  | "proto_keys"
  | "numbers"
  | "invalid_json"
  | "empty_body"
  | "content_type"
  | "huge_body"
  | "invalid_url"
  | "unicode_tricks"
  | "invalid_utf8";

/** One body to send: bytes or text, and the content-type header (null: none). */
export interface BodyCase {
  cls: FuzzClass;
  label: string;
  body: string | Uint8Array<ArrayBuffer> | null;
  contentType: string | null;
}

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Deep JSON as text: arrays and objects alternate, `n` levels (never built as a value). */
export const deepJson = (n: number): string => {
  let open = "";
  let close = "";
  for (let i = 0; i < n; i++) {
    if (i % 2 === 0) {
      open += "[";
      close = `]${close}`;
    } else {
      open += '{"a":';
      close = `}${close}`;
    }
  }
  return `${open}0${close}`;
};

const DEEP_10K = deepJson(10_000);

// The huge bodies are built once and shared by every route's cases: building them per route
// (30 routes, 7 MB each) kept the fuzzer's event loop busy for seconds (tens of seconds on a
// loaded machine), long enough for the server to close the idle keep-alive connections that
// the client's pool then reused.
const ONE_MB_AND_A_BYTE = JSON.stringify("x".repeat(1_048_575));
const SIX_MB = JSON.stringify({ a: "x".repeat(6_000_000) });

/** Path segments (already URL-encoded) that no route should answer with a 5xx. */
export const HOSTILE_SEGMENTS: readonly string[] = [
  "%ED%A0%80", // UTF-8 bytes of a lone surrogate (invalid UTF-8)
  "%ED%B0%80x",
  "%00",
  "x%00y",
  "%",
  "%zz",
  "%25",
  "%C0%AF", // overlong "/"
  "..%2F..%2Fetc%2Fpasswd",
  "__proto__",
  "constructor",
  "x".repeat(5_000),
  "%F0%9F%98%80",
  "e%CC%81",
  "%EF%BC%A1", // fullwidth A
  "-1",
  "0",
  "1e309",
  "NaN",
  "%20",
  "a%2Fb",
];

/** Query values (already URL-encoded); each is sent under every known query key. */
export const HOSTILE_QUERY_VALUES: readonly string[] = [
  "%ED%A0%80",
  "%00",
  "x".repeat(1_000),
  "1e309",
  "-0",
  "NaN",
  "-1",
  "%5B%5D",
  "http%3A%2F%2F%5B",
  "javascript%3Aalert(1)",
  "..%2F..%2Fetc%2Fpasswd",
  "%",
  "%FF",
  "%E2%80%AE", // right-to-left override
];

/** Query keys the routes read, plus pollution keys. */
export const QUERY_KEYS: readonly string[] = ["q", "status", "tag", "limit", "before", "path", "provider", "flowId", "risk", "sort", "workspaceId", "__proto__", "constructor"];

/** A marker replaced by raw JSON text after JSON.stringify (for numbers and depths JSON.stringify cannot write). */
const raw = (text: string) => ({ __raw__: text });
const RAW_RE = /\{"__raw__":"((?:[^"\\]|\\.)*)"\}/g;

/** JSON.stringify, then splices the raw texts in (deep nesting, 1e309, -0). */
export function stringifyWithRaw(value: unknown): string {
  return JSON.stringify(value).replace(RAW_RE, (_m, t: string) => JSON.parse(`"${t}"`) as string);
}

const STRING_POOL: Record<"lone_surrogate" | "nul" | "huge_string" | "invalid_url" | "unicode_tricks", readonly unknown[]> = {
  lone_surrogate: ["\ud800", "x\udfff", "\udbff\udbff", "ok \ud83d end", "\udc00\ud800"],
  nul: ["\u0000", "a\u0000b", "\u0000".repeat(100), "notes.md\u0000.png"],
  huge_string: ["x".repeat(100_000), "😀".repeat(50_000), "\u0301".repeat(20_000)],
  invalid_url: [
    "http://[",
    "http://%",
    "javascript:alert(1)",
    "http://user:pw@example.invalid/",
    "file:///etc/passwd",
    "http://0x7f.1/",
    "http://[::1",
    "//x",
    "http://a b/",
    "http://%zz/",
    "https://",
    "http://xn--/",
    "data:text/html,x",
    "",
  ],
  unicode_tricks: [
    "ｗorkspace-assistant",
    "workspace\u2010assistant",
    "WORKSPACE-ASSISTANT",
    "e\u0301",
    "\u00e9",
    "ALICE@TEST.DEV",
    "alice@t\u0435st.dev",
    "alice@test.dev\u200b",
    "\u212a",
    "\u0131",
    "\ufb01",
    "\u202eevil",
    "\ufeffbom",
    "\u2028\u2029",
    "opena\u0131",
  ],
};

const WRONG_TYPES: readonly unknown[] = [0, -1, true, false, null, [], {}, [1, "a"], { kind: "x" }, "string"];
const NUMBERS: readonly unknown[] = [raw("1e309"), raw("-1e309"), raw("-0"), raw("1e-400"), raw("9007199254740993"), "NaN", "Infinity", 1.5, -1, 0, 2 ** 31, 2 ** 53];
const PROTO: readonly unknown[] = [raw('{"__proto__":{"polluted":true}}'), raw('{"constructor":{"prototype":{"polluted":true}}}'), raw('{"a":1,"__proto__":[]}')];

/** Every value at `path` (dotted) in a JSON value, leaves and containers, up to `maxDepth`. */
function paths(value: unknown, maxDepth: number, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (prefix.length > 0) out.push(prefix);
  if (prefix.length >= maxDepth) return out;
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : value !== null && typeof value === "object" ? Object.entries(value) : [];
  for (const [k, v] of entries) paths(v, maxDepth, [...prefix, k], out);
  return out;
}

function setAt(base: unknown, path: (string | number)[], v: unknown): unknown {
  const copy = structuredClone(base) as Record<string | number, unknown>;
  let at: Record<string | number, unknown> = copy;
  for (const k of path.slice(0, -1)) at = at[k] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (last !== undefined) at[last] = v;
  return copy;
}

function getAt(base: unknown, path: (string | number)[]): unknown {
  let at = base as Record<string | number, unknown> | undefined;
  for (const k of path) at = at?.[k] as Record<string | number, unknown> | undefined;
  return at ?? null;
}

const json = (cls: FuzzClass, label: string, value: unknown): BodyCase => ({ cls, label, body: stringifyWithRaw(value), contentType: "application/json" });

/**
 * Whole-body cases every method that may carry a body gets: invalid JSON, empty bodies,
 * wrong content types, huge and deep bodies, arrays for objects, bytes that are not UTF-8.
 */
export function wholeBodyCases(base: unknown): BodyCase[] {
  const text = (cls: FuzzClass, label: string, body: string | Uint8Array<ArrayBuffer> | null, contentType: string | null = "application/json"): BodyCase => ({ cls, label, body, contentType });
  return [
    ...["{", "{nope", "[1,]", "'a'", "NaN", "undefined", '{"a":1}x', "\u0000", '{"a":"\\ud800', '{"a":"\\x41"}', "[".repeat(100)].map((b) => text("invalid_json", `invalid json ${b.slice(0, 12)}`, b)),
    text("empty_body", "empty string", ""),
    text("empty_body", "no body", null),
    text("empty_body", "whitespace", "   \n"),
    text("content_type", "form-urlencoded", "a=1&b=%ED%A0%80", "application/x-www-form-urlencoded"),
    text("content_type", "multipart", '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--b--\r\n', "multipart/form-data; boundary=b"),
    text("content_type", "xml", "<a/>", "application/xml"),
    text("content_type", "json as text/html", stringifyWithRaw(base), "text/html"),
    text("content_type", "json without a type", stringifyWithRaw(base), null),
    text("content_type", "absurd type", stringifyWithRaw(base), `application/${"a".repeat(2000)}`),
    text("huge_body", "1 MB + 1 byte", ONE_MB_AND_A_BYTE),
    text("huge_body", "6 MB", SIX_MB),
    text("deep_nesting", "10,000 deep", DEEP_10K),
    text("deep_nesting", "65 deep", deepJson(65)),
    json("deep_nesting", "10,000 deep in a field", { input: raw(DEEP_10K) }),
    ...[[], [base], "string", 1, null, true].map((v) => json("array_for_object", `body ${JSON.stringify(v).slice(0, 20)}`, v)),
    text("invalid_utf8", "surrogate bytes", new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d])),
    text("invalid_utf8", "lone continuation byte", new Uint8Array([0x22, 0x80, 0x22])),
    text("invalid_utf8", "overlong", new Uint8Array([0x22, 0xc0, 0xaf, 0x22])),
    json("proto_keys", "__proto__ at the top", raw('{"__proto__":{"polluted":true}}')),
    json("lone_surrogate", "lone surrogate key", raw('{"\\ud800":1}')),
  ];
}

/**
 * Field cases: `fields` paths of the base body, picked by the PRNG, each replaced by values
 * of every class (lone surrogates, NUL, huge strings, deep values, wrong types, numbers,
 * prototype keys, invalid URLs, unicode tricks).
 */
export function fieldCases(base: unknown, rnd: () => number, fields = 6): BodyCase[] {
  const all = paths(base, 6);
  const chosen: (string | number)[][] = [];
  const pool = [...all];
  while (chosen.length < fields && pool.length > 0) chosen.push(...pool.splice(Math.floor(rnd() * pool.length), 1));
  // Always try one new field too: handlers must ignore or refuse what they do not know.
  chosen.push(["fuzzExtra"]);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const out: BodyCase[] = [];
  for (const path of chosen) {
    const label = path.join(".");
    const classes: [FuzzClass, unknown][] = [
      ["lone_surrogate", pick(STRING_POOL.lone_surrogate)],
      ["nul", pick(STRING_POOL.nul)],
      ["huge_string", pick(STRING_POOL.huge_string)],
      ["deep_nesting", raw(DEEP_10K)],
      ["wrong_type", pick(WRONG_TYPES)],
      ["wrong_type", pick(WRONG_TYPES)],
      ["numbers", pick(NUMBERS)],
      ["proto_keys", pick(PROTO)],
      ["invalid_url", pick(STRING_POOL.invalid_url)],
      ["unicode_tricks", pick(STRING_POOL.unicode_tricks)],
      ["array_for_object", [getAt(base, path)]],
    ];
    for (const [cls, v] of classes) out.push(json(cls, `${label} = ${cls}`, setAt(base, path, v)));
  }
  return out;
}
