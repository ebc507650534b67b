import { describe, expect, it } from "vitest";
import { z } from "zod";
import { writeFile } from "../tools/files";
import { argsFromValues, fieldKey, initialValues, schemaFields } from "./schema-fields";

const writeSchema = z.toJSONSchema(writeFile.input, { io: "input" });
const proposal = { path: "summary.md", content: "# Summary\n\n- one\n" };

describe("schemaFields: one field per argument of the tool's input schema", () => {
  it("write_file gives a one-line path and a multi-line content, both required, with the schema's descriptions", () => {
    const fields = schemaFields(writeSchema, proposal);
    expect(fields?.map((f) => [f.name, f.kind, f.required])).toEqual([
      ["path", "text", true],
      ["content", "textarea", true],
    ]);
    expect(fields?.[0]).toMatchObject({ minLength: 1, maxLength: 1024 });
    expect(fields?.[0]?.description).toContain("relative to the workspace root");
  });

  it("numbers, booleans, enums, objects and arrays each get their own kind of field", () => {
    const schema = z.toJSONSchema(
      z.object({
        count: z.number().int().min(1).max(10),
        ratio: z.number().optional(),
        force: z.boolean(),
        dryRun: z.boolean().optional(),
        method: z.enum(["GET", "POST"]),
        headers: z.record(z.string(), z.string()).optional(),
        tags: z.array(z.string()),
        note: z.string().nullable().optional(),
      }),
      { io: "input" },
    );
    const fields = schemaFields(schema, { count: 2, force: true, method: "GET", tags: ["a"] }) ?? [];
    expect(Object.fromEntries(fields.map((f) => [f.name, f.kind]))).toEqual({
      count: "number",
      ratio: "number",
      force: "checkbox",
      dryRun: "select",
      method: "select",
      headers: "json",
      tags: "json",
      note: "textarea",
    });
    expect(fields.find((f) => f.name === "count")).toMatchObject({ integer: true, minimum: 1, maximum: 10 });
    expect(fields.find((f) => f.name === "method")?.options).toEqual(["GET", "POST"]);
    expect(fields.find((f) => f.name === "tags")?.jsonType).toBe("array");
  });

  it("a value the field cannot show exactly, and an argument the schema lacks, become JSON fields", () => {
    const fields = schemaFields(writeSchema, { path: 42, content: "x", extra: { a: 1 } }) ?? [];
    expect(fields.map((f) => [f.name, f.kind, f.extra ?? false])).toEqual([
      ["path", "json", false],
      ["content", "textarea", false],
      ["extra", "json", true],
    ]);
  });

  it("no object schema with properties: no form (the edit stays raw JSON)", () => {
    expect(schemaFields({}, proposal)).toBeNull();
    expect(schemaFields({ type: "string" }, proposal)).toBeNull();
    expect(schemaFields(null, proposal)).toBeNull();
  });
});

describe("argsFromValues: the form back to arguments", () => {
  const fields = schemaFields(writeSchema, proposal) ?? [];

  it("an untouched form gives back exactly the proposed arguments", () => {
    expect(argsFromValues(fields, initialValues(fields, proposal), proposal)).toEqual({ args: proposal });
    const schema = z.toJSONSchema(z.object({ n: z.number(), on: z.boolean().optional(), list: z.array(z.number()), label: z.string().optional() }), { io: "input" });
    const args = { n: 2.5, list: [1, 2] };
    const f = schemaFields(schema, args) ?? [];
    expect(argsFromValues(f, initialValues(f, args), args)).toEqual({ args });
  });

  it("a changed field changes only that argument", () => {
    const values = { ...initialValues(fields, proposal), [fieldKey(1)]: "# Edited\n" };
    expect(argsFromValues(fields, values, proposal)).toEqual({ args: { path: "summary.md", content: "# Edited\n" } });
  });

  it("errors name the field and say what is wrong", () => {
    const values = { ...initialValues(fields, proposal), [fieldKey(0)]: "" };
    expect(argsFromValues(fields, values, proposal)).toEqual({ errors: { path: "path: must not be empty" } });
    const long = { ...values, [fieldKey(0)]: "a".repeat(1025) };
    expect(argsFromValues(fields, long, proposal)).toEqual({ errors: { path: "path: must be at most 1024 characters (it has 1025)" } });
  });

  it("numbers, selects and JSON fields are parsed and checked against the schema", () => {
    const schema = z.toJSONSchema(z.object({ count: z.number().int().min(1), method: z.enum(["GET", "POST"]), body: z.object({}).passthrough() }), { io: "input" });
    const args = { count: 1, method: "GET", body: {} };
    const f = schemaFields(schema, args) ?? [];
    const ok = argsFromValues(f, { f0: "3", f1: "1", f2: '{"a": 1}' }, args);
    expect(ok).toEqual({ args: { count: 3, method: "POST", body: { a: 1 } } });
    const bad = argsFromValues(f, { f0: "1.5", f1: "", f2: "[1]" }, args);
    expect(bad).toEqual({ errors: { count: "count: must be a whole number", method: "method: is required", body: 'body: must be a JSON object, e.g. {"key": "value"}' } });
    expect(argsFromValues(f, { f0: "0", f1: "0", f2: "{" }, args)).toMatchObject({ errors: { count: "count: must be at least 1", body: expect.stringMatching(/^body: is not valid JSON/) } });
  });

  it("an optional text left empty stays absent; one the proposal had stays as an empty string", () => {
    const schema = z.toJSONSchema(z.object({ title: z.string().optional() }), { io: "input" });
    const f = schemaFields(schema, {}) ?? [];
    expect(argsFromValues(f, { f0: "" }, {})).toEqual({ args: {} });
    expect(argsFromValues(f, { f0: "" }, { title: "x" })).toEqual({ args: { title: "" } });
  });
});
