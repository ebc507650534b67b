import { generateText, type ModelMessage, streamText, type ToolSet, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { extractivePoints } from "./extractive-summary";
import { createOfflineModel, isOfflineModel } from "./offline";
import {
  type AgentInfo,
  conversationSystem,
  executorPrompt,
  executorSystem,
  finalizerPrompt,
  finalizerSystem,
  PlanProposal,
  plannerPrompt,
  plannerSystem,
} from "./prompts";

const fileTools = {
  list_files: tool({ description: "List files", inputSchema: z.object({ path: z.string().optional() }) }),
  read_file: tool({ description: "Read a file", inputSchema: z.object({ path: z.string() }) }),
  write_file: tool({ description: "Write a file", inputSchema: z.object({ path: z.string(), content: z.string() }) }),
  delete_file: tool({ description: "Delete a file", inputSchema: z.object({ path: z.string() }) }),
};

const chat: AgentInfo = {
  id: "chat",
  name: "Chat",
  instructions: "Talk to the user.",
  tools: [],
};
const worker: AgentInfo = {
  id: "files",
  name: "File Worker",
  instructions: "Work on files.\nBe careful.",
  tools: Object.keys(fileTools).map((name) => ({ name, description: `The ${name} tool.` })),
};

const NOTES = [
  "# Team notes",
  "",
  "The launch of Phylactery is planned for March 14, 2026. Marketing needs the final copy a week before.",
  "Everyone agreed that the demo should stay short.",
  "",
  "- Alice owns the approval inbox and ships it by Friday.",
  "- Bob fixes 3 bugs in the flow editor.",
  "- misc",
  "",
  "## Risks",
  "",
  "Budget is tight: 12000 EUR remain for Q2. We may cut the mobile app.",
].join("\n");

function planRequest(task: string) {
  return {
    model: createOfflineModel(),
    system: plannerSystem({ instructions: "Be brief.", agents: [chat, worker] }),
    prompt: plannerPrompt(task),
    tools: { create_plan: tool({ description: "Propose the plan", inputSchema: PlanProposal }) },
    toolChoice: { type: "tool", toolName: "create_plan" } as const,
  };
}

async function plan(task: string) {
  const result = await generateText(planRequest(task));
  const call = result.toolCalls[0];
  expect(call?.toolName).toBe("create_plan");
  return PlanProposal.parse(call?.input);
}

function executorMessages(task: string, context: { task: string; result: string }[] = []): ModelMessage[] {
  return [
    {
      role: "user",
      content: executorPrompt({ stepIndex: 1, stepCount: 2, task, expectedOutput: "Done.", context }),
    },
  ];
}

describe("offline model: planner", () => {
  it("plans a summary as read then write", async () => {
    const result = await generateText(planRequest("Summarize notes.md into summary.md"));
    expect(result.finishReason).toBe("tool-calls");
    expect(result.toolCalls).toHaveLength(1);
    expect(result.toolCalls[0]?.toolCallId).toBe("call_plan_2");
    const { steps } = PlanProposal.parse(result.toolCalls[0]?.input);
    expect(steps).toHaveLength(2);
    expect(steps[0]).toMatchObject({ agent_id: "files", task: "Read notes.md", depends_on: [] });
    expect(steps[1]).toMatchObject({
      agent_id: "files",
      task: "Write a summary of notes.md to summary.md",
      depends_on: [0],
    });
    expect(result.usage.inputTokens).toBeGreaterThan(0);
  });

  it("plans reads, lists, deletes, writes, copies and unknown tasks", async () => {
    expect((await plan("Read a.md and b.txt")).steps.map((s) => s.task)).toEqual(["Read a.md", "Read b.txt"]);
    expect((await plan("What files do I have?")).steps[0]?.task).toBe("List the files in the workspace");
    expect((await plan("Please delete old.log")).steps[0]).toMatchObject({ task: "Delete old.log", agent_id: "files" });
    expect((await plan('Create hello.txt with the text "Hello world"')).steps[0]?.task).toBe(
      "Write hello.txt with content: Hello world",
    );
    const copy = await plan("Copy a.md to b.md");
    expect(copy.steps.map((s) => [s.task, s.depends_on])).toEqual([
      ["Read a.md", []],
      ["Copy the contents of a.md to b.md", [0]],
    ]);
    expect((await plan("Tell me a joke")).steps).toEqual([
      { agent_id: "chat", task: "Answer: Tell me a joke", expected_output: "A direct answer to the user.", depends_on: [] },
    ]);
  });

  it("answers in text when create_plan is not offered", async () => {
    const { tools: _tools, toolChoice: _choice, ...request } = planRequest("Read a.md");
    const result = await generateText(request);
    expect(result.toolCalls).toHaveLength(0);
    expect(PlanProposal.parse(JSON.parse(result.text)).steps[0]?.task).toBe("Read a.md");
  });
});

describe("offline model: executor", () => {
  it("calls read_file, then reports the result in text", async () => {
    const model = createOfflineModel();
    const messages = executorMessages("Read notes.md");
    const first = await generateText({ model, system: executorSystem(worker), messages, tools: fileTools });
    expect(first.finishReason).toBe("tool-calls");
    const call = first.toolCalls[0];
    expect(call).toMatchObject({ toolName: "read_file", input: { path: "notes.md" }, toolCallId: "call_2" });

    const followUp: ModelMessage[] = [
      ...messages,
      {
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: "call_2", toolName: "read_file", input: { path: "notes.md" } }],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "call_2",
            toolName: "read_file",
            output: { type: "text", value: NOTES },
          },
        ],
      },
    ];
    const second = await generateText({ model, system: executorSystem(worker), messages: followUp, tools: fileTools });
    expect(second.finishReason).toBe("stop");
    expect(second.toolCalls).toHaveLength(0);
    expect(second.text).toContain(`Read ${NOTES.length} characters from notes.md:`);
    expect(second.text).toContain("# Team notes");
  });

  it("reports write results and errors", async () => {
    const model = createOfflineModel();
    const content = "# Summary of notes.md\n\n- one\n- two\n";
    const replyAfter = (output: { type: "json"; value: { status: string; output: string } } | { type: "error-text"; value: string }) =>
      generateText({
        model,
        system: executorSystem(worker),
        tools: fileTools,
        messages: [
          ...executorMessages("Write a summary of notes.md to summary.md"),
          {
            role: "assistant",
            content: [{ type: "tool-call", toolCallId: "call_2", toolName: "write_file", input: { path: "summary.md", content } }],
          },
          { role: "tool", content: [{ type: "tool-result", toolCallId: "call_2", toolName: "write_file", output }] },
        ],
      });
    const ok = await replyAfter({ type: "json", value: { status: "success", output: "ok" } });
    expect(ok.text).toBe(`Wrote ${content.length} bytes to summary.md. The summary has 2 points.`);
    const failed = await replyAfter({ type: "error-text", value: "sandbox_violation: path escapes the workspace" });
    expect(failed.text).toBe("write_file on summary.md failed: sandbox_violation: path escapes the workspace");
  });

  it("writes an extractive summary built from the context", async () => {
    const context = [{ task: "Read notes.md", result: `Read ${NOTES.length} characters from notes.md:\n${NOTES}` }];
    const result = await generateText({
      model: createOfflineModel(),
      system: executorSystem(worker),
      messages: executorMessages("Write a summary of notes.md to summary.md", context),
      tools: fileTools,
    });
    const call = result.toolCalls[0];
    expect(call?.toolName).toBe("write_file");
    const input = call?.input as { path: string; content: string };
    expect(input.path).toBe("summary.md");
    const lines = input.content.trim().split("\n");
    expect(lines[0]).toBe("# Summary of notes.md");
    const bullets = lines.filter((l) => l.startsWith("- "));
    expect(bullets).toEqual([
      "- The launch of Phylactery is planned for March 14, 2026.",
      "- Marketing needs the final copy a week before.",
      "- Alice owns the approval inbox and ships it by Friday.",
      "- Bob fixes 3 bugs in the flow editor.",
      "- Budget is tight: 12000 EUR remain for Q2.",
    ]);
    expect(input.content).not.toContain("Read ");
    expect(input.content).not.toContain("Risks");
  });

  it("explains when the needed tool is not offered", async () => {
    const result = await generateText({
      model: createOfflineModel(),
      system: executorSystem(chat),
      messages: executorMessages("Delete old.log"),
      tools: { read_file: fileTools.read_file },
    });
    expect(result.toolCalls).toHaveLength(0);
    expect(result.text).toBe('I can\'t do "Delete old.log": it needs the delete_file tool, which is not available to Chat.');
  });

  it("answers in text when no tool is needed", async () => {
    const result = await generateText({
      model: createOfflineModel(),
      system: executorSystem(chat),
      messages: executorMessages("Summarize notes.md", [{ task: "Read notes.md", result: NOTES }]),
    });
    expect(result.text.startsWith("Summary of notes.md:\n- The launch of Phylactery")).toBe(true);
  });
});

const otherTools = {
  http_request: tool({ description: "HTTP", inputSchema: z.object({ url: z.string(), method: z.string().optional() }) }),
  run_javascript: tool({ description: "JS", inputSchema: z.object({ code: z.string() }) }),
  remember: tool({ description: "Remember", inputSchema: z.object({ content: z.string() }) }),
  recall: tool({ description: "Recall", inputSchema: z.object({ query: z.string() }) }),
  mcp_weather: tool({ description: "MCP weather", inputSchema: z.object({ city: z.string() }) }),
};
const helper: AgentInfo = {
  id: "helper",
  name: "Helper",
  instructions: "Use tools.",
  tools: Object.keys(otherTools).map((name) => ({ name, description: `The ${name} tool.` })),
};

async function executorCall(task: string, tools: ToolSet = otherTools) {
  const result = await generateText({ model: createOfflineModel(), system: executorSystem(helper), messages: executorMessages(task), tools });
  return result.toolCalls.length > 0 ? { toolName: result.toolCalls[0]?.toolName, input: result.toolCalls[0]?.input } : { text: result.text };
}

async function reportAfter(toolName: string, input: Record<string, unknown>, value: unknown) {
  const { text } = await generateText({
    model: createOfflineModel(),
    system: executorSystem(helper),
    tools: otherTools,
    messages: [
      ...executorMessages("the step"),
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "call_2", toolName, input }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "call_2", toolName, output: { type: "json", value: { status: "success", output: JSON.stringify(value) } } }] },
    ],
  });
  return text;
}

describe("offline model: memory, network, JavaScript and generic tool steps", () => {
  it("remembers and recalls", async () => {
    expect(await executorCall("Remember that the staging server is staging.example.com")).toEqual({
      toolName: "remember",
      input: { content: "the staging server is staging.example.com" },
    });
    expect(await executorCall("Answer: remember: Alice prefers tea")).toEqual({ toolName: "remember", input: { content: "Alice prefers tea" } });
    expect(await executorCall("What do you remember about the staging server?")).toEqual({ toolName: "recall", input: { query: "the staging server" } });
    expect(await executorCall("recall deploy keys")).toEqual({ toolName: "recall", input: { query: "deploy keys" } });
  });

  it("fetches a URL with GET", async () => {
    expect(await executorCall("Fetch https://api.example.com/items?id=3.")).toEqual({ toolName: "http_request", input: { url: "https://api.example.com/items?id=3", method: "GET" } });
    expect(await executorCall("GET http://127.0.0.1:8080/data.json")).toEqual({ toolName: "http_request", input: { url: "http://127.0.0.1:8080/data.json", method: "GET" } });
    expect(await executorCall("Fetch the page at https://example.com/report.md for me")).toMatchObject({ toolName: "http_request", input: { url: "https://example.com/report.md" } });
  });

  it("runs JavaScript given after a colon or in backticks", async () => {
    expect(await executorCall("run javascript: [1, 2, 3].map((x) => x * 2)")).toEqual({ toolName: "run_javascript", input: { code: "[1, 2, 3].map((x) => x * 2)" } });
    expect(await executorCall("Compute `2 ** 10` please")).toEqual({ toolName: "run_javascript", input: { code: "2 ** 10" } });
    expect(await executorCall("Evaluate this:\n```js\nconst a = 6;\na * 7\n```")).toEqual({ toolName: "run_javascript", input: { code: "const a = 6;\na * 7" } });
    expect(await executorCall("Run JS: `input.length`")).toEqual({ toolName: "run_javascript", input: { code: "input.length" } });
  });

  it("calls any offered tool with 'use <tool> with <JSON>'", async () => {
    expect(await executorCall('Use mcp_weather with {"city": "Lyon"}')).toEqual({ toolName: "mcp_weather", input: { city: "Lyon" } });
    expect(await executorCall('Answer: use http_request with {"url": "https://a.example/x", "method": "HEAD"}.')).toEqual({
      toolName: "http_request",
      input: { url: "https://a.example/x", method: "HEAD" },
    });
  });

  it("does not call a tool the agent is not offered", async () => {
    const { remember: _r, ...withoutRemember } = otherTools;
    expect(await executorCall("Remember that x is y", withoutRemember)).toEqual({
      text: 'I can\'t do "Remember that x is y": it needs the remember tool, which is not available to Helper.',
    });
    expect(await executorCall('Use mcp_unknown with {"a": 1}')).toEqual({
      text: 'I can\'t do "Use mcp_unknown with {"a": 1}": it needs the mcp_unknown tool, which is not available to Helper.',
    });
  });

  it("keeps the file rules for other steps", async () => {
    expect(await executorCall("Read notes.md", { ...otherTools, ...fileTools })).toEqual({ toolName: "read_file", input: { path: "notes.md" } });
    expect(await executorCall('Use mcp_weather with {not json} and read notes.md', { ...otherTools, ...fileTools })).toMatchObject({ toolName: "read_file" });
  });

  it("describes the results of these tools", async () => {
    expect(await reportAfter("http_request", { url: "https://a.example/x", method: "GET" }, { url: "https://a.example/x", status: 200, headers: { "content-type": "text/plain" }, body: "hi", truncated: false, bytes: 2 })).toBe(
      "GET https://a.example/x returned 200 (text/plain, 2 bytes):\nhi",
    );
    expect(await reportAfter("run_javascript", { code: "1" }, { result: { a: 1 }, logs: ["x"], durationMs: 3 })).toBe('The script returned: {"a":1}\nConsole:\n- x');
    expect(await reportAfter("remember", { content: "x is y" }, { id: "f1", created: true })).toBe('Remembered: "x is y" (fact f1).');
    expect(await reportAfter("recall", { query: "x" }, { facts: [{ id: "f1", content: "x is y", tags: [], score: 1 }] })).toBe('Remembered about "x":\n- x is y');
    expect(await reportAfter("recall", { query: "z" }, { facts: [] })).toBe('Nothing is remembered about "z".');
  });

  it("names the URL of a failed request", async () => {
    const { text } = await generateText({
      model: createOfflineModel(),
      system: executorSystem(helper),
      tools: otherTools,
      messages: [
        ...executorMessages("Fetch https://evil.example/"),
        { role: "assistant", content: [{ type: "tool-call", toolCallId: "call_2", toolName: "http_request", input: { url: "https://evil.example/" } }] },
        { role: "tool", content: [{ type: "tool-result", toolCallId: "call_2", toolName: "http_request", output: { type: "error-text", value: "Host evil.example is not in this flow's network allowlist" } }] },
      ],
    });
    expect(text).toBe("http_request on https://evil.example/ failed: Host evil.example is not in this flow's network allowlist");
  });
});

describe("offline model: finalizer and conversation", () => {
  it("recaps the steps", async () => {
    const { text } = await generateText({
      model: createOfflineModel(),
      system: finalizerSystem(),
      prompt: finalizerPrompt({
        task: "Summarize notes.md into summary.md",
        steps: [
          { task: "Read notes.md", status: "done", result: "Read 10 characters from notes.md:\nHello." },
          {
            task: "Write a summary of notes.md to summary.md",
            status: "done",
            result: "Wrote 80 bytes to summary.md. The summary has 5 points.",
          },
        ],
      }),
    });
    expect(text).toBe(
      "Summarized notes.md into summary.md (5 points).\n\nWrote 80 bytes to summary.md. The summary has 5 points.",
    );
  });

  it("says a rejected tool was not run", async () => {
    const { text } = await generateText({
      model: createOfflineModel(),
      system: finalizerSystem(),
      prompt: finalizerPrompt({
        task: "Summarize notes.md into summary.md",
        steps: [
          { task: "Read notes.md", status: "done", result: "Read 6 characters from notes.md:\nHello." },
          { task: "Write a summary of notes.md to summary.md", status: "rejected", result: "" },
        ],
        note: "The user rejected write_file.",
      }),
    });
    expect(text).toContain('Completed 1 of 2 steps for "Summarize notes.md into summary.md".');
    expect(text).toContain("Not done: The user rejected write_file. That tool was not run");
    expect(text).toContain('Step "Write a summary of notes.md to summary.md" ended as rejected.');
    expect(text).toContain("Hello.");
  });

  it("makes small talk", async () => {
    const { text } = await generateText({ model: createOfflineModel(), system: conversationSystem(), prompt: "hi there" });
    expect(text).toMatch(/^Hello! I'm Phylactery's offline model/);
    expect(text).toContain("Summarize notes.md into summary.md");
  });
});

describe("offline model: streaming, determinism, identity", () => {
  it("streams the same tool call as generateText", async () => {
    const streamed = streamText(planRequest("Summarize notes.md into summary.md"));
    const types: string[] = [];
    for await (const part of streamed.fullStream) types.push(part.type);
    const [generated, calls] = await Promise.all([
      generateText(planRequest("Summarize notes.md into summary.md")),
      streamed.toolCalls,
    ]);
    expect(calls.map((c) => [c.toolCallId, c.input])).toEqual(generated.toolCalls.map((c) => [c.toolCallId, c.input]));
    expect(types).toContain("tool-input-delta");
    expect(await streamed.finishReason).toBe("tool-calls");
  });

  it("streams text in several deltas", async () => {
    const streamed = streamText({ model: createOfflineModel(), system: conversationSystem(), prompt: "hello" });
    const deltas: string[] = [];
    for await (const delta of streamed.textStream) deltas.push(delta);
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.join("")).toBe(await streamed.text);
    expect((await streamed.usage).outputTokens).toBe(Math.ceil(deltas.join("").length / 4));
  });

  it("is deterministic", async () => {
    const run = async () => {
      const r = await generateText({
        model: createOfflineModel(),
        system: executorSystem(worker),
        messages: executorMessages("Write a summary of notes.md to summary.md", [{ task: "Read notes.md", result: NOTES }]),
        tools: fileTools,
      });
      return { calls: r.toolCalls.map((c) => [c.toolCallId, c.toolName, c.input]), usage: r.usage };
    };
    expect(await run()).toEqual(await run());
  });

  it("knows itself", () => {
    expect(isOfflineModel(createOfflineModel())).toBe(true);
    expect(isOfflineModel("openai/gpt-4.1")).toBe(false);
  });

  it("keeps at most five points, in order", () => {
    const text = Array.from({ length: 9 }, (_, i) => `- Item number ${i + 1} is owned by Team ${i}.`).join("\n");
    expect(extractivePoints(text)).toHaveLength(5);
    expect(extractivePoints(text)[0]).toBe("Item number 1 is owned by Team 0.");
  });
});

describe("offline model: steps for the non-file tools and answers from memory", () => {
  it("plans a remember, fetch, script or generic call as one step for an agent that has the tool", async () => {
    const request = (task: string) => ({ ...planRequest(task), system: plannerSystem({ instructions: "Be brief.", agents: [chat, worker, helper] }) });
    for (const task of ["Remember that the staging server is staging.example.com", "Fetch https://example.com/status", "Compute `6 * 7`", 'use mcp_weather with {"city":"Lima"}']) {
      const result = await generateText(request(task));
      const proposal = PlanProposal.parse(result.toolCalls[0]?.input);
      expect(proposal.steps).toEqual([{ agent_id: "helper", task, expected_output: expect.any(String), depends_on: [] }]);
    }
  });

  it("answers a question from the facts memory injected, and says it cannot without them", async () => {
    const content = executorPrompt({ stepIndex: 0, stepCount: 1, task: "Answer: who gets the summaries?", expectedOutput: "An answer.", context: [], memory: { recent: [], facts: [{ content: "Summaries go to Ana, the team lead." }] } });
    const withFacts = await generateText({ model: createOfflineModel(), system: executorSystem(helper), messages: [{ role: "user", content }], tools: otherTools });
    expect(withFacts.text).toBe("From memory:\n- Summaries go to Ana, the team lead.");
    const without = await generateText({ model: createOfflineModel(), system: executorSystem(helper), messages: executorMessages("Answer: who gets the summaries?"), tools: otherTools });
    expect(without.text).toContain("can't answer");
  });
});
