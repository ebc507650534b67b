import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../lib/db/client";
import { rowsContaining } from "../../lib/memory/test-fixtures";
import { type Client, lastPart, readStream, signIn } from "../http/client";
import { type PendingApproval, startRun } from "../http/runs";
import { startServer, type TestServer } from "../http/server";

/**
 * Approval tokens an owner types into the chat in a form the command parser refuses
 * (docs/security.md "Secrets at rest"): the message is an ordinary reply, the token stays
 * live, and yet no viewer reads it through any route (run view, checkpoints, events, the
 * LangGraph thread, state, history, search, join and values stream), and no row of the
 * database holds it (RunJob.input, CheckpointWrite, CheckpointBlob, RunEvent, ...).
 * And a viewer pressing Accept in Agent Inbox is told its role cannot decide (403), not
 * asked for a token (docs/langgraph-api.md#deciding-approvals).
 */

const fullwidth = (s: string) => [...s].map((c) => (c >= "!" && c <= "~" ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)).join("");

/** The refused forms an owner may type, each still leaving the approval pending. */
const forms = (a: PendingApproval): [string, string][] => [
  ["lower case", `approve ${a.approvalId} ${a.token}`],
  ["a look-alike letter (Cyrillic A)", `\u0410PPROVE ${a.approvalId} ${a.token}`],
  ["token before id", `APPROVE ${a.token} ${a.approvalId}`],
  ["the token alone, in a sentence", `the token is ${a.token}, go ahead`],
  ["fullwidth token", `APPROVE ${a.approvalId} ${fullwidth(a.token)}`],
];

describe("approval tokens typed in a refused form", () => {
  let s: TestServer;
  let alice: Client;
  let victor: Client;
  let flowId: string;
  let threadId: string;
  let approval: PendingApproval;

  beforeAll(async () => {
    s = await startServer();
    const [a, , , v] = s.users;
    if (!a || !v) throw new Error("users");
    flowId = a.flowId;
    alice = await signIn(s.url, a.email, a.password);
    victor = await signIn(s.url, v.email, v.password);
    ({ threadId, approval } = await startRun(alice, flowId));
    for (const [, text] of forms(approval)) {
      const res = await alice.post(`/api/threads/${threadId}/stream`, { input: { kind: "message", text } });
      expect(res.status, text).toBe(200);
      // An ordinary reply: the run waits on the same approval again.
      expect(lastPart(await readStream(res), "data-run")?.status, text).toBe("awaiting_approval");
    }
  }, 300_000);
  afterAll(async () => s?.stop());

  /** The ways to write the token that a viewer could turn back into it. */
  const needles = () => [approval.token, fullwidth(approval.token), approval.token.toLowerCase()];
  const found = (answers: [string, string][]) =>
    answers.flatMap(([p, text]) =>
      needles()
        .filter((t) => text.includes(t))
        .map((t) => `${p} carries ${t.slice(0, 8)}…`),
    );

  it("the token is still live: alice, who may decide, is shown it on the card", async () => {
    expect(approval.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await (await alice.fetch(`/api/approvals/${approval.approvalId}`)).text()).toContain(approval.token);
  });

  it("a LangGraph run's values stream, as alice sends the refused form herself, carries no token", async () => {
    const res = await alice.fetch(`/api/langgraph/threads/${threadId}/runs/stream`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        assistant_id: flowId,
        input: { messages: [{ role: "user", content: `approve ${approval.approvalId} ${approval.token}` }] },
        stream_mode: ["values", "updates", "custom"],
      }),
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain(`approve ${approval.approvalId}`);
    // Alice may decide: the interrupt's approval carries the token for her, and only there.
    const card = `"token":"${approval.token}"`;
    expect(text).toContain(card);
    expect(found([["values stream", text.replaceAll(card, "")]])).toEqual([]);
  });

  it("victor (viewer) reads every route about the thread and never the token", async () => {
    const get = async (p: string): Promise<[string, string]> => {
      const res = await victor.fetch(p);
      expect(res.status, p).toBe(200);
      return [p, await res.text()];
    };
    const post = async (p: string, body: unknown): Promise<[string, string]> => {
      const res = await victor.post(p, body);
      expect(res.status, p).toBe(200);
      return [p, await res.text()];
    };
    const answers: [string, string][] = [
      await get(`/threads/${threadId}`),
      await get(`/threads/${threadId}/audit`),
      await get(`/api/threads/${threadId}/checkpoints?limit=500`),
      await get(`/api/langgraph/threads/${threadId}`),
      await get(`/api/langgraph/threads/${threadId}/state`),
      await post(`/api/langgraph/threads/${threadId}/history`, { limit: 100 }),
      await post("/api/langgraph/threads/search", { limit: 100 }),
    ];
    const list = JSON.parse((answers[2] as [string, string])[1]) as { checkpoints: { checkpointId: string }[] };
    expect(list.checkpoints.length).toBeGreaterThan(5);
    for (const cp of list.checkpoints) answers.push(await get(`/api/threads/${threadId}/checkpoints/${cp.checkpointId}`));
    const runs = JSON.parse((await get(`/api/langgraph/threads/${threadId}/runs`))[1]) as { run_id: string }[];
    expect(runs.length).toBeGreaterThanOrEqual(forms(approval).length);
    for (const r of runs) {
      answers.push(await get(`/api/threads/${threadId}/stream?runId=${r.run_id}&after=0`));
      answers.push(await get(`/api/langgraph/threads/${threadId}/runs/${r.run_id}/stream?stream_mode=values,updates,custom`));
      answers.push(await get(`/api/langgraph/threads/${threadId}/runs/${r.run_id}/join`));
    }
    // Control: victor is shown the messages themselves, so the search runs on the right text.
    const page = (answers[0] as [string, string])[1];
    expect(page).toContain(`the token is `);
    expect((answers[4] as [string, string])[1]).toContain(`PPROVE ${approval.approvalId}`);
    expect(found(answers)).toEqual([]);
  });

  it("no row of the database holds the typed token: RunJob.input, CheckpointWrite, CheckpointBlob, RunEvent, all tables", async () => {
    const db = createDb(s.dbUrl);
    try {
      // Control: the typed messages are stored (redacted), in the job and the checkpoints.
      const stored = await rowsContaining(db, `approve ${approval.approvalId} [redacted]`);
      expect(stored).toEqual(expect.arrayContaining(["RunJob.input", "RunEvent.data"]));
      expect(stored.some((t) => t.startsWith("CheckpointWrite.") || t.startsWith("CheckpointBlob."))).toBe(true);
      for (const needle of needles()) expect(await rowsContaining(db, needle), needle.slice(0, 8)).toEqual([]);
    } finally {
      await db.$disconnect();
    }
  });

  it("victor (viewer) pressing Accept in Agent Inbox gets 403 role_forbidden, not a request for a token", async () => {
    const state = JSON.parse(await (await victor.fetch(`/api/langgraph/threads/${threadId}/state`)).text()) as {
      interrupts: { id: string; value: { action_request: { action: string; args: Record<string, unknown> } }[] }[];
    };
    const shown = state.interrupts[0]?.value[0]?.action_request;
    expect(shown).toBeDefined();
    // What Agent Inbox sends on Accept: the action request it was shown (a viewer's has no token).
    const res = await victor.post(`/api/langgraph/threads/${threadId}/runs`, {
      assistant_id: flowId,
      command: { resume: [{ type: "accept", args: { action: shown?.action, args: shown?.args } }] },
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { reason: string } }).error.reason).toBe("role_forbidden");
  });
});
