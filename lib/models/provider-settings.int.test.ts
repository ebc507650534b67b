import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { generateText } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { keyFromSecret } from "../crypto/aes-gcm";
import { createTestDb, type TestDb } from "../db/test-db";
import { deleteProvider, listProviders, saveProvider, userModelResolver } from "./provider-settings";

/** Provider settings with sealed keys on a real SQLite file (issue 3 "Models"). */
describe("provider settings", () => {
  let t: TestDb;
  const key = keyFromSecret("provider key for tests");
  afterEach(async () => t?.cleanup());

  async function users() {
    t = await createTestDb();
    const a = await t.db.user.create({ data: { email: "a@test.dev" } });
    const b = await t.db.user.create({ data: { email: "b@test.dev" } });
    return { a: a.id, b: b.id };
  }

  it("stores the key sealed, never returns it, keeps it when omitted, removes it with an empty string", async () => {
    const { a, b } = await users();
    await saveProvider(t.db, a, { provider: "openai-compatible", baseUrl: "http://127.0.0.1:1/v1", model: "local", apiKey: "sk-very-secret-9876" }, key);
    const row = await t.db.providerCredential.findFirstOrThrow({ where: { userId: a } });
    expect(row.apiKeyCiphertext).not.toContain("sk-very-secret");
    const listed = await listProviders(t.db, a);
    expect(JSON.stringify(listed)).not.toContain("sk-very-secret");
    expect(JSON.stringify(listed)).not.toContain(row.apiKeyCiphertext ?? "none");
    expect(listed).toMatchObject([{ provider: "openai-compatible", hasKey: true, keyHint: "…9876", model: "local" }]);

    await saveProvider(t.db, a, { provider: "openai-compatible", baseUrl: "http://127.0.0.1:1/v1", model: "other" }, key);
    expect((await listProviders(t.db, a))[0]).toMatchObject({ hasKey: true, model: "other" });
    await saveProvider(t.db, a, { provider: "openai-compatible", baseUrl: "http://127.0.0.1:1/v1", model: "other", apiKey: "" }, key);
    expect((await listProviders(t.db, a))[0]).toMatchObject({ hasKey: false, keyHint: null });
    expect(await listProviders(t.db, b)).toEqual([]);
    await expect(saveProvider(t.db, a, { provider: "openai", model: "gpt-4.1-mini" }, key)).rejects.toMatchObject({ reason: "api_key_required" });
  });

  it("one default at a time", async () => {
    const { a } = await users();
    await saveProvider(t.db, a, { provider: "openai", apiKey: "sk-openai-1111", isDefault: true }, key);
    await saveProvider(t.db, a, { provider: "anthropic", apiKey: "sk-ant-2222", isDefault: true }, key);
    expect((await listProviders(t.db, a)).map((p) => [p.provider, p.isDefault])).toEqual([
      ["anthropic", true],
      ["openai", false],
    ]);
    await deleteProvider(t.db, a, "anthropic");
    expect((await listProviders(t.db, a)).map((p) => p.provider)).toEqual(["openai"]);
  });

  it("runs use the user's provider with the decrypted key; without one, the offline model", async () => {
    const { a, b } = await users();
    const seen: { auth?: string; model?: string }[] = [];
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => {
        body += c;
      });
      req.on("end", () => {
        seen.push({ auth: req.headers.authorization, model: JSON.parse(body).model });
        res.setHeader("content-type", "application/json");
        res.end(
          JSON.stringify({
            id: "x",
            object: "chat.completion",
            created: 0,
            model: "local",
            choices: [{ index: 0, message: { role: "assistant", content: "hello from the local server" }, finish_reason: "stop" }],
            usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 },
          }),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const port = (server.address() as AddressInfo).port;
      await saveProvider(t.db, a, { provider: "openai-compatible", baseUrl: `http://127.0.0.1:${port}/v1`, model: "local-model", apiKey: "sk-sealed-4242" }, key);
      // Saved but not chosen for runs: the fallback applies.
      expect((await userModelResolver(t.db, a, {}, key))("")).toMatchObject({ provider: "offline" });
      await saveProvider(t.db, a, { provider: "openai-compatible", baseUrl: `http://127.0.0.1:${port}/v1`, model: "local-model", isDefault: true }, key);
      const resolve = await userModelResolver(t.db, a, {}, key);
      const resolved = resolve("");
      expect(resolved).toMatchObject({ provider: "openai-compatible", modelId: "local-model", offline: false });
      const res = await generateText({ model: resolved.model, prompt: "hi" });
      expect(res.text).toBe("hello from the local server");
      expect(seen).toEqual([{ auth: "Bearer sk-sealed-4242", model: "local-model" }]);
      expect(resolve("agent-override").modelId).toBe("agent-override");
      expect((await userModelResolver(t.db, b, {}, key))("")).toMatchObject({ provider: "offline", offline: true });
    } finally {
      server.close();
    }
  });
});
