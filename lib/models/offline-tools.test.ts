import { generateText, type ToolSet, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createOfflineModel } from "./offline";
import { chat, executorMessages, fileTools, planRequest, worker } from "./offline-fixtures";
import { type AgentInfo, executorPrompt, executorSystem, PlanProposal, plannerSystem } from "./prompts";

/** The offline model with the non-file tools: memory, network, JavaScript, generic calls. */

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
    expect(await executorCall("Use mcp_weather with {not json} and read notes.md", { ...otherTools, ...fileTools })).toMatchObject({ toolName: "read_file" });
  });

  it("describes the results of these tools", async () => {
    expect(
      await reportAfter(
        "http_request",
        { url: "https://a.example/x", method: "GET" },
        { url: "https://a.example/x", status: 200, headers: { "content-type": "text/plain" }, body: "hi", truncated: false, bytes: 2 },
      ),
    ).toBe("GET https://a.example/x returned 200 (text/plain, 2 bytes):\nhi");
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
        {
          role: "tool",
          content: [{ type: "tool-result", toolCallId: "call_2", toolName: "http_request", output: { type: "error-text", value: "Host evil.example is not in this flow's network allowlist" } }],
        },
      ],
    });
    expect(text).toBe("http_request on https://evil.example/ failed: Host evil.example is not in this flow's network allowlist");
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
    const content = executorPrompt({
      stepIndex: 0,
      stepCount: 1,
      task: "Answer: who gets the summaries?",
      expectedOutput: "An answer.",
      context: [],
      memory: { recent: [], facts: [{ content: "Summaries go to Ana, the team lead." }] },
    });
    const withFacts = await generateText({ model: createOfflineModel(), system: executorSystem(helper), messages: [{ role: "user", content }], tools: otherTools });
    expect(withFacts.text).toBe("From memory:\n- Summaries go to Ana, the team lead.");
    const without = await generateText({ model: createOfflineModel(), system: executorSystem(helper), messages: executorMessages("Answer: who gets the summaries?"), tools: otherTools });
    expect(without.text).toContain("can't answer");
  });
});

describe("offline model: search_files (docs/library.md)", () => {
  const searchTools = { ...otherTools, ...fileTools, search_files: tool({ description: "Search", inputSchema: z.object({ query: z.string(), path: z.string().optional() }) }) };

  it("searches when asked where the files say something, or to search them", async () => {
    expect(await executorCall("Where does notes.md say the launch date is?", searchTools)).toEqual({ toolName: "search_files", input: { query: "the launch date is", path: "notes.md" } });
    expect(await executorCall("Where do the files mention PostgreSQL?", searchTools)).toEqual({ toolName: "search_files", input: { query: "PostgreSQL" } });
    expect(await executorCall('Search the files for "expense reports".', searchTools)).toEqual({ toolName: "search_files", input: { query: "expense reports" } });
  });

  it("keeps reading the named file when the agent has no search_files", async () => {
    expect(await executorCall("Where does notes.md say the launch date is?", { ...otherTools, ...fileTools })).toEqual({ toolName: "read_file", input: { path: "notes.md" } });
  });

  it("answers with each passage cited as file:start-end", async () => {
    const value = { query: "launch", results: [{ file: "notes.md", lines: [6, 7], text: "## Launch\nThe launch date is March 14.", score: 3 }], filesSearched: 2, filesSkipped: 0, capped: false };
    expect(await reportAfter("search_files", { query: "launch" }, value)).toBe('Found in the files for "launch" (file:lines):\n- notes.md:6-7: "## Launch The launch date is March 14."');
    expect(await reportAfter("search_files", { query: "zebra" }, { ...value, results: [] })).toBe('Nothing in the files matches "zebra".');
  });

  it("plans one search step for an agent that has search_files, and reads the file when none has", async () => {
    const searcher: AgentInfo = { id: "searcher", name: "Searcher", instructions: "Search.", tools: [{ name: "search_files", description: "Search." }] };
    const withSearch = await generateText({ ...planRequest("Where does notes.md say the launch date is?"), system: plannerSystem({ instructions: "", agents: [chat, worker, searcher] }) });
    expect(PlanProposal.parse(withSearch.toolCalls[0]?.input).steps).toEqual([
      { agent_id: "searcher", task: "Where does notes.md say the launch date is?", expected_output: expect.any(String), depends_on: [] },
    ]);
    const without = await generateText({ ...planRequest("Where does notes.md say the launch date is?"), system: plannerSystem({ instructions: "", agents: [chat, worker] }) });
    expect(PlanProposal.parse(without.toolCalls[0]?.input).steps[0]).toMatchObject({ task: "Read notes.md" });
  });
});
