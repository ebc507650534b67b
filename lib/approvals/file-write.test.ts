import { describe, expect, it } from "vitest";
import { fileWriteOf, writesFile } from "./file-write";

describe("fileWriteOf: which calls write a file", () => {
  it("write_file with a path and a content", () => {
    expect(writesFile("write_file")).toBe(true);
    expect(fileWriteOf("write_file", { path: "a.md", content: "# A" })).toEqual({ path: "a.md", content: "# A" });
  });

  it("other tools and malformed arguments write no file", () => {
    for (const name of ["read_file", "delete_file", "mcp__fs__write", "toString", "__proto__"]) expect(writesFile(name)).toBe(false);
    expect(fileWriteOf("read_file", { path: "a.md" })).toBeNull();
    expect(fileWriteOf("write_file", { path: "a.md" })).toBeNull();
    expect(fileWriteOf("write_file", "text")).toBeNull();
    expect(fileWriteOf("write_file", null)).toBeNull();
  });
});
