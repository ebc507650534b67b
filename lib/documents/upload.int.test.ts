import { promises } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { rawMultipart } from "../../tests/http/documents";
import { createDb, databaseUrlOf } from "../db/client";
import { leaseRunOf, LEASE_TTL_MS, takeHeldLease } from "../db/lease";
import { collect, type EngineFixture, engineFixture, lastData } from "../runs/test-helpers";
import type { RunQueue } from "../runs/queue";
import { recoverRuns } from "../runs/worker";
import { uploadFiles } from "./upload";

/**
 * The upload's hold on the thread (docs/documents.md "Upload", docs/durability.md#the-lease):
 * the lease is taken and released in statements of their own, so the database is free for
 * other writers while files are written (on SQLite, a transaction around the writes would
 * stop them all); a failed upload frees the thread at once, and a killed one leaves a lease
 * that lapses and is recovered like a dead worker's.
 */

const limits = { maxFileBytes: 20 * 1_048_576, maxWorkspaceBytes: 50 * 1_048_576, maxFiles: 20, extractTimeoutMs: 10_000 };
const noQueue: RunQueue = { kind: "table", dispatch: async () => undefined, consume: async () => undefined, stop: async () => undefined };

function request(files: { filename: string; bytes: string | Buffer }[]): Request {
  const { body, contentType } = rawMultipart(files);
  return new Request("http://localhost/api/threads/t/files", { method: "POST", body: new Uint8Array(body), headers: { "content-type": contentType } });
}

describe("uploads and the thread lease", () => {
  let f: EngineFixture | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    await f?.cleanup();
    f = undefined;
  });

  it("while a large upload is being written, another write to the database completes before the upload ends", async () => {
    f = await engineFixture();
    const fx = f;
    const threadId = await fx.newThread();
    const rename = promises.rename.bind(promises);
    // Another server instance: its own connection to the same database.
    const other = createDb(databaseUrlOf(fx.t.db));
    let otherWrite: "done" | "failed" | "blocked" | null = null;
    let leaseWhileWriting: string | null = null;
    vi.spyOn(promises, "rename").mockImplementation(async (from, to) => {
      if (otherWrite === null && String(to).endsWith("big.txt")) {
        leaseWhileWriting = await leaseRunOf(fx.t.db, threadId);
        // Another writer (a settings save, another thread's run) while the file is being written.
        const write = other.user.create({ data: { email: "other-writer@test.dev" } }).then(
          () => "done" as const,
          () => "failed" as const,
        );
        const timer = new Promise<"blocked">((r) => setTimeout(() => r("blocked"), 5_000).unref());
        otherWrite = await Promise.race([write, timer]);
        await write;
      }
      return rename(from, to);
    });
    const files = await uploadFiles(fx.t.db, { userId: fx.userId, threadId, req: request([{ filename: "big.txt", bytes: "a".repeat(8 * 1_048_576) }]), workspacesDir: fx.workspacesDir, limits });
    await other.$disconnect();
    expect(files.map((x) => [x.path, x.sizeBytes])).toEqual([["big.txt", 8 * 1_048_576]]);
    expect(leaseWhileWriting).toMatch(/^upload:/);
    expect(otherWrite).toBe("done");
    expect(await leaseRunOf(fx.t.db, threadId)).toBeNull();
    expect(await fx.t.db.auditEntry.count({ where: { threadId, action: "file_uploaded" } })).toBe(1);
  });

  it("a failed upload frees the thread at once; a killed one's lease lapses and recovery frees it; then a run starts", async () => {
    f = await engineFixture();
    const fx = f;
    const threadId = await fx.newThread("Summarize notes.md into summary.md");
    vi.spyOn(promises, "rename").mockRejectedValueOnce(Object.assign(new Error("disk full"), { code: "ENOSPC" }));
    await expect(uploadFiles(fx.t.db, { userId: fx.userId, threadId, req: request([{ filename: "a.txt", bytes: "a" }]), workspacesDir: fx.workspacesDir, limits })).rejects.toThrow("disk full");
    expect(await leaseRunOf(fx.t.db, threadId)).toBeNull();
    vi.restoreAllMocks();

    // A process killed mid-upload leaves its lease as it took it: held, with an expiry.
    const now = Date.now();
    expect(await takeHeldLease(fx.t.db, threadId, "upload:killed", now)).toBe(true);
    await expect(uploadFiles(fx.t.db, { userId: fx.userId, threadId, req: request([{ filename: "b.txt", bytes: "b" }]), workspacesDir: fx.workspacesDir, limits })).rejects.toMatchObject({
      reason: "run_in_progress",
    });
    await recoverRuns(fx.t.db, noQueue, now + LEASE_TTL_MS - 1);
    expect(await leaseRunOf(fx.t.db, threadId)).toBe("upload:killed");
    await recoverRuns(fx.t.db, noQueue, now + LEASE_TTL_MS + 1);
    expect(await leaseRunOf(fx.t.db, threadId)).toBeNull();

    expect(await uploadFiles(fx.t.db, { userId: fx.userId, threadId, req: request([{ filename: "c.txt", bytes: "c" }]), workspacesDir: fx.workspacesDir, limits })).toHaveLength(1);
    const chunks = await collect(await fx.prepare(threadId, { kind: "message", text: "Summarize notes.md into summary.md" }));
    expect(lastData(chunks, "data-run")?.data.status).not.toBe("failed");
  });
});
