import { type ModelMessage, tool } from "ai";
import { z } from "zod";
import { createOfflineModel } from "./offline";
import { type AgentInfo, executorPrompt, PlanProposal, plannerPrompt, plannerSystem } from "./prompts";

/** Shared fixtures of the offline model's tests: agents, tools and request builders. */

/** The four file tools, declared without `execute`. */
export const fileTools = {
  list_files: tool({ description: "List files", inputSchema: z.object({ path: z.string().optional() }) }),
  read_file: tool({ description: "Read a file", inputSchema: z.object({ path: z.string() }) }),
  write_file: tool({ description: "Write a file", inputSchema: z.object({ path: z.string(), content: z.string() }) }),
  delete_file: tool({ description: "Delete a file", inputSchema: z.object({ path: z.string() }) }),
};

/** An agent without tools. */
export const chat: AgentInfo = {
  id: "chat",
  name: "Chat",
  instructions: "Talk to the user.",
  tools: [],
};
/** An agent with the four file tools. */
export const worker: AgentInfo = {
  id: "files",
  name: "File Worker",
  instructions: "Work on files.\nBe careful.",
  tools: Object.keys(fileTools).map((name) => ({ name, description: `The ${name} tool.` })),
};

/** A planner call for `task` with the chat and worker agents. */
export function planRequest(task: string) {
  return {
    model: createOfflineModel(),
    system: plannerSystem({ instructions: "Be brief.", agents: [chat, worker] }),
    prompt: plannerPrompt(task),
    tools: { create_plan: tool({ description: "Propose the plan", inputSchema: PlanProposal }) },
    toolChoice: { type: "tool", toolName: "create_plan" } as const,
  };
}

/** The executor prompt of step 2 of 2 for `task`, with earlier results. */
export function executorMessages(task: string, context: { task: string; result: string }[] = []): ModelMessage[] {
  return [
    {
      role: "user",
      content: executorPrompt({ stepIndex: 1, stepCount: 2, task, expectedOutput: "Done.", context }),
    },
  ];
}
