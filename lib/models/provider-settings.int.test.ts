import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { generateText } from "ai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { keyFromSecret } from "../crypto/aes-gcm";
import { createTestDb, type TestDb } from "../db/test-db";
import { openHostsForTests } from "../net/operator-open-hosts";
import { deleteProvider, listProviders, ProviderInput, saveProvider, userModelResolver } from "./provider-settings";

/** Provider settings with sealed keys on a real SQLite file (docs/architecture.md#models). */
describe("provider settings", () => {
  let t: TestDb;
  const key = keyFromSecret("provider key for tests");
  let closeOpened: () => void = () => {};
  // The local test servers are on loopback: the operator opens 127.0.0.1 (any port), not "localhost".
  beforeAll(() => {
    closeOpened = openHostsForTests(["127.0.0.1"]);
  });
  afterAll(() => closeOpened());
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

  it("an attacker cannot save a base URL on a private, local or metadata address, nor one that does not parse (422 on baseUrl)", async () => {
    const { a } = await users();
    const attempts = [
      "http://10.0.0.5:8080/v1",
      "http://192.168.1.1/v1",
      "http://[::1]:11434/v1",
      "http://[::ffff:7f00:1]:11434/v1",
      "http://0x7f.0.0.2:11434/v1",
      "http://169.254.169.254/latest/meta-data",
      "http://metadata.google.internal/computeMetadata/v1",
      "http://[fd00:ec2::254]/",
      "http://0.0.0.0:11434/v1",
      "http://user:pw@api.example.com/v1",
      "http://[::1",
      "not a url",
      "file:///etc/passwd",
    ];
    for (const baseUrl of attempts) {
      const input = { provider: "openai-compatible" as const, baseUrl, model: "m" };
      const parsed = ProviderInput.safeParse(input);
      expect(parsed.success, baseUrl).toBe(false);
      expect(parsed.error?.issues[0]?.path, baseUrl).toEqual(["baseUrl"]);
      await expect(saveProvider(t.db, a, input, key), baseUrl).rejects.toMatchObject({ status: 422, reason: "invalid_base_url", details: { issues: [{ path: "baseUrl" }] } });
    }
    expect(await t.db.providerCredential.count()).toBe(0);
    // Public hosts, names (judged when a request is made) and hosts the operator opened are saved.
    for (const baseUrl of ["https://api.example.com/v1", "http://127.0.0.1:11434/v1"]) {
      expect(ProviderInput.safeParse({ provider: "openai-compatible", baseUrl, model: "m" }).success, baseUrl).toBe(true);
    }
  });

  it("an attacker's saved base URL whose name resolves to loopback is refused when a run uses it, and the server is never reached", async () => {
    const { a } = await users();
    let hits = 0;
    const server = createServer((_req, res) => {
      hits++;
      res.end("internal answer");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const port = (server.address() as AddressInfo).port;
      // "localhost" is a name: saving it is allowed; what it resolves to is judged per request.
      await saveProvider(t.db, a, { provider: "openai-compatible", baseUrl: `http://localhost:${port}/v1`, model: "m", isDefault: true }, key);
      const resolved = (await userModelResolver(t.db, a, {}, key))("");
      const err = await generateText({ model: resolved.model, prompt: "hi", maxRetries: 0 }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: "forbidden", reason: "address_not_allowed" });
      expect(String(err)).not.toContain("internal answer");
      expect(hits).toBe(0);
    } finally {
      server.close();
    }
  });
});
