import { describe, expect, it } from "vitest";
import { findInputFault, ILL_FORMED_MESSAGE, PROTO_KEY_MESSAGE } from "./input-fault";

describe("findInputFault", () => {
  it("names the dotted path of a string holding a lone surrogate, in arrays and objects", () => {
    expect(findInputFault({ input: { args: { list: ["ok", "bad\ud800"] } } })).toEqual({ path: "input.args.list.1", message: ILL_FORMED_MESSAGE });
    expect(findInputFault("\udc00")).toEqual({ path: "", message: ILL_FORMED_MESSAGE });
    expect(findInputFault({ a: "end\ud83d" })?.path).toBe("a");
  });

  it("accepts well-formed text: pairs, NUL, emoji, combining marks and other scripts", () => {
    expect(findInputFault({ a: "😀 \u0000 e\u0301 Ω 中文", b: [1, null, true, -0, { c: "\ud83d\ude00" }] })).toBeNull();
  });

  it("refuses a key with a lone surrogate and a __proto__ key, naming where", () => {
    expect(findInputFault({ a: { "k\udfff": 1 } })).toEqual({ path: "a", message: `a key ${ILL_FORMED_MESSAGE}` });
    expect(findInputFault(JSON.parse('{"x":{"__proto__":{"admin":true}}}'))).toEqual({ path: "x.__proto__", message: PROTO_KEY_MESSAGE });
  });

  it("lets constructor and prototype keys through: they are plain data after JSON.parse", () => {
    expect(findInputFault(JSON.parse('{"constructor":{"prototype":{"x":1}}}'))).toBeNull();
  });

  it("walks 100,000 levels of nesting without overflowing the stack", () => {
    let v: unknown = "\ud800";
    for (let i = 0; i < 100_000; i++) v = [v];
    expect(findInputFault(v)?.path.split(".")).toHaveLength(100_000);
  });
});
