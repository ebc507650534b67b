import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { approvalVisible, getApproval, inboxFlows, listApprovals, pendingCount } from "@/lib/approvals/inbox";
import { InboxFilters } from "@/lib/approvals/inbox-item";
import { challengeToken } from "@/lib/approvals/service";
import { createTestDb, type TestDb } from "@/lib/db/test-db";
import { personalWorkspace } from "@/lib/db/workspaces";

const SECRET = "s".repeat(32);

/**
 * What the inbox routes serve, on a real SQLite file: every workspace member
 * sees the workspace's approvals, only owners and approvers get tokens and a count,
 * other workspaces see nothing; filters, expiry and sorting as docs/architecture.md#approvals says.
 */
describe("approval inbox queries", () => {
  let t: TestDb;
  const now = Date.UTC(2026, 10, 22, 12, 0, 0);
  const at = (minutes: number) => new Date(now + minutes * 60_000);
  const ids = { owner: "", approver: "", viewer: "", stranger: "", flow: "", other: "" };

  beforeAll(async () => {
    t = await createTestDb();
    const mk = (name: string) => t.db.user.create({ data: { email: `${name}@test.dev`, name } }).then((u) => u.id);
    ids.owner = await mk("owner");
    ids.approver = await mk("approver");
    ids.viewer = await mk("viewer");
    ids.stranger = await mk("stranger");
    const ws = await personalWorkspace(t.db, ids.owner);
    await t.db.membership.createMany({
      data: [
        { workspaceId: ws, userId: ids.approver, role: "approver" },
        { workspaceId: ws, userId: ids.viewer, role: "viewer" },
      ],
    });
    await personalWorkspace(t.db, ids.stranger);
    const flow = async (name: string, workspaceId: string, ownerId: string) => {
      const f = await t.db.flow.create({ data: { name, ownerId, workspaceId, versions: { create: { version: 1, document: "{}", authorId: ownerId } } }, include: { versions: true } });
      const thread = await t.db.thread.create({ data: { userId: ownerId, flowId: f.id, flowVersionId: f.versions[0]?.id ?? "", title: `${name} task` } });
      return { flowId: f.id, threadId: thread.id };
    };
    const main = await flow("Main", ws, ids.owner);
    const strangers = await flow("Theirs", await personalWorkspace(t.db, ids.stranger), ids.stranger);
    ids.flow = main.flowId;
    ids.other = strangers.flowId;
    const row = (id: string, threadId: string, userId: string, expires: number, extra: Record<string, unknown> = {}) => ({
      id,
      threadId,
      userId,
      toolName: "write_file",
      toolCallId: `call-${id}`,
      canonicalArgs: '{"path":"a.md"}',
      argsHash: "h".repeat(64),
      createdAt: at(-1),
      expiresAt: at(expires),
      risk: "medium",
      rule: "File safety #3: write_file -> AUTH_REQUIRED (medium)",
      ...extra,
    });
    await t.db.approval.createMany({
      data: [
        row("apv_high", main.threadId, ids.owner, 10, { risk: "high", agentName: "Writer", stepTask: "Write it" }),
        row("apv_soon", main.threadId, ids.owner, 5),
        row("apv_late", main.threadId, ids.owner, -1),
        row("apv_rejected", main.threadId, ids.owner, 3, { status: "rejected", decision: "reject", decidedById: ids.approver, decidedAt: at(0), comment: "no" }),
        row("apv_edited", main.threadId, ids.owner, 2, { status: "consumed", decision: "edit", decidedById: ids.owner, editedArgs: '{"path":"b.md"}', editedArgsHash: "e".repeat(64) }),
        row("apv_theirs", strangers.threadId, ids.stranger, 4),
      ],
    });
  });
  afterAll(async () => t?.cleanup());

  const idsOf = (items: { approvalId: string }[]) => items.map((i) => i.approvalId);

  it("lists pending, unexpired approvals of the user's workspaces, soonest to expire first, with tokens for deciders only", async () => {
    const owner = await listApprovals(t.db, ids.owner, {}, now, SECRET);
    expect(idsOf(owner)).toEqual(["apv_soon", "apv_high"]);
    const high = await t.db.approval.findUniqueOrThrow({ where: { id: "apv_high" } });
    // The token is recomputed from the signed fields; no column of the row holds it.
    expect(owner[1]?.token).toBe(challengeToken(SECRET, high));
    expect(Object.values(high)).not.toContain(owner[1]?.token);
    expect(owner[1]).toMatchObject({ canDecide: true, risk: "high", agentName: "Writer", stepTask: "Write it", flowName: "Main", requestedBy: "owner@test.dev" });
    const approver = await listApprovals(t.db, ids.approver, {}, now, SECRET);
    expect(approver.map((i) => [i.approvalId, i.token !== null, i.canDecide])).toEqual([
      ["apv_soon", true, true],
      ["apv_high", true, true],
    ]);
    const viewer = await listApprovals(t.db, ids.viewer, {}, now);
    expect(viewer.map((i) => [i.approvalId, i.token, i.canDecide])).toEqual([
      ["apv_soon", null, false],
      ["apv_high", null, false],
    ]);
    expect(idsOf(await listApprovals(t.db, ids.stranger, {}, now))).toEqual(["apv_theirs"]);
  });

  it("filters by risk, flow and status; a pending row past expiry counts as expired; sorts either way", async () => {
    expect(idsOf(await listApprovals(t.db, ids.owner, { risk: "high" }, now))).toEqual(["apv_high"]);
    expect(idsOf(await listApprovals(t.db, ids.owner, { risk: "critical" }, now))).toEqual([]);
    expect(idsOf(await listApprovals(t.db, ids.owner, { flowId: ids.other }, now))).toEqual([]);
    const expired = await listApprovals(t.db, ids.owner, { status: "expired" }, now);
    expect(expired.map((i) => [i.approvalId, i.status, i.decision, i.token])).toEqual([["apv_late", "expired", "expired", null]]);
    const rejected = await listApprovals(t.db, ids.owner, { status: "rejected" }, now);
    expect(rejected).toMatchObject([{ approvalId: "apv_rejected", decision: "reject", decidedBy: "approver@test.dev", comment: "no", token: null }]);
    const edited = await listApprovals(t.db, ids.owner, { status: "consumed" }, now);
    expect(edited).toMatchObject([{ approvalId: "apv_edited", decision: "edit", editedArgs: '{"path":"b.md"}', editedArgsHash: "e".repeat(64) }]);
    expect(idsOf(await listApprovals(t.db, ids.owner, { status: "all" }, now))).toEqual(["apv_late", "apv_edited", "apv_rejected", "apv_soon", "apv_high"]);
    expect(idsOf(await listApprovals(t.db, ids.owner, { status: "all", sort: "-expiry", flowId: ids.flow }, now))).toEqual(["apv_high", "apv_soon", "apv_rejected", "apv_edited", "apv_late"]);
  });

  it("counts what the user may decide; other workspaces' approvals are invisible (404)", async () => {
    expect(await pendingCount(t.db, ids.owner, now)).toBe(2);
    expect(await pendingCount(t.db, ids.approver, now)).toBe(2);
    expect(await pendingCount(t.db, ids.viewer, now)).toBe(0);
    expect(await pendingCount(t.db, ids.stranger, now)).toBe(1);
    expect(await pendingCount(t.db, ids.owner, now + 6 * 60_000)).toBe(1);
    expect(await getApproval(t.db, ids.viewer, "apv_high", now)).toMatchObject({ approvalId: "apv_high", token: null, canDecide: false });
    await expect(getApproval(t.db, ids.stranger, "apv_high", now)).rejects.toMatchObject({ code: "not_found", reason: "approval_not_found" });
    await expect(getApproval(t.db, ids.owner, "apv_missing", now)).rejects.toMatchObject({ code: "not_found" });
    expect(await approvalVisible(t.db, ids.viewer, "apv_high")).toBe(true);
    expect(await approvalVisible(t.db, ids.stranger, "apv_high")).toBe(false);
    expect(await inboxFlows(t.db, ids.viewer)).toEqual([{ id: ids.flow, name: "Main" }]);
  });

  it("parses the filters of a query string: defaults, blanks, and errors that name the field", () => {
    expect(InboxFilters.parse({})).toEqual({ status: "pending", sort: "expiry" });
    expect(InboxFilters.parse({ flowId: "", risk: "", status: "" })).toEqual({ status: "pending", sort: "expiry" });
    const bad = InboxFilters.safeParse({ risk: "extreme", status: "done" });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.path.join("."))).toEqual(["risk", "status"]);
  });
});
