import { readFileSync } from "node:fs";
import path from "node:path";
import { generateText, type ModelMessage, tool } from "ai";
import { createOfflineModel } from "./offline";
import { fileTools } from "./offline-fixtures";
import { type AgentInfo, executorPrompt, executorSystem, PlanProposal, plannerPrompt, plannerSystem } from "./prompts";

/**
 * Test fixture: runs the offline model the way the engine does, without the engine. An
 * executor step loops (tool call -> tool result message -> next model call) until the
 * model answers in text; tool results are worded as the engine's Interpreter words them
 * (the gateway's JSON output, or `ERROR: <message>` for a failure). The workspace is an
 * in-memory map of files.
 */

/** The held-out documents the default model is tested on (never the seeded workspace files). */
export function heldOut(name: string): string {
  return readFileSync(path.join(process.cwd(), "tests", "fixtures", "documents", name), "utf8");
}

/** A fake workspace: file paths (with "/" for folders) to their text. */
export type FakeWorkspace = Map<string, string>;

/** One tool call the model made, with what the fake workspace answered. */
export interface MadeCall {
  toolName: string;
  input: Record<string, unknown>;
  output: string;
}

/** What the engine's Interpreter hands back for a call on the fake workspace. */
function runOn(ws: FakeWorkspace, toolName: string, input: Record<string, unknown>): string {
  const p = String(input.path ?? ".").replace(/^\.\/?/, "");
  switch (toolName) {
    case "read_file": {
      const text = ws.get(p);
      return text === undefined ? `ERROR: No such file or directory: ${JSON.stringify(p)}.` : JSON.stringify({ path: p, content: text });
    }
    case "list_files": {
      const prefix = p ? `${p}/` : "";
      const names = new Map<string, { type: "file" | "dir"; size: number }>();
      for (const [file, text] of ws) {
        if (!file.startsWith(prefix)) continue;
        const [head, ...rest] = file.slice(prefix.length).split("/");
        if (head) names.set(head, rest.length > 0 ? { type: "dir", size: 0 } : { type: "file", size: text.length });
      }
      if (names.size === 0 && p) return `ERROR: No such file or directory: ${JSON.stringify(p)}.`;
      return JSON.stringify([...names].sort(([a], [b]) => a.localeCompare(b)).map(([name, v]) => ({ name, type: v.type, sizeBytes: v.size })));
    }
    case "write_file": {
      const content = String(input.content ?? "");
      ws.set(p, content);
      return JSON.stringify({ path: p, bytesWritten: Buffer.byteLength(content) });
    }
    case "delete_file":
      return "BLOCKED by policy (File safety #4: delete_file BLOCKED): delete_file may not run in this flow.";
    default:
      return `ERROR: Unknown tool "${toolName}".`;
  }
}

/**
 * Runs one step to its text result.
 * @param context results of the steps it depends on, as the engine passes them.
 * @param maxCalls safety stop, calls (a model that never stops fails the test).
 */
export async function runStep(agent: AgentInfo, task: string, context: { task: string; result: string }[], ws: FakeWorkspace, maxCalls = 60): Promise<{ text: string; calls: MadeCall[] }> {
  const model = createOfflineModel();
  const messages: ModelMessage[] = [{ role: "user", content: executorPrompt({ stepIndex: 0, stepCount: 1, task, expectedOutput: "Done.", context }) }];
  const calls: MadeCall[] = [];
  const tools = Object.fromEntries(Object.entries(fileTools).filter(([name]) => agent.tools.some((t) => t.name === name)));
  for (let i = 0; i < maxCalls; i++) {
    const res = await generateText({ model, system: executorSystem(agent), messages, tools });
    const call = res.toolCalls[0];
    if (!call) return { text: res.text, calls };
    const input = call.input as Record<string, unknown>;
    const output = runOn(ws, call.toolName, input);
    calls.push({ toolName: call.toolName, input, output });
    messages.push(
      { role: "assistant", content: [{ type: "tool-call", toolCallId: call.toolCallId, toolName: call.toolName, input }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: call.toolCallId, toolName: call.toolName, output: { type: "text", value: output } }] },
    );
  }
  throw new Error(`the step "${task}" did not finish in ${maxCalls} calls`);
}

/** The plan the offline planner proposes for `task`. */
export async function planFor(task: string, agents: AgentInfo[], humans: { id: string; name: string; prompt: string }[] = []) {
  const { toolCalls } = await generateText({
    model: createOfflineModel(),
    system: plannerSystem({ instructions: "", agents, humans }),
    prompt: plannerPrompt(task),
    tools: { create_plan: tool({ description: "Propose the plan", inputSchema: PlanProposal }) },
    toolChoice: { type: "tool", toolName: "create_plan" },
  });
  return PlanProposal.parse(toolCalls[0]?.input).steps;
}

/**
 * Runs a plan step by step in order, each with the results of the steps it depends on,
 * the way the engine does; a Human-input step's result is `answers[<its agent id>]`.
 * @returns each step's task and result.
 */
export async function runPlan(steps: PlanProposal["steps"], agents: AgentInfo[], ws: FakeWorkspace, answers: Record<string, string> = {}) {
  const done: { task: string; result: string; calls: MadeCall[] }[] = [];
  for (const step of steps) {
    const context = step.depends_on.map((d) => ({ task: done[d]?.task ?? "", result: done[d]?.result ?? "" }));
    const answer = answers[step.agent_id];
    if (answer !== undefined) {
      done.push({ task: step.task, result: answer, calls: [] });
      continue;
    }
    const agent = agents.find((a) => a.id === step.agent_id);
    if (!agent) throw new Error(`no agent ${step.agent_id}`);
    const { text, calls } = await runStep(agent, step.task, context, ws);
    done.push({ task: step.task, result: text, calls });
  }
  return done;
}

/** An agent with the given file tools. */
export function agentWith(id: string, name: string, instructions: string, tools: (keyof typeof fileTools)[]): AgentInfo {
  return { id, name, instructions, tools: tools.map((t) => ({ name: t, description: `The ${t} tool.` })) };
}
