import { createHash, randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { createDb } from "../../lib/db/client";
import type { Client } from "../http/client";
import { startRun } from "../http/runs";
import type { TestServer } from "../http/server";
import { ATTACKS, type Attack, type AttackRequest, type Attacker, ID_SLOTS, NOT_ATTACKED, PAGES, type TenantIds } from "./attack-table";
import { diffSnapshots, type Snapshot, snapshot } from "./db-snapshot";
import { apiRoutes, dynamicPages } from "./route-files";

/**
 * Fixtures of the security suite (docs/security.md "Threat model", "Roles and powers"): a
 * tenant's things to attack, a sender that reads any answer as text, and the checks run
 * after each attack (nothing changed, nothing leaked).
 */

/** A tenant's things plus what the leak check looks for. */
export interface Tenant extends TenantIds {
  /** A random string planted in the tenant's fact, blob, MCP server and files. */
  marker: string;
}

/** An answer as text (SSE answers: what arrived before the client hung up). */
export interface Answer {
  status: number;
  text: string;
}

/** A client with no session cookie. */
export function signedOut(base: string): Client {
  const client: Client = {
    fetch: (p, init = {}) => fetch(`${base}${p}`, { ...init, redirect: "manual" }),
    post: (p, body) => client.fetch(p, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    cookie: () => "",
    origin: base,
  };
  return client;
}

/**
 * A client that adds `headers` to every request of `c` (an API key, an `Origin`); they win
 * over the request's own headers of the same name.
 */
export function withHeaders(c: Client, headers: Record<string, string>): Client {
  const client: Client = {
    fetch: (p, init = {}) => c.fetch(p, { ...init, headers: { ...((init.headers as Record<string, string> | undefined) ?? {}), ...headers } }),
    post: (p, body) => client.fetch(p, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    cookie: () => c.cookie(),
    ...(c.origin ? { origin: c.origin } : {}),
  };
  return client;
}

/** A multipart body with one `file` part, as the app's page sends an upload (with the app's `Origin`). */
function uploadForm(file: { name: string; text: string }): FormData {
  const form = new FormData();
  form.append("file", new Blob([file.text]), file.name);
  return form;
}

/**
 * Sends one attack request and reads the whole answer (an event stream for at most
 * `sseMs` ms, then the client hangs up).
 */
export async function send(c: Client, attack: Pick<Attack, "method" | "sse">, req: AttackRequest, sseMs = 800): Promise<Answer> {
  const ctrl = new AbortController();
  const hasBody = attack.method !== "GET" && attack.method !== "DELETE";
  const res = await c.fetch(req.path, {
    method: attack.method,
    signal: ctrl.signal,
    ...(hasBody && req.upload ? { headers: { origin: c.origin ?? "" }, body: uploadForm(req.upload) } : {}),
    ...(hasBody && !req.upload ? { headers: { "content-type": "application/json" }, body: JSON.stringify(req.body ?? {}) } : {}),
  });
  if (!attack.sse || res.status !== 200 || !res.body) return { status: res.status, text: await res.text() };
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const deadline = Date.now() + sseMs;
  while (Date.now() < deadline) {
    const next = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), Math.max(1, deadline - Date.now())))]);
    if (!next || next.done) break;
    text += decoder.decode(next.value, { stream: true });
  }
  ctrl.abort();
  await reader.cancel().catch(() => undefined);
  return { status: res.status, text };
}

/** The id slots a request reads (so that mixed-id variants know what to swap). */
export function slotsOf(attack: Attack, attacker: Attacker): (keyof TenantIds)[] {
  const used = new Set<keyof TenantIds>();
  const probe = new Proxy({} as TenantIds, {
    get: (_t, k) => {
      used.add(k as keyof TenantIds);
      return `probe-${String(k)}`;
    },
  });
  attack.request(probe, attacker);
  return ID_SLOTS.filter((s) => used.has(s));
}

/**
 * The victim's secrets found in an answer: its marker, and any of its ids or its token
 * that the request itself did not carry (an error may echo what was sent).
 */
export function leaks(answer: Answer, victim: Tenant, req: AttackRequest): string[] {
  const sent = JSON.stringify(req);
  const secrets = [victim.marker, ...ID_SLOTS.map((s) => victim[s])];
  return secrets.filter((s) => s.length >= 6 && !sent.includes(s) && answer.text.includes(s));
}

/** Reads a server's state (all of it, or one workspace's) from its files. */
export function stateOf(s: TestServer, workspaceId?: string): Promise<Snapshot> {
  return snapshot(s.dbUrl, s.workspacesDir, workspaceId);
}

/** Asserts that nothing changed between a snapshot and now. */
export async function expectUnchanged(s: TestServer, before: Snapshot, workspaceId?: string): Promise<void> {
  expect(diffSnapshots(before, await stateOf(s, workspaceId))).toEqual([]);
}

/**
 * Why the attack table does not cover the app: a route method or page with no attack, or
 * an attack on a route that no longer exists. Empty when every route is covered.
 */
export function coverageGaps(): string[] {
  const gaps: string[] = [];
  const routes = apiRoutes();
  for (const r of routes) {
    if (NOT_ATTACKED[r.pattern]) continue;
    for (const m of r.methods) {
      if (!ATTACKS.some((a) => a.route === r.pattern && a.method === m)) {
        gaps.push(`${m} ${r.pattern} (${r.file}) has no attack: add one to tests/security/attack-table.ts ATTACKS, saying how to fill its ids and which role it needs.`);
      }
    }
  }
  for (const a of ATTACKS) {
    if (!routes.some((r) => r.pattern === a.route && r.methods.includes(a.method))) gaps.push(`${a.method} ${a.route} no longer exists: remove its attack from tests/security/attack-table.ts.`);
  }
  for (const p of dynamicPages()) {
    if (!PAGES[p]) gaps.push(`page ${p} takes an id: add it to tests/security/attack-table.ts PAGES.`);
  }
  return gaps;
}

/**
 * Creates a tenant's things to attack: a thread waiting on an approval (with checkpoints
 * and a workspace), an evicted tool output, a proposed fact, an MCP server, a webhook with
 * one delivery, a pending invitation and a secret file, each carrying a random marker.
 * @param user the tenant's owner as startServer made it; `client` is signed in as them.
 * @param memberUserId a member of the workspace other than the owner (or the owner).
 */
export async function seedTenant(s: TestServer, client: Client, user: { id: string; flowId: string }, memberUserId: string): Promise<Tenant> {
  const marker = `secret-${randomBytes(6).toString("hex")}`;
  const { threadId, approval } = await startRun(client, user.flowId);
  const cps = await client.fetch(`/api/threads/${threadId}/checkpoints`);
  expect(cps.status).toBe(200);
  const checkpointId = ((await cps.json()) as { checkpoints: { checkpointId: string }[] }).checkpoints[0]?.checkpointId ?? "";
  const db = createDb(s.dbUrl);
  try {
    const { workspaceId } = await db.flow.findUniqueOrThrow({ where: { id: user.flowId }, select: { workspaceId: true } });
    const blobId = `blob_${randomBytes(8).toString("hex")}`;
    const content = `An evicted read of ${marker}.`;
    await db.evictedBlob.create({ data: { id: blobId, threadId, toolName: "read_file", toolCallId: "call_seed", sizeChars: content.length, content } });
    const fact = `The vault code is ${marker}.`;
    const { id: factId } = await db.memoryFact.create({
      data: { workspaceId, content: fact, contentHash: createHash("sha256").update(fact).digest("hex"), origin: "remember", status: "proposed", sourceThreadId: threadId },
    });
    const { id: mcpServerId } = await db.mcpServer.create({
      data: { workspaceId, name: `srv_${marker.slice(7)}`, transport: "http", url: `https://${marker}.example.com/mcp`, createdById: user.id },
    });
    // Disabled and already delivered: no event or sender changes them while attacks run.
    const { id: webhookId } = await db.webhookEndpoint.create({
      data: { workspaceId, url: `https://${marker}.example.com/hook`, events: '["approval.required"]', secret: "not-a-sealed-secret", enabled: false, createdById: user.id },
    });
    const { id: deliveryId } = await db.webhookDelivery.create({
      data: {
        endpointId: webhookId,
        event: "approval.required",
        eventKey: `approval.required:${approval.approvalId}`,
        payload: JSON.stringify({ id: `evt_${marker}` }),
        status: "succeeded",
        attempts: 1,
      },
    });
    // A secret every tenant has under the same name, so that the attack table can name it.
    await db.workspaceSecret.create({ data: { workspaceId, name: "SEEDED_TOKEN", sealedValue: "not-a-sealed-value", hosts: '["api.example.com"]', createdById: user.id } });
    const { id: invitationId } = await db.invitation.create({ data: { workspaceId, email: `${marker}@test.dev`, role: "owner", invitedById: user.id } });
    const { id: apiKeyId } = await db.apiKey.create({
      data: { userId: user.id, name: `key ${marker}`, prefix: "phy_seeded00", hash: createHash("sha256").update(`phy_${marker}`).digest("hex"), workspaceId },
    });
    writeFileSync(path.join(s.workspacesDir, threadId, "secret.md"), `${marker}\n`);
    const { token, argsHash } = approval;
    const { id: runId } = await db.run.findFirstOrThrow({ where: { threadId }, orderBy: { startedAt: "desc" }, select: { id: true } });
    return {
      marker,
      workspaceId,
      flowId: user.flowId,
      threadId,
      checkpointId,
      blobId,
      approvalId: approval.approvalId,
      token,
      argsHash,
      factId,
      mcpServerId,
      webhookId,
      deliveryId,
      memberUserId,
      invitationId,
      apiKeyId,
      runId,
    };
  } finally {
    await db.$disconnect();
  }
}

/** A new proposed fact in a workspace (for attacks that use one up). */
export async function freshFact(s: TestServer, workspaceId: string): Promise<string> {
  const db = createDb(s.dbUrl);
  try {
    const content = `A proposed fact ${randomBytes(6).toString("hex")}.`;
    const row = await db.memoryFact.create({ data: { workspaceId, content, contentHash: createHash("sha256").update(content).digest("hex"), origin: "remember", status: "proposed" } });
    return row.id;
  } finally {
    await db.$disconnect();
  }
}
