import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../lib/db/client";
import type { FlowDocument } from "../../lib/flow/schema";
import { canonicalArgs } from "../../lib/policy/canonical";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import { type Client, lastPart, readStream, signIn } from "./client";
import { startRun } from "./runs";
import { startServer, type TestServer } from "./server";

/**
 * Approvals and roles over real HTTP against the built app: the five decisions (approve, edit,
 * respond, reject, ignore), roles (approver decides, viewer sees, other workspaces see
 * nothing), and the attack cases not covered by approvals.int.test.ts: arguments tampered in the
 * request, a viewer's decision, an edit a policy BLOCKS, mixed concurrent decisions, a
 * chat approval from someone else than the thread's user, and expiry telling the run.
 * Every refusal is checked on the workspace too: the tool must not have run.
 */

const decide = (c: Client, threadId: string, input: Record<string, unknown>) => c.post(`/api/threads/${threadId}/stream`, { input: { kind: "decision", ...input } });
const reason = async (res: Response) => ((await res.json()) as { error: { reason: string; message: string } }).error;

describe("decisions and roles over HTTP", () => {
  let s: TestServer;
  let alice: Client;
  let carol: Client;
  let victor: Client;
  let flowId: string;
  const fileOf = (threadId: string, name: string) => path.join(s.workspacesDir, threadId, name);
  const row = async (id: string) => {
    const db = createDb(s.dbUrl);
    try {
      return await db.approval.findUniqueOrThrow({ where: { id } });
    } finally {
      await db.$disconnect();
    }
  };

  beforeAll(async () => {
    s = await startServer();
    const [a, , c, v] = s.users;
    if (!a || !c || !v) throw new Error("users");
    flowId = a.flowId;
    alice = await signIn(s.url, a.email, a.password);
    carol = await signIn(s.url, c.email, c.password);
    victor = await signIn(s.url, v.email, v.password);
  }, 120_000);
  afterAll(async () => s?.stop());

  it("an approver of the workspace approves a run she did not start; the tool runs once", async () => {
    const { threadId, approval } = await startRun(alice, flowId);
    const res = await decide(carol, threadId, { decision: "approve", approvalId: approval.approvalId, token: approval.token, argsHash: approval.argsHash });
    expect(res.status).toBe(200);
    expect(lastPart(await readStream(res), "data-run")?.status).toBe("completed");
    expect(existsSync(fileOf(threadId, "summary.md"))).toBe(true);
    expect(await row(approval.approvalId)).toMatchObject({ status: "consumed", decision: "approve", decidedById: s.users[2]?.id });
  });

  it("a viewer sees the thread but every decision is 403 and nothing runs", async () => {
    const { threadId, approval } = await startRun(alice, flowId);
    expect((await victor.fetch(`/threads/${threadId}`)).status).toBe(200);
    for (const input of [
      { decision: "approve", token: approval.token },
      { decision: "edit", token: approval.token, args: { path: "x.md", content: "x" } },
      { decision: "respond", comment: "no" },
      { decision: "reject" },
      { decision: "ignore" },
    ]) {
      const res = await decide(victor, threadId, { approvalId: approval.approvalId, ...input });
      expect(res.status).toBe(403);
      expect((await reason(res)).reason).toBe("role_forbidden");
    }
    // Nor may a viewer (or an approver) post to a thread that is not theirs, chat approvals included.
    expect((await victor.post(`/api/threads/${threadId}/stream`, { input: { kind: "message", text: "hello" } })).status).toBe(403);
    const chat = await carol.post(`/api/threads/${threadId}/stream`, { input: { kind: "message", text: `APPROVE ${approval.approvalId} ${approval.token}` } });
    expect(chat.status).toBe(403);
    expect((await reason(chat)).reason).toBe("thread_owner_only");
    expect((await row(approval.approvalId)).status).toBe("pending");
    expect(existsSync(fileOf(threadId, "summary.md"))).toBe(false);
  });

  it("arguments tampered in the request: a hash that is not the challenge's is 409 and nothing runs", async () => {
    const { threadId, approval } = await startRun(alice, flowId);
    const evil = canonicalArgs({ path: "summary.md", content: "pwned" }).hash;
    for (const decision of ["approve", "edit"]) {
      const res = await decide(alice, threadId, { decision, approvalId: approval.approvalId, token: approval.token, argsHash: evil, args: { path: "a.md", content: "x" } });
      expect(res.status).toBe(409);
      expect((await reason(res)).reason).toBe("args_hash_mismatch");
    }
    expect((await row(approval.approvalId)).status).toBe("pending");
    expect(existsSync(fileOf(threadId, "summary.md"))).toBe(false);
  });

  it("edit: the tool runs with the approver's arguments, the audit keeps both hashes", async () => {
    const { threadId, approval } = await startRun(alice, flowId);
    const original = JSON.parse(approval.canonicalArgs) as { path: string; content: string };
    const edited = { ...original, path: "edited.md" };
    const res = await decide(carol, threadId, { decision: "edit", approvalId: approval.approvalId, token: approval.token, argsHash: approval.argsHash, args: edited });
    expect(res.status).toBe(200);
    expect(lastPart(await readStream(res), "data-run")?.status).toBe("completed");
    expect(existsSync(fileOf(threadId, "summary.md"))).toBe(false);
    expect(readFileSync(fileOf(threadId, "edited.md"), "utf8")).toBe(original.content);
    const next = canonicalArgs(edited);
    expect(await row(approval.approvalId)).toMatchObject({ status: "consumed", decision: "edit", editedArgs: next.canonical, editedArgsHash: next.hash, argsHash: approval.argsHash });
    const db = createDb(s.dbUrl);
    const audit = await db.auditEntry.findMany({ where: { threadId }, orderBy: { createdAt: "asc" } });
    await db.$disconnect();
    const editRow = audit.find((a) => a.action === "approval_edited");
    expect(editRow?.argsHash).toBe(next.hash);
    expect(editRow?.detail).toContain(approval.argsHash);
    expect(audit.find((a) => a.action === "tool_executed" && a.toolName === "write_file")?.argsHash).toBe(next.hash);
  });

  it("an edit whose new arguments a policy BLOCKS is refused (403), stays pending, and nothing runs", async () => {
    // A version of the flow whose policy blocks writing shell scripts.
    const doc = structuredClone(workspaceAssistant) as FlowDocument;
    const policy = doc.nodes.find((n) => n.type === "policy");
    if (policy?.type !== "policy") throw new Error("no policy node");
    policy.data.rules.unshift({ tool: "write_file", decision: "BLOCKED", risk: "critical", permission: "any", match: [{ kind: "path_glob", field: "path", pattern: "**/*.sh" }] });
    const created = await alice.post("/api/flows", { template: "workspace-assistant" });
    const { flowId: blockedFlow } = (await created.json()) as { flowId: string };
    expect((await alice.post(`/api/flows/${blockedFlow}/versions`, { document: doc, message: "block .sh" })).status).toBe(201);
    const { threadId, approval } = await startRun(alice, blockedFlow);
    const res = await decide(alice, threadId, { decision: "edit", approvalId: approval.approvalId, token: approval.token, args: { path: "run.sh", content: "rm -rf /" } });
    expect(res.status).toBe(403);
    expect((await reason(res)).reason).toBe("edit_blocked_by_policy");
    expect((await row(approval.approvalId)).status).toBe("pending");
    expect(existsSync(fileOf(threadId, "run.sh"))).toBe(false);
    expect(existsSync(fileOf(threadId, "summary.md"))).toBe(false);
  });

  it("respond: the tool does not run, the response reaches the agent, and the step, the run and the answer say it was not done", async () => {
    const { threadId, approval } = await startRun(alice, flowId);
    const noComment = await decide(alice, threadId, { decision: "respond", approvalId: approval.approvalId });
    expect(noComment.status).toBe(422);
    expect((await reason(noComment)).message).toContain("input.comment");
    const res = await decide(alice, threadId, { decision: "respond", approvalId: approval.approvalId, comment: "Keep it under five bullets." });
    expect(res.status).toBe(200);
    const chunks = await readStream(res);
    // The agent reads the response as the call's result; it ends its step without another
    // call, so the write was not run: the step is rejected, naming who answered and how
    // (docs/runs.md "Respond"), the run is incomplete, and the answer lists it as not done.
    const plan = lastPart(chunks, "data-plan") as { status: string; steps: { status: string; error: string | null; result: string | null }[] };
    expect(plan.status).toBe("incomplete");
    expect(plan.steps.map((st) => st.status)).toEqual(["completed", "rejected"]);
    expect(plan.steps[1]?.error).toMatch(/^write_file summary\.md was not run: .+ did not run this call and answered: Keep it under five bullets\.$/);
    expect(plan.steps.some((st) => st.status === "completed" && /was not run/.test(st.result ?? ""))).toBe(false);
    expect(lastPart(chunks, "data-run")?.status).toBe("incomplete");
    const answer = chunks
      .filter((c) => c.type === "text-delta")
      .map((c) => c.delta ?? "")
      .join("");
    expect(answer).toContain("Not done:");
    expect(answer).toContain("Keep it under five bullets.");
    expect(await row(approval.approvalId)).toMatchObject({ status: "rejected", decision: "respond", comment: "Keep it under five bullets." });
    expect(existsSync(fileOf(threadId, "summary.md"))).toBe(false);
    // The run that waited on the decision reads how the work ended, in the app's rows and the
    // LangGraph runs list: nothing waits any more.
    const db = createDb(s.dbUrl);
    const runs = await db.run.findMany({ where: { threadId }, orderBy: { startedAt: "asc" }, select: { status: true } });
    await db.$disconnect();
    expect(runs.map((r) => r.status)).toEqual(["incomplete", "incomplete"]);
    const listed = (await (await alice.fetch(`/api/langgraph/threads/${threadId}/runs`)).json()) as { status: string; phylactery_status: string }[];
    expect(listed.map((r) => [r.status, r.phylactery_status])).toEqual([
      ["error", "incomplete"],
      ["error", "incomplete"],
    ]);
  });

  it("ignore: the run ends cancelled and nothing runs", async () => {
    const { threadId, approval } = await startRun(alice, flowId);
    const res = await decide(carol, threadId, { decision: "ignore", approvalId: approval.approvalId });
    expect(res.status).toBe(200);
    const chunks = await readStream(res);
    expect(lastPart(chunks, "data-run")?.status).toBe("cancelled");
    expect(await row(approval.approvalId)).toMatchObject({ status: "rejected", decision: "ignore" });
    expect(existsSync(fileOf(threadId, "summary.md"))).toBe(false);
    const db = createDb(s.dbUrl);
    expect((await db.thread.findUniqueOrThrow({ where: { id: threadId } })).status).toBe("cancelled");
    await db.$disconnect();
  });

  it("approve, edit, reject and ignore at once: exactly one wins, the others get 409, one resume", async () => {
    const { threadId, approval } = await startRun(alice, flowId);
    const base = { approvalId: approval.approvalId, token: approval.token };
    const results = await Promise.all([
      decide(alice, threadId, { ...base, decision: "approve" }),
      decide(carol, threadId, { ...base, decision: "edit", args: { path: "other.md", content: "x" } }),
      decide(carol, threadId, { ...base, decision: "reject" }),
      decide(alice, threadId, { ...base, decision: "ignore" }),
    ]);
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(3);
    await Promise.all(results.map((r) => r.text()));
    const db = createDb(s.dbUrl);
    expect(await db.run.count({ where: { threadId, kind: "resume" } })).toBe(1);
    expect(await db.auditEntry.count({ where: { threadId, action: "tool_executed", toolName: "write_file" } })).toBeLessThanOrEqual(1);
    await db.$disconnect();
    const written = ["summary.md", "other.md"].filter((f) => existsSync(fileOf(threadId, f)));
    expect(written.length).toBeLessThanOrEqual(1);
  });
});

describe("expiry tells the run", () => {
  let s: TestServer;
  let alice: Client;
  beforeAll(async () => {
    s = await startServer({ APPROVAL_TTL_MS: "1500", APPROVAL_SWEEP_MS: "300" });
    const a = s.users[0];
    if (!a) throw new Error("users");
    alice = await signIn(s.url, a.email, a.password);
  });
  afterAll(async () => s?.stop());

  it("an expired challenge is marked expired and its run is told: the tool does not run and the supervisor asks again", async () => {
    const { threadId, approval } = await startRun(alice, s.users[0]?.flowId ?? "");
    const db = createDb(s.dbUrl);
    try {
      const deadline = Date.now() + 15_000;
      let told = false;
      while (!told && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        const a = await db.approval.findUniqueOrThrow({ where: { id: approval.approvalId } });
        told = a.status === "expired" && a.runNotifiedAt !== null && (await db.approval.count({ where: { threadId } })) > 1;
      }
      expect(told).toBe(true);
      // Approving it now is 410.
      const res = await decide(alice, threadId, { decision: "approve", approvalId: approval.approvalId, token: approval.token });
      expect(res.status).toBe(410);
      expect(await db.auditEntry.count({ where: { threadId, action: "approval_expired" } })).toBeGreaterThanOrEqual(1);
      expect(await db.auditEntry.count({ where: { threadId, action: "tool_executed", toolName: "write_file" } })).toBe(0);
      expect(existsSync(path.join(s.workspacesDir, threadId, "summary.md"))).toBe(false);
    } finally {
      await db.$disconnect();
    }
  });
});
