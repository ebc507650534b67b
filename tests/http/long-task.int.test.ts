import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../lib/db/client";
import { type Client, lastPart, readStream, signIn } from "./client";
import { LONG_TASK_END, longTask } from "./runs";
import { startServer, type TestServer } from "./server";

/**
 * A long task over real HTTP against the built app (docs/runs.md#tasks): stored and run in
 * full, never cut to the thread's title; over 4,000 chars refused with a 422 naming the
 * field and the limit, on every way in (the run form's API, a message, the LangGraph API).
 */
describe("a long task over HTTP", () => {
  let s: TestServer;
  let alice: Client;
  let flowId: string;
  const errorOf = async (res: Response) => ((await res.json()) as { error: { reason: string; message: string; issues?: { path: string }[] } }).error;

  beforeAll(async () => {
    s = await startServer();
    const [a] = s.users;
    if (!a) throw new Error("users");
    flowId = a.flowId;
    alice = await signIn(s.url, a.email, a.password);
  }, 120_000);
  afterAll(async () => s?.stop());

  it("a 1,900-char task whose end names the output file: the run view starts the run with all of it, and the model receives all of it", async () => {
    const task = longTask(1900);
    expect(task).toHaveLength(1900);
    const created = await alice.post("/api/threads", { flowId, task });
    expect(created.status).toBe(201);
    const { threadId } = (await created.json()) as { threadId: string };

    // The run view sends its thread's task as the first message: the whole task, not the title.
    const page = await (await alice.fetch(`/threads/${threadId}`)).text();
    expect(page).toContain(LONG_TASK_END);
    const db = createDb(s.dbUrl);
    const thread = await db.thread.findUniqueOrThrow({ where: { id: threadId }, select: { title: true, task: true } });
    expect(thread.task).toBe(task);
    expect(thread.title.endsWith("…")).toBe(true);

    const res = await alice.post(`/api/threads/${threadId}/stream`, { input: { kind: "message", text: task } });
    expect(res.status).toBe(200);
    const chunks = await readStream(res);
    // The offline model planned from the whole text: its write goes to the file named at the end.
    const write = chunks.find((c) => c.type === "data-tool" && c.data?.toolName === "write_file");
    expect(write?.data?.args).toMatchObject({ path: "steering-update.md" });
    expect(lastPart(chunks, "data-run")?.status).toBe("awaiting_approval");
    // And the graph's conversation holds every char of it.
    const state = (await (await alice.fetch(`/api/langgraph/threads/${threadId}/state`)).json()) as { values: { messages: { content: unknown }[] } };
    expect(state.values.messages.map((m) => m.content)).toContain(task);
    await db.$disconnect();
  });

  it("4,000 chars are accepted; 4,001 are refused with a 422 naming the field and the limit, and no thread is made", async () => {
    expect((await alice.post("/api/threads", { flowId, task: longTask(4000) })).status).toBe(201);
    const db = createDb(s.dbUrl);
    const before = await db.thread.count();
    const refused = await alice.post("/api/threads", { flowId, task: longTask(4001) });
    expect(refused.status).toBe(422);
    const error = await errorOf(refused);
    expect(error.message).toMatch(/^task: 4,001 characters; at most 4,000\./);
    expect(error.issues?.[0]?.path).toBe("task");
    expect(await db.thread.count()).toBe(before);
    await db.$disconnect();
  });

  it("a message or a LangGraph run of 4,001 chars is refused with a 422 naming its field", async () => {
    const created = await alice.post("/api/threads", { flowId, task: "List the files" });
    const { threadId } = (await created.json()) as { threadId: string };
    const message = await alice.post(`/api/threads/${threadId}/stream`, { input: { kind: "message", text: longTask(4001) } });
    expect(message.status).toBe(422);
    expect((await errorOf(message)).message).toMatch(/^input\.text: 4,001 characters; at most 4,000\./);
    const run = await alice.post(`/api/langgraph/threads/${threadId}/runs`, { assistant_id: flowId, input: { messages: [{ role: "user", content: longTask(4001) }] } });
    expect(run.status).toBe(422);
    expect((await errorOf(run)).message).toMatch(/^input\.messages: 4,001 characters; at most 4,000\./);
  });
});
