import { describe, expect, it } from "vitest";
import { canonicalSecretHost, hostAllowed, parseSecretHost, redactValues, referencedNames, secretReference, substitute } from "./references";

describe("secret references (docs/secrets.md)", () => {
  it("finds the names referred to, once each, including malformed ones to report", () => {
    expect(referencedNames("Bearer {{secret:API_TOKEN}} and {{ secret:OTHER }} then {{secret:API_TOKEN}}")).toEqual(["API_TOKEN", "OTHER"]);
    expect(referencedNames("{{secret:api_token}}")).toEqual(["api_token"]);
    expect(referencedNames("{{secrets:X}} {secret:X} {{secret:}}")).toEqual([]);
  });

  it("substitutes every reference, and refuses to leave one unresolved", () => {
    const values = new Map([
      ["A", "va"],
      ["B", "v$&b"],
    ]);
    expect(substitute("x {{secret:A}} y {{secret:B}} {{secret:A}}", values)).toBe("x va y v$&b va");
    expect(() => substitute("{{secret:C}}", values)).toThrow(/unresolved secret reference C/);
    expect(secretReference("API_TOKEN")).toBe("{{secret:API_TOKEN}}");
  });

  it("parses host entries: names, wildcards, ports, IDN and case; refuses the rest", () => {
    expect(parseSecretHost("API.Example.COM")).toEqual({ host: "api.example.com", wildcard: false, port: null });
    expect(parseSecretHost("*.example.com")).toEqual({ host: "example.com", wildcard: true, port: null });
    expect(parseSecretHost("api.example.com:8443")).toEqual({ host: "api.example.com", wildcard: false, port: 8443 });
    expect(canonicalSecretHost("Bücher.Example")).toBe("xn--bcher-kva.example");
    expect(canonicalSecretHost("127.0.0.1:9000")).toBe("127.0.0.1:9000");
    for (const bad of ["*", "*.com", "*.10.0.0.1", "https://api.example.com", "api.example.com/path", "a b", "", "api.example.com:0", "user@host"]) {
      expect(parseSecretHost(bad), bad).toBeNull();
    }
  });

  it("matches a URL's host: exact, wildcard subdomains only, ports, case, IDN, trailing dot", () => {
    const at = (hosts: string[], url: string) => hostAllowed(hosts, new URL(url));
    expect(at(["api.example.com"], "https://API.EXAMPLE.com./v1")).toBe(true);
    expect(at(["api.example.com"], "https://api.example.com:8443/")).toBe(true); // no port: any port
    expect(at(["api.example.com:443"], "https://api.example.com/")).toBe(true);
    expect(at(["api.example.com:443"], "http://api.example.com/")).toBe(false);
    expect(at(["api.example.com"], "https://evil.test/")).toBe(false);
    expect(at(["api.example.com"], "https://api.example.com.evil.test/")).toBe(false);
    expect(at(["api.example.com"], "https://evil.test/?https://api.example.com")).toBe(false);
    expect(at(["*.example.com"], "https://a.b.example.com/")).toBe(true);
    expect(at(["*.example.com"], "https://example.com/")).toBe(false);
    expect(at(["*.example.com"], "https://badexample.com/")).toBe(false);
    expect(at(["bücher.example"], "https://xn--bcher-kva.example/")).toBe(true);
    expect(at(["xn--bcher-kva.example"], "https://BÜCHER.example/")).toBe(true);
    expect(at(["127.0.0.1"], "http://2130706433:8080/")).toBe(true);
    expect(at([], "https://api.example.com/")).toBe(false);
  });

  it("puts every echoed value back as its reference, raw and JSON-escaped, longest first", () => {
    const used = [
      { name: "SHORT", value: "abc123" },
      { name: "LONG", value: "abc123-and-more" },
      { name: "QUOTED", value: 'p"a\\ss' },
    ];
    const echoed = JSON.stringify({ authorization: "Bearer abc123-and-more", x: "abc123abc123", q: 'p"a\\ss' });
    const out = redactValues(echoed, used);
    expect(out).not.toContain("abc123");
    expect(out).not.toContain(JSON.stringify('p"a\\ss').slice(1, -1));
    expect(JSON.parse(out)).toEqual({ authorization: "Bearer {{secret:LONG}}", x: "{{secret:SHORT}}{{secret:SHORT}}", q: "{{secret:QUOTED}}" });
    expect(redactValues("nothing here", used)).toBe("nothing here");
  });
});
