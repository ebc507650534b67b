import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { postgresSchema } from "../../scripts/pg-schema.mjs";

const root = path.resolve(__dirname, "../..");
const read = (rel: string) => readFileSync(path.join(root, rel), "utf8");
const folders = (rel: string) =>
  readdirSync(path.join(root, rel), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();

/**
 * The PostgreSQL migrations start with one baseline of every SQLite migration up to then; its
 * stamp is one second after the last of those, so later migrations of both sort after it.
 */
const BASELINE = "20261124140641_baseline";

describe("the PostgreSQL schema and migrations follow the SQLite ones", () => {
  it("the committed prisma/postgres/schema.prisma is generated from prisma/schema.prisma (run `npm run db:pg-schema`)", () => {
    expect(read("prisma/postgres/schema.prisma")).toBe(postgresSchema(read("prisma/schema.prisma")));
  });

  it("differs from the SQLite schema only in provider, url and client output", () => {
    const sqlite = read("prisma/schema.prisma").split("\n");
    const pg = postgresSchema(read("prisma/schema.prisma")).split("\n").slice(3);
    const changed = sqlite.map((line, i) => [line, pg[i]]).filter(([a, b]) => a !== b);
    expect(pg).toHaveLength(sqlite.length);
    expect(changed).toEqual([
      ['  output     = "../generated/prisma"', '  output     = "../../generated/prisma-pg"'],
      ['  provider = "sqlite"', '  provider = "postgresql"'],
      ['  url      = "file:./dev.db"', '  url      = "postgresql://localhost/phylactery"'],
    ]);
  });

  it("refuses a schema whose datasource it cannot find", () => {
    expect(() => postgresSchema('generator client {\n  output = "../generated/prisma"\n}\n')).toThrow(/provider/);
  });

  it("every SQLite migration after the baseline has a PostgreSQL twin of the same name, and back (`npm run db:migration -- <name>`)", () => {
    const sqlite = folders("prisma/migrations").filter((n) => n > BASELINE);
    const pg = folders("prisma/postgres/migrations");
    expect(pg[0]).toBe(BASELINE);
    expect(pg.slice(1)).toEqual(sqlite);
    expect(read("prisma/postgres/migrations/migration_lock.toml")).toContain('provider = "postgresql"');
  });
});
