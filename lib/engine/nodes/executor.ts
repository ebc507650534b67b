import { randomUUID } from "node:crypto";
import { Command, isGraphBubbleUp, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { type ModelMessage, type ToolSet, tool } from "ai";
import { DEFAULT_MODEL_CALL_TIMEOUT_MS, withModelDeadline } from "../../models/call-timeout";
import { executorPrompt, executorSystem, REPORT_IMPOSSIBLE, ReportImpossible } from "../../models/prompts";
import { canonicalArgs } from "../../policy/canonical";
import { agentInfo } from "../agents";
import { mirror, sendBranch, stepOf } from "../branch";
import type { EngineDeps } from "../deps";
import { emit, emitLive } from "../emit";
import { streamCall } from "../stream-call";
import { describeCall, isConfigRefusal } from "../outcomes";
import { respondedCall } from "./approval-handler";
import { unknownToolError, unknownToolNote } from "./unknown-tool";
import { type AgentSpec, callSettingsOf, modelRefOf } from "../../flow/compile";
import { type BranchTask, type GraphUpdate, modelKey, type PlanStep, type StepBranch, usageOf } from "../state";

/**
 * Executor (docs/architecture.md#nodes): the step's agent, an LLM with native tool calling over the tools
 * wired to it on the canvas (passed without `execute`: the graph runs them after the
 * RiskGate). It works inside the step's branch (one per step in progress; see StepBranch).
 * A tool call becomes the branch's `proposed_tool` with its RFC 8785 canonical arguments and
 * SHA-256, computed here and recomputed by the RiskGate -> RiskGate. A reply without a tool
 * call is the step's result -> Supervisor, unless the agent's last call failed: then the try
 * failed with that error, whatever the reply claims. The Executor never edits the plan and never picks
 * the next step; a model error is reported to the Supervisor, which retries.
 *
 * What no retry can change ends the step `blocked` at once (docs/runs.md "Status
 * vocabulary"): the agent calls the declared `report_impossible` tool (the step needs
 * something it cannot do: the reason is the step's error, never a green step), or its last
 * call was refused by the flow's configuration (network off, a path outside the workspace,
 * no such tool: see CONFIG_REFUSALS), which only a person changing the flow can lift.
 */
export function executorNode(deps: EngineDeps) {
  return async (task: BranchTask, config?: LangGraphRunnableConfig): Promise<Command> => {
    const { plan, branch } = task;
    const step = stepOf(task);
    const agent = deps.flow.agents.find((a) => a.id === step?.agent_id) ?? deps.flow.agents[0];
    const done = (b: StepBranch, extra: GraphUpdate = {}) => new Command({ update: { ...extra, ...mirror(b) }, goto: "supervisor" });
    if (!step || !agent) return done({ ...branch, phase: "done", output: { step_id: branch.step_id, text: "The step or its agent no longer exists.", ok: false } });

    const refused = branch.last_tool_result;
    if (refused && isConfigRefusal(refused)) {
      const text = `${describeCall(refused.tool_name, callArgs(branch.executor_messages, refused.call_id))} was refused by the flow's configuration: ${refused.output}`;
      return done({ ...branch, phase: "done", output: { step_id: step.id, text, ok: false, final: "blocked" } });
    }
    let messages: ModelMessage[] = branch.executor_messages;
    if (messages.length === 0) {
      const context = stepContext(deps, plan.steps, step);
      const memory = await recallFor(deps, task, step, agent, config);
      const content = executorPrompt({ stepIndex: step.index, stepCount: plan.steps.length, task: step.task, expectedOutput: step.expected_output, context, ...(memory ? { memory } : {}) });
      const note = unknownToolNote(step);
      messages = [{ role: "user", content: note ? `${content}\n${note}` : content }];
    }
    const tools: ToolSet = {};
    for (const name of agent.tools) {
      const decl = deps.tools.describe(name);
      if (decl) tools[name] = tool({ description: decl.description, inputSchema: decl.input });
    }
    // Never run: the Executor handles it (below), so a model can say it cannot do the step.
    tools[REPORT_IMPOSSIBLE] = tool({ description: "Report that this step cannot be done with your tools, and why. The step then ends as not done; nothing is run.", inputSchema: ReportImpossible });
    let spent: GraphUpdate = {};
    try {
      const resolved = deps.resolveModel(modelRefOf(agent, deps.flow));
      const { model } = resolved;
      const timeoutMs = deps.flow.limits.modelCallTimeoutMs ?? DEFAULT_MODEL_CALL_TIMEOUT_MS;
      // The agent's text streams as it is written (docs/runs.md "Streaming"); its tool calls
      // arrive whole; the run's cancel and the call's time limit end the model's stream.
      const live = `step-${step.id}-${step.tries}-${messages.length}`;
      let wrote = false;
      const res = await withModelDeadline(
        timeoutMs,
        (d) =>
          streamCall({
            model,
            ...callSettingsOf(agent),
            system: executorSystem(agentInfo(deps, agent)),
            messages,
            tools,
            abortSignal: d.signal,
            onPart: d.touch,
            onText: (delta) => {
              wrote = true;
              emitLive(config, { type: "text-delta", id: live, node: "executor", delta });
            },
          }),
        config?.signal,
      );
      if (wrote) emitLive(config, { type: "text-end", id: live, node: "executor", text: res.text.trim() });
      const usage = usageOf(res.usage);
      spent = { token_usage: usage, step_usage: { [step.id]: usage }, model_usage: { [modelKey(resolved)]: usage } };
      const impossible = res.toolCalls.find((c) => c.toolName === REPORT_IMPOSSIBLE);
      if (impossible) {
        const parsed = ReportImpossible.safeParse(impossible.input);
        const reason = parsed.success ? parsed.data.reason.trim() : "no reason given";
        const text = `${agent.name} cannot do this step: ${reason}`;
        return done({ ...branch, phase: "done", executor_messages: messages, output: { step_id: step.id, text, ok: false, final: "blocked" } }, spent);
      }
      const first = res.toolCalls[0];
      // A misspelled or made-up tool name: a failed try that names the agent's tools, then the
      // Supervisor's retry; never blocked, no policy said no (docs/runs.md "When the model misbehaves").
      const unknown = first ? unknownToolError(first, agent.tools) : null;
      if (unknown) return done({ ...branch, phase: "done", executor_messages: messages, output: { step_id: step.id, text: unknown, ok: false } }, spent);
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
          data: {
            toolCallId: call.toolCallId,
            agentId: branch.agent.id,
            toolName: call.toolName,
            args: call.input,
            argsHash: canon.hash,
            status: "proposed",
            decision: null,
            rule: null,
            output: null,
          },
        });
        const next: StepBranch = {
          ...branch,
          phase: "running",
          executor_messages: [...messages, assistant],
          proposed_tool: { name: call.toolName, args: call.input, canonical_args: canon.canonical, args_hash: canon.hash, tool_call_id: call.toolCallId },
          last_tool_result: null,
        };
        return new Command({ update: { ...spent, ...mirror(next) }, goto: sendBranch("risk_gate", task, next) });
      }
      const failed = branch.last_tool_result?.status === "error" ? branch.last_tool_result : null;
      if (failed) {
        // The agent's last call failed and it stopped there: whatever it says, this try did
        // not do the work. The Supervisor retries, then re-plans, then asks the user.
        const text = `${describeCall(failed.tool_name, callArgs(messages, failed.call_id))} failed: ${failed.output}`;
        return done({ ...branch, phase: "done", executor_messages: messages, output: { step_id: step.id, text, ok: false } }, spent);
      }
      const responded = respondedCall(messages);
      // It stopped on a call an approver answered with Respond: not run, so not done (docs/runs.md "Respond").
      if (responded) return done({ ...branch, phase: "done", executor_messages: messages, output: { step_id: step.id, text: responded, ok: false, final: "rejected" } }, spent);
      const text = res.text.trim() || "(the agent finished the step without a reply)";
      return done({ ...branch, phase: "done", executor_messages: messages, output: { step_id: step.id, text, ok: true } }, { ...spent, lifecycle: "STEP_REVIEW" });
    } catch (err) {
      if (isGraphBubbleUp(err)) throw err;
      const message = err instanceof Error ? err.message : String(err);
      return done({ ...branch, phase: "done", executor_messages: [], output: { step_id: step.id, text: `model error: ${message}`, ok: false } }, spent);
    }
  };
}

/**
 * What a step's agent is told of earlier work: the results of the steps it depends on, every
 * answer a person gave to an earlier Human input step (it shapes all later work: audience,
 * focus), and a reviewer's request for changes to this step's previous result.
 */
export function stepContext(deps: EngineDeps, steps: PlanStep[], step: PlanStep): { task: string; result: string }[] {
  const isHuman = (s: PlanStep) => deps.flow.humanInputs.some((h) => h.id === s.agent_id);
  const context = steps
    .filter((s) => s.status === "completed" && s.result && (step.depends_on.includes(s.id) || (isHuman(s) && s.index < step.index)))
    .sort((a, b) => a.index - b.index)
    .map((s) => ({ task: s.task, result: s.result ?? "" }));
  if (step.feedback) context.push({ task: "Reviewer feedback", result: step.feedback });
  return context;
}

/** The arguments of a call in the agent's conversation (for the report of a failed call). */
function callArgs(messages: ModelMessage[], callId: string): unknown {
  for (const m of messages) {
    if (m.role !== "assistant" || !Array.isArray(m.content)) continue;
    for (const c of m.content) if (c.type === "tool-call" && c.toolCallId === callId) return c.input;
  }
  return undefined;
}

/** Recent entries shown to an agent are cut to this many chars each (the store keeps 2,000). */
const RECENT_RESULT_CHARS = 500;

/**
 * Retrieves what the step's agent remembers (the thread's last 20 short-term
 * entries and the workspace's top 3 facts for the step's task and the agent's role), emits
 * it as a `data-memory` part so the run view shows what was injected, and returns it in the
 * prompt's shape. A memory failure never fails the step: the agent then works without it.
 */
async function recallFor(deps: EngineDeps, task: BranchTask, step: PlanStep, agent: AgentSpec, config?: LangGraphRunnableConfig) {
  if (!deps.memory) return undefined;
  const { id: stepId, task: query } = step;
  let got: Awaited<ReturnType<NonNullable<EngineDeps["memory"]>["retrieve"]>>;
  try {
    got = await deps.memory.retrieve({ threadId: task.thread_id, query, agentRole: agent.role, agentId: agent.id, stepId });
  } catch {
    return undefined;
  }
  if (got.shortTerm.length === 0 && got.facts.length === 0) return undefined;
  emit(config, {
    type: "data-memory",
    id: `memory-${stepId}-${step.tries}`,
    data: {
      stepId,
      agentId: agent.id,
      query,
      shortTerm: got.shortTerm.map((e) => ({ id: e.id, agentId: e.agentId, action: e.action, result: e.result.slice(0, RECENT_RESULT_CHARS), createdAt: e.createdAt })),
      facts: got.facts.map((f) => ({ id: f.id, content: f.content, tags: f.tags, score: f.score, via: f.via, source: f.source })),
    },
  });
  const name = (id: string) => deps.flow.agents.find((a) => a.id === id)?.name ?? id;
  return {
    recent: got.shortTerm.map((e) => ({ agent: name(e.agentId), action: e.action, result: e.result.slice(0, RECENT_RESULT_CHARS) })),
    facts: got.facts.map((f) => ({ content: f.content })),
  };
}
