import { describe, expect, it } from "vitest";
import { presentedApiKey } from "./presented-api-key";

const key = `phy_${"A".repeat(43)}`;

describe("the API key a request presents", () => {
  it("is the Bearer token, in any case of the scheme", () => {
    expect(presentedApiKey(new Headers({ authorization: `Bearer ${key}` }))).toBe(key);
    expect(presentedApiKey(new Headers({ authorization: `bearer   ${key} ` }))).toBe(key);
  });

  it("is the x-api-key header", () => {
    expect(presentedApiKey(new Headers({ "x-api-key": key }))).toBe(key);
  });

  it("is none without either header, or with another Authorization scheme", () => {
    expect(presentedApiKey(new Headers())).toBeNull();
    expect(presentedApiKey(new Headers({ authorization: "Basic YTpi" }))).toBeNull();
  });

  it("is what was sent even when it is empty or garbage, so that it gets refused", () => {
    expect(presentedApiKey(new Headers({ authorization: "Bearer" }))).toBe("");
    expect(presentedApiKey(new Headers({ "x-api-key": "nonsense" }))).toBe("nonsense");
  });

  it("refuses two different keys", () => {
    expect(() => presentedApiKey(new Headers({ authorization: `Bearer ${key}`, "x-api-key": "other" }))).toThrow(/different keys/);
    expect(presentedApiKey(new Headers({ authorization: `Bearer ${key}`, "x-api-key": key }))).toBe(key);
  });
});
