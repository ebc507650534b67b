import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openHostsForTests, operatorOpenHosts } from "./operator-open-hosts";

/** What the operator opened (docs/security.md "Operator settings"): the setting and their own URLs. */
describe("operatorOpenHosts", () => {
  beforeAll(() => {
    // lib/env.ts reads the environment on first use; nothing in this file has used it yet.
    vi.stubEnv("OUTBOUND_ALLOW_PRIVATE", "127.0.0.1:11434, ollama.internal");
    vi.stubEnv("OPENAI_COMPATIBLE_BASE_URL", "http://10.0.0.5:8000/v1");
    vi.stubEnv("EMBEDDING_BASE_URL", "https://embed.internal/v1");
    vi.stubEnv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://[::1]:4318");
  });
  afterAll(() => vi.unstubAllEnvs());

  it("opens OUTBOUND_ALLOW_PRIVATE and the host:port of every URL the operator set, nothing more", () => {
    expect(operatorOpenHosts()).toEqual([
      { host: "127.0.0.1", port: 11434 },
      { host: "ollama.internal", port: null },
      { host: "10.0.0.5", port: 8000 },
      { host: "embed.internal", port: 443 },
      { host: "[::1]", port: 4318 },
    ]);
  });

  it("lets tests open hosts the operator's way, and close them again", () => {
    const close = openHostsForTests(["127.0.0.1:9"]);
    expect(operatorOpenHosts()).toContainEqual({ host: "127.0.0.1", port: 9 });
    close();
    expect(operatorOpenHosts()).not.toContainEqual({ host: "127.0.0.1", port: 9 });
    expect(() => openHostsForTests(["not a host/"])).toThrow(/not a host/);
  });
});
