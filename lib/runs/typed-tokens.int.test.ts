import { afterEach, describe, expect, it } from "vitest";
import { rowsContaining } from "../memory/test-fixtures";
import { taskWithoutTypedTokens } from "./typed-tokens";
import { collect, type EngineFixture, engineFixture, lastData } from "./test-helpers";
import { stateAt, listCheckpoints } from "../engine/time-travel";

/**
 * A live approval token typed into a message in a form the command parser refuses is
 * redacted before the run is queued (docs/security.md "Secrets at rest"): the job, the
 * checkpoints and the events never hold it, while the chat approval the Router accepts still
 * approves.
 */
describe("typed approval tokens at rest", () => {
  let f: EngineFixture;
  afterEach(async () => f?.cleanup());

  it("refused forms leave the token live but in no row of any table; the accepted form still approves", async () => {
    f = await engineFixture();
    const threadId = await f.newThread();
    const first = await collect(await f.prepare(threadId, { kind: "message", text: "Summarize notes.md into summary.md" }));
    const a = lastData(first, "data-approval")?.data;
    if (!a) throw new Error("no approval");
    const refused = [`approve ${a.approvalId} ${a.token}`, `\u0410PPROVE ${a.approvalId} ${a.token}`, `APPROVE ${a.token} ${a.approvalId}`, `here: ${a.token}`];
    for (const text of refused) {
      const chunks = await collect(await f.prepare(threadId, { kind: "message", text }));
      expect(lastData(chunks, "data-run")?.data.status, text).toBe("awaiting_approval");
    }
    // Still live: nobody decided it.
    expect((await f.t.db.approval.findUniqueOrThrow({ where: { id: a.approvalId } })).status).toBe("pending");
    expect(await rowsContaining(f.t.db, a.token)).toEqual([]);
    expect(await rowsContaining(f.t.db, a.token.slice(0, 20))).toEqual([]);
    // Control: the messages are stored, redacted.
    const stored = await rowsContaining(f.t.db, `approve ${a.approvalId} [redacted]`);
    expect(stored).toEqual(expect.arrayContaining(["RunJob.input", "RunEvent.data"]));
    // In the checkpoints too: in the row when small, else a blob (docs/storage.md "Inline values").
    expect(stored.filter((where) => where === "Checkpoint.checkpoint" || where === "CheckpointBlob.value")).not.toEqual([]);

    // The form the Router accepts keeps its token for this run, which consumes it.
    const approved = await collect(await f.prepare(threadId, { kind: "message", text: `APPROVE ${a.approvalId} ${a.token}` }));
    expect(lastData(approved, "data-run")?.data.status).toBe("completed");
    expect((await f.t.db.approval.findUniqueOrThrow({ where: { id: a.approvalId } })).status).toBe("consumed");
    const { checkpoints } = await listCheckpoints(f.t.db, f.userId, threadId);
    for (const c of checkpoints) expect(JSON.stringify(await stateAt(f.t.db, f.userId, threadId, c.checkpointId))).not.toContain(a.token);
  });

  it("a token of another thread of the same workspace, pasted as a task, is redacted too", async () => {
    f = await engineFixture();
    const one = await f.newThread();
    const a = lastData(await collect(await f.prepare(one, { kind: "message", text: "Summarize notes.md into summary.md" })), "data-approval")?.data;
    if (!a) throw new Error("no approval");
    const two = await f.newThread("What is in notes.md?");
    await collect(await f.prepare(two, { kind: "message", text: `What is in notes.md? (${a.token})` }));
    expect(await rowsContaining(f.t.db, a.token)).toEqual([]);
  });

  it("a new thread's task holding another thread's live token is stored without it", async () => {
    f = await engineFixture();
    const one = await f.newThread();
    const a = lastData(await collect(await f.prepare(one, { kind: "message", text: "Summarize notes.md into summary.md" })), "data-approval")?.data;
    if (!a) throw new Error("no approval");
    const task = await taskWithoutTypedTokens(f.t.db, f.secret, f.userId, `What is in notes.md? approve ${a.approvalId} ${a.token.toLowerCase()}`);
    expect(task).not.toContain(a.token.toLowerCase());
    await f.newThread(task);
    expect(await rowsContaining(f.t.db, a.token)).toEqual([]);
    expect(await rowsContaining(f.t.db, a.token.toLowerCase())).toEqual([]);
  });
});
