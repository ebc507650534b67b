import { describe, expect, it } from "vitest";
import { createModelRegistry, providerOf } from "./registry";
import { providersFromEnv, resolveModel } from "./resolve";

const env = { OPENAI_API_KEY: "sk-test", OPENAI_MODEL: "gpt-4.1-mini", ANTHROPIC_API_KEY: "ak-test" };

describe("the provider registry (provider:model)", () => {
  it("resolves openai:gpt-x to that OpenAI model, and anthropic:… to Anthropic's", () => {
    const reg = createModelRegistry(providersFromEnv(env));
    expect(reg.resolve("openai:gpt-x")).toMatchObject({ provider: "openai", name: "openai", modelId: "gpt-x", offline: false });
    const claude = reg.resolve("anthropic:claude-haiku-4-5");
    expect(claude).toMatchObject({ provider: "anthropic", modelId: "claude-haiku-4-5" });
    expect((claude.model as { provider: string }).provider).toMatch(/anthropic/);
  });

  it("resolves offline:… to the offline model, configured or not", () => {
    expect(createModelRegistry([]).resolve("offline:anything")).toMatchObject({ provider: "offline", modelId: "offline", offline: true });
    expect(createModelRegistry(providersFromEnv(env)).resolve("offline:x")).toMatchObject({ offline: true });
  });

  it("refuses a provider that is not configured, saying so", () => {
    const reg = createModelRegistry(providersFromEnv({ OPENAI_API_KEY: "sk-test" }));
    expect(() => reg.resolve("anthropic:claude-x")).toThrowError(/uses anthropic:claude-x, but no Anthropic provider is configured: add one in Settings/);
    expect(() => reg.resolve("ollama:llama3.1")).toThrowError(/no "ollama" provider is configured/);
  });

  it("keeps today's default: no model, or a bare model id, goes to the one provider the environment picks", () => {
    const reg = createModelRegistry(providersFromEnv(env));
    expect(reg.defaultProvider).toBe("openai");
    expect(reg.resolve("")).toMatchObject({ provider: "openai", modelId: "gpt-4.1-mini" });
    expect(reg.resolve("gpt-4.1")).toMatchObject({ provider: "openai", modelId: "gpt-4.1" });
    expect(reg.resolve("openai:")).toMatchObject({ provider: "openai", modelId: "gpt-4.1-mini" });
    expect(resolveModel("", {})).toMatchObject({ provider: "offline", offline: true });
    expect(resolveModel("gpt-4.1", {})).toMatchObject({ provider: "offline", offline: true });
  });

  it("names OpenAI-compatible servers from OPENAI_COMPATIBLE_PROVIDERS; a model id may hold colons", () => {
    const reg = createModelRegistry(providersFromEnv({ OPENAI_COMPATIBLE_PROVIDERS: "ollama=http://127.0.0.1:11434/v1, vllm=http://10.0.0.5:8000/v1" }));
    expect(reg.providers).toEqual(expect.arrayContaining(["ollama", "vllm", "offline"]));
    expect(reg.resolve("ollama:llama3.1:8b")).toMatchObject({ provider: "openai-compatible", name: "ollama", modelId: "llama3.1:8b" });
    expect(reg.resolve("vllm:qwen")).toMatchObject({ name: "vllm", modelId: "qwen" });
  });

  it("tells a provider reference from a bare model id", () => {
    expect(providerOf("openai:gpt-x")).toBe("openai");
    expect(providerOf("gpt-4.1")).toBeNull();
    expect(providerOf("llama3.1:8b")).toBeNull();
    expect(providerOf("")).toBeNull();
  });
});
