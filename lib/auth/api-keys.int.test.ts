import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { createTestDb, type TestDb } from "../db/test-db";
import { personalWorkspace } from "../db/workspaces";
import { hashApiKey } from "./api-key-format";
import { createApiKey, listApiKeys, revokeApiKey } from "./api-keys";
import { authenticateApiKey, LAST_USED_GRANULARITY_MS } from "./authenticate-api-key";

/**
 * API keys on a real database (docs/api.md "API keys"): only the hash and the prefix are
 * stored, a key names its user and scope, revoked and unknown keys are nobody, last use is
 * written at most once a minute, and nobody reaches another user's keys.
 */
describe("API keys", () => {
  let t: TestDb;
  const ids = { ann: "", ben: "", annWs: "", benWs: "" };

  beforeAll(async () => {
    t = await createTestDb();
    ids.ann = (await t.db.user.create({ data: { email: "ann@test.dev" } })).id;
    ids.ben = (await t.db.user.create({ data: { email: "ben@test.dev" } })).id;
    ids.annWs = await personalWorkspace(t.db, ids.ann);
    ids.benWs = await personalWorkspace(t.db, ids.ben);
  });
  afterAll(async () => t?.cleanup());

  it("stores only the SHA-256 and the first 12 characters, and shows the key once", async () => {
    const { key, view } = await createApiKey(t.db, ids.ann, { name: "  CI  " });
    expect(view).toMatchObject({ name: "CI", prefix: key.slice(0, 12), workspaceId: null, workspaceName: null, lastUsedAt: null, revokedAt: null });
    const row = await t.db.apiKey.findUniqueOrThrow({ where: { id: view.id } });
    expect(row.hash).toBe(hashApiKey(key));
    expect(JSON.stringify(row)).not.toContain(key);
    const listed = await listApiKeys(t.db, ids.ann);
    expect(JSON.stringify(listed)).not.toContain(key);
    expect(JSON.stringify(listed)).not.toContain(row.hash);
  });

  it("scopes a key to a workspace of the user, never another's (404), and checks the name", async () => {
    const { view } = await createApiKey(t.db, ids.ann, { name: "Scoped", workspaceId: ids.annWs });
    expect(view).toMatchObject({ workspaceId: ids.annWs, workspaceName: "ann@test.dev's workspace" });
    await expect(createApiKey(t.db, ids.ann, { name: "Sneaky", workspaceId: ids.benWs })).rejects.toMatchObject({ code: "not_found", reason: "workspace_not_found" });
    await expect(createApiKey(t.db, ids.ann, { name: "   " })).rejects.toBeInstanceOf(ZodError);
    await expect(createApiKey(t.db, ids.ann, { name: "x".repeat(81) })).rejects.toBeInstanceOf(ZodError);
    expect(await t.db.apiKey.count({ where: { name: "Sneaky" } })).toBe(0);
  });

  it("authenticates a key as its user and scope; unknown, malformed and revoked keys are nobody", async () => {
    const { key, view } = await createApiKey(t.db, ids.ann, { name: "Auth", workspaceId: ids.annWs });
    expect(await authenticateApiKey(t.db, key)).toEqual({ userId: ids.ann, email: "ann@test.dev", keyId: view.id, workspaceId: ids.annWs });
    expect(await authenticateApiKey(t.db, `${key.slice(0, -1)}${key.endsWith("A") ? "B" : "A"}`)).toBeNull();
    expect(await authenticateApiKey(t.db, "phy_short")).toBeNull();
    expect(await authenticateApiKey(t.db, "")).toBeNull();
    await revokeApiKey(t.db, ids.ann, view.id);
    expect(await authenticateApiKey(t.db, key)).toBeNull();
  });

  it("writes the last use at most once a minute per key", async () => {
    const { key, view } = await createApiKey(t.db, ids.ann, { name: "Busy" });
    const t0 = Date.UTC(2026, 10, 24, 12, 0, 0);
    const lastUsed = async () => (await t.db.apiKey.findUniqueOrThrow({ where: { id: view.id } })).lastUsedAt?.getTime() ?? null;
    await authenticateApiKey(t.db, key, t0);
    expect(await lastUsed()).toBe(t0);
    await authenticateApiKey(t.db, key, t0 + LAST_USED_GRANULARITY_MS - 1);
    expect(await lastUsed()).toBe(t0);
    await authenticateApiKey(t.db, key, t0 + LAST_USED_GRANULARITY_MS + 1);
    expect(await lastUsed()).toBe(t0 + LAST_USED_GRANULARITY_MS + 1);
    expect((await listApiKeys(t.db, ids.ann)).find((k) => k.id === view.id)?.lastUsedAt).toBe(new Date(t0 + LAST_USED_GRANULARITY_MS + 1).toISOString());
  });

  it("revokes once (idempotent), only the user's own keys (404 for another's)", async () => {
    const { view } = await createApiKey(t.db, ids.ann, { name: "Old" });
    const first = await revokeApiKey(t.db, ids.ann, view.id, new Date(Date.UTC(2026, 0, 1)));
    expect(first.revokedAt).toBe("2026-01-01T00:00:00.000Z");
    const again = await revokeApiKey(t.db, ids.ann, view.id, new Date(Date.UTC(2026, 0, 2)));
    expect(again.revokedAt).toBe("2026-01-01T00:00:00.000Z");
    const { view: bens } = await createApiKey(t.db, ids.ben, { name: "Ben's" });
    await expect(revokeApiKey(t.db, ids.ann, bens.id)).rejects.toMatchObject({ code: "not_found", reason: "api_key_not_found" });
    expect((await t.db.apiKey.findUniqueOrThrow({ where: { id: bens.id } })).revokedAt).toBeNull();
    expect((await listApiKeys(t.db, ids.ann)).map((k) => k.id)).not.toContain(bens.id);
  });
});
