import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ProviderServer, startProviderServer } from "../../tests/fixtures/provider-server";
import { dashboardTotals } from "../db/dashboard";
import type { FlowDocument } from "../flow/schema";
import { saveProvider } from "../models/provider-settings";
import { estimateCost } from "../models/pricing";
import { openHostsForTests } from "../net/operator-open-hosts";
import { collect, type EngineFixture, engineFixture, lastData } from "../runs/test-helpers";

/**
 * A model per node against two real OpenAI-compatible HTTP servers (docs/models.md): the
 * planner and the finalizer talk to provider "alpha", the agent to provider "beta"; each
 * server's log holds exactly its nodes' calls, with their temperature and max output.
 */

const pos = { x: 0, y: 0 };
const doc: FlowDocument = {
  version: 1,
  settings: {
    name: "Two providers",
    description: "",
    mode: "autonomous",
    model: "",
    limits: { maxIterations: 50, timeoutMs: 300_000 },
    network: { allowHosts: [], methods: ["GET", "HEAD"], maxResponseBytes: 1_048_576, timeoutMs: 30_000 },
    memory: { enabled: false, autoPromote: false, shortTermTtlHours: 24 },
    library: { mount: false },
  },
  nodes: [
    { id: "start", type: "start", position: pos, data: { label: "Start" } },
    { id: "sup", type: "supervisor", position: pos, data: { name: "Planner", instructions: "", model: "alpha:planner-model", temperature: 0.1, maxOutputTokens: 700 } },
    {
      id: "researcher",
      type: "agent",
      position: pos,
      data: { name: "Researcher", role: "step_executor", instructions: "", model: "beta:worker-model", temperature: 0.6, maxOutputTokens: 500, maxTries: 1, icon: "bot", color: "#5b3cc4" },
    },
    { id: "end", type: "end", position: pos, data: { label: "End", model: "alpha:writer-model", temperature: 0.3, maxOutputTokens: 300 } },
  ],
  edges: [
    { id: "e1", source: "start", target: "sup" },
    { id: "e2", source: "sup", target: "researcher" },
    { id: "e3", source: "sup", target: "end" },
  ],
};

let alpha: ProviderServer;
let beta: ProviderServer;
let closeOpened: () => void = () => {};
let f: EngineFixture;

beforeAll(async () => {
  alpha = await startProviderServer(
    (req) =>
      req.tools.includes("create_plan")
        ? { kind: "tool", name: "create_plan", args: JSON.stringify({ steps: [{ agent_id: "researcher", task: "Find when tea reached Europe", expected_output: "a date", depends_on: [] }] }) }
        : { kind: "text", text: "Tea reached Europe in the early 1600s." },
    { usage: { prompt_tokens: 100, completion_tokens: 10 } },
  );
  beta = await startProviderServer(() => ({ kind: "text", text: "Dutch traders brought tea to Europe around 1610." }), { usage: { prompt_tokens: 2000, completion_tokens: 50 } });
  // Loopback is private: the operator opens both servers (OUTBOUND_ALLOW_PRIVATE).
  closeOpened = openHostsForTests([alpha.host, beta.host]);
  f = await engineFixture(doc);
  await saveProvider(f.t.db, f.userId, { provider: "openai-compatible", name: "alpha", baseUrl: alpha.baseURL, model: "planner-model" });
  await saveProvider(f.t.db, f.userId, { provider: "openai-compatible", name: "beta", baseUrl: beta.baseURL, model: "worker-model" });
});

afterAll(async () => {
  closeOpened();
  await f?.cleanup();
  await alpha?.close();
  await beta?.close();
});

describe("a model per node, over HTTP", () => {
  it("sends the planner and the finalizer to provider A and the agent to provider B, each with its settings", async () => {
    const threadId = await f.newThread("When did tea reach Europe? Find out and tell me.");
    const chunks = await collect(await f.prepare(threadId, { kind: "message", text: "When did tea reach Europe? Find out and tell me." }));
    const run = lastData(chunks, "data-run");
    expect(run?.data.status).toBe("completed");

    const sent = (s: ProviderServer) => s.requests.map((r) => ({ model: r.model, temperature: r.temperature, max_tokens: r.maxTokens, plan: r.tools.includes("create_plan") }));
    expect(sent(alpha)).toEqual([
      { model: "planner-model", temperature: 0.1, max_tokens: 700, plan: true },
      { model: "writer-model", temperature: 0.3, max_tokens: 300, plan: false },
    ]);
    expect(sent(beta)).toEqual([{ model: "worker-model", temperature: 0.6, max_tokens: 500, plan: false }]);

    // Tokens are recorded per model, so each call is priced at its own model's price.
    expect(run?.data.usage).toEqual({
      inputTokens: 2200,
      outputTokens: 70,
      byModel: expect.arrayContaining([
        { provider: "openai-compatible", name: "alpha", modelId: "planner-model", inputTokens: 100, outputTokens: 10 },
        { provider: "openai-compatible", name: "beta", modelId: "worker-model", inputTokens: 2000, outputTokens: 50 },
        { provider: "openai-compatible", name: "alpha", modelId: "writer-model", inputTokens: 100, outputTokens: 10 },
      ]),
    });
    expect(run?.data.usage?.byModel).toHaveLength(3);
  });

  it("prices a run call by call at each model's price on the dashboard", async () => {
    // The same run's record, as if A were OpenAI's gpt-4.1 and B its gpt-4.1-mini.
    const ended = await f.t.db.runEvent.findFirstOrThrow({ where: { type: "run_completed" } });
    const data = JSON.parse(ended.data) as { data: { usage: { byModel: { provider: string; name: string; modelId: string }[] } } };
    for (const m of data.data.usage.byModel) Object.assign(m, { provider: "openai", name: "openai", modelId: m.name === "beta" ? "gpt-4.1-mini" : "gpt-4.1" });
    await f.t.db.runEvent.update({ where: { id: ended.id }, data: { data: JSON.stringify(data) } });
    const totals = await dashboardTotals(f.t.db, f.userId);
    const planner = estimateCost({ modelId: "gpt-4.1", provider: "openai", inputTokens: 200, outputTokens: 20 }) as number;
    const worker = estimateCost({ modelId: "gpt-4.1-mini", provider: "openai", inputTokens: 2000, outputTokens: 50 }) as number;
    expect(totals.costUsd).toBeCloseTo(planner + worker, 12);
    // One price for all the run's tokens would say otherwise.
    expect(totals.costUsd).not.toBeCloseTo(estimateCost({ modelId: "gpt-4.1", provider: "openai", inputTokens: 2200, outputTokens: 70 }) as number, 6);
  });
});
