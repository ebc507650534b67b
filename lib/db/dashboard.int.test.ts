import { afterEach, describe, expect, it } from "vitest";
import { TEMPLATES } from "../../templates";
import type { Db } from "./client";
import { dashboardCounts, dashboardTotals, listThreads } from "./dashboard";
import { createFlow } from "./flows";
import { addMember } from "./test-members";
import { createTestDb, type TestDb } from "./test-db";
import { personalWorkspace } from "./workspaces";

/**
 * The dashboard's thread list on a real SQLite file: workspace visibility,
 * filters, durations, plan steps, tokens and estimated costs, pagination, counts and totals,
 * in a number of queries that does not grow with the page.
 */
describe("dashboard threads", () => {
  let t: TestDb;
  afterEach(async () => t?.cleanup());

  const T0 = Date.parse("2025-06-01T10:00:00Z");
  const at = (s: number) => new Date(T0 + s * 1000);
  const doc = () => {
    const template = TEMPLATES["workspace-assistant"];
    if (!template) throw new Error("no workspace-assistant template");
    return structuredClone(template);
  };

  /** Owner and approver share a workspace (a viewer watches it); a stranger has their own. */
  async function world() {
    t = await createTestDb();
    const mk = (email: string) => t.db.user.create({ data: { email, name: email.split("@")[0] } }).then((u) => u.id);
    const [owner, approver, viewer, stranger] = await Promise.all(["owner", "approver", "viewer", "stranger"].map((n) => mk(`${n}@test.dev`)));
    if (!owner || !approver || !viewer || !stranger) throw new Error("users");
    const ws = await personalWorkspace(t.db, owner);
    await addMember(t.db, owner, ws, { email: "approver@test.dev", role: "approver" });
    await addMember(t.db, owner, ws, { email: "viewer@test.dev", role: "viewer" });
    const assistant = await createFlow(t.db, owner, doc());
    const withOverride = doc();
    const agent = withOverride.nodes.find((n) => n.type === "agent");
    if (agent?.type !== "agent") throw new Error("template without agent");
    agent.data.model = "gpt-4.1";
    const mixed = await createFlow(t.db, owner, { ...withOverride, settings: { ...withOverride.settings, name: "Mixed models" } });
    const foreign = await createFlow(t.db, stranger, doc());
    return { owner, approver, viewer, stranger, assistant, mixed, foreign };
  }

  type RunSpec = { start: number; end?: number; tokens?: [number, number]; model?: { provider: string; modelId: string; offline: boolean } | null };

  /** A thread with runs (and their `run_started` events) and optional plan events. */
  async function thread(userId: string, flowId: string, title: string, status: string, createdAt: number, runs: RunSpec[] = [], plans: string[][] = []) {
    const version = await t.db.flowVersion.findFirstOrThrow({ where: { flowId }, orderBy: { version: "desc" } });
    const th = await t.db.thread.create({ data: { userId, flowId, flowVersionId: version.id, title, status, createdAt: at(createdAt) } });
    let seq = 0;
    for (const r of runs) {
      const run = await t.db.run.create({
        data: {
          threadId: th.id,
          flowVersionId: version.id,
          kind: seq ? "resume" : "start",
          status: r.end === undefined ? "running" : "completed",
          startedAt: at(r.start),
          endedAt: r.end === undefined ? null : at(r.end),
          inputTokens: r.tokens?.[0] ?? 0,
          outputTokens: r.tokens?.[1] ?? 0,
        },
      });
      const model = r.model === undefined ? { provider: "offline", modelId: "offline", offline: true } : r.model;
      const data = { type: "data-run", id: run.id, data: { runId: run.id, status: "running", model, error: null, usage: null } };
      seq += 1;
      await t.db.runEvent.create({ data: { threadId: th.id, runId: run.id, seq, type: "run_started", data: JSON.stringify(data) } });
      // An unrelated later event, so that "latest plan" must pick among types.
      seq += 1;
      await t.db.runEvent.create({ data: { threadId: th.id, runId: run.id, seq, type: "tool_result", data: "{}" } });
    }
    for (const [i, statuses] of plans.entries()) {
      seq += 1;
      const steps = statuses.map((status, n) => ({ id: `s${n}`, index: n, task: `step ${n}`, agentId: "assistant", agentName: "Assistant", status, tries: 1, result: null, error: null }));
      const data = { type: "data-plan", id: "plan-1", data: { planId: "plan-1", status: "executing", steps } };
      await t.db.runEvent.create({ data: { threadId: th.id, seq, type: i === 0 ? "plan_generated" : "plan_updated", data: JSON.stringify(data) } });
    }
    return th.id;
  }

  const titles = async (db: Db, userId: string, filters = {}) => (await listThreads(db, userId, filters)).rows.map((r) => r.title);

  it("shows every thread of the user's workspaces, viewers included, and nothing else", async () => {
    const w = await world();
    await thread(w.owner, w.assistant.id, "owner task", "completed", 1);
    await thread(w.approver, w.assistant.id, "approver task", "awaiting_approval", 2);
    await thread(w.stranger, w.foreign.id, "stranger task", "completed", 3);

    for (const member of [w.owner, w.approver, w.viewer]) expect(await titles(t.db, member)).toEqual(["approver task", "owner task"]);
    expect(await titles(t.db, w.stranger)).toEqual(["stranger task"]);
    const [row] = (await listThreads(t.db, w.viewer, { status: "awaiting_approval" })).rows;
    expect(row).toMatchObject({ title: "approver task", startedBy: "approver@test.dev", flow: { id: w.assistant.id, name: w.assistant.name }, version: 1, startedAt: at(2) });
    // A flow of another workspace, asked for by id, shows nothing.
    expect(await titles(t.db, w.owner, { flowId: w.foreign.id })).toEqual([]);
  });

  it("filters by status, flow and a case-insensitive search in the task, together", async () => {
    const w = await world();
    await thread(w.owner, w.assistant.id, "Summarize notes.md into summary.md", "awaiting_approval", 1);
    await thread(w.owner, w.assistant.id, "Read notes.md and tell me what it says", "completed", 2);
    await thread(w.owner, w.mixed.id, "Read NOTES.md again", "failed", 3);
    await thread(w.owner, w.mixed.id, "100% done_ok", "cancelled", 4);

    expect(await titles(t.db, w.owner, { status: "completed" })).toEqual(["Read notes.md and tell me what it says"]);
    expect(await titles(t.db, w.owner, { flowId: w.mixed.id })).toEqual(["100% done_ok", "Read NOTES.md again"]);
    expect(await titles(t.db, w.owner, { q: "notes" })).toEqual(["Read NOTES.md again", "Read notes.md and tell me what it says", "Summarize notes.md into summary.md"]);
    expect(await titles(t.db, w.owner, { q: "  TELL  " })).toEqual(["Read notes.md and tell me what it says"]);
    expect(await titles(t.db, w.owner, { q: "notes", flowId: w.assistant.id, status: "awaiting_approval" })).toEqual(["Summarize notes.md into summary.md"]);
    // LIKE wildcards in the search are plain characters.
    expect(await titles(t.db, w.owner, { q: "%" })).toEqual(["100% done_ok"]);
    expect(await titles(t.db, w.owner, { q: "0% DONE_ok" })).toEqual(["100% done_ok"]);
    // As a LIKE pattern "s_m" would match "Summarize".
    expect(await titles(t.db, w.owner, { q: "s_m" })).toEqual([]);
    expect(await titles(t.db, w.owner, { q: "_", status: "failed" })).toEqual([]);
    expect(await dashboardCounts(t.db, w.owner, { q: "%" })).toMatchObject({ all: 1, cancelled: 1 });
    expect(await titles(t.db, w.owner, { q: "nothing like this" })).toEqual([]);
    await expect(listThreads(t.db, w.owner, { status: "bogus" as never })).rejects.toMatchObject({ name: "ZodError" });
  });

  it("sums durations (a running run counts until now), tokens and costs; steps come from the latest plan", async () => {
    const w = await world();
    const gpt = { provider: "openai", modelId: "gpt-4.1-mini", offline: false };
    const offlineId = await thread(
      w.owner,
      w.assistant.id,
      "offline",
      "completed",
      1,
      [{ start: 10, end: 40, tokens: [1200, 300] }],
      [
        ["in_progress", "pending"],
        ["completed", "completed"],
      ],
    );
    const pricedId = await thread(
      w.owner,
      w.assistant.id,
      "priced",
      "running",
      2,
      [
        { start: 10, end: 72, tokens: [1_000_000, 0], model: gpt },
        { start: 100, tokens: [0, 500_000], model: gpt },
      ],
      [["completed", "in_progress", "pending", "skipped"]],
    );
    const unknownId = await thread(w.owner, w.assistant.id, "self-hosted", "completed", 3, [
      { start: 10, end: 11, tokens: [10, 10], model: { provider: "openai-compatible", modelId: "llama3.1", offline: false } },
    ]);
    const unrecordedId = await thread(w.owner, w.assistant.id, "no model", "failed", 4, [
      { start: 10, end: 11, tokens: [10, 10], model: null },
      { start: 12, end: 13 },
    ]);
    const mixedId = await thread(w.owner, w.mixed.id, "mixed", "completed", 5, [{ start: 10, end: 11, tokens: [10, 10], model: gpt }]);
    const mixedOfflineId = await thread(w.owner, w.mixed.id, "mixed offline", "completed", 6, [{ start: 10, end: 11, tokens: [10, 10] }]);
    const idleId = await thread(w.owner, w.assistant.id, "idle", "idle", 7);

    const { rows } = await listThreads(t.db, w.owner, {}, { now: () => at(130).getTime() });
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(offlineId)).toMatchObject({
      durationMs: 30_000,
      running: false,
      steps: { done: 2, total: 2 },
      tokens: { input: 1200, output: 300 },
      costUsd: 0,
      priceNote: null,
      models: ["offline"],
    });
    // 62 s ended + 30 s so far; $0.40 for 1M input + $0.80 for 0.5M output of gpt-4.1-mini.
    const priced = byId.get(pricedId);
    expect(priced).toMatchObject({ durationMs: 92_000, running: true, steps: { done: 1, total: 4 }, tokens: { input: 1_000_000, output: 500_000 }, priceNote: null, models: ["gpt-4.1-mini"] });
    expect(priced?.costUsd).toBeCloseTo(1.2, 10);
    expect(byId.get(unknownId)).toMatchObject({ costUsd: null, priceNote: expect.stringContaining("OpenAI-compatible"), models: ["llama3.1"], steps: null });
    expect(byId.get(unrecordedId)).toMatchObject({ costUsd: null, priceNote: "the run did not record its model", durationMs: 2000 });
    // An agent of the flow names another model: tokens cannot be split per model.
    expect(byId.get(mixedId)).toMatchObject({ costUsd: null, priceNote: expect.stringContaining("gpt-4.1"), models: ["gpt-4.1-mini"] });
    // ... unless the run was offline (every agent then runs offline).
    expect(byId.get(mixedOfflineId)).toMatchObject({ costUsd: 0 });
    expect(byId.get(idleId)).toMatchObject({ durationMs: null, running: false, steps: null, tokens: { input: 0, output: 0 }, costUsd: 0, models: [] });
  });

  it("pages newest first with a cursor, ties broken by id, and ignores a cursor it cannot see", async () => {
    const w = await world();
    for (const n of [1, 2, 3, 3, 4]) await thread(w.owner, w.assistant.id, `task ${n}`, "completed", n);
    const strangerThread = await thread(w.stranger, w.foreign.id, "hidden", "completed", 9);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      const res = await listThreads(t.db, w.owner, { limit: 2, cursor });
      seen.push(...res.rows.map((r) => r.id));
      expect(res.cursorIgnored).toBe(false);
      if (!res.nextCursor) break;
      cursor = res.nextCursor;
    }
    const all = (await listThreads(t.db, w.owner)).rows;
    expect(seen).toEqual(all.map((r) => r.id));
    expect(new Set(seen).size).toBe(5);
    expect(all.map((r) => r.title)).toEqual(["task 4", "task 3", "task 3", "task 2", "task 1"]);

    const last = await listThreads(t.db, w.owner, { limit: 5 });
    expect(last.nextCursor).toBeNull();
    const bad = await listThreads(t.db, w.owner, { limit: 2, cursor: strangerThread });
    expect(bad).toMatchObject({ cursorIgnored: true });
    expect(bad.rows.map((r) => r.title)).toEqual(["task 4", "task 3"]);
  });

  it("counts threads per status under the flow and search filters", async () => {
    const w = await world();
    await thread(w.owner, w.assistant.id, "a", "completed", 1);
    await thread(w.approver, w.assistant.id, "b", "completed", 2);
    await thread(w.owner, w.assistant.id, "c", "awaiting_approval", 3);
    await thread(w.owner, w.mixed.id, "d", "failed", 4);
    await thread(w.stranger, w.foreign.id, "e", "completed", 5);

    expect(await dashboardCounts(t.db, w.viewer)).toEqual({ all: 4, idle: 0, running: 0, awaiting_approval: 1, awaiting_input: 0, completed: 2, incomplete: 0, failed: 1, cancelled: 0 });
    expect(await dashboardCounts(t.db, w.owner, { flowId: w.mixed.id })).toMatchObject({ all: 1, failed: 1, completed: 0 });
    expect(await dashboardCounts(t.db, w.owner, { q: "C" })).toMatchObject({ all: 1, awaiting_approval: 1 });
    expect(await dashboardCounts(t.db, w.stranger)).toMatchObject({ all: 1, completed: 1 });
  });

  it("totals the whole filtered set: threads, runs, tokens and the priced part of the cost", async () => {
    const w = await world();
    const gpt = { provider: "openai", modelId: "gpt-4o", offline: false };
    await thread(w.owner, w.assistant.id, "one", "completed", 1, [
      { start: 1, end: 2, tokens: [2000, 1000], model: gpt },
      { start: 3, end: 4, tokens: [100, 50] },
    ]);
    await thread(w.owner, w.assistant.id, "two", "completed", 2, [{ start: 1, end: 2, tokens: [10, 10], model: { provider: "anthropic", modelId: "claude-next", offline: false } }]);
    await thread(w.owner, w.assistant.id, "three", "failed", 3, [{ start: 1, end: 2 }]);
    await thread(w.stranger, w.foreign.id, "four", "completed", 4, [{ start: 1, end: 2, tokens: [5, 5], model: gpt }]);

    const all = await dashboardTotals(t.db, w.owner);
    expect(all).toMatchObject({ threads: 3, runs: 4, tokens: { input: 2110, output: 1060 }, costUsd: null, unpricedRuns: 1 });
    expect(all.pricedUsd).toBeCloseTo(0.015, 10);
    const completedNoUnknown = await dashboardTotals(t.db, w.owner, { q: "one" });
    expect(completedNoUnknown).toMatchObject({ threads: 1, runs: 2, tokens: { input: 2100, output: 1050 }, unpricedRuns: 0 });
    expect(completedNoUnknown.costUsd).toBeCloseTo(0.015, 10);
    expect(await dashboardTotals(t.db, w.owner, { status: "cancelled" })).toEqual({ threads: 0, runs: 0, tokens: { input: 0, output: 0 }, costUsd: 0, pricedUsd: 0, unpricedRuns: 0 });
  });

  it("uses the same number of queries for a page of 2 threads and a page of 30", async () => {
    const w = await world();
    const gpt = { provider: "openai", modelId: "gpt-4.1", offline: false };
    let ops = 0;
    const counted = t.db.$extends({
      query: {
        async $allOperations({ args, query }) {
          ops += 1;
          return query(args);
        },
      },
    }) as unknown as Db;
    const measure = async (limit: number) => {
      ops = 0;
      const page = await listThreads(counted, w.owner, { limit });
      await dashboardTotals(counted, w.owner);
      return { ops, rows: page.rows.length };
    };
    for (let i = 0; i < 2; i++) await thread(w.owner, w.mixed.id, `t${i}`, "completed", i, [{ start: 1, end: 2, tokens: [1, 1], model: gpt }], [["completed"]]);
    const small = await measure(50);
    for (let i = 2; i < 30; i++)
      await thread(
        w.owner,
        i % 2 ? w.mixed.id : w.assistant.id,
        `t${i}`,
        "completed",
        i,
        [
          { start: 1, end: 2, tokens: [1, 1], model: gpt },
          { start: 3, end: 4, tokens: [1, 1] },
        ],
        [["completed"], ["completed", "failed"]],
      );
    const large = await measure(50);
    expect(small.rows).toBe(2);
    expect(large.rows).toBe(30);
    expect(large.ops).toBe(small.ops);
    expect(large.ops).toBeLessThanOrEqual(12);
  });
});
