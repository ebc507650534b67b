import { NoSuchToolError } from "ai";
import { describe, expect, it } from "vitest";
import { unknownToolError, unknownToolNote } from "./unknown-tool";

describe("a call to a tool the agent does not have", () => {
  const tools = ["read_file", "write_file"];

  it("is a failed try whose error lists the agent's tools", () => {
    const call = { toolName: "read_fil", invalid: true, error: new NoSuchToolError({ toolName: "read_fil", availableTools: tools }) };
    expect(unknownToolError(call, tools)).toBe("read_fil is not a tool of this agent; its tools are: read_file, write_file.");
    expect(unknownToolError({ toolName: "delete_file" }, tools)).toBe("delete_file is not a tool of this agent; its tools are: read_file, write_file.");
    expect(unknownToolError({ toolName: "x" }, [])).toBe("x is not a tool of this agent; it has no tools.");
  });

  it("is not said of the agent's own tools (valid or not) nor of report_impossible", () => {
    expect(unknownToolError({ toolName: "read_file", invalid: true, error: new Error("bad JSON") }, tools)).toBeNull();
    expect(unknownToolError({ toolName: "report_impossible" }, tools)).toBeNull();
  });

  it("is told to the retry of the step, and only then", () => {
    const error = "read_fil is not a tool of this agent; its tools are: read_file, write_file.";
    expect(unknownToolNote({ tries: 2, error })).toBe(`Your previous try of this step failed: ${error} Call only those tools, by their exact names.`);
    expect(unknownToolNote({ tries: 1, error })).toBeUndefined();
    expect(unknownToolNote({ tries: 2, error: "read_file notes.md failed: not found" })).toBeUndefined();
  });
});
