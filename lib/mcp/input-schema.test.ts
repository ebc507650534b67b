import { z } from "zod";
import { describe, expect, it } from "vitest";
import { inputSchemaToZod } from "./input-schema";

describe("MCP input schemas as zod", () => {
  it("checks what the JSON Schema says: types, required fields, bounds", () => {
    const { schema, problem } = inputSchemaToZod({
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { title: { type: "string", minLength: 1 }, count: { type: "integer", maximum: 10 } },
      required: ["title"],
      additionalProperties: false,
    });
    expect(problem).toBeNull();
    expect(schema.safeParse({ title: "a", count: 3 }).success).toBe(true);
    expect(schema.safeParse({ title: "" }).success).toBe(false);
    expect(schema.safeParse({ count: 3 }).success).toBe(false);
    expect(schema.safeParse({ title: "a", count: 11 }).success).toBe(false);
    expect(schema.safeParse({ title: "a", extra: 1 }).success).toBe(false);
    // The model is sent the schema back as JSON Schema.
    expect(z.toJSONSchema(schema, { io: "input" })).toMatchObject({ type: "object", required: ["title"] });
  });

  it("falls back to any JSON object, and says why, when it cannot convert", () => {
    const ref = inputSchemaToZod({ type: "object", properties: { x: { $ref: "#/definitions/missing" } } });
    expect(ref.problem).toMatch(/cannot be checked here/);
    expect(ref.schema.safeParse({ x: 1 }).success).toBe(true);
    expect(ref.schema.safeParse("text").success).toBe(false);
    // JSON Schema's if/then (built from JSON text: an object literal with `then` would be thenable).
    const conditional = inputSchemaToZod(JSON.parse('{"type":"object","if":{"properties":{"a":{"const":1}}},"then":{"required":["b"]}}'));
    expect(conditional.problem).toMatch(/not supported/);
    expect(inputSchemaToZod(undefined).problem).toMatch(/no input schema/);
    expect(inputSchemaToZod({ type: "string" }).problem).toMatch(/not "object"/);
  });

  it("treats a schema without a type as an object schema", () => {
    const { schema, problem } = inputSchemaToZod({ properties: { a: { type: "number" } }, required: ["a"] });
    expect(problem).toBeNull();
    expect(schema.safeParse({ a: 1 }).success).toBe(true);
    expect(schema.safeParse({ a: "1" }).success).toBe(false);
  });
});
