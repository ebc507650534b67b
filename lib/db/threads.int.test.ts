import { afterEach, describe, expect, it } from "vitest";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import { createFlow } from "./flows";
import { createTestDb, type TestDb } from "./test-db";
import { createThread } from "./threads";

/** A task of about `chars` chars whose last sentence names the output file (docs/runs.md#tasks). */
function longTask(chars: number): string {
  const filler = "Read notes.md and keep every decision, owner and date that the steering group needs for the next quarter. ";
  const body = filler
    .repeat(Math.ceil(chars / filler.length))
    .slice(0, chars - 41)
    .trimEnd()
    .padEnd(chars - 41, ".");
  return `${body} Write the result into steering-update.md`;
}

/** Threads keep their task in full; the title is a display title; over 4,000 chars is refused, never cut. */
describe("createThread: the task and the title", () => {
  let t: TestDb;
  afterEach(async () => t?.cleanup());

  async function owner() {
    t = await createTestDb();
    const user = await t.db.user.create({ data: { email: "owner@test.dev" } });
    const flow = await createFlow(t.db, user.id, workspaceAssistant);
    return { userId: user.id, flowId: flow.id };
  }

  it("stores a 1,900-char task in full, with its last words, and a title shortened with an ellipsis", async () => {
    const { userId, flowId } = await owner();
    const task = longTask(1900);
    expect(task).toHaveLength(1900);
    const thread = await createThread(t.db, userId, flowId, `  ${task}\n`);
    expect(thread.task).toBe(task);
    expect(thread.task?.endsWith("Write the result into steering-update.md")).toBe(true);
    expect(thread.title).toHaveLength(120);
    expect(thread.title.endsWith("…")).toBe(true);
    expect(task.startsWith(thread.title.slice(0, -1))).toBe(true);
  });

  it("keeps a short task as its own title", async () => {
    const { userId, flowId } = await owner();
    const thread = await createThread(t.db, userId, flowId, "Summarize notes.md\n into summary.md");
    expect(thread).toMatchObject({ task: "Summarize notes.md\n into summary.md", title: "Summarize notes.md into summary.md" });
  });

  it("accepts 4,000 chars and refuses 4,001 with an error naming the field and the limit", async () => {
    const { userId, flowId } = await owner();
    expect((await createThread(t.db, userId, flowId, longTask(4000))).task).toHaveLength(4000);
    await expect(createThread(t.db, userId, flowId, longTask(4001))).rejects.toMatchObject({
      code: "unprocessable",
      reason: "task_too_long",
      message: expect.stringMatching(/^task: 4,001 characters; at most 4,000\./),
    });
    expect(await t.db.thread.count()).toBe(1);
  });
});
