import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blankFlow } from "../../templates/blank";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import type { FlowDocument } from "../../lib/flow/schema";
import { type Client, lastPart, readStream, signIn } from "./client";
import { startServer, type TestServer } from "./server";

/**
 * Creating flows over HTTP: a new flow (blank or from a template) takes the name and the
 * description the user gave, not the template's; the Blank flow cannot run until it has an
 * Agent, and says so in words; with an Agent and a tool it runs with the offline model.
 */

type Version = { document: FlowDocument };
const error = async (res: Response) => ((await res.json()) as { error: { reason: string; message: string } }).error;

describe("new flows over HTTP", () => {
  let s: TestServer;
  let alice: Client;

  beforeAll(async () => {
    s = await startServer();
    const [a] = s.users;
    if (!a) throw new Error("users");
    alice = await signIn(s.url, a.email, a.password);
  }, 120_000);
  afterAll(async () => s?.stop());

  async function create(body: Record<string, unknown>): Promise<string> {
    const res = await alice.post("/api/flows", body);
    expect(res.status).toBe(201);
    return ((await res.json()) as { flowId: string }).flowId;
  }
  async function latest(flowId: string): Promise<FlowDocument> {
    const res = await alice.fetch(`/api/flows/${flowId}/versions/1`);
    expect(res.status).toBe(200);
    return ((await res.json()) as Version).document;
  }

  it("a copy of a template keeps the name and description the user gave, not the template's", async () => {
    const flowId = await create({ template: "workspace-assistant", name: "  Release helper ", description: "Reads the release notes for the team." });
    const doc = await latest(flowId);
    expect(doc.settings.name).toBe("Release helper");
    expect(doc.settings.description).toBe("Reads the release notes for the team.");
    expect(doc.nodes).toEqual(workspaceAssistant.nodes);
    // An empty description given on purpose stays empty.
    const plain = await latest(await create({ template: "workspace-assistant", name: "Plain", description: "" }));
    expect(plain.settings.description).toBe("");
  });

  it("refuses a blank name and an unknown template, naming the field", async () => {
    const blank = await alice.post("/api/flows", { template: "blank", name: "   " });
    expect(blank.status).toBe(422);
    expect((await error(blank)).message).toContain("give the flow a name");
    const unknown = await alice.post("/api/flows", { template: "nope", name: "X" });
    expect(unknown.status).toBe(422);
    expect((await error(unknown)).message).toContain("blank");
  });

  it("a viewer cannot put a flow into the shared workspace (403); without a pick it goes into a new workspace of their own, named in the answer", async () => {
    const viewer = s.users[3];
    if (!viewer) throw new Error("users");
    const victor = await signIn(s.url, viewer.email, viewer.password);
    const shared = ((await (await alice.fetch("/api/workspaces")).json()) as { workspaces: { id: string }[] }).workspaces[0]?.id;
    const refused = await victor.post("/api/flows", { template: "blank", name: "Mine", workspaceId: shared });
    expect(refused.status).toBe(403);
    expect((await error(refused)).reason).toBe("role_forbidden");
    const created = await victor.post("/api/flows", { template: "blank", name: "Mine" });
    expect(created.status).toBe(201);
    const body = (await created.json()) as { flowId: string; workspaceId: string; workspaceName: string };
    expect(body.workspaceId).not.toBe(shared);
    expect(body.workspaceName).toBe(`${viewer.email}'s workspace`);
    // A Blank flow's first version says so; a template's says it came from one.
    const v1 = (await (await victor.fetch(`/api/flows/${body.flowId}/versions/1`)).json()) as { message: string };
    expect(v1.message).toBe("Blank flow");
    const copy = await create({ template: "workspace-assistant", name: "Copy" });
    expect(((await (await alice.fetch(`/api/flows/${copy}/versions/1`)).json()) as { message: string }).message).toBe("From template");
  });

  it("the Blank flow cannot run without an Agent and says how to fix it; with one it runs to completion", async () => {
    const flowId = await create({ template: "blank", name: "From scratch", description: "Lists the files." });
    const doc = await latest(flowId);
    expect(doc.settings).toMatchObject({ name: "From scratch", description: "Lists the files." });
    expect(doc.nodes.map((n) => n.id)).toEqual(blankFlow.nodes.map((n) => n.id));

    const refused = await alice.post("/api/threads", { flowId, task: "List the files in the workspace" });
    expect(refused.status).toBe(422);
    expect((await error(refused)).message).toContain("Add an Agent from the palette and connect the Supervisor to it");

    const pos = { x: 0, y: 0 };
    const withAgent: FlowDocument = {
      ...doc,
      nodes: [
        ...doc.nodes,
        { id: "agent-1", type: "agent", position: pos, data: { name: "Lister", role: "step_executor", instructions: "", model: "", maxTries: 3, icon: "folder", color: "#2f7d5b" } },
        { id: "tool-1", type: "tool", position: pos, data: { tool: "list_files" } },
      ],
      edges: [...doc.edges, { id: "e-a", source: "supervisor", target: "agent-1" }, { id: "e-t", source: "agent-1", target: "tool-1" }],
    };
    const saved = await alice.post(`/api/flows/${flowId}/versions`, { document: withAgent, message: "Add an agent" });
    expect(saved.status).toBe(201);

    const task = "List the files in the workspace";
    const created = await alice.post("/api/threads", { flowId, task });
    expect(created.status).toBe(201);
    const { threadId } = (await created.json()) as { threadId: string };
    const res = await alice.post(`/api/threads/${threadId}/stream`, { input: { kind: "message", text: task } });
    expect(res.status).toBe(200);
    const chunks = await readStream(res);
    expect(lastPart(chunks, "data-run")?.status).toBe("completed");
    const text = chunks
      .filter((c) => c.type === "text-delta")
      .map((c) => c.delta ?? "")
      .join("");
    expect(text).toContain("notes.md");
  });
});
