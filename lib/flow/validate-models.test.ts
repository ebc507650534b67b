import { describe, expect, it } from "vitest";
import { compileFlowSpec } from "./compile";
import { assertRunnable } from "./runnable";
import { FlowDocument, type FlowEdge, type FlowNode } from "./schema";
import { validateFlow } from "./validate";

const catalog = { known: (name: string) => name === "read_file", sideEffect: () => false };
const pos = { x: 0, y: 0 };
const edge = (source: string, target: string): FlowEdge => ({ id: `${source}-${target}`, source, target });
const agent = (id: string, name: string, model: string, extra: Record<string, number> = {}): FlowNode => ({
  id,
  type: "agent",
  position: pos,
  data: { name, role: "step_executor", instructions: "", model, maxTries: 3, icon: "bot", color: "#5b3cc4", ...extra },
});
function flow(opts: { planner?: string; researcher?: string; finalizer?: string } = {}) {
  const nodes: FlowNode[] = [
    { id: "start", type: "start", position: pos, data: { label: "Start" } },
    { id: "sup", type: "supervisor", position: pos, data: { name: "Supervisor", instructions: "", ...(opts.planner ? { model: opts.planner, temperature: 0.2 } : {}) } },
    agent("r", "Researcher", opts.researcher ?? "", { temperature: 0.7, maxOutputTokens: 800 }),
    { id: "end", type: "end", position: pos, data: { label: "End", ...(opts.finalizer ? { model: opts.finalizer, maxOutputTokens: 300 } : {}) } },
  ];
  return { nodes, edges: [edge("start", "sup"), edge("sup", "r"), edge("sup", "end")] };
}
const configured = (...names: string[]) => ({ configured: (n: string) => ["offline", ...names].includes(n) });

describe("model settings in the flow spec (docs/models.md)", () => {
  it("says which node names a provider that is not configured, and where to add it", () => {
    const problems = validateFlow(flow({ researcher: "anthropic:claude-x", planner: "openai:gpt-4.1", finalizer: "ollama:llama3.1" }), catalog, configured("openai"));
    expect(problems.filter((p) => p.code === "unknown_provider")).toEqual([
      {
        code: "unknown_provider",
        severity: "error",
        nodeId: "r",
        field: "model",
        message: "Agent 'Researcher' uses anthropic:claude-x, but no Anthropic provider is configured: add one in Settings.",
      },
      { code: "unknown_provider", severity: "error", nodeId: "end", field: "model", message: `The finalizer (End) uses ollama:llama3.1, but no "ollama" provider is configured: add one in Settings.` },
    ]);
  });

  it("accepts configured providers, offline, bare model ids and the default", () => {
    expect(validateFlow(flow({ researcher: "offline:x", planner: "openai:gpt-4.1", finalizer: "gpt-4.1-mini" }), catalog, configured("openai"))).toEqual([]);
  });

  it("refuses to run a flow naming an unconfigured provider", () => {
    const doc = FlowDocument.parse({ settings: { name: "f" }, ...flow({ planner: "anthropic:claude-x" }) });
    expect(() => assertRunnable(doc, catalog, 3, configured("openai"))).toThrowError(
      /Version 3 of this flow cannot run: The planner \('Supervisor'\) uses anthropic:claude-x, but no Anthropic provider is configured/,
    );
    const byDefault = FlowDocument.parse({ settings: { name: "f", model: "vllm:qwen" }, ...flow() });
    expect(() => assertRunnable(byDefault, catalog, 4, configured("openai"))).toThrowError(/The flow's default model uses vllm:qwen, but no "vllm" provider is configured/);
    expect(() => assertRunnable(byDefault, catalog, 4, configured("vllm"))).not.toThrow();
  });

  it("checks temperature (0-2) and max output (1-64000) on the node", () => {
    const bad = flow();
    bad.nodes[2] = agent("r", "Researcher", "", { temperature: 2.5, maxOutputTokens: 0 });
    const fields = validateFlow(bad, catalog)
      .filter((p) => p.code === "invalid_field")
      .map((p) => `${p.nodeId}.${p.field}`);
    expect(fields).toEqual(expect.arrayContaining(["r.temperature", "r.maxOutputTokens"]));
  });

  it("compiles each node's model and settings for the engine", () => {
    const doc = FlowDocument.parse({ settings: { name: "f", model: "offline:default" }, ...flow({ planner: "a:planner-model", researcher: "b:worker", finalizer: "a:writer" }) });
    const spec = compileFlowSpec(doc, { known: () => true, sideEffect: () => false });
    expect(spec.supervisor).toMatchObject({ model: "a:planner-model", temperature: 0.2 });
    expect(spec.agents[0]).toMatchObject({ model: "b:worker", temperature: 0.7, maxOutputTokens: 800 });
    expect(spec.finalizer).toEqual({ model: "a:writer", maxOutputTokens: 300 });
  });
});
