import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { checkMethod, checkRequestUrl, matchAllowlist, parseHostRule, requireNetwork } from "./network";
import type { NetworkAccess } from "./types";

const net = (allowHosts: string[]): NetworkAccess => ({ allowHosts, methods: ["GET"], maxResponseBytes: 1000, timeoutMs: 1000 });
const verdict = (url: string, hosts: string[]) => matchAllowlist(new URL(url), hosts);

function reason(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return err instanceof AppError ? err.reason : "not an AppError";
  }
  return undefined;
}

describe("parseHostRule", () => {
  it("parses hosts, wildcards and ports", () => {
    expect(parseHostRule("API.Example.com")).toEqual({ host: "api.example.com", wildcard: false, port: null });
    expect(parseHostRule("*.example.com")).toEqual({ host: "example.com", wildcard: true, port: null });
    expect(parseHostRule("127.0.0.1:8080")).toEqual({ host: "127.0.0.1", wildcard: false, port: 8080 });
  });

  it("refuses malformed entries (which then allow nothing)", () => {
    for (const bad of ["", "*", "*.", "http://x.com", "x.com/path", "x.com:0", "x.com:70000", "a b.com", "[::1]:80", "**.x.com"]) {
      expect(parseHostRule(bad)).toBeNull();
    }
  });
});

describe("matchAllowlist", () => {
  it("matches exact hosts on ports 80 and 443 only", () => {
    expect(verdict("https://example.com/a", ["example.com"])).toBe("allowed");
    expect(verdict("http://example.com/a", ["example.com"])).toBe("allowed");
    expect(verdict("http://example.com:443/", ["example.com"])).toBe("allowed");
    expect(verdict("http://example.com:8080/", ["example.com"])).toBe("port");
    expect(verdict("https://sub.example.com/", ["example.com"])).toBe("host");
    expect(verdict("https://example.com.evil.net/", ["example.com"])).toBe("host");
    expect(verdict("https://notexample.com/", ["example.com"])).toBe("host");
  });

  it("matches subdomains only for a wildcard", () => {
    expect(verdict("https://a.example.com/", ["*.example.com"])).toBe("allowed");
    expect(verdict("https://a.b.example.com/", ["*.example.com"])).toBe("allowed");
    expect(verdict("https://example.com/", ["*.example.com"])).toBe("host");
    expect(verdict("https://badexample.com/", ["*.example.com"])).toBe("host");
  });

  it("matches an explicit port exactly", () => {
    expect(verdict("http://127.0.0.1:8080/", ["127.0.0.1:8080"])).toBe("allowed");
    expect(verdict("http://127.0.0.1:8081/", ["127.0.0.1:8080"])).toBe("port");
    expect(verdict("http://127.0.0.1/", ["127.0.0.1:8080"])).toBe("port");
    expect(verdict("http://127.0.0.1/", ["127.0.0.1:8080", "127.0.0.1"])).toBe("allowed");
  });

  it("judges the canonical host: case, trailing dot, numeric IPv4 forms", () => {
    expect(verdict("https://EXAMPLE.com./", ["example.com"])).toBe("allowed");
    expect(verdict("http://2130706433:8080/", ["127.0.0.1:8080"])).toBe("allowed");
    expect(verdict("http://0x7f.0.0.1:8080/", ["127.0.0.1:8080"])).toBe("allowed");
    expect(verdict("http://2130706433:8080/", ["localhost:8080"])).toBe("host");
  });

  it("never lets a wildcard match an IP literal", () => {
    expect(verdict("http://127.0.0.1/", ["*.0.0.1"])).toBe("host");
  });
});

describe("checks", () => {
  it("requires a non-empty allowlist", () => {
    expect(reason(() => requireNetwork(undefined))).toBe("network_off");
    expect(reason(() => requireNetwork(net([])))).toBe("network_off");
    expect(reason(() => requireNetwork(net(["a.com"])))).toBeUndefined();
  });

  it("refuses what is not an allowed http(s) URL, with its reason", () => {
    const n = net(["example.com"]);
    expect(reason(() => checkRequestUrl("example.com/x", n))).toBe("invalid_url");
    expect(reason(() => checkRequestUrl("gopher://example.com/", n))).toBe("scheme_not_allowed");
    expect(reason(() => checkRequestUrl("https://u:p@example.com/", n))).toBe("userinfo_not_allowed");
    expect(reason(() => checkRequestUrl("https://other.com/", n))).toBe("host_not_allowed");
    expect(reason(() => checkRequestUrl("https://example.com:8443/", n))).toBe("port_not_allowed");
    expect(checkRequestUrl("https://example.com/a?b=1#frag", n).href).toBe("https://example.com/a?b=1");
  });

  it("names the fix in its messages", () => {
    expect(() => checkRequestUrl("https://other.com/", net(["example.com"]))).toThrow(
      "Host other.com is not in this flow's network allowlist; add the host to the flow's network allowlist in Flow settings.",
    );
    expect(() => checkRequestUrl("https://example.com:8443/", net(["example.com"]))).toThrow('add "example.com:8443"');
    expect(() => checkMethod("POST", net(["example.com"]))).toThrow("Method POST is not allowed for this flow (allowed: GET)");
  });
});
