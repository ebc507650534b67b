import { existsSync, readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../db/test-db";
import { createFlow } from "../db/flows";
import { pagesContaining, rowsContaining } from "../memory/test-fixtures";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import { openSecretValue } from "./box";
import { SecretInput, SecretReplace } from "./input";
import { addSecret, deleteSecret, listSecrets, replaceSecret } from "./service";

/**
 * Workspace secrets on a real database (docs/secrets.md "Managing secrets"): the value is
 * sealed (the raw column and the stored bytes never hold it), no view carries it, every
 * member lists names and hosts, only owners change them, and bad input is refused naming
 * the field.
 */

const VALUE = "sk_live_9d1f0c6b7a2e4f58b3c1d0e9a8f7b6c5";

describe("workspace secrets (service)", () => {
  let t: TestDb | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  async function setup() {
    t = await createTestDb();
    const owner = await t.db.user.create({ data: { email: `owner-${Date.now()}@test.dev`, name: "Olga" } });
    const { workspaceId } = await createFlow(t.db, owner.id, workspaceAssistant);
    const approver = await t.db.user.create({ data: { email: `appr-${Date.now()}@test.dev`, memberships: { create: { workspaceId, role: "approver" } } } });
    const viewer = await t.db.user.create({ data: { email: `view-${Date.now()}@test.dev`, memberships: { create: { workspaceId, role: "viewer" } } } });
    const stranger = await t.db.user.create({ data: { email: `str-${Date.now()}@test.dev` } });
    return { db: t.db, workspaceId, owner: owner.id, approver: approver.id, viewer: viewer.id, stranger: stranger.id };
  }

  it("seals the value at rest: no raw column or stored byte holds it, and no view carries it", async () => {
    const { db, workspaceId, owner } = await setup();
    const view = await addSecret(db, owner, workspaceId, SecretInput.parse({ name: "API_TOKEN", value: VALUE, hosts: ["API.Example.com", "*.example.org", "api.example.com"] }));
    expect(view).toMatchObject({ name: "API_TOKEN", hosts: ["api.example.com", "*.example.org"], createdBy: "Olga", lastUsedAt: null });
    expect(JSON.stringify(view)).not.toContain(VALUE);
    const raw = await db.$queryRawUnsafe<{ sealedValue: string }[]>(`SELECT "sealedValue" FROM "WorkspaceSecret"`);
    expect(raw).toHaveLength(1);
    expect(raw[0]?.sealedValue).not.toContain(VALUE);
    expect(openSecretValue(raw[0]?.sealedValue ?? "")).toBe(VALUE);
    expect(await rowsContaining(db, VALUE)).toEqual([]);
    const stored = t?.file ? [t.file, `${t.file}-wal`].filter((p) => existsSync(p) && readFileSync(p).includes(Buffer.from(VALUE))) : await pagesContaining(db, VALUE);
    expect(stored).toEqual([]);

    const replaced = await replaceSecret(db, owner, workspaceId, "API_TOKEN", SecretReplace.parse({ value: `${VALUE}-2` }));
    expect(replaced.hosts).toEqual(["api.example.com", "*.example.org"]);
    const after = await db.workspaceSecret.findFirstOrThrow({ where: { workspaceId } });
    expect(openSecretValue(after.sealedValue)).toBe(`${VALUE}-2`);
    expect(JSON.stringify(await listSecrets(db, owner, workspaceId))).not.toContain(VALUE);
  });

  it("lets every member list; only owners add, replace and delete; strangers get 404", async () => {
    const { db, workspaceId, owner, approver, viewer, stranger } = await setup();
    const input = SecretInput.parse({ name: "API_TOKEN", value: VALUE, hosts: ["api.example.com"] });
    await addSecret(db, owner, workspaceId, input);
    for (const member of [approver, viewer]) {
      expect((await listSecrets(db, member, workspaceId)).map((s) => s.name)).toEqual(["API_TOKEN"]);
      await expect(addSecret(db, member, workspaceId, { ...input, name: "OTHER" })).rejects.toMatchObject({ status: 403, reason: "role_forbidden" });
      await expect(replaceSecret(db, member, workspaceId, "API_TOKEN", { value: "x" })).rejects.toMatchObject({ status: 403 });
      await expect(deleteSecret(db, member, workspaceId, "API_TOKEN")).rejects.toMatchObject({ status: 403 });
    }
    await expect(listSecrets(db, stranger, workspaceId)).rejects.toMatchObject({ status: 404, reason: "workspace_not_found" });
    await expect(addSecret(db, stranger, workspaceId, input)).rejects.toMatchObject({ status: 404 });
    await expect(addSecret(db, owner, workspaceId, input)).rejects.toMatchObject({ status: 409, reason: "secret_exists" });
    await expect(replaceSecret(db, owner, workspaceId, "NOPE", { value: "x" })).rejects.toMatchObject({ status: 404, reason: "secret_not_found" });
    await deleteSecret(db, owner, workspaceId, "API_TOKEN");
    await expect(deleteSecret(db, owner, workspaceId, "API_TOKEN")).rejects.toMatchObject({ status: 404, reason: "secret_not_found" });
    expect(await listSecrets(db, owner, workspaceId)).toEqual([]);
  });

  it("refuses bad input naming the field", () => {
    const issues = (body: unknown) => {
      const r = SecretInput.safeParse(body);
      return r.success ? [] : r.error.issues.map((i) => i.path.join("."));
    };
    const ok = { name: "API_TOKEN", value: "v", hosts: ["api.example.com"] };
    expect(issues(ok)).toEqual([]);
    expect(issues({ ...ok, name: "api_token" })).toEqual(["name"]);
    expect(issues({ ...ok, name: `A${"B".repeat(64)}` })).toEqual(["name"]);
    expect(issues({ ...ok, value: "x".repeat(8193) })).toEqual(["value"]);
    expect(issues({ ...ok, value: "é".repeat(4097) })).toEqual(["value"]);
    expect(issues({ ...ok, value: "a\r\nX-Injected: 1" })).toEqual(["value"]);
    expect(issues({ ...ok, value: "" })).toEqual(["value"]);
    expect(issues({ ...ok, hosts: [] })).toEqual(["hosts"]);
    expect(issues({ ...ok, hosts: ["https://api.example.com/x"] })).toEqual(["hosts.0"]);
    expect(issues({ ...ok, hosts: ["ok.example.com", "*"] })).toEqual(["hosts.1"]);
    expect(issues({ ...ok, extra: 1 })).toEqual([""]);
    expect(SecretReplace.safeParse({}).success).toBe(false);
  });
});
