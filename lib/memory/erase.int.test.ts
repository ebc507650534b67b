import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type EngineFixture, engineFixture, collect, lastData } from "../runs/test-helpers";
import { subscribe } from "../events/bus";
import { eraseThread } from "./erase";
import { forgetFact, upsertFact } from "./long-term";
import { appendEntry } from "./short-term";
import type { TestDb } from "../db/test-db";
import { type MemoryFixture, memoryFixture, pagesContaining, rowsContaining } from "./test-fixtures";

/**
 * Right to erasure (SPEC.md 6) on a real database: after erasing a thread or forgetting a
 * fact, no row of any table holds the content, and no byte of the stored pages either: on
 * SQLite the database file and its WAL, on PostgreSQL the raw pages of every table, TOAST
 * table and index (lib/memory/scrub.ts says what each scrub reaches).
 */

/**
 * Where the stored bytes hold `needle`: the SQLite file and its -wal (when there is one), or
 * the PostgreSQL relations whose pages do. Empty when none.
 */
async function storedBytesContaining(t: TestDb, needle: string): Promise<string[]> {
  if (!t.file) return pagesContaining(t.db, needle);
  const bytes = Buffer.from(needle, "utf8");
  return [t.file, `${t.file}-wal`].filter((p) => existsSync(p) && readFileSync(p).includes(bytes));
}

describe("erasure", () => {
  let f: EngineFixture | undefined;
  let m: MemoryFixture | undefined;
  afterEach(async () => {
    await f?.cleanup();
    await m?.cleanup();
    f = undefined;
    m = undefined;
  });

  it("eraseThread leaves no trace of a real run in any table, the file or the workspace; a tombstone keeps the counts", async () => {
    f = await engineFixture();
    const { db } = f.t;
    const marker = `ERASEME${randomBytes(8).toString("hex")}`;
    const task = `Write marker.md with content ${marker}`;
    const threadId = await f.newThread(task);
    const first = await collect(await f.prepare(threadId, { kind: "message", text: task }));
    const a = lastData(first, "data-approval")?.data;
    if (!a) throw new Error("no approval");
    expect(JSON.parse(a.canonicalArgs).content).toContain(marker);
    const second = await collect(await f.prepare(threadId, { kind: "decision", approvalId: a.approvalId, decision: "approve", token: a.token, comment: `ok for ${marker}` }));
    expect(lastData(second, "data-run")?.data.status).toBe("completed");
    const dir = path.join(f.workspacesDir, threadId);
    expect(readFileSync(path.join(dir, "marker.md"), "utf8")).toContain(marker);
    const workspaceId = (await db.flow.findUniqueOrThrow({ where: { id: f.flowId } })).workspaceId;
    // The marker also lands in an audit entry, an evicted blob, short-term memory and a proposed fact.
    await db.auditEntry.create({ data: { threadId, actorId: f.userId, action: "note", detail: JSON.stringify({ note: marker }) } });
    await db.evictedBlob.create({ data: { id: `blob-${threadId}`, threadId, toolName: "read_file", toolCallId: "call-x", sizeChars: 12_000, content: `${marker} `.repeat(600) } });
    await appendEntry(db, { threadId, workspaceId, key: "tool:call-x", agentId: "assistant", action: "read_file", result: `read ${marker}`, stepId: "s-x" });
    await upsertFact(db, { workspaceId, content: `The marker is ${marker}`, origin: "promoted", status: "proposed", source: { threadId, stepId: "s-x" } });
    const kept = (await upsertFact(db, { workspaceId, content: "Files are written only after approval.", origin: "promoted", status: "accepted", source: { threadId, stepId: "s-y" } })).fact;

    const before = await rowsContaining(db, marker);
    // The byte scan can find what it looks for (else its empty answer below would prove nothing).
    expect(await storedBytesContaining(f.t, marker)).not.toEqual([]);
    for (const where of ["Thread.title", "RunEvent.data", "Approval.canonicalArgs", "EvictedBlob.content", "MemoryEntry.result", "MemoryFact.content"]) expect(before).toContain(where);
    expect(before.some((w) => w.startsWith("Checkpoint"))).toBe(true);
    expect(before.some((w) => w.startsWith("AuditEntry"))).toBe(true);

    // Refused while a run streams on the thread.
    const running = (await f.prepare(threadId, { kind: "message", text: "thanks" })).stream();
    await running.next();
    await expect(eraseThread(db, { threadId, actorId: f.userId, workspacesDir: f.workspacesDir })).rejects.toMatchObject({ status: 409 });
    for await (const _ of running) {
      // drain
    }

    const events: unknown[] = [];
    const stop = subscribe("memory.forgotten", (e) => {
      events.push(e.data);
    });
    const entries = await db.memoryEntry.count({ where: { threadId } });
    let counts: Record<string, number>;
    try {
      counts = await eraseThread(db, { threadId, actorId: f.userId, workspacesDir: f.workspacesDir });
    } finally {
      stop();
    }
    expect(counts).toMatchObject({ threads: 1, approvals: 1, evictedBlobs: 1, shortTermEntries: entries, proposedFacts: 1, workspaceDirs: 1 });
    for (const k of ["runs", "events", "auditEntries", "checkpoints", "checkpointBlobs", "checkpointWrites"]) expect(counts[k]).toBeGreaterThan(0);

    expect(await rowsContaining(db, marker)).toEqual([]);
    expect(await storedBytesContaining(f.t, marker)).toEqual([]);
    expect(existsSync(dir)).toBe(false);
    for (const table of ["checkpoint", "checkpointBlob", "checkpointWrite", "run", "runEvent", "approval", "auditEntry", "evictedBlob", "memoryEntry"] as const) {
      expect(await (db[table] as unknown as { count(a: unknown): Promise<number> }).count({ where: { threadId } })).toBe(0);
    }
    const tomb = await db.tombstone.findFirstOrThrow({ where: { kind: "thread", subjectId: threadId } });
    expect(tomb).toMatchObject({ workspaceId, actorId: f.userId });
    expect(JSON.parse(tomb.counts)).toEqual(counts);
    expect(events).toEqual([{ kind: "thread", subjectId: threadId, workspaceId, counts }]);
    // Accepted facts stay, naming their source.
    expect(await db.memoryFact.findUniqueOrThrow({ where: { id: kept.id } })).toMatchObject({ sourceThreadId: threadId, sourceStepId: "s-y", status: "accepted" });
    await expect(eraseThread(db, { threadId, actorId: f.userId, workspacesDir: f.workspacesDir })).rejects.toMatchObject({ status: 404 });
  });

  it("forgetFact removes the fact and every fact promoted from the same source, leaving no trace", async () => {
    m = await memoryFixture();
    const { db } = m.t;
    const ws = m.a.workspaceId;
    const threadId = await m.a.newThread();
    const marker = `FORGETME${randomBytes(8).toString("hex")}`;
    const source = { threadId, stepId: "step-1" };
    const fact = (await upsertFact(db, { workspaceId: ws, content: `The vault code is ${marker}`, tags: ["secret"], origin: "promoted", source })).fact;
    const sibling = (await upsertFact(db, { workspaceId: ws, content: `Derived: ask ops for ${marker.toLowerCase()}x`, origin: "promoted", status: "proposed", source })).fact;
    const otherStep = (await upsertFact(db, { workspaceId: ws, content: "The vault is in room 4.", origin: "promoted", source: { threadId, stepId: "step-2" } })).fact;
    const unrelated = (await upsertFact(db, { workspaceId: ws, content: "Lunch is at noon.", origin: "manual" })).fact;
    const otherTenant = (await upsertFact(db, { workspaceId: m.b.workspaceId, content: "Same source ids elsewhere", origin: "promoted", source })).fact;
    expect(await rowsContaining(db, marker)).toEqual(["MemoryFact.content"]);
    expect(await storedBytesContaining(m.t, marker)).not.toEqual([]);

    expect(await forgetFact(db, { factId: fact.id, actorId: m.a.userId })).toEqual({ removed: 2 });
    expect(await db.memoryFact.count({ where: { id: { in: [fact.id, sibling.id] } } })).toBe(0);
    expect(await db.memoryFact.count({ where: { id: { in: [otherStep.id, unrelated.id, otherTenant.id] } } })).toBe(3);
    expect(await rowsContaining(db, marker)).toEqual([]);
    expect(await rowsContaining(db, marker.toLowerCase())).toEqual([]);
    expect(await storedBytesContaining(m.t, marker)).toEqual([]);
    const tomb = await db.tombstone.findFirstOrThrow({ where: { kind: "fact", subjectId: fact.id } });
    expect(tomb).toMatchObject({ workspaceId: ws, actorId: m.a.userId, counts: JSON.stringify({ facts: 2 }) });
    await expect(forgetFact(db, { factId: fact.id, actorId: m.a.userId })).rejects.toMatchObject({ status: 404 });
  });
});
