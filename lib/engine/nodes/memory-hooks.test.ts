import { describe, expect, it } from "vitest";
import type { RetrievedMemory } from "../../memory/types";
import { baseState, branchTask, fakeDeps, plan, recorder, step, textTurn, toolTurn } from "../node-fixtures";
import type { EngineDeps } from "../deps";
import { executorNode } from "./executor";
import { supervisorNode } from "./supervisor";
import { toolsNode } from "./tools";
import { proposal } from "../node-fixtures";

/** Memory in the graph (docs/architecture.md#memory): what the Executor injects, what Supervisor and Tools append. */

type Appended = { threadId: string; key: string; agentId: string; action: string; result: string; stepId: string | null };

function withMemory(deps: EngineDeps, got: RetrievedMemory | Error) {
  const appended: Appended[] = [];
  const asked: unknown[] = [];
  deps.memory = {
    async retrieve(input) {
      asked.push(input);
      if (got instanceof Error) throw got;
      return got;
    },
    async append(threadId, entry) {
      appended.push({ threadId, ...entry });
    },
  };
  return { appended, asked };
}

const remembered: RetrievedMemory = {
  shortTerm: [
    {
      id: "e1",
      threadId: "t1",
      agentId: "assistant",
      action: "read_file",
      result: "notes.md says the launch is on Friday",
      stepId: "s0",
      createdAt: "2026-11-22T09:00:00.000Z",
      expiresAt: "2026-11-23T09:00:00.000Z",
    },
  ],
  facts: [
    {
      id: "f1",
      workspaceId: "w1",
      content: "Summaries go to the team lead, Ana.",
      tags: ["people"],
      agentRole: "",
      origin: "manual",
      status: "accepted",
      source: { threadId: null, stepId: null },
      createdById: "u1",
      createdAt: "2026-11-20T09:00:00.000Z",
      updatedAt: "2026-11-20T09:00:00.000Z",
      score: 2.5,
      via: ["lexical"],
    },
  ],
};

function promptOf(deps: ReturnType<typeof fakeDeps>): string {
  const call = deps.model.doGenerateCalls[0];
  const user = call?.prompt.find((m) => m.role === "user");
  return user && Array.isArray(user.content) ? user.content.map((p) => (p.type === "text" ? p.text : "")).join("") : "";
}

describe("Executor memory", () => {
  it("retrieves for the step's task and agent role, puts entries and facts in the prompt and emits data-memory", async () => {
    const deps = fakeDeps([textTurn("done")]);
    const { asked } = withMemory(deps, remembered);
    const { config, chunks } = recorder();
    await executorNode(deps)(branchTask(), config as never);
    expect(asked).toEqual([{ threadId: "thread-1", query: "Read notes.md", agentRole: expect.any(String), agentId: expect.any(String), stepId: "s0" }]);
    const prompt = promptOf(deps);
    expect(prompt).toContain("<memory>");
    expect(prompt).toContain('action="read_file">notes.md says the launch is on Friday</recent>');
    expect(prompt).toContain("<fact>Summaries go to the team lead, Ana.</fact>");
    const part = chunks.find((c) => c.type === "data-memory");
    expect(part).toMatchObject({
      type: "data-memory",
      id: "memory-s0-1",
      data: { stepId: "s0", query: "Read notes.md", facts: [{ id: "f1", score: 2.5, via: ["lexical"] }], shortTerm: [{ id: "e1", action: "read_file" }] },
    });
  });

  it("nothing remembered: no memory block and no part", async () => {
    const deps = fakeDeps([textTurn("done")]);
    withMemory(deps, { shortTerm: [], facts: [] });
    const { config, chunks } = recorder();
    await executorNode(deps)(branchTask(), config as never);
    expect(promptOf(deps)).not.toContain("<memory>");
    expect(chunks.some((c) => c.type === "data-memory")).toBe(false);
  });

  it("a memory failure does not fail the step: the agent works without it", async () => {
    const deps = fakeDeps([toolTurn("read_file", { path: "notes.md" })]);
    withMemory(deps, new Error("database is locked"));
    const cmd = await executorNode(deps)(branchTask());
    expect(promptOf(deps)).not.toContain("<memory>");
    expect(JSON.stringify(cmd)).toContain("risk_gate");
  });

  it("a returning branch (tool result in hand) does not retrieve again", async () => {
    const deps = fakeDeps([textTurn("done")]);
    const { asked } = withMemory(deps, remembered);
    await executorNode(deps)(branchTask({ executor_messages: [{ role: "user", content: "Step 1 of 1." }] }));
    expect(asked).toEqual([]);
  });
});

describe("short-term appends", () => {
  it("Tools appends what the agent did, keyed by the call id", async () => {
    const deps = fakeDeps();
    deps.toolOutput = "hello";
    const { appended } = withMemory(deps, remembered);
    await toolsNode(deps)(branchTask({ proposed_tool: proposal("read_file", { path: "notes.md" }, "call_9-abcd1234") }));
    expect(appended).toEqual([{ threadId: "thread-1", key: "tool:call_9-abcd1234", agentId: expect.any(String), action: "read_file", result: "hello", stepId: "s0" }]);
  });

  it("the Supervisor appends a settled step once per try, failures marked", async () => {
    const deps = fakeDeps();
    const { appended } = withMemory(deps, remembered);
    const s = step(0, { status: "in_progress", tries: 1, task: "Read notes.md" });
    const done = branchTask({ phase: "done", output: { step_id: "s0", text: "it says hi", ok: true } }).branch;
    await supervisorNode(deps)(baseState({ thread_id: "t1", plan: plan([s], { status: "executing" }), branches: { s0: done } }));
    expect(appended).toEqual([{ threadId: "t1", key: "step:s0:1", agentId: done.agent.id, action: "step 1: Read notes.md", result: "it says hi", stepId: "s0" }]);
  });
});
