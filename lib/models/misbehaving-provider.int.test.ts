import { streamText } from "ai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { dashboardTotals } from "../db/dashboard";
import { collect, type EngineFixture, engineFixture, lastData } from "../runs/test-helpers";
import type { FlowDocument } from "../flow/schema";
import { openHostsForTests } from "../net/operator-open-hosts";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import { type ProviderServer, type Reply, type Script, SERVER_USAGE, startProviderServer, wellBehaved } from "../../tests/fixtures/provider-server";
import { ModelTimeoutError, withModelDeadline } from "./call-timeout";
import { resolveModel } from "./resolve";

/**
 * Models that misbehave (docs/runs.md "When the model misbehaves"): real runs of the
 * Workspace assistant against a local HTTP server that plays an OpenAI-compatible provider
 * (tests/fixtures/provider-server.ts), one misbehaviour per case. Each case asserts the run's
 * final status, its reason, the number of model calls the server saw and the tokens recorded.
 */

let server: ProviderServer;
let closeOpened: () => void = () => {};
let f: EngineFixture | undefined;

beforeAll(async () => {
  server = await startProviderServer();
  // A provider on loopback is private: the operator opens it (OUTBOUND_ALLOW_PRIVATE).
  closeOpened = openHostsForTests([server.host]);
});

afterAll(async () => {
  closeOpened();
  await server.close();
});

afterEach(async () => {
  await f?.cleanup();
  f = undefined;
});

function localModel() {
  return resolveModel(undefined, { OPENAI_COMPATIBLE_BASE_URL: server.baseURL, OPENAI_COMPATIBLE_MODEL: "local-test", OPENAI_COMPATIBLE_API_KEY: "sk-local" });
}

/** A script that misbehaves for one role's first `times` calls, then behaves (99: always). */
function misbehave(role: "planner" | "executor", reply: Reply, times = 1): Script {
  return (req, nth) => (req.role === role && nth < times ? reply : wellBehaved(req, nth));
}

/** What the table reports about one run. */
interface Outcome {
  status: string | undefined;
  /** The run's error, else every error its steps reported. */
  reason: string;
  /** Requests the provider server got. */
  calls: number;
  /** Each step's [status, tries] in the final plan. */
  steps: [string, number][];
  inputTokens: number;
  outputTokens: number;
  /** Tokens per model that the run's end event recorded (what the dashboard prices), summed: [in, out]. */
  byModel: [number, number];
  /** The dashboard's token totals for the account: [in, out]. */
  dashboard: [number, number];
  ms: number;
}

async function run(script: Script, settings: Partial<FlowDocument["settings"]["limits"]> = {}, task = "Summarize notes.md"): Promise<Outcome> {
  server.script(script);
  const started = Date.now();
  const doc: FlowDocument = { ...workspaceAssistant, settings: { ...workspaceAssistant.settings, limits: { ...workspaceAssistant.settings.limits, ...settings } } };
  f = await engineFixture(doc, { resolveModel: () => localModel() });
  const threadId = await f.newThread(task);
  const chunks = await collect(await f.prepare(threadId, { kind: "message", text: task }));
  const row = await f.t.db.run.findFirstOrThrow({ where: { threadId } });
  const plan = lastData(chunks, "data-plan")?.data;
  const steps = (plan?.steps ?? []).map((s) => [s.status, s.tries] as [string, number]);
  // Every error a step reported, in order (a retried step's earlier errors too).
  const stepErrors = [...new Set(chunks.flatMap((c) => (c.type === "data-step" && c.data.error ? [c.data.error] : [])))];
  const runData = lastData(chunks, "data-run")?.data;
  const reason = runData?.error?.message ?? stepErrors.join("; ");
  const rows = runData?.usage?.byModel ?? [];
  const byModel: [number, number] = [rows.reduce((n, m) => n + m.inputTokens, 0), rows.reduce((n, m) => n + m.outputTokens, 0)];
  const totals = await dashboardTotals(f.t.db, f.userId);
  const dashboard: [number, number] = [totals.tokens.input, totals.tokens.output];
  return { status: runData?.status, reason, calls: server.requests.length, steps, inputTokens: row.inputTokens, outputTokens: row.outputTokens, byModel, dashboard, ms: Date.now() - started };
}

const table: string[] = [];
/**
 * Adds a row to the table, and checks that every token the provider reported, failed calls
 * included, is recorded alike on the run, in its per-model usage and on the dashboard.
 */
function report(name: string, o: Outcome) {
  expect({ case: name, byModel: o.byModel, dashboard: o.dashboard }).toEqual({ case: name, byModel: [o.inputTokens, o.outputTokens], dashboard: [o.inputTokens, o.outputTokens] });
  table.push(`| ${name} | ${o.status} | ${o.reason.replace(/\s+/g, " ").replace(/\|/g, "/").slice(0, 200) || "-"} | ${o.calls} | ${o.inputTokens}/${o.outputTokens} | ${o.ms} |`);
}

const ALWAYS = 99;
const { prompt_tokens: IN, completion_tokens: OUT } = SERVER_USAGE;
const READ_FIL: Reply = { kind: "tool", name: "read_fil", args: '{"path":"notes.md"}' };

describe("runs against a misbehaving OpenAI-compatible provider", () => {
  afterAll(() => {
    // The table of the report (docs/runs.md "When the model misbehaves"); quiet unless asked.
    if (process.env.MISBEHAVE_TABLE) process.stdout.write(`\n| case | final status | reason | model calls | tokens in/out | ms |\n|---|---|---|---|---|---|\n${table.join("\n")}\n`);
  });

  it("baseline: a well-behaved provider completes the run in 3 calls (plan, step, answer)", async () => {
    const o = await run(wellBehaved);
    report("well-behaved", o);
    expect([o.status, o.calls, o.inputTokens, o.outputTokens]).toEqual(["completed", 3, 3 * IN, 3 * OUT]);
  });

  describe("planner", () => {
    it("prose where create_plan was forced, once: asked again with the error, then the run completes; both answers' tokens count", async () => {
      const o = await run(misbehave("planner", { kind: "text", text: "Sure! First I will read notes.md, then summarize it." }));
      report("planner: prose once", o);
      expect([o.status, o.calls, o.inputTokens]).toEqual(["completed", 4, 4 * IN]);
      const again = server.calls("planner")[1];
      expect(again?.forcedTool).toBe("create_plan");
      expect(JSON.stringify(again?.messages)).toContain('you answered in prose (\\"Sure! First I will read notes.md, then summarize it.\\") instead of calling create_plan');
    });

    it("prose twice: the plan fails, saying the model answered in prose twice; the tokens of both answers are recorded", async () => {
      const o = await run(misbehave("planner", { kind: "text", text: "I would read the file." }, ALWAYS));
      report("planner: prose twice", o);
      expect(o.status).toBe("failed");
      expect(o.reason).toBe(
        'The planner could not make a plan: the model answered in prose twice, though it was asked again with the error (last: you answered in prose ("I would read the file.") instead of calling create_plan)',
      );
      expect([o.calls, o.inputTokens, o.outputTokens]).toEqual([2, 2 * IN, 2 * OUT]);
    });

    it("an empty answer twice: the plan fails, saying so", async () => {
      const o = await run(misbehave("planner", { kind: "text", text: "" }, ALWAYS));
      report("planner: empty answer twice", o);
      expect(o.status).toBe("failed");
      expect(o.reason).toMatch(/^The planner could not make a plan: the model gave an empty answer twice/);
      expect([o.calls, o.inputTokens, o.outputTokens]).toEqual([2, 2 * IN, 2 * OUT]);
    });

    it("create_plan with broken JSON, once: asked again with the parse error, then the run completes", async () => {
      const o = await run(misbehave("planner", { kind: "tool", name: "create_plan", args: '{"steps": [{"agent_id": "assistant", "task": "Read notes.md"' }));
      report("planner: broken JSON once", o);
      expect([o.status, o.calls]).toEqual(["completed", 4]);
      expect(JSON.stringify(server.calls("planner")[1]?.messages)).toContain("the create_plan arguments are not valid JSON");
    });

    it("create_plan with broken JSON twice: the plan fails, naming what the model sent", async () => {
      const o = await run(misbehave("planner", { kind: "tool", name: "create_plan", args: '{"steps": [' }, ALWAYS));
      report("planner: broken JSON twice", o);
      expect(o.status).toBe("failed");
      expect(o.reason).toMatch(/^The planner could not make a plan: the model sent create_plan arguments that are not valid JSON twice/);
      expect([o.calls, o.inputTokens, o.outputTokens]).toEqual([2, 2 * IN, 2 * OUT]);
    });

    it("a plan that fails the schema, once: asked again with the validation error, then the run completes", async () => {
      const o = await run(misbehave("planner", { kind: "tool", name: "create_plan", args: JSON.stringify({ steps: [{ agent: "assistant", task: "Read notes.md" }] }) }));
      report("planner: schema-invalid plan once", o);
      expect([o.status, o.calls]).toEqual(["completed", 4]);
      expect(JSON.stringify(server.calls("planner")[1]?.messages)).toContain("the plan fails the create_plan schema (steps.0.agent_id:");
    });

    it("a plan that fails the schema twice: the plan fails, saying so", async () => {
      const o = await run(misbehave("planner", { kind: "tool", name: "create_plan", args: '{"steps": "read it"}' }, ALWAYS));
      report("planner: schema-invalid plan twice", o);
      expect(o.status).toBe("failed");
      expect(o.reason).toMatch(/^The planner could not make a plan: the model sent a plan that fails the schema twice/);
      expect([o.calls, o.inputTokens, o.outputTokens]).toEqual([2, 2 * IN, 2 * OUT]);
    });

    it("prose, then a persistent 500: the run fails with the provider's error, and the prose answer's tokens are recorded", async () => {
      const o = await run((_req, nth) => (nth === 0 ? { kind: "text", text: "Let me think." } : { kind: "error", status: 500, headers: { "retry-after-ms": "5" } }));
      report("planner: prose, then 500s", o);
      expect(o.status).toBe("failed");
      expect(o.reason).toMatch(/^The planner could not make a plan: Failed after 3 attempts\. Last error: .*scripted 500/);
      expect([o.calls, o.inputTokens, o.outputTokens]).toEqual([4, IN, OUT]);
    });

    it("a first token that never comes: the call is aborted at the flow's model call limit and the run fails, saying so", async () => {
      const o = await run(misbehave("planner", { kind: "hang" }, ALWAYS), { modelCallTimeoutMs: 1000 });
      report("planner: first token never comes (limit 1 s)", o);
      expect(o.status).toBe("failed");
      expect(o.reason).toBe("The planner could not make a plan: the model did not answer within 1 s");
      expect([o.calls, o.inputTokens, o.outputTokens]).toEqual([1, 0, 0]);
    });

    it("a persistent 500 (as today): the SDK tries 3 times, then the run fails with the error", async () => {
      const o = await run(misbehave("planner", { kind: "error", status: 500, headers: { "retry-after-ms": "5" } }, ALWAYS));
      report("planner: persistent 500", o);
      expect(o.status).toBe("failed");
      expect(o.reason).toMatch(/^The planner could not make a plan: Failed after 3 attempts\. Last error: .*scripted 500/);
      // A 500 reports no usage: nothing to record.
      expect([o.calls, o.inputTokens, o.outputTokens]).toEqual([3, 0, 0]);
    });
  });

  describe("executor", () => {
    it("an unknown tool name (read_fil): a failed try listing the agent's tools, then the retry (told why) completes; never blocked", async () => {
      const o = await run(misbehave("executor", READ_FIL));
      report("executor: unknown tool once", o);
      expect([o.status, o.steps, o.calls]).toEqual(["completed", [["completed", 2]], 4]);
      const error = "read_fil is not a tool of this agent; its tools are: list_files, read_file, write_file, delete_file, rehydrate.";
      expect(o.reason).toBe(error);
      expect(JSON.stringify(server.calls("executor")[1]?.messages)).toContain(`Your previous try of this step failed: ${error}`);
      expect([o.inputTokens, o.outputTokens]).toEqual([4 * IN, 4 * OUT]);
    });

    it("an unknown tool name every time: retried, re-planned, then the user is asked; no step is blocked", async () => {
      const o = await run(misbehave("executor", READ_FIL, ALWAYS));
      report("executor: unknown tool always", o);
      expect(o.status).toBe("awaiting_input");
      expect(o.steps.some(([status]) => status === "blocked")).toBe(false);
      expect(o.reason).toMatch(/^read_fil is not a tool of this agent; its tools are: list_files, read_file/);
      expect(server.calls("planner")).toHaveLength(2);
      expect(server.calls("executor")).toHaveLength(6);
      expect([o.calls, o.inputTokens, o.outputTokens]).toEqual([8, 8 * IN, 8 * OUT]);
    });

    it("broken JSON in a tool call (as today): the tool reports the error, the agent answers, the run completes", async () => {
      const o = await run(misbehave("executor", { kind: "tool", name: "read_file", args: '{"path": "notes.md"' }));
      report("executor: broken JSON args", o);
      expect([o.status, o.calls, o.inputTokens, o.outputTokens]).toEqual(["completed", 5, 5 * IN, 5 * OUT]);
    });

    it("arguments that fail the schema (as today): the tool reports the error, the agent answers, the run completes", async () => {
      const o = await run(misbehave("executor", { kind: "tool", name: "read_file", args: '{"file": 3}' }));
      report("executor: schema-failing args", o);
      expect([o.status, o.calls, o.inputTokens, o.outputTokens]).toEqual(["completed", 5, 5 * IN, 5 * OUT]);
    });

    it("429 with retry-after (as today): the SDK waits as told and tries again; the run completes", async () => {
      const o = await run(misbehave("executor", { kind: "error", status: 429, headers: { "retry-after": "1" } }));
      report("executor: 429 retry-after 1 s", o);
      // The 429 reports no usage; the 3 answers do.
      expect([o.status, o.calls, o.inputTokens, o.outputTokens]).toEqual(["completed", 4, 3 * IN, 3 * OUT]);
      expect(o.ms).toBeGreaterThanOrEqual(1000);
    });

    it("a stream cut mid-answer: a failed try of the step (never a short answer taken as done), then the retry completes", async () => {
      const o = await run(misbehave("executor", { kind: "cut", text: "Read notes.md: plann" }));
      report("executor: stream cut mid-answer once", o);
      expect(server.calls("executor")[0]?.stream).toBe(true);
      expect([o.status, o.steps, o.calls]).toEqual(["completed", [["completed", 2]], 4]);
      expect(o.reason).toBe("model error: Failed to process successful response");
      // The cut stream reported no usage; the 3 whole answers did.
      expect([o.inputTokens, o.outputTokens]).toEqual([3 * IN, 3 * OUT]);
    });

    it("a stream cut mid-answer every time: each try fails, then the step is re-planned and the user asked; never done", async () => {
      const o = await run(misbehave("executor", { kind: "cut", text: "Read notes.md: plann" }, ALWAYS));
      report("executor: stream cut mid-answer always", o);
      expect(o.status).toBe("awaiting_input");
      expect(o.steps.some(([status]) => status === "completed")).toBe(false);
      expect(o.reason).toBe("model error: Failed to process successful response");
      expect([server.calls("planner").length, server.calls("executor").length]).toEqual([2, 6]);
      expect([o.inputTokens, o.outputTokens]).toEqual([2 * IN, 2 * OUT]);
    });

    it("a first token that never comes: that try fails at the limit, the retry completes", async () => {
      const o = await run(misbehave("executor", { kind: "hang" }), { modelCallTimeoutMs: 1000 });
      report("executor: first token never comes once (limit 1 s)", o);
      expect([o.status, o.steps, o.calls]).toEqual(["completed", [["completed", 2]], 4]);
      expect(o.reason).toBe("model error: the model did not answer within 1 s");
      expect([o.inputTokens, o.outputTokens]).toEqual([3 * IN, 3 * OUT]);
    });

    it("an empty answer (as today): the step completes, saying the agent gave no reply", async () => {
      const o = await run(misbehave("executor", { kind: "text", text: "" }, ALWAYS));
      report("executor: empty answer", o);
      expect([o.status, o.calls, o.inputTokens, o.outputTokens]).toEqual(["completed", 3, 3 * IN, 3 * OUT]);
    });

    it("a 1 MB answer (as today): the run completes", async () => {
      const o = await run(misbehave("executor", { kind: "text", text: "notes ".repeat(180_000) }, ALWAYS));
      report("executor: 1 MB answer", o);
      expect([o.status, o.calls, o.inputTokens, o.outputTokens]).toEqual(["completed", 3, 3 * IN, 3 * OUT]);
    });
  });

  describe("a streaming call (streamText), at the model-call layer", () => {
    it("a stream cut mid-answer (closed without finish or [DONE]) is an error, never a short answer taken for whole", async () => {
      server.script(() => ({ kind: "cut", text: "It is 18 degrees" }));
      const result = streamText({ model: localModel().model, prompt: "Weather?" });
      const parts: string[] = [];
      let thrown: unknown;
      try {
        for await (const part of result.fullStream) parts.push(part.type);
      } catch (err) {
        thrown = err;
      }
      // The deltas arrived, then the failure: as an error part or thrown, never a finish.
      expect(parts).toContain("text-delta");
      expect(parts.includes("error") || thrown !== undefined).toBe(true);
      expect(parts).not.toContain("finish");
      await expect(result.text).rejects.toThrow(/Failed to process successful response/);
      expect(server.requests).toHaveLength(1);
      table.push("| streamText: stream cut mid-answer | error (no finish) | Failed to process successful response | 1 | - | - |");
    });

    it("a first token that never comes: the model call limit aborts the stream with the reason", async () => {
      server.script(() => ({ kind: "hang" }));
      const started = Date.now();
      const out = await withModelDeadline(500, async (d) => {
        const result = streamText({ model: localModel().model, prompt: "Weather?", abortSignal: d.signal });
        for await (const _ of result.fullStream) d.touch();
        return result.text;
      }).catch((err: unknown) => err);
      expect(out).toBeInstanceOf(ModelTimeoutError);
      expect(String(out)).toBe("ModelTimeoutError: the model did not answer within 0.5 s");
      expect(server.requests).toHaveLength(1);
      table.push(`| streamText: first token never comes (limit 0.5 s) | error | the model did not answer within 0.5 s | 1 | - | ${Date.now() - started} |`);
    });
  });
});
