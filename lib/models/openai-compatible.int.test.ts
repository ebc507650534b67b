import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { generateText, isStepCount, streamText, tool } from "ai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { resolveModel } from "./resolve";
import { openHostsForTests } from "../net/operator-open-hosts";

/**
 * A real HTTP server playing an OpenAI-compatible provider (POST /v1/chat/completions):
 * the first turn asks for a tool call (streamed in argument fragments, or as one JSON body),
 * the turn carrying a `role: "tool"` message answers in text.
 */

interface ChatRequest {
  model: string;
  stream?: boolean;
  messages: { role: string; content?: unknown; tool_call_id?: string; tool_calls?: unknown[] }[];
  tools?: { type: string; function: { name: string; description?: string; parameters: Record<string, unknown> } }[];
}

const requests: { body: ChatRequest; authorization: string | undefined; url: string | undefined }[] = [];
let server: Server;
let baseURL: string;
let closeOpened: () => void = () => {};

const CALL_ID = "call_weather_1";
const ARG_FRAGMENTS = ['{"ci', 'ty": "Pa', 'ris", "un', 'it": "c"}'];
const ANSWER_FRAGMENTS = ["It is ", "18 degrees ", "in Paris."];

function chunk(delta: Record<string, unknown>, finishReason: string | null = null) {
  return {
    id: "chatcmpl-local-1",
    object: "chat.completion.chunk",
    created: 1_700_000_000,
    model: "local-test",
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

function streamingEvents(answer: boolean): unknown[] {
  const usage = {
    ...chunk({}),
    choices: [],
    usage: { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 },
  };
  if (answer) {
    return [chunk({ role: "assistant", content: "" }), ...ANSWER_FRAGMENTS.map((content) => chunk({ content })), chunk({}, "stop"), usage];
  }
  return [
    chunk({
      role: "assistant",
      content: null,
      tool_calls: [{ index: 0, id: CALL_ID, type: "function", function: { name: "get_weather", arguments: "" } }],
    }),
    ...ARG_FRAGMENTS.map((args) => chunk({ tool_calls: [{ index: 0, function: { arguments: args } }] })),
    chunk({}, "tool_calls"),
    usage,
  ];
}

function completion(answer: boolean) {
  const message = answer
    ? { role: "assistant", content: ANSWER_FRAGMENTS.join("") }
    : {
        role: "assistant",
        content: null,
        tool_calls: [{ id: CALL_ID, type: "function", function: { name: "get_weather", arguments: ARG_FRAGMENTS.join("") } }],
      };
  return {
    id: "chatcmpl-local-2",
    object: "chat.completion",
    created: 1_700_000_000,
    model: "local-test",
    choices: [{ index: 0, message, finish_reason: answer ? "stop" : "tool_calls" }],
    usage: { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 },
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString("utf8");
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":{"message":"not found"}}');
      return;
    }
    const body = JSON.parse(await readBody(req)) as ChatRequest;
    requests.push({ body, authorization: req.headers.authorization, url: req.url });
    const answer = body.messages.some((m) => m.role === "tool");
    if (!body.stream) {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(completion(answer)));
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    for (const event of streamingEvents(answer)) {
      res.write(`data: ${JSON.stringify(event)}\n\n`);
      // Yield between events so the client really receives the call in fragments.
      await new Promise((resolve) => setImmediate(resolve));
    }
    res.end("data: [DONE]\n\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  // A provider on loopback is private: the operator opens it (OUTBOUND_ALLOW_PRIVATE).
  closeOpened = openHostsForTests([`127.0.0.1:${(server.address() as AddressInfo).port}`]);
});

afterAll(async () => {
  closeOpened();
  await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
});

beforeEach(() => {
  requests.length = 0;
});

function weatherTool(calls: unknown[]) {
  return tool({
    description: "Current weather for a city",
    inputSchema: z.object({ city: z.string().describe("City name"), unit: z.enum(["c", "f"]) }),
    execute: async (input) => {
      calls.push(input);
      return { city: input.city, temperature: 18, unit: input.unit };
    },
  });
}

function localModel() {
  const resolved = resolveModel(undefined, {
    OPENAI_COMPATIBLE_BASE_URL: baseURL,
    OPENAI_COMPATIBLE_MODEL: "local-test",
    OPENAI_COMPATIBLE_API_KEY: "sk-local",
    OPENAI_API_KEY: "sk-should-not-be-used",
  });
  expect(resolved).toMatchObject({ provider: "openai-compatible", modelId: "local-test", offline: false });
  return resolved.model;
}

function expectToolRoundTrip() {
  expect(requests).toHaveLength(2);
  const [first, second] = requests;
  expect(first?.authorization).toBe("Bearer sk-local");
  expect(first?.body.model).toBe("local-test");
  const fn = first?.body.tools?.[0]?.function;
  expect(fn?.name).toBe("get_weather");
  expect(fn?.description).toBe("Current weather for a city");
  expect(fn?.parameters).toMatchObject({
    type: "object",
    properties: { city: { type: "string", description: "City name" }, unit: { type: "string", enum: ["c", "f"] } },
    required: ["city", "unit"],
  });
  const messages = second?.body.messages ?? [];
  const assistant = messages.find((m) => m.role === "assistant");
  expect(assistant?.tool_calls).toEqual([{ id: CALL_ID, type: "function", function: { name: "get_weather", arguments: JSON.stringify({ city: "Paris", unit: "c" }) } }]);
  const toolMessage = messages.find((m) => m.role === "tool");
  expect(toolMessage?.tool_call_id).toBe(CALL_ID);
  expect(JSON.parse(String(toolMessage?.content))).toEqual({ city: "Paris", temperature: 18, unit: "c" });
}

describe("OpenAI-compatible provider against a local HTTP server", () => {
  it("streams a fragmented tool call, runs the tool, then streams the answer", async () => {
    const calls: unknown[] = [];
    const result = streamText({
      model: localModel(),
      system: "You report the weather.",
      prompt: "Weather in Paris?",
      tools: { get_weather: weatherTool(calls) },
      stopWhen: isStepCount(2),
    });
    const inputDeltas: string[] = [];
    for await (const part of result.fullStream) {
      if (part.type === "tool-input-delta") inputDeltas.push(part.delta);
    }
    expect(inputDeltas.length).toBeGreaterThan(1);
    expect(inputDeltas.join("")).toBe(ARG_FRAGMENTS.join(""));
    expect(calls).toEqual([{ city: "Paris", unit: "c" }]);
    expect(await result.text).toBe("It is 18 degrees in Paris.");
    expect(await result.finishReason).toBe("stop");
    const steps = await result.steps;
    expect(steps).toHaveLength(2);
    expect(steps[0]?.toolCalls.map((c) => [c.toolCallId, c.toolName, c.input])).toEqual([[CALL_ID, "get_weather", { city: "Paris", unit: "c" }]]);
    expect((await result.totalUsage).inputTokens).toBe(84);
    expect(requests.every((r) => r.body.stream === true)).toBe(true);
    expectToolRoundTrip();
  });

  it("does the same round trip without streaming", async () => {
    const calls: unknown[] = [];
    const result = await generateText({
      model: localModel(),
      prompt: "Weather in Paris?",
      tools: { get_weather: weatherTool(calls) },
      stopWhen: isStepCount(2),
    });
    expect(calls).toEqual([{ city: "Paris", unit: "c" }]);
    expect(result.text).toBe("It is 18 degrees in Paris.");
    expect(result.steps).toHaveLength(2);
    expect(requests.every((r) => !r.body.stream)).toBe(true);
    expectToolRoundTrip();
  });
});

describe("resolveModel", () => {
  it("prefers the OpenAI-compatible server, then OpenAI, then Anthropic, else offline", () => {
    expect(resolveModel(undefined, { OPENAI_API_KEY: "sk", ANTHROPIC_API_KEY: "ak" })).toMatchObject({
      provider: "openai",
      modelId: "gpt-4.1-mini",
      offline: false,
    });
    expect(resolveModel(undefined, { ANTHROPIC_API_KEY: "ak", ANTHROPIC_MODEL: "claude-x" })).toMatchObject({
      provider: "anthropic",
      modelId: "claude-x",
    });
    const offline = resolveModel("gpt-4.1", {});
    expect(offline).toMatchObject({ provider: "offline", modelId: "offline", offline: true });
  });

  it("lets an agent override the model name of a real provider", () => {
    expect(resolveModel("gpt-4.1", { OPENAI_API_KEY: "sk", OPENAI_MODEL: "gpt-4.1-mini" }).modelId).toBe("gpt-4.1");
    expect(resolveModel("  ", { OPENAI_API_KEY: "sk", OPENAI_MODEL: "gpt-4.1-mini" }).modelId).toBe("gpt-4.1-mini");
    expect(resolveModel("qwen", { OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:1/v1" }).modelId).toBe("qwen");
  });
});
