import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "@/lib/db/test-db";
import { personalWorkspace } from "@/lib/db/workspaces";
import { ensureLibrary } from "@/lib/tools/library";
import { approvalPreview } from "./preview";

/**
 * The preview an approval card loads (`GET /api/approvals/:id/preview`), on a real SQLite
 * file and a real workspace folder: the tool's input schema, and for a file write the file
 * as it is now; members of the thread's workspace see it, everyone else gets 404.
 */
describe("approval preview", () => {
  let t: TestDb;
  let workspacesDir: string;
  const ids = { owner: "", viewer: "", stranger: "", thread: "" };

  beforeAll(async () => {
    t = await createTestDb();
    workspacesDir = await fs.mkdtemp(path.join(os.tmpdir(), "phyl-preview-"));
    const mk = (name: string) => t.db.user.create({ data: { email: `${name}@test.dev`, name } }).then((u) => u.id);
    ids.owner = await mk("owner");
    ids.viewer = await mk("viewer");
    ids.stranger = await mk("stranger");
    const ws = await personalWorkspace(t.db, ids.owner);
    await personalWorkspace(t.db, ids.stranger);
    await t.db.membership.create({ data: { workspaceId: ws, userId: ids.viewer, role: "viewer" } });
    const f = await t.db.flow.create({
      data: { name: "Main", ownerId: ids.owner, workspaceId: ws, versions: { create: { version: 1, document: "{}", authorId: ids.owner } } },
      include: { versions: true },
    });
    const thread = await t.db.thread.create({ data: { userId: ids.owner, flowId: f.id, flowVersionId: f.versions[0]?.id ?? "", title: "task" } });
    ids.thread = thread.id;
    await fs.mkdir(path.join(workspacesDir, thread.id));
    await fs.writeFile(path.join(workspacesDir, thread.id, "summary.md"), "# Old summary\n");
    await fs.writeFile(path.join(workspacesDir, thread.id, "notes.md"), "# Notes\n");
    // The workspace library (mounted: the flow's document leaves the setting at its default).
    const library = await ensureLibrary(workspacesDir, ws);
    await fs.writeFile(path.join(library, "policy.md"), "# Library policy\n");
    await fs.writeFile(path.join(library, "notes.md"), "# Library notes\n");
    const row = (id: string, toolName: string, canonicalArgs: string) => ({
      id,
      threadId: thread.id,
      userId: ids.owner,
      toolName,
      toolCallId: `call-${id}`,
      canonicalArgs,
      argsHash: "h".repeat(64),
      expiresAt: new Date(Date.now() + 600_000),
    });
    await t.db.approval.createMany({
      data: [
        row("apv_change", "write_file", '{"content":"# New summary\\n","path":"summary.md"}'),
        row("apv_new", "write_file", '{"content":"# Fresh\\n","path":"fresh.md"}'),
        row("apv_delete", "delete_file", '{"path":"notes.md"}'),
      ],
    });
  });
  afterAll(async () => {
    await t?.cleanup();
    await fs.rm(workspacesDir, { recursive: true, force: true });
  });

  it("a write over an existing file: the file now, and write_file's input schema", async () => {
    const p = await approvalPreview(t.db, ids.owner, { approvalId: "apv_change", workspacesDir });
    expect(p.file).toEqual({ path: "summary.md", current: { state: "text", content: "# Old summary\n", sizeBytes: 14 } });
    expect(p.inputSchema).toMatchObject({ type: "object", required: ["path", "content"], properties: { path: { type: "string" }, content: { type: "string" } } });
  });

  it("a write of a new file: missing; another path on request", async () => {
    expect((await approvalPreview(t.db, ids.viewer, { approvalId: "apv_new", workspacesDir })).file).toEqual({ path: "fresh.md", current: { state: "missing" } });
    const other = await approvalPreview(t.db, ids.viewer, { approvalId: "apv_new", workspacesDir, path: "notes.md" });
    expect(other.file).toEqual({ path: "notes.md", current: { state: "text", content: "# Notes\n", sizeBytes: 8 } });
    const outside = await approvalPreview(t.db, ids.owner, { approvalId: "apv_new", workspacesDir, path: "../elsewhere/x.md" });
    expect(outside.file?.current.state).toBe("refused");
  });

  it("a write over a file only the mounted library has: the library's file, which the thread's copy would replace; the thread's own file wins", async () => {
    const lib = await approvalPreview(t.db, ids.owner, { approvalId: "apv_new", workspacesDir, path: "policy.md" });
    expect(lib.file).toEqual({ path: "policy.md", current: { state: "text", content: "# Library policy\n", sizeBytes: 17 } });
    const own = await approvalPreview(t.db, ids.owner, { approvalId: "apv_new", workspacesDir, path: "notes.md" });
    expect(own.file?.current).toMatchObject({ content: "# Notes\n" });
  });

  it("a tool that writes no file: the schema only; asking for a path is refused, naming the field", async () => {
    const p = await approvalPreview(t.db, ids.owner, { approvalId: "apv_delete", workspacesDir });
    expect(p.file).toBeNull();
    expect(p.inputSchema).toMatchObject({ properties: { path: { type: "string" } } });
    await expect(approvalPreview(t.db, ids.owner, { approvalId: "apv_delete", workspacesDir, path: "notes.md" })).rejects.toMatchObject({
      code: "unprocessable",
      message: expect.stringMatching(/^path: /),
    });
  });

  it("someone outside the workspace gets not found, and no file", async () => {
    await expect(approvalPreview(t.db, ids.stranger, { approvalId: "apv_change", workspacesDir })).rejects.toMatchObject({ code: "not_found", reason: "approval_not_found" });
    await expect(approvalPreview(t.db, ids.stranger, { approvalId: "apv_change", workspacesDir, path: "notes.md" })).rejects.toMatchObject({ code: "not_found" });
  });
});
