import { afterEach, describe, expect, it } from "vitest";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import type { FlowDocument } from "../flow/schema";
import type { Db } from "./client";
import { createFlow, getFlowWithLatest, saveFlowVersion } from "./flows";
import { getVersion, listVersions, restoreVersion } from "./flow-versions";
import { addMember } from "./test-members";
import { createTestDb, type TestDb } from "./test-db";
import { createThread } from "./threads";
import { personalWorkspace } from "./workspaces";

/**
 * Flow versions on a real SQLite file: the history with authors and runs, one
 * version's document, restore as a new version (owners only, 409 on a race), and threads
 * pinned to a version.
 */
describe("flow versions", () => {
  let t: TestDb;
  afterEach(async () => t?.cleanup());

  /** A document like the template with other instructions for the assistant. */
  function withInstructions(instructions: string): FlowDocument {
    const doc = structuredClone(workspaceAssistant);
    for (const n of doc.nodes) if (n.type === "agent") n.data.instructions = instructions;
    return doc;
  }

  /**
   * A flow in `owner`'s workspace with three versions: v1 the template (by owner), v2 new
   * instructions (by co-owner), v3 a rename (by owner). `approver` and `viewer` are members;
   * `stranger` is not.
   */
  async function history() {
    t = await createTestDb();
    const mk = (name: string) => t.db.user.create({ data: { email: `${name}@test.dev`, name } }).then((u) => u.id);
    const [owner, coowner, approver, viewer, stranger] = await Promise.all(["owner", "coowner", "approver", "viewer", "stranger"].map(mk));
    if (!owner || !coowner || !approver || !viewer || !stranger) throw new Error("users");
    const ws = await personalWorkspace(t.db, owner);
    await addMember(t.db, owner, ws, { email: "coowner@test.dev", role: "owner" });
    await addMember(t.db, owner, ws, { email: "approver@test.dev", role: "approver" });
    await addMember(t.db, owner, ws, { email: "viewer@test.dev", role: "viewer" });
    const flow = await createFlow(t.db, owner, workspaceAssistant, { message: "From template" });
    await saveFlowVersion(t.db, coowner, flow.id, withInstructions("Be brief."), "Shorter instructions");
    await saveFlowVersion(t.db, owner, flow.id, { ...withInstructions("Be brief."), settings: { ...workspaceAssistant.settings, name: "Renamed" } }, "Rename");
    return { flowId: flow.id, owner, coowner, approver, viewer, stranger };
  }

  const pinnedVersion = async (threadId: string) => (await t.db.thread.findUniqueOrThrow({ where: { id: threadId }, include: { flowVersion: { select: { version: true } } } })).flowVersion.version;

  it("lists every version newest first, with author, message, time and the runs on it; every member sees it", async () => {
    const { flowId, owner, approver, viewer } = await history();
    await createThread(t.db, approver, flowId, "Read notes.md", 1);
    await createThread(t.db, owner, flowId, "Read notes.md", 1);
    await createThread(t.db, owner, flowId, "List the files");

    const list = await listVersions(t.db, viewer, flowId);
    expect(list.map((v) => [v.version, v.message, v.authorEmail, v.runs])).toEqual([
      [3, "Rename", "owner@test.dev", 1],
      [2, "Shorter instructions", "coowner@test.dev", 0],
      [1, "From template", "owner@test.dev", 2],
    ]);
    expect(list.every((v) => v.createdAt instanceof Date && typeof v.id === "string")).toBe(true);
    expect(list[0]?.createdAt.getTime()).toBeGreaterThanOrEqual(list[2]?.createdAt.getTime() ?? Number.POSITIVE_INFINITY);
    expect(await listVersions(t.db, owner, flowId)).toEqual(list);
  });

  it("reads one version's document; a missing version is 404 naming it; another workspace's flow is 404", async () => {
    const { flowId, coowner, viewer, stranger } = await history();
    const v2 = await getVersion(t.db, viewer, flowId, 2);
    expect(v2).toMatchObject({ version: 2, message: "Shorter instructions", authorId: coowner, authorEmail: "coowner@test.dev", runs: 0 });
    expect(v2.document.nodes.find((n) => n.id === "assistant")).toMatchObject({ data: { instructions: "Be brief." } });
    expect(v2.document.settings.name).toBe("Workspace assistant");
    expect((await getVersion(t.db, viewer, flowId, 3)).document.settings.name).toBe("Renamed");

    const missing = getVersion(t.db, viewer, flowId, 9);
    await expect(missing).rejects.toMatchObject({ code: "not_found", reason: "version_not_found" });
    await expect(missing).rejects.toThrow("version: this flow has no version 9.");
    await expect(getVersion(t.db, stranger, flowId, 1)).rejects.toMatchObject({ code: "not_found", reason: "flow_not_found" });
    await expect(listVersions(t.db, stranger, flowId)).rejects.toMatchObject({ code: "not_found", reason: "flow_not_found" });
    await expect(listVersions(t.db, viewer, "no-such-flow")).rejects.toMatchObject({ code: "not_found", reason: "flow_not_found" });
  });

  it("an owner restores v1 as v4 with the same document and the message 'Restored v1'; the flow's name follows", async () => {
    const { flowId, owner, coowner } = await history();
    const restored = await restoreVersion(t.db, coowner, flowId, 1);
    expect(restored).toMatchObject({ version: 4, message: "Restored v1", authorId: coowner });
    const [v1, v4] = await Promise.all([getVersion(t.db, owner, flowId, 1), getVersion(t.db, owner, flowId, 4)]);
    expect(v4.document).toEqual(v1.document);
    expect(v4.authorEmail).toBe("coowner@test.dev");
    const latest = await getFlowWithLatest(t.db, owner, flowId);
    expect(latest.version.version).toBe(4);
    expect(latest.flow.name).toBe("Workspace assistant");
    // Versions are never changed: v1..v3 are as they were.
    expect((await listVersions(t.db, owner, flowId)).map((v) => `${v.version} ${v.message}`)).toEqual(["4 Restored v1", "3 Rename", "2 Shorter instructions", "1 From template"]);
  });

  it("approvers and viewers cannot restore (403), a missing version is 404, a stranger gets 404; nothing is saved", async () => {
    const { flowId, owner, approver, viewer, stranger } = await history();
    for (const actor of [approver, viewer]) {
      await expect(restoreVersion(t.db, actor, flowId, 1)).rejects.toMatchObject({ code: "forbidden", reason: "role_forbidden" });
    }
    await expect(restoreVersion(t.db, stranger, flowId, 1)).rejects.toMatchObject({ code: "not_found", reason: "flow_not_found" });
    await expect(restoreVersion(t.db, owner, flowId, 7)).rejects.toMatchObject({ code: "not_found", reason: "version_not_found" });
    expect((await listVersions(t.db, owner, flowId)).map((v) => v.version)).toEqual([3, 2, 1]);
  });

  it("a save that lands between reading the latest version and writing the new one makes the restore a 409", async () => {
    const { flowId, owner, coowner } = await history();
    // The other save commits just before the restore's own transaction runs.
    const racing = new Proxy(t.db, {
      get(target, key, receiver) {
        if (key !== "$transaction") return Reflect.get(target, key, receiver);
        return async (ops: Parameters<Db["$transaction"]>[0]) => {
          await saveFlowVersion(target, coowner, flowId, withInstructions("Racing save."), "Racing save");
          return target.$transaction(ops as never);
        };
      },
    });
    const restore = restoreVersion(racing, owner, flowId, 1);
    await expect(restore).rejects.toMatchObject({ code: "conflict", reason: "version_conflict" });
    expect((await listVersions(t.db, owner, flowId)).map((v) => `${v.version} ${v.message}`)).toEqual(["4 Racing save", "3 Rename", "2 Shorter instructions", "1 From template"]);
    // Trying again works: it becomes v5.
    expect((await restoreVersion(t.db, owner, flowId, 1)).version).toBe(5);
  });

  it("createThread runs a pinned version or the latest; a version the flow lacks is 404; viewers cannot run", async () => {
    const { flowId, owner, approver, viewer } = await history();
    const other = await createFlow(t.db, owner, workspaceAssistant);
    expect(await pinnedVersion((await createThread(t.db, approver, flowId, "Read notes.md", 2)).id)).toBe(2);
    expect(await pinnedVersion((await createThread(t.db, owner, flowId, "Read notes.md")).id)).toBe(3);
    expect(await pinnedVersion((await createThread(t.db, owner, other.id, "Read notes.md", 1)).id)).toBe(1);

    // `other` has only v1: its v2 is missing even though `flowId` has one.
    const missing = createThread(t.db, owner, other.id, "Read notes.md", 2);
    await expect(missing).rejects.toMatchObject({ code: "not_found", reason: "version_not_found" });
    await expect(missing).rejects.toThrow("version: this flow has no version 2.");
    await expect(createThread(t.db, viewer, flowId, "Read notes.md", 1)).rejects.toMatchObject({ code: "forbidden", reason: "role_forbidden" });
    expect(await t.db.thread.count({ where: { flowId: other.id } })).toBe(1);
  });

  it("createThread refuses a version the editor's validation rejects, naming the problem; an earlier valid version still runs", async () => {
    const { flowId, owner } = await history();
    const broken = withInstructions("No way out.");
    broken.nodes = broken.nodes.filter((n) => n.type !== "end");
    broken.edges = broken.edges.filter((e) => e.target !== "end");
    await saveFlowVersion(t.db, owner, flowId, broken, "Dropped the End node");
    const refused = createThread(t.db, owner, flowId, "Read notes.md");
    await expect(refused).rejects.toMatchObject({ code: "unprocessable", reason: "flow_not_runnable" });
    await expect(refused).rejects.toThrow("Version 4 of this flow cannot run: The flow has no End node");
    expect(await pinnedVersion((await createThread(t.db, owner, flowId, "Read notes.md", 3)).id)).toBe(3);
    expect(await t.db.thread.count({ where: { flowId, flowVersion: { version: 4 } } })).toBe(0);
  });
});
