import { describe, expect, it } from "vitest";
import { z } from "zod";
import { nestedSchema, schemaProperties, schemaRules, schemaType } from "./schema-summary";

const json = (s: z.ZodType) => z.toJSONSchema(s, { io: "input" }) as Record<string, unknown>;

describe("schemaType", () => {
  it.each([
    [z.string(), "string"],
    [z.number().int(), "integer"],
    [z.literal("stdio"), '"stdio"'],
    [z.enum(["a", "b"]), '"a" | "b"'],
    [z.array(z.string()), "array of string"],
    [z.record(z.string(), z.number()), "map of number"],
    [z.string().nullable(), "string | null"],
    [z.email(), "string (email)"],
    [z.unknown(), "any"],
    [z.discriminatedUnion("k", [z.object({ k: z.literal("x") }), z.object({ k: z.literal("y") })]), "one of 2 shapes"],
  ])("%#: names the type of a zod schema in a few words", (schema, words) => {
    expect(schemaType(json(schema))).toBe(words);
  });

  it("names a $ref by its last segment", () => {
    expect(schemaType({ $ref: "#/components/schemas/Error" })).toBe("Error");
  });
});

describe("schemaRules", () => {
  it("states lengths, bounds, pattern and default, leaving out zod's safe-integer bounds", () => {
    expect(
      schemaRules(
        json(
          z
            .string()
            .min(1)
            .max(64)
            .regex(/^[a-z]+$/),
        ),
      ),
    ).toEqual(["1-64 chars", "pattern ^[a-z]+$"]);
    expect(schemaRules(json(z.number().int().min(0)))).toEqual(["0 or more"]);
    expect(schemaRules(json(z.number().int().min(1).max(500)))).toEqual(["1 to 500"]);
    expect(schemaRules(json(z.array(z.string()).max(10)))).toEqual(["at most 10 items"]);
    expect(schemaRules(json(z.string().max(5).default("")))).toEqual(["at most 5 chars", 'default ""']);
    expect(schemaRules(json(z.object({}).strict()))).toEqual(["no other keys"]);
  });
});

describe("nestedSchema", () => {
  it("finds the fields below an object, an array of objects and a union of objects, not below a plain value", () => {
    const obj = json(z.object({ a: z.string(), b: z.number().optional() }));
    expect(schemaProperties(obj)).toEqual([
      { name: "a", schema: { type: "string" }, required: true },
      { name: "b", schema: { type: "number" }, required: false },
    ]);
    expect(nestedSchema(obj)).toBe(obj);
    expect(nestedSchema(json(z.array(z.object({ a: z.string() }))))).toMatchObject({ properties: { a: { type: "string" } } });
    expect(nestedSchema(json(z.union([z.object({ a: z.string() }), z.object({ b: z.string() })])))).toBeDefined();
    expect(nestedSchema(json(z.string().nullable()))).toBeUndefined();
    expect(nestedSchema(json(z.array(z.string())))).toBeUndefined();
  });
});
