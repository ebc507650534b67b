import { existsSync } from "node:fs";
import path from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client as HttpClient, signIn } from "../http/client";
import { TASK } from "../http/runs";
import { startServer, type TestServer } from "../http/server";

/**
 * Runs through the official @langchain/langgraph-sdk client against the built app
 * (docs/langgraph-api.md#runs): stream modes, an approval as a HumanInterrupt, each
 * HumanResponse, wait, join, cancel, and the refusals that keep every approval factor.
 */

type Chunk = { event: string; data: unknown; id?: string };
type Interrupt = { id: string; value: { action_request: { action: string; args: Record<string, unknown>; approval: { id: string; token?: string; args_hash: string } }; config: Record<string, boolean>; description: string }[] };

async function collect(stream: AsyncIterable<Chunk>): Promise<Chunk[]> {
  const out: Chunk[] = [];
  for await (const c of stream) out.push(c);
  return out;
}

describe("LangGraph SDK: runs", () => {
  let s: TestServer;
  let http: HttpClient;
  let sdk: Client;
  let flowId: string;

  /** A cookie header for a signed-in user (the SDK sends it as a default header). */
  async function sdkFor(email: string, password: string): Promise<{ http: HttpClient; sdk: Client }> {
    const c = await signIn(s.url, email, password);
    return { http: c, sdk: new Client({ apiUrl: `${s.url}/api/langgraph`, defaultHeaders: { cookie: c.cookie() } }) };
  }

  beforeAll(async () => {
    s = await startServer();
    const [a] = s.users;
    if (!a) throw new Error("users");
    flowId = a.flowId;
    ({ http, sdk } = await sdkFor(a.email, a.password));
  });
  afterAll(async () => s?.stop());

  async function threadToApproval(): Promise<{ threadId: string; chunks: Chunk[] }> {
    const created = await http.post("/api/threads", { flowId, task: TASK });
    const { threadId } = (await created.json()) as { threadId: string };
    const chunks = await collect(
      sdk.runs.stream(threadId, flowId, { input: { messages: [{ role: "user", content: TASK }] }, streamMode: ["values", "updates", "messages-tuple", "custom"] }) as AsyncIterable<Chunk>,
    );
    return { threadId, chunks };
  }

  it("streams a run to its approval in every mode, ending with the HumanInterrupt", async () => {
    const { threadId, chunks } = await threadToApproval();
    const events = chunks.map((c) => c.event);
    expect(events[0]).toBe("metadata");
    expect(events).toContain("custom");
    expect(events).toContain("values");
    expect(events).toContain("updates");
    const interrupt = chunks.find((c) => c.event === "updates" && (c.data as Record<string, unknown>).__interrupt__);
    const [first] = (interrupt?.data as { __interrupt__: Interrupt[] }).__interrupt__;
    expect(first?.value[0]?.action_request.action).toBe("write_file");
    expect(first?.value[0]?.action_request.approval.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first?.value[0]?.config).toEqual({ allow_accept: true, allow_respond: true, allow_edit: true, allow_ignore: true });
    const runs = await sdk.runs.list(threadId);
    expect(runs[0]?.status).toBe("interrupted");
    expect(existsSync(path.join(s.workspacesDir, threadId, "summary.md"))).toBe(false);
  });
});
