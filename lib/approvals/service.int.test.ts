import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFlow } from "../db/flows";
import { createTestDb, type TestDb } from "../db/test-db";
import { createThread } from "../db/threads";
import { canonicalArgs } from "../policy/canonical";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import { approveChallenge, closeChallenge, consumeChallenge, createChallenge, editChallenge, expireChallenge } from "./service";

/**
 * The approvals service on a real SQLite file: roles as the "user" factor, the
 * edit's second hash, strict one-winner transitions and exactly-once expiry.
 */
const secret = "test-secret-0123456789-abcdefghijklmnop";
const args = { path: "summary.md", content: "hi" };
const allow = () => ({ decision: "AUTH_REQUIRED", explanation: "test" });

describe("approvals service", () => {
  let t: TestDb;
  let ids: { owner: string; viewer: string; stranger: string; threadId: string };
  let clock: { now: number };
  const opts = () => ({ db: t.db, secret, now: () => clock.now });
  const challenge = async () => {
    const c = canonicalArgs(args);
    return createChallenge({ ...opts(), ttlMs: 60_000 }, { threadId: ids.threadId, userId: ids.owner, toolName: "write_file", toolCallId: "call-1", canonicalArgs: c.canonical, argsHash: c.hash });
  };
  const decider = (approvalId: string, userId = ids.owner) => ({ approvalId, threadId: ids.threadId, userId });

  beforeEach(async () => {
    t = await createTestDb();
    clock = { now: Date.UTC(2026, 10, 22, 12) };
    const [owner, viewer, stranger] = await Promise.all(["o@t.dev", "v@t.dev", "s@t.dev"].map((email) => t.db.user.create({ data: { email } })));
    if (!owner || !viewer || !stranger) throw new Error("users");
    const flow = await createFlow(t.db, owner.id, workspaceAssistant);
    await t.db.membership.create({ data: { workspaceId: flow.workspaceId, userId: viewer.id, role: "viewer" } });
    const thread = await createThread(t.db, owner.id, flow.id, "Summarize notes.md into summary.md");
    ids = { owner: owner.id, viewer: viewer.id, stranger: stranger.id, threadId: thread.id };
  });
  afterEach(async () => t.cleanup());

  it("a viewer is refused (403), a non-member sees nothing (404); the challenge stays pending", async () => {
    const c = await challenge();
    const hash = canonicalArgs(args).hash;
    await expect(approveChallenge(opts(), { ...decider(c.id, ids.viewer), token: c.token, argsHash: hash })).rejects.toMatchObject({ code: "forbidden", reason: "role_forbidden" });
    await expect(closeChallenge(opts(), decider(c.id, ids.stranger), "reject")).rejects.toMatchObject({ code: "not_found" });
    expect((await t.db.approval.findUniqueOrThrow({ where: { id: c.id } })).status).toBe("pending");
  });

  it("an edit stores the new canonical args and hash; consuming needs exactly that hash", async () => {
    const c = await challenge();
    const hash = canonicalArgs(args).hash;
    const edited = await editChallenge(opts(), { ...decider(c.id), token: c.token, argsHash: hash }, { args: { content: "hi", path: "edited.md" }, decide: allow });
    expect(edited.hash).toBe(canonicalArgs({ path: "edited.md", content: "hi" }).hash);
    const input = { ...decider(c.id), token: c.token, argsHash: hash };
    // Running the original arguments, or other ones, under an edit is refused.
    await expect(consumeChallenge(opts(), input)).rejects.toMatchObject({ reason: "args_hash_mismatch" });
    await expect(consumeChallenge(opts(), { ...input, editedArgsHash: canonicalArgs({ path: "evil.md" }).hash })).rejects.toMatchObject({ reason: "args_hash_mismatch" });
    // The edited text changed in the database: refused too.
    await t.db.approval.update({ where: { id: c.id }, data: { editedArgs: '{"content":"x","path":"edited.md"}' } });
    await expect(consumeChallenge(opts(), { ...input, editedArgsHash: edited.hash })).rejects.toMatchObject({ reason: "args_hash_mismatch" });
    await t.db.approval.update({ where: { id: c.id }, data: { editedArgs: edited.canonical } });
    await consumeChallenge(opts(), { ...input, editedArgsHash: edited.hash });
    expect(await t.db.approval.findUniqueOrThrow({ where: { id: c.id } })).toMatchObject({ status: "consumed", decision: "edit" });
  });

  it("consumed once; the same call presenting it again after a crash is accepted without a second consumption, any other reuse is refused", async () => {
    const c = await challenge();
    const hash = canonicalArgs(args).hash;
    await approveChallenge(opts(), { ...decider(c.id), token: c.token, argsHash: hash });
    const input = { ...decider(c.id), token: c.token, argsHash: hash, toolCallId: "call-1" };
    expect(await consumeChallenge(opts(), input)).toEqual({ replayed: false });
    const consumedAt = (await t.db.approval.findUniqueOrThrow({ where: { id: c.id } })).consumedAt;
    // Long after the expiry: the decision was in time, the re-run is the same use.
    clock.now += 3_600_000;
    expect(await consumeChallenge(opts(), input)).toEqual({ replayed: true });
    expect((await t.db.approval.findUniqueOrThrow({ where: { id: c.id } })).consumedAt).toEqual(consumedAt);
    const refused = { reason: "approval_already_decided" };
    await expect(consumeChallenge(opts(), { ...input, toolCallId: "call-2" })).rejects.toMatchObject(refused);
    const { toolCallId: _, ...withoutCall } = input;
    await expect(consumeChallenge(opts(), withoutCall)).rejects.toMatchObject(refused);
    await expect(consumeChallenge(opts(), { ...input, argsHash: canonicalArgs({ path: "evil.md" }).hash })).rejects.toMatchObject({ reason: "args_hash_mismatch" });
    await expect(consumeChallenge(opts(), { ...input, token: `${c.token.slice(0, -2)}xx` })).rejects.toMatchObject({ reason: "bad_token" });
    await expect(consumeChallenge(opts(), { ...input, threadId: "other-thread" })).rejects.toMatchObject({ code: "not_found" });
    // Another owner of the workspace presenting the same token is not the same use.
    const other = await t.db.user.create({ data: { email: "o2@t.dev" } });
    const thread = await t.db.thread.findUniqueOrThrow({ where: { id: ids.threadId }, include: { flow: true } });
    await t.db.membership.create({ data: { workspaceId: thread.flow.workspaceId, userId: other.id, role: "owner" } });
    await expect(consumeChallenge(opts(), { ...input, userId: other.id })).rejects.toMatchObject(refused);
  });

  it("the same call asks once: creating the challenge again (the RiskGate re-run) answers the open one", async () => {
    const a = await challenge();
    const b = await challenge();
    expect(b).toEqual(a);
    expect(await t.db.approval.count({ where: { threadId: ids.threadId } })).toBe(1);
    clock.now += 120_000;
    expect((await challenge()).id).not.toBe(a.id);
  });

  it("a BLOCKED edit is refused and leaves the challenge pending", async () => {
    const c = await challenge();
    const blocked = () => ({ decision: "BLOCKED", explanation: "no shell scripts" });
    await expect(editChallenge(opts(), { ...decider(c.id), token: c.token, argsHash: canonicalArgs(args).hash }, { args: { path: "run.sh", content: "x" }, decide: blocked })).rejects.toMatchObject({
      code: "forbidden",
      reason: "edit_blocked_by_policy",
    });
    expect((await t.db.approval.findUniqueOrThrow({ where: { id: c.id } })).status).toBe("pending");
  });

  it("closing is strict: the second decision of any kind gets 409", async () => {
    const c = await challenge();
    await closeChallenge(opts(), decider(c.id), "respond", "use notes.md");
    for (const kind of ["reject", "ignore", "respond"] as const) {
      await expect(closeChallenge(opts(), decider(c.id), kind)).rejects.toMatchObject({ code: "conflict" });
    }
    expect(await t.db.approval.findUniqueOrThrow({ where: { id: c.id } })).toMatchObject({ status: "rejected", decision: "respond", comment: "use notes.md" });
  });

  it("expiry happens once; afterwards every decision is 410", async () => {
    const c = await challenge();
    expect(await expireChallenge(opts(), c.id)).toBe(false); // not due yet
    clock.now += 61_000;
    const results = await Promise.all([expireChallenge(opts(), c.id), expireChallenge(opts(), c.id)]);
    expect(results.sort()).toEqual([false, true]);
    await expect(closeChallenge(opts(), decider(c.id), "reject")).rejects.toMatchObject({ code: "gone" });
    await expect(approveChallenge(opts(), { ...decider(c.id), token: c.token, argsHash: canonicalArgs(args).hash })).rejects.toMatchObject({ code: "gone" });
  });
});
