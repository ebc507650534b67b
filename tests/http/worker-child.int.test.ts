import { existsSync, readdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, lastPart, readStream, readUntil, signIn, type StreamChunk } from "./client";
import { startRun } from "./runs";
import { startServer, type TestServer } from "./server";

/**
 * `npm start`'s configuration (docs/durability.md#runs-are-jobs): `RUN_IN=process`, so the web
 * process forks a worker child that executes the runs, off the web process's event loop, on
 * the same SQLite file. Notifications, live text and the queue's wake-ups cross the child's
 * IPC channel (lib/events/ipc-fanout.ts). Over HTTP against the built app: a whole run
 * (stream, approval, decision, resume, the answer in pieces) goes through the child; a child
 * SIGKILLed mid-run is forked again and the run continues; SIGTERM stops the child, then the
 * server, and leaves no process behind. The offline model pauses 80 ms between words.
 *
 * Runs only on the SQLite pass: the IPC channel is the embedded default's fan-out (on
 * PostgreSQL, LISTEN/NOTIFY carries the same notifications: tests/cluster).
 */
const pg = Boolean(process.env.TEST_DATABASE_URL);

/** The ids of a process's live children (from /proc: Linux, as CI). */
function childrenOf(pid: number): number[] {
  const kids: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // pid (comm) state ppid ...: comm may hold spaces, so read after its closing parenthesis.
      const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(ppid) === pid && state !== "Z") kids.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return kids;
}

/** A process's nice value (field 19 of /proc/<pid>/stat). */
function niceOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
}

/** Whether a process still runs (a zombie does not). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0] !== "Z";
  } catch {
    return false;
  }
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The `approvals` events of an inbox stream (GET /api/approvals/events), read as they come. */
function inboxChanges(res: Response) {
  const reader = res.body?.getReader();
  if (!reader) throw new Error("no body");
  const decoder = new TextDecoder();
  let buffer = "";
  return {
    async until(match: (e: { approvalId?: string; type?: string }) => boolean): Promise<void> {
      for (;;) {
        for (let i = buffer.indexOf("\n\n"); i >= 0; i = buffer.indexOf("\n\n")) {
          const frame = buffer.slice(0, i);
          buffer = buffer.slice(i + 2);
          const data = frame.split("\n").find((l) => l.startsWith("data: "));
          if (frame.includes("event: approvals") && data && match(JSON.parse(data.slice(6)))) return;
        }
        const next = await reader.read();
        if (next.done) throw new Error("the inbox stream ended");
        buffer += decoder.decode(next.value, { stream: true });
      }
    },
    close: () => reader.cancel(),
  };
}

type Health = { ok: boolean; worker?: { up: boolean; restarts: number } };

/** The answer's pieces (text-delta chunks of `final-…` parts), in order. */
const deltasOf = (chunks: StreamChunk[]) => chunks.filter((c) => c.type === "text-delta" && c.id?.startsWith("final-")).map((c) => c.delta ?? "");

describe.runIf(!pg)("runs in the worker child of the web process (RUN_IN=process, as npm start)", () => {
  let s: TestServer;
  let alice: Client;
  let carol: Client;
  let flowId: string;

  const health = async () => (await (await fetch(`${s.url}/api/health`)).json()) as Health;
  /** The worker child's pid once health says it is up (after `restarts` restarts at least). */
  const childUp = (restarts = 0) =>
    until("the worker child", async () => {
      const h = await health();
      const kids = childrenOf(s.pid() ?? -1);
      return h.worker?.up && h.worker.restarts >= restarts && kids.length === 1 ? kids[0] : undefined;
    });

  beforeAll(async () => {
    // A short lease: a run whose child was killed continues within seconds. The server's log
    // (kept in s.log, not printed) says which process started the run worker.
    s = await startServer({ RUN_IN: "process", OFFLINE_STREAM_WORD_MS: "80", RUN_LEASE_TTL_MS: "2000", LOG_LEVEL: "info" });
    const [a, , c] = s.users;
    if (!a || !c) throw new Error("users missing");
    flowId = a.flowId;
    alice = await signIn(s.url, a.email, a.password);
    carol = await signIn(s.url, c.email, c.password);
  }, 120_000);
  afterAll(async () => {
    await s?.stop();
  });

  async function newThread(task: string): Promise<string> {
    const created = await alice.post("/api/threads", { flowId, task });
    expect(created.status).toBe(201);
    return ((await created.json()) as { threadId: string }).threadId;
  }

  it("health says the child is up; the run worker runs in the child, not in the web process, at a lower priority", async () => {
    const child = await childUp();
    expect(await health()).toEqual({ ok: true, worker: { up: true, restarts: 0 } });
    expect(niceOf(child)).toBe(Math.min(19, niceOf(s.pid() ?? -1) + 5));
    const started = s.log
      .join("")
      .split("\n")
      .filter((l) => l.includes('"msg":"run worker started"'))
      .map((l) => (JSON.parse(l) as { pid: number }).pid);
    expect(started).toEqual([child]);
  }, 90_000);

  it("a whole run goes through the child: the approval is streamed and reaches the inbox live, an approver's decision resumes it, the tool runs once", async () => {
    // Carol's inbox listens before the run: the child's approval notices reach it over IPC.
    const inbox = await carol.fetch("/api/approvals/events");
    expect(inbox.status).toBe(200);
    const changes = inboxChanges(inbox);
    const { threadId, approval } = await startRun(alice, flowId);
    await changes.until((e) => e.approvalId === approval.approvalId && e.type === "approval.created");
    const res = await carol.post(`/api/threads/${threadId}/stream`, {
      input: { kind: "decision", decision: "approve", approvalId: approval.approvalId, token: approval.token, argsHash: approval.argsHash },
    });
    expect(res.status).toBe(200);
    const chunks = await readStream(res);
    expect(lastPart(chunks, "data-run")?.status).toBe("completed");
    expect(existsSync(`${s.workspacesDir}/${threadId}/summary.md`)).toBe(true);
    // Consumed by the child's tool call, and the inbox was told.
    await changes.until((e) => e.approvalId === approval.approvalId && e.type === "approval.consumed");
    await changes.close();
  }, 90_000);

  it("the answer the child writes reaches the starter and a follower in the web process word by word, not only once stored", async () => {
    const threadId = await newThread("hello");
    const res = await alice.post(`/api/threads/${threadId}/stream`, { input: { kind: "message", text: "hello" } });
    expect(res.status).toBe(200);
    let pieces = 0;
    const { head, rest } = await readUntil(res, (c) => c.type === "text-delta" && ++pieces === 2);
    const follow = await carol.fetch(`/api/threads/${threadId}/stream?runId=${res.headers.get("x-run-id")}`);
    const [onA, onB] = await Promise.all([rest().then((r) => [...head, ...r]), readStream(follow)]);
    expect(lastPart(onA, "data-run")?.status).toBe("completed");
    const a = deltasOf(onA);
    const b = deltasOf(onB);
    // Many pieces, not the stored text in one.
    expect(a.length).toBeGreaterThan(3);
    expect(b.length).toBeGreaterThan(3);
    expect(b.join("")).toBe(a.join(""));
    expect(a.join("").length).toBeGreaterThan(50);
  }, 90_000);

  it("a child SIGKILLed mid-run is forked again, and the run it held continues to its end", async () => {
    const first = await childUp();
    const threadId = await newThread("hello");
    const res = await alice.post(`/api/threads/${threadId}/stream`, { input: { kind: "message", text: "hello" } });
    expect(res.status).toBe(200);
    const { head, rest } = await readUntil(res, (c) => c.type === "text-delta");
    expect(head.some((c) => c.type === "text-delta")).toBe(true);
    process.kill(first, "SIGKILL");
    const second = await childUp(1);
    expect(second).not.toBe(first);
    // The same response follows the thread through the restart: the recovered run ends it.
    const tail = await rest();
    expect(lastPart(tail, "data-run")?.status).toBe("completed");
    const h = await health();
    expect(h.worker?.up).toBe(true);
    expect(h.worker?.restarts).toBeGreaterThanOrEqual(1);
    expect(s.log.join("")).toContain("the worker child died: restarting it");
  }, 120_000);

  it("SIGTERM stops the child, then the web process: no process is left", async () => {
    const child = await childUp();
    const server = s.pid();
    if (!server) throw new Error("no server pid");
    process.kill(server, "SIGTERM");
    await until("the web process to exit", () => (!alive(server) ? true : undefined), 30_000);
    // The child stopped first: it was gone before its parent was.
    expect(alive(child)).toBe(false);
    expect(s.log.join("")).toContain("stopping: the worker child finishes its runs first");
  }, 60_000);
});
