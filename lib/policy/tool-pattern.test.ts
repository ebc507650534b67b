import { describe, expect, it } from "vitest";
import { toolMatches } from "./tool-pattern";

/** Tool name patterns of policy rules (docs/architecture.md#policies). */
describe("toolMatches", () => {
  it.each([
    ["write_file", "write_file", true],
    ["write_file", "write_files", false],
    ["write_file", "rewrite_file", false],
    ["*", "anything_at_all", true],
    ["*_file", "write_file", true],
    ["*_file", "delete_file", true],
    ["*_file", "list_files", false],
    ["*_file", "_file", true],
    ["read_*", "read_file", true],
    ["read_*", "unread_file", false],
    ["read_*", "read", false],
    ["*mail*", "send_email", true],
    ["a*b*c", "axxbyyc", true],
    ["a*b*c", "axxbyy", false],
  ])("%s covers %s: %s", (pattern, tool, expected) => {
    expect(toolMatches(pattern, tool)).toBe(expected);
  });
});
