import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, lastPart, readStream, signIn } from "../http/client";
import { startRun } from "../http/runs";
import { startServer, type TestServer } from "../http/server";
import { expectUnchanged, freshFact, seedTenant, send, signedOut, stateOf, type Tenant } from "./attack-fixtures";
import { ATTACKS, type Attack, type Need, PAGES, type TenantIds } from "./attack-table";
import { diffSnapshots } from "./db-snapshot";

/**
 * The role matrix of one workspace (docs/security.md "Roles and powers"): victor (viewer)
 * and carol (approver) in alice's workspace try every route. A refused attempt is a 403
 * and changes nothing; an allowed one succeeds. A signed-out visitor gets 401 everywhere.
 * A viewer never receives an approval token in any answer, including one alice typed into
 * the chat (docs/security.md "Secrets at rest").
 */

type Role = "viewer" | "approver";

/** Who is refused what (lib/auth/roles.ts `can()`, lib/memory/access.ts). */
const REFUSED: Record<Exclude<Need, "self">, readonly Role[]> = {
  member: [],
  decide: ["viewer"],
  run: ["viewer"],
  "fact-editor": ["viewer"],
  summarize: ["viewer"],
  edit: ["viewer", "approver"],
  owner: ["viewer", "approver"],
  "thread-user": ["viewer", "approver"],
  erase: ["viewer", "approver"],
  invitee: ["viewer", "approver"],
  admin: ["viewer", "approver"],
  "key-owner": ["viewer", "approver"],
  unsupported: ["viewer", "approver"],
};

/**
 * The answer to a refusal: 403, except that someone else's invitation or API key does not
 * exist for you, and an endpoint we do not offer answers what its attack says (405 or 404).
 */
const refusal = (attack: Attack) => (attack.need === "invitee" || attack.need === "key-owner" ? 404 : attack.need === "unsupported" ? (attack.answer ?? 405) : 403);

const NAME: Record<Role, string> = { viewer: "victor (viewer)", approver: "carol (approver)" };
const workspaceRoutes = ATTACKS.filter((a): a is Attack & { need: Exclude<Need, "self"> } => a.need !== "self");

describe("roles: victor (viewer) and carol (approver) in alice's workspace", () => {
  let s: TestServer;
  let alice: Client;
  const as: Record<Role, Client> = {} as Record<Role, Client>;
  const email: Record<Role, string> = { viewer: "victor@test.dev", approver: "carol@test.dev" };
  let target: Tenant;
  const tally = { tried: 0, refused: 0 };

  beforeAll(async () => {
    s = await startServer();
    const [a, , c, v] = s.users;
    if (!a || !c || !v) throw new Error("users");
    [alice, as.approver, as.viewer] = await Promise.all([signIn(s.url, a.email, a.password), signIn(s.url, c.email, c.password), signIn(s.url, v.email, v.password)]);
    target = await seedTenant(s, alice, a, v.id);
  }, 120_000);
  afterAll(async () => {
    if (process.env.SECURITY_TALLY) process.stdout.write(`roles: tried ${tally.tried}, refused ${tally.refused}\n`);
    await s?.stop();
  });

  /** Fresh ids for an allowed attack that uses its target up. */
  const freshFor = async (attack: Attack): Promise<TenantIds> => {
    if (attack.consumes === "approval") {
      const { threadId, approval } = await startRun(alice, s.users[0]?.flowId ?? "");
      return { ...target, threadId, approvalId: approval.approvalId, token: approval.token, argsHash: approval.argsHash };
    }
    if (attack.consumes === "fact") return { ...target, factId: await freshFact(s, target.workspaceId) };
    return target;
  };

  it("the snapshot sees what an owner changes (control)", async () => {
    const before = await stateOf(s);
    expect((await alice.post(`/api/workspaces/${target.workspaceId}/memory`, { content: "Deploys happen on Tuesdays." })).status).toBe(201);
    expect(diffSnapshots(before, await stateOf(s)).some((d) => d.startsWith("MemoryFact +"))).toBe(true);
  });

  for (const role of ["viewer", "approver"] as const) {
    for (const attack of workspaceRoutes.filter((a) => REFUSED[a.need].includes(role))) {
      it(`${NAME[role]} cannot ${attack.verb} (${attack.method} ${attack.route})`, async () => {
        // A route on the caller's own account (a flow in their own workspace) may succeed there.
        const scope = attack.outsider === "own" ? target.workspaceId : undefined;
        const before = await stateOf(s, scope);
        const req = attack.request(target, { email: email[role] });
        const answer = await send(as[role], attack, req);
        tally.tried += 1;
        if (attack.outsider === "own") expect(answer.status, answer.text).toBeLessThan(500);
        else expect(answer.status, answer.text).toBe(refusal(attack));
        if (role === "viewer") expect(answer.text).not.toContain(target.token);
        await expectUnchanged(s, before, scope);
        tally.refused += 1;
      });
    }
  }

  // Reads first (they must change nothing), then writes, then what uses its target up.
  const allowed = (["viewer", "approver"] as const).flatMap((role) => workspaceRoutes.filter((a) => !REFUSED[a.need].includes(role)).map((attack) => ({ role, attack })));
  const rank = (a: Attack) => (a.method === "GET" ? 0 : a.consumes ? 2 : 1);
  for (const { role, attack } of allowed.sort((x, y) => rank(x.attack) - rank(y.attack))) {
    it(`${NAME[role]} can ${attack.verb} (${attack.method} ${attack.route})`, async () => {
      const ids = await freshFor(attack);
      const before = await stateOf(s);
      const answer = await send(as[role], attack, attack.request(ids, { email: email[role] }));
      if (attack.allowedAnswer) expect(answer.status, answer.text).toBe(attack.allowedAnswer);
      else {
        expect(answer.status, answer.text).toBeGreaterThanOrEqual(200);
        expect(answer.status, answer.text).toBeLessThan(300);
      }
      if (attack.method === "GET") await expectUnchanged(s, before);
      if (attack.consumes === "approval") expect(answer.text).toContain(attack.proof ?? '"type":"data-run"');
    });
  }

  it("a signed-out visitor gets 401 from every API route but health and Auth.js's own", async () => {
    const anon = signedOut(s.url);
    const before = await stateOf(s);
    const wrong: string[] = [];
    for (const attack of ATTACKS) {
      const answer = await send(anon, attack, attack.request(target, { email: "nobody@test.dev" }));
      tally.tried += 1;
      if (answer.status === 401) tally.refused += 1;
      else wrong.push(`${attack.method} ${attack.route} (${attack.verb}): ${answer.status}`);
    }
    expect(wrong).toEqual([]);
    await expectUnchanged(s, before);
  });

  describe("approval tokens never reach a viewer", () => {
    /** Every answer victor can get about these threads and approvals. */
    const viewerAnswers = async (threads: string[], approvals: string[]) => {
      const v = as.viewer;
      const paths = [
        "/api/approvals",
        "/api/approvals?status=all",
        "/approvals",
        "/approvals?status=all",
        "/flows",
        ...approvals.flatMap((id) => [`/api/approvals/${id}`, PAGES["/approvals/[approvalId]"]?.({ ...target, approvalId: id }) ?? ""]),
        ...threads.flatMap((id) => [`/threads/${id}`, `/threads/${id}/audit`, `/api/threads/${id}/checkpoints`, `/api/threads/${id}/memory`, `/api/threads/${id}/workspace`]),
      ];
      const answers: [string, string][] = [];
      for (const p of paths) {
        const res = await v.fetch(p);
        expect(res.status, p).toBe(200);
        answers.push([p, await res.text()]);
      }
      for (const id of threads) {
        const list = (await (await v.fetch(`/api/threads/${id}/checkpoints?limit=500`)).json()) as { checkpoints: { checkpointId: string }[] };
        for (const cp of list.checkpoints) {
          const p = `/api/threads/${id}/checkpoints/${cp.checkpointId}`;
          answers.push([p, await (await v.fetch(p)).text()]);
        }
      }
      answers.push(["/api/approvals/events", (await send(v, { method: "GET", sse: true }, { path: "/api/approvals/events" })).text]);
      return answers;
    };
    const found = (answers: [string, string][], tokens: string[]) => answers.flatMap(([p, text]) => tokens.filter((t) => text.includes(t)).map((t) => `${p} carries ${t.slice(0, 8)}…`));

    it("victor (viewer) never receives a pending approval's token: inbox, detail, pages, checkpoints, memory, events", async () => {
      const { threadId, approval } = await startRun(alice, s.users[0]?.flowId ?? "");
      // Control: alice, who may decide, does receive it.
      expect(await (await alice.fetch(`/api/approvals/${approval.approvalId}`)).text()).toContain(approval.token);
      const answers = await viewerAnswers([threadId, target.threadId], [approval.approvalId, target.approvalId]);
      expect(found(answers, [approval.token, target.token])).toEqual([]);
    });

    it("victor (viewer) never receives a token alice typed into the chat as APPROVE <id> <token>", async () => {
      const flowId = s.users[0]?.flowId ?? "";
      // Typed where it decides: the thread's own approval.
      const one = await startRun(alice, flowId);
      const typed = await alice.post(`/api/threads/${one.threadId}/stream`, { input: { kind: "message", text: `APPROVE ${one.approval.approvalId} ${one.approval.token}` } });
      expect(typed.status).toBe(200);
      expect(lastPart(await readStream(typed), "data-run")?.status).toBeDefined();
      // Typed where it decides nothing: another thread's chat, so the token stays live.
      const two = await startRun(alice, flowId);
      const other = await alice.post("/api/threads", { flowId, task: "List the files" });
      const { threadId: elsewhere } = (await other.json()) as { threadId: string };
      const misplaced = await alice.post(`/api/threads/${elsewhere}/stream`, { input: { kind: "message", text: `APPROVE ${two.approval.approvalId} ${two.approval.token}` } });
      expect(misplaced.status).toBe(200);
      await misplaced.text();
      const answers = await viewerAnswers([one.threadId, two.threadId, elsewhere], [one.approval.approvalId, two.approval.approvalId]);
      // Control: victor is shown the message itself, so the search runs on the right text.
      expect(answers.find(([p]) => p === `/threads/${elsewhere}`)?.[1]).toContain(`APPROVE ${two.approval.approvalId}`);
      expect(found(answers, [one.approval.token, two.approval.token])).toEqual([]);
    });
  });
});
