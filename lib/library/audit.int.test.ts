import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makePdf, rawMultipart } from "../../tests/http/documents";
import { personalWorkspace } from "../db/workspaces";
import { extractPathFor } from "../documents/readable";
import { uploadFiles } from "../documents/upload";
import { type EngineFixture, engineFixture } from "../runs/test-helpers";
import { eraseThread } from "../memory/erase";
import { addLibraryFiles, deleteLibraryFile } from "../tools/library";
import { libraryAudit, libraryAuditSink, threadAuditTrail } from "./audit";

/**
 * Uploads as tenant data (docs/library.md "Audit", "Erasure and retention"; docs/documents.md):
 * library uploads and deletes are rows of the audit trail, shown with every thread of the
 * workspace and gone with the workspace; erasing a thread removes its uploaded files, their
 * extracts and their audit rows.
 */
describe("uploads as tenant data", () => {
  let f: EngineFixture | undefined;
  afterEach(async () => {
    await f?.cleanup();
    f = undefined;
  });

  it("library uploads and deletes are audit-trail rows of the workspace, shown in its threads' trail, gone with the workspace", async () => {
    f = await engineFixture();
    const { db } = f.t;
    const ws = (await db.flow.findUniqueOrThrow({ where: { id: f.flowId } })).workspaceId;
    const threadId = await f.newThread();
    const sink = libraryAuditSink(db, ws);
    await addLibraryFiles(f.workspacesDir, ws, [{ name: "policy.md", data: new TextEncoder().encode("Refunds within 30 days.") }], f.userId, sink);
    await deleteLibraryFile(f.workspacesDir, ws, "policy.md", f.userId, sink);

    expect((await libraryAudit(db, ws)).map((e) => [e.action, e.name, e.actorId, e.sizeBytes])).toEqual([
      ["library_upload", "policy.md", f.userId, 23],
      ["library_delete", "policy.md", f.userId, 23],
    ]);
    expect(existsSync(path.join(f.workspacesDir, ".library", ws, "audit.jsonl"))).toBe(false);
    const trail = await threadAuditTrail(db, threadId, ws);
    expect(trail.filter((e) => e.threadId === null).map((e) => e.action)).toEqual(["library_upload", "library_delete"]);

    // Another workspace's threads do not see them.
    const other = (await db.user.create({ data: { email: "other@audit.test" } })).id;
    const otherWs = await personalWorkspace(db, other);
    expect(await threadAuditTrail(db, "no-such-thread", otherWs)).toEqual([]);

    // Deleting the workspace takes its audit rows with it.
    await db.workspace.delete({ where: { id: ws } });
    expect(await db.auditEntry.count({ where: { workspaceId: ws } })).toBe(0);
  });

  it("erasing a thread removes its uploaded files, their extracts and their audit rows", async () => {
    f = await engineFixture();
    const fx = f;
    const threadId = await fx.newThread();
    const pdf = Buffer.from(await makePdf(["Quarterly numbers: revenue up 12%."]));
    const { body, contentType } = rawMultipart([
      { filename: "notes-upload.txt", bytes: "meeting notes" },
      { filename: "report.pdf", bytes: pdf },
    ]);
    const req = new Request("http://localhost/api/threads/t/files", { method: "POST", body: new Uint8Array(body), headers: { "content-type": contentType } });
    const limits = { maxFileBytes: 5 * 1_048_576, maxWorkspaceBytes: 20 * 1_048_576, maxFiles: 20, extractTimeoutMs: 20_000 };
    await uploadFiles(fx.t.db, { userId: fx.userId, threadId, req, workspacesDir: fx.workspacesDir, limits });
    const root = path.join(fx.workspacesDir, threadId);
    expect(existsSync(path.join(root, "report.pdf"))).toBe(true);
    expect(existsSync(extractPathFor(root, "report.pdf"))).toBe(true);
    expect(await fx.t.db.auditEntry.count({ where: { threadId, action: "file_uploaded" } })).toBe(2);

    await eraseThread(fx.t.db, { threadId, actorId: fx.userId, workspacesDir: fx.workspacesDir });
    expect(existsSync(root)).toBe(false);
    expect(await fx.t.db.auditEntry.count({ where: { threadId } })).toBe(0);
  });
});
