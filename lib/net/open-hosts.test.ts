import { describe, expect, it } from "vitest";
import { baseUrlProblem } from "./base-url-check";
import { isOpened, parseOpenHost, parseOpenHostList } from "./open-hosts";

/** OUTBOUND_ALLOW_PRIVATE entries (docs/security.md "Operator settings"). */
describe("parseOpenHost", () => {
  it("reads host and host:port entries on the URL parser's canonical host", () => {
    expect(parseOpenHost("127.0.0.1:11434")).toEqual({ host: "127.0.0.1", port: 11434 });
    expect(parseOpenHost(" Ollama.Internal. ")).toEqual({ host: "ollama.internal", port: null });
    expect(parseOpenHost("0x7f.1:80")).toEqual({ host: "127.0.0.1", port: 80 });
    expect(parseOpenHost("[::1]:8080")).toEqual({ host: "[::1]", port: 8080 });
    expect(parseOpenHost("::1")).toEqual({ host: "[::1]", port: null });
    expect(parseOpenHost("[0:0:0:0:0:0:0:1]")).toEqual({ host: "[::1]", port: null });
  });

  it("refuses what is not a host or host:port", () => {
    for (const bad of ["", "http://x", "a/b", "a b", "x:0", "x:70000", "user@x", "[::1", "x:y"]) expect(parseOpenHost(bad), bad).toBeNull();
    expect(parseOpenHostList("a, ,b:1,bad/entry").invalid).toEqual(["bad/entry"]);
  });
});

describe("isOpened", () => {
  const opened = parseOpenHostList("127.0.0.1:11434,ollama.internal").hosts;
  it("opens the named port only, or any port for an entry without one", () => {
    expect(isOpened(new URL("http://127.0.0.1:11434/v1"), opened)).toBe(true);
    expect(isOpened(new URL("http://2130706433:11434/v1"), opened)).toBe(true);
    expect(isOpened(new URL("http://127.0.0.1:11435/"), opened)).toBe(false);
    expect(isOpened(new URL("http://localhost:11434/"), opened)).toBe(false);
    expect(isOpened(new URL("https://ollama.internal./"), opened)).toBe(true);
    expect(isOpened(new URL("https://x.ollama.internal/"), opened)).toBe(false);
  });
});

describe("baseUrlProblem", () => {
  it("an attacker cannot save a base URL on a literal private, local or metadata address", () => {
    for (const raw of ["http://127.0.0.1:11434/v1", "http://[::ffff:7f00:1]/", "http://10.0.0.1/", "http://169.254.169.254/", "http://metadata.google.internal/", "http://0/"]) {
      expect(baseUrlProblem(raw, []), raw).toMatch(/OUTBOUND_ALLOW_PRIVATE|metadata/);
    }
  });

  it("says what is wrong with a URL that does not parse, without throwing", () => {
    expect(baseUrlProblem("http://[::1", [])).toMatch(/not an absolute URL/);
    expect(baseUrlProblem("ftp://x/", [])).toMatch(/http\(s\)/);
    expect(baseUrlProblem("https://k:s@api.example.com/", [])).toMatch(/user name or password/);
  });

  it("accepts public hosts, names, and hosts the operator opened", () => {
    const opened = parseOpenHostList("127.0.0.1:11434").hosts;
    for (const raw of ["https://api.openai.com/v1", "http://ollama.example/v1", "http://127.0.0.1:11434/v1"]) expect(baseUrlProblem(raw, opened), raw).toBeNull();
    expect(baseUrlProblem("http://169.254.169.254/", parseOpenHostList("169.254.169.254").hosts)).toMatch(/metadata/);
  });
});
