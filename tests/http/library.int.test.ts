import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../lib/db/client";
import type { FlowDocument } from "../../lib/flow/schema";
import { unzipSync } from "fflate";
import { libraryAuditLog } from "../../lib/library/audit";
import { seedDemoLibrary } from "../../lib/library/demo-library";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import { type Client, lastPart, readStream, signIn } from "./client";
import { type PendingApproval, startRun, TASK } from "./runs";
import { startServer, type TestServer } from "./server";

/**
 * The workspace library over real HTTP against the built app (docs/library.md): owners upload,
 * other members list, other workspaces get 404; a flow that mounts it lets its runs read and
 * search the library's files (search_files cites file and lines, and the lines hold the fact);
 * a thread's write makes the thread's own copy and leaves the library unchanged. Alice's and
 * bob's workspaces hold the demo library (notes.md, release-notes.md, README.md) as the seed
 * gives the demo workspace; a new thread's workspace is empty on disk.
 */

type ErrorBody = { error: { code: string; reason: string; message: string } };

/** The demo library the seed puts into a workspace (templates/library). */
const DEMO = ["README.md", "notes.md", "release-notes.md"];
const POLICY = ["# Refund policy", "", "Customers may return goods for any reason.", "", "## Deadlines", "Refunds are paid within 30 days of the return.", "Store credit never expires."].join("\n");

function form(files: { name: string; data: Uint8Array | string }[]): FormData {
  const f = new FormData();
  for (const { name, data } of files) f.append("file", new Blob([typeof data === "string" ? new TextEncoder().encode(data) : new Uint8Array(data)]), name);
  return f;
}

describe("workspace library over HTTP", () => {
  let s: TestServer;
  let alice: Client;
  let bob: Client;
  let carol: Client;
  let victor: Client;
  let workspaceA: string;
  let mountedFlow: string;
  let unmountedFlow: string;

  beforeAll(async () => {
    s = await startServer();
    const [a, b, c, v] = s.users;
    if (!a || !b || !c || !v) throw new Error("users");
    [alice, bob, carol, victor] = await Promise.all([signIn(s.url, a.email, a.password), signIn(s.url, b.email, b.password), signIn(s.url, c.email, c.password), signIn(s.url, v.email, v.password)]);
    const db = createDb(s.dbUrl);
    workspaceA = (await db.flow.findUniqueOrThrow({ where: { id: a.flowId } })).workspaceId;
    await db.$disconnect();
    // A flow of alice's workspace that mounts the library, whose assistant also has search_files.
    const doc = structuredClone(workspaceAssistant) as FlowDocument;
    doc.settings.library = { mount: true };
    doc.nodes.push({ id: "t-search", type: "tool", position: { x: 720, y: 440 }, data: { tool: "search_files" } });
    doc.edges.push({ id: "e-search", source: "assistant", target: "t-search" });
    const created = await alice.post("/api/flows", { template: "workspace-assistant" });
    mountedFlow = ((await created.json()) as { flowId: string }).flowId;
    expect((await alice.post(`/api/flows/${mountedFlow}/versions`, { document: doc, message: "mount the library" })).status).toBe(201);
    // A flow whose owner switched the library off (Flow settings).
    const off = structuredClone(workspaceAssistant) as FlowDocument;
    off.settings.library = { mount: false };
    unmountedFlow = ((await (await alice.post("/api/flows", { template: "workspace-assistant" })).json()) as { flowId: string }).flowId;
    expect((await alice.post(`/api/flows/${unmountedFlow}/versions`, { document: off, message: "library off" })).status).toBe(201);
  }, 120_000);
  afterAll(async () => s?.stop());

  const libraryUrl = (ws = workspaceA) => `/api/workspaces/${ws}/library`;
  const upload = (c: Client, files: { name: string; data: Uint8Array | string }[], ws = workspaceA) => c.fetch(libraryUrl(ws), { method: "POST", body: form(files), headers: { origin: s.url } });
  const libraryFile = (name: string) => path.join(s.workspacesDir, ".library", workspaceA, "files", name);

  /** Runs `task` in a new thread of the mounted flow (or `flowId`); the stream's chunks. */
  async function run(task: string, flowId = mountedFlow, c = alice) {
    const created = await c.post("/api/threads", { flowId, task });
    expect(created.status).toBe(201);
    const { threadId } = (await created.json()) as { threadId: string };
    const res = await c.post(`/api/threads/${threadId}/stream`, { input: { kind: "message", text: task } });
    expect(res.status).toBe(200);
    const chunks = await readStream(res);
    return {
      threadId,
      chunks,
      answer: chunks
        .filter((c) => c.type === "text-delta")
        .map((c) => c.delta ?? "")
        .join(""),
    };
  }

  it("an owner uploads; members list; approvers and viewers cannot upload or delete; other workspaces get 404", async () => {
    const res = await upload(alice, [{ name: "policy.md", data: POLICY }]);
    expect(res.status).toBe(201);
    expect(((await res.json()) as { files: unknown[] }).files).toEqual([expect.objectContaining({ name: "policy.md", kind: "text", sizeBytes: Buffer.byteLength(POLICY) })]);
    for (const c of [alice, carol, victor]) {
      const listed = await c.fetch(libraryUrl());
      expect(listed.status).toBe(200);
      expect(((await listed.json()) as { files: { name: string }[] }).files.map((f) => f.name)).toEqual(["README.md", "notes.md", "policy.md", "release-notes.md"]);
    }
    for (const c of [carol, victor]) {
      const refused = await upload(c, [{ name: "mine.md", data: "x" }]);
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as ErrorBody).error.reason).toBe("role_forbidden");
      expect((await c.fetch(`${libraryUrl()}/policy.md`, { method: "DELETE", headers: { origin: s.url } })).status).toBe(403);
    }
    expect((await bob.fetch(libraryUrl())).status).toBe(404);
    expect((await upload(bob, [{ name: "x.md", data: "x" }])).status).toBe(404);
    expect((await bob.fetch(`${libraryUrl()}/policy.md`, { method: "DELETE", headers: { origin: s.url } })).status).toBe(404);
    expect(readFileSync(libraryFile("policy.md"), "utf8")).toBe(POLICY);
  });

  it("refuses binaries, bad names, too large files and a cross-site cookie upload, with the reason", async () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]);
    const bin = await upload(alice, [{ name: "image.md", data: png }]);
    expect(bin.status).toBe(415);
    expect(((await bin.json()) as ErrorBody).error.reason).toBe("unsupported_file_type");
    const hidden = await upload(alice, [{ name: ".env", data: "A=1" }]);
    expect(hidden.status).toBe(422);
    const big = await upload(alice, [{ name: "big.txt", data: "a".repeat(10 * 1_048_576 + 1) }]);
    expect(big.status).toBe(413);
    const foreign = await alice.fetch(libraryUrl(), { method: "POST", body: form([{ name: "x.md", data: "x" }]), headers: { origin: "https://evil.example" } });
    expect(foreign.status).toBe(403);
    const json = await alice.post(libraryUrl(), { file: "x" });
    expect(json.status).toBe(415);
    expect(((await (await alice.fetch(libraryUrl())).json()) as { files: { name: string }[] }).files.map((f) => f.name)).toEqual(["README.md", "notes.md", "policy.md", "release-notes.md"]);
  });

  it("a run of a flow that mounts the library reads the library file", async () => {
    const { chunks, answer } = await run("Read policy.md");
    expect(lastPart(chunks, "data-run")?.status).toBe("completed");
    expect(answer).toContain("Refunds are paid within 30 days of the return.");
    // The template flow mounts it too (the default).
    expect((await run("Read policy.md", s.users[0]?.flowId)).answer).toContain("Refunds are paid within 30 days of the return.");
  });

  it("a fresh thread's workspace is empty on disk, yet the template's Summarize notes.md reads the library's notes.md and writes summary.md into the thread", async () => {
    const notes = readFileSync(libraryFile("notes.md"), "utf8");
    const flowId = s.users[0]?.flowId ?? "";
    const created = await alice.post("/api/threads", { flowId, task: TASK });
    const { threadId } = (await created.json()) as { threadId: string };
    expect(readdirSync(path.join(s.workspacesDir, threadId))).toEqual([]);
    // The run view's file list shows the library's files, marked read-only; each downloads.
    const listed = (await (await alice.fetch(`/api/threads/${threadId}/workspace`)).json()) as { name: string; readOnly?: boolean }[];
    // Everything the library holds now (the demo files, and policy.md when the test above ran).
    const shared = ((await (await alice.fetch(libraryUrl())).json()) as { files: { name: string }[] }).files.map((f) => f.name);
    expect(shared).toEqual(expect.arrayContaining(DEMO));
    expect(listed.map((e) => [e.name, e.readOnly])).toEqual(shared.map((n) => [n, true]));
    const download = await alice.fetch(`/api/threads/${threadId}/files/notes.md`);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe(notes);

    const { threadId: ran, approval } = await startRun(alice, flowId);
    expect(readdirSync(path.join(s.workspacesDir, ran))).toEqual([]);
    const decided = await alice.post(`/api/threads/${ran}/stream`, {
      input: { kind: "decision", decision: "approve", approvalId: approval.approvalId, token: approval.token, argsHash: approval.argsHash },
    });
    expect(lastPart(await readStream(decided), "data-run")?.status).toBe("completed");
    expect(readdirSync(path.join(s.workspacesDir, ran))).toEqual(["summary.md"]);
    const summary = readFileSync(path.join(s.workspacesDir, ran, "summary.md"), "utf8");
    // The summary's points come from the library's notes.md.
    const firstBullet = /^[-*] (.+)$/m.exec(notes)?.[1] ?? "";
    expect(firstBullet.length).toBeGreaterThan(0);
    expect(summary).toContain(firstBullet.slice(0, 20));
    expect(readFileSync(libraryFile("notes.md"), "utf8")).toBe(notes);
    // The zip holds the thread's summary and the library's files.
    const zip = unzipSync(new Uint8Array(await (await alice.fetch(`/api/threads/${ran}/files?format=zip`)).arrayBuffer()));
    expect(Object.keys(zip).sort()).toEqual([...shared, "summary.md"].sort());
    expect(new TextDecoder().decode(zip["notes.md"])).toBe(notes);
    const files = (await (await alice.fetch(`/api/threads/${ran}/workspace`)).json()) as { name: string; readOnly?: boolean }[];
    expect(files.find((e) => e.name === "summary.md")?.readOnly).toBeUndefined();
  });

  it("a flow whose owner switched the library off cannot read notes.md: the model is told it is not found", async () => {
    const { threadId, chunks, answer } = await run("Read notes.md", unmountedFlow);
    expect(answer).not.toContain(
      readFileSync(libraryFile("notes.md"), "utf8")
        .split("\n")
        .find((l) => l.startsWith("- ")) ?? "-",
    );
    const failed = chunks.filter((c) => c.type === "data-tool" || c.type === "data-step").map((c) => JSON.stringify(c.data ?? {}));
    expect(failed.join("\n")).toMatch(/No such file or directory: \\"notes\.md\\"/);
    expect((await (await alice.fetch(`/api/threads/${threadId}/workspace`)).json()) as unknown[]).toEqual([]);
    expect((await alice.fetch(`/api/threads/${threadId}/files/notes.md`)).status).toBe(404);
  });

  it("a workspace made through the app starts with an empty library; re-seeding keeps an owner's edit and deletion", async () => {
    // Carol's first own flow makes her own workspace.
    const flow = (await (await carol.post("/api/flows", { template: "workspace-assistant" })).json()) as { flowId: string };
    const db = createDb(s.dbUrl);
    const ws = (await db.flow.findUniqueOrThrow({ where: { id: flow.flowId } })).workspaceId;
    await db.$disconnect();
    expect(ws).not.toBe(workspaceA);
    expect(((await (await carol.fetch(libraryUrl(ws))).json()) as { files: unknown[] }).files).toEqual([]);
    const empty = await run("Read notes.md", flow.flowId, carol);
    expect(readdirSync(path.join(s.workspacesDir, empty.threadId))).toEqual([]);
    expect((await (await carol.fetch(`/api/threads/${empty.threadId}/workspace`)).json()) as unknown[]).toEqual([]);

    // Bob's workspace holds the demo library: he replaces notes.md and deletes README.md, then the seed runs again.
    const bobWs = await (async () => {
      const d = createDb(s.dbUrl);
      const id = (await d.flow.findUniqueOrThrow({ where: { id: s.users[1]?.flowId ?? "" } })).workspaceId;
      await d.$disconnect();
      return id;
    })();
    expect((await upload(bob, [{ name: "notes.md", data: "bob's own notes" }], bobWs)).status).toBe(201);
    expect((await bob.fetch(`${libraryUrl(bobWs)}/README.md`, { method: "DELETE", headers: { origin: s.url } })).status).toBe(204);
    const seedDb = createDb(s.dbUrl);
    expect(await seedDemoLibrary(s.workspacesDir, bobWs, libraryAuditLog(seedDb, bobWs))).toEqual([]);
    await seedDb.$disconnect();
    const after = ((await (await bob.fetch(libraryUrl(bobWs))).json()) as { files: { name: string }[] }).files.map((f) => f.name);
    expect(after).toEqual(["notes.md", "release-notes.md"]);
    expect(readFileSync(path.join(s.workspacesDir, ".library", bobWs, "files", "notes.md"), "utf8")).toBe("bob's own notes");
  });

  it("a search_files answer cites file and lines, and the cited lines contain the fact", async () => {
    const { chunks, answer } = await run("Where does policy.md say refunds are paid?");
    expect(lastPart(chunks, "data-run")?.status).toBe("completed");
    const citation = /policy\.md:(\d+)-(\d+)/.exec(answer);
    expect(citation, answer).not.toBeNull();
    const [from, to] = [Number(citation?.[1]), Number(citation?.[2])];
    const cited = readFileSync(libraryFile("policy.md"), "utf8")
      .split("\n")
      .slice(from - 1, to)
      .join("\n");
    expect(cited).toContain("Refunds are paid within 30 days");
  });

  it("a thread's write makes its own copy; the library is unchanged; an owner deletes the file", async () => {
    const task = "Write policy.md with content: the thread's own policy";
    const created = await alice.post("/api/threads", { flowId: mountedFlow, task });
    const { threadId } = (await created.json()) as { threadId: string };
    const first = await readStream(await alice.post(`/api/threads/${threadId}/stream`, { input: { kind: "message", text: task } }));
    const approval = lastPart(first, "data-approval") as PendingApproval | undefined;
    if (!approval) throw new Error(`no approval in ${JSON.stringify(first.map((x) => x.type))}`);
    const decided = await alice.post(`/api/threads/${threadId}/stream`, {
      input: { kind: "decision", decision: "approve", approvalId: approval.approvalId, token: approval.token, argsHash: approval.argsHash },
    });
    expect(lastPart(await readStream(decided), "data-run")?.status).toBe("completed");
    expect(readFileSync(path.join(s.workspacesDir, threadId, "policy.md"), "utf8")).toBe("the thread's own policy");
    expect(readFileSync(libraryFile("policy.md"), "utf8")).toBe(POLICY);

    const gone = await alice.fetch(`${libraryUrl()}/policy.md`, { method: "DELETE", headers: { origin: s.url } });
    expect(gone.status).toBe(204);
    expect((await alice.fetch(`${libraryUrl()}/policy.md`, { method: "DELETE", headers: { origin: s.url } })).status).toBe(404);
    expect(((await (await alice.fetch(libraryUrl())).json()) as { files: { name: string }[] }).files.map((f) => f.name)).toEqual(DEMO);
    // All are rows of the audit trail (docs/library.md "Audit"): the workspace's, no thread's.
    // The seed's uploads first, then alice's ...
    const db = createDb(s.dbUrl);
    const audit = await db.auditEntry.findMany({ where: { workspaceId: workspaceA, threadId: null }, orderBy: { createdAt: "asc" } });
    await db.$disconnect();
    expect(audit.map((a) => [a.action, JSON.parse(a.detail).detail.name, a.actorId])).toEqual([
      ...DEMO.map((n) => ["library_upload", n, "seed"]),
      ["library_upload", "policy.md", s.users[0]?.id],
      ["library_delete", "policy.md", s.users[0]?.id],
    ]);
    // ... shown in the audit trail of the workspace's threads, and nowhere in another workspace's.
    const page = await (await alice.fetch(`/threads/${threadId}/audit`)).text();
    expect([...page.matchAll(/data-action="(library_[a-z]+)"/g)].map((m) => m[1])).toEqual([...DEMO.map(() => "library_upload"), "library_upload", "library_delete"]);
    const foreign = await bob.post("/api/threads", { flowId: s.users[1]?.flowId, task: "Read policy.md" });
    const foreignThread = ((await foreign.json()) as { threadId: string }).threadId;
    const foreignPage = await bob.fetch(`/threads/${foreignThread}/audit`);
    expect(foreignPage.status).toBe(200);
    // Bob's page shows his own workspace's library rows (the seed's and his), never alice's.
    const bobDb = createDb(s.dbUrl);
    const bobWorkspace = (await bobDb.flow.findUniqueOrThrow({ where: { id: s.users[1]?.flowId ?? "" } })).workspaceId;
    const bobRows = await bobDb.auditEntry.count({ where: { workspaceId: bobWorkspace, threadId: null } });
    await bobDb.$disconnect();
    expect(bobRows).toBeGreaterThan(0);
    expect([...(await foreignPage.text()).matchAll(/data-action="(library_[a-z]+)"/g)]).toHaveLength(bobRows);
  });
});
