import { randomUUID } from "node:crypto";
import { Command, isGraphBubbleUp, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { generateText, type ModelMessage, type ToolSet, tool } from "ai";
import { canonicalArgs } from "../../policy/canonical";
import { executorPrompt, executorSystem } from "../../models/prompts";
import { agentInfo } from "../agents";
import type { EngineDeps } from "../deps";
import { emit } from "../emit";
import { type GraphStateValue, type GraphUpdate, usageOf } from "../state";

/** Where the Executor sends a run (SPEC.md 2). */
export type ExecutorTarget = "risk_gate" | "supervisor";

/**
 * Executor (SPEC.md 2): the current step's agent, an LLM with native tool calling over the
 * tools wired to it on the canvas (passed without `execute`: the graph runs them after the
 * RiskGate). A tool call becomes `proposed_tool` with its RFC 8785 canonical arguments and
 * SHA-256, computed here and recomputed by the RiskGate -> RiskGate. A reply without a tool
 * call is the step's result -> Supervisor. The Executor never edits the plan and never picks
 * the next step; a model error is reported to the Supervisor, which retries.
 */
export function executorNode(deps: EngineDeps) {
  return async (state: GraphStateValue, config?: LangGraphRunnableConfig): Promise<Command<ExecutorTarget>> => {
    const plan = state.plan;
    const step = plan?.steps.find((s) => s.status === "in_progress");
    if (!plan || !step) return new Command({ goto: "supervisor" });
    const agent = deps.flow.agents.find((a) => a.id === step.agent_id) ?? deps.flow.agents[0];
    if (!agent) return new Command({ goto: "supervisor" });

    let messages: ModelMessage[] = state.executor_messages;
    if (messages.length === 0) {
      const byId = new Map(plan.steps.map((s) => [s.id, s]));
      const context = step.depends_on.flatMap((id) => {
        const dep = byId.get(id);
        return dep?.result ? [{ task: dep.task, result: dep.result }] : [];
      });
      const content = executorPrompt({ stepIndex: step.index, stepCount: plan.steps.length, task: step.task, expectedOutput: step.expected_output, context });
      messages = [{ role: "user", content }];
    }
    const tools: ToolSet = {};
    for (const name of agent.tools) {
      const decl = deps.tools.describe(name);
      if (decl) tools[name] = tool({ description: decl.description, inputSchema: decl.input });
    }
    try {
      const { model } = deps.resolveModel(agent.model || deps.flow.defaultModel);
      const res = await generateText({ model, system: executorSystem(agentInfo(deps, agent)), messages, tools });
      const usage = usageOf(res.usage);
      const spent: GraphUpdate = { token_usage: usage, step_usage: { [step.id]: usage } };
      const first = res.toolCalls[0];
      if (first) {
        // Providers (and the offline model) reuse ids across steps; the thread needs unique
        // ones for its timeline, approvals and audit. The suffix keeps [A-Za-z0-9_-].
        const call = { ...first, toolCallId: `${first.toolCallId}-${randomUUID().slice(0, 8)}` };
        const canon = canonicalArgs(call.input);
        const assistant: ModelMessage = {
          role: "assistant",
          content: [{ type: "tool-call", toolCallId: call.toolCallId, toolName: call.toolName, input: call.input }],
        };
        emit(config, {
          type: "data-tool",
          id: call.toolCallId,
          data: { toolCallId: call.toolCallId, toolName: call.toolName, args: call.input, argsHash: canon.hash, status: "proposed", decision: null, rule: null, output: null },
        });
        const update: GraphUpdate = {
          ...spent,
          executor_messages: [...messages, assistant],
          proposed_tool: { name: call.toolName, args: call.input, canonical_args: canon.canonical, args_hash: canon.hash, tool_call_id: call.toolCallId },
          last_tool_result: null,
        };
        return new Command({ update, goto: "risk_gate" });
      }
      const text = res.text.trim() || "(the agent finished the step without a reply)";
      return new Command({ update: { ...spent, executor_messages: messages, step_output: { step_id: step.id, text, ok: true }, lifecycle: "STEP_REVIEW" }, goto: "supervisor" });
    } catch (err) {
      if (isGraphBubbleUp(err)) throw err;
      const message = err instanceof Error ? err.message : String(err);
      return new Command({ update: { executor_messages: [], step_output: { step_id: step.id, text: `model error: ${message}`, ok: false } }, goto: "supervisor" });
    }
  };
}
